/**
 * The pipeline's environment (SPEC §3, §9): an allowlist, never the job's environment.
 * The pipeline is the PR's own code running on a self-hosted runner, so a variable reaches it
 * only when it is a harmless basic (PATH, HOME, …), named by the user in `pipeline.env`, or
 * part of the contract. Secrets never pass, even when the user lists them.
 */
import type { Log } from '../util/log.js';

/** Basics every program expects; nothing secret lives in these. */
export const BASE_ENV_NAMES = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'TERM', 'USER'] as const;

/** Exact names of the job's credentials. */
const SECRET_NAMES = new Set(['GITHUB_TOKEN', 'GH_TOKEN', 'RUNNER_TOKEN']);
/** Prefixes of the runner's own variables (ACTIONS_RUNTIME_TOKEN, …) and of action inputs (INPUT_GITHUB-TOKEN, …). */
const SECRET_PREFIXES = ['ACTIONS_', 'INPUT_'];
/** Anything that looks like a credential by its name. */
const SECRET_PATTERN = /TOKEN|SECRET|PASSWORD|_KEY$/i;

/**
 * True for names whose host value must never reach the pipeline. OPENAI_API_KEY is one of them:
 * the pipeline gets saboteur's per-invocation token under that name (set by the contract, not
 * copied from the host), never the host's real key.
 */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (SECRET_NAMES.has(upper)) return true;
  if (SECRET_PREFIXES.some((p) => upper.startsWith(p))) return true;
  return SECRET_PATTERN.test(name);
}

export interface PassThroughPlan {
  /** Names copied from the host environment when set there. */
  names: string[];
  /** Names listed in `pipeline.env` that were refused as secrets. */
  droppedSecrets: string[];
}

/**
 * Which host variables pass: the basics plus the names the user listed, minus secrets.
 * Decided once per run, so the warning about a listed secret is given once.
 */
export function planPassThrough(listed: readonly string[]): PassThroughPlan {
  const names: string[] = [];
  const droppedSecrets: string[] = [];
  for (const name of [...BASE_ENV_NAMES, ...listed]) {
    if (names.includes(name) || droppedSecrets.includes(name)) continue;
    if (isSecretName(name)) droppedSecrets.push(name);
    else names.push(name);
  }
  return { names, droppedSecrets };
}

/** Copies the planned names that are set in the host environment. */
export function passThroughEnv(plan: PassThroughPlan, hostEnv: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of plan.names) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Warns once per listed secret; the names that pass are fixed for the whole run. */
export function allowlistedBaseEnv(pipeline: { env: readonly string[] }, opts: { log: Log; hostEnv?: NodeJS.ProcessEnv }): Record<string, string> {
  const plan = planPassThrough(pipeline.env);
  for (const name of plan.droppedSecrets) {
    opts.log.warn(
      name === 'OPENAI_API_KEY'
        ? 'pipeline.env lists OPENAI_API_KEY: the host\'s key is not passed; the pipeline gets saboteur\'s per-invocation token under that name'
        : `pipeline.env lists ${name}, which looks like a secret: it is not passed to the pipeline (its environment is an allowlist)`,
    );
  }
  return passThroughEnv(plan, opts.hostEnv ?? process.env);
}

/** Variables that are the same for every task of a run (given to a long-lived http service too). */
export interface SharedContract {
  proxyBaseUrl?: string;
  model?: string;
  otlpEndpoint?: string;
}

/** Variables that name one invocation: its task, its token, its variant. */
export interface TaskContract extends SharedContract {
  proxyBaseUrl: string;
  model: string;
  apiKey: string;
  taskFile: string;
  outputFile: string;
  variant: string;
  maliciousAgent?: string;
  mcpUrl?: string;
}

export function sharedContractEnv(c: SharedContract): Record<string, string> {
  const env: Record<string, string> = {};
  if (c.proxyBaseUrl !== undefined) {
    env.OPENAI_BASE_URL = c.proxyBaseUrl;
    // Older openai clients and LangChain read OPENAI_API_BASE.
    env.OPENAI_API_BASE = c.proxyBaseUrl;
  }
  if (c.model !== undefined) env.SABOTEUR_MODEL = c.model;
  if (c.otlpEndpoint !== undefined) {
    env.OTEL_EXPORTER_OTLP_ENDPOINT = c.otlpEndpoint;
    // Spans must reach saboteur before the staged call they explain: the default batch delay is 5 s.
    env.OTEL_BSP_SCHEDULE_DELAY = '200';
  }
  return env;
}

export function taskContractEnv(c: TaskContract): Record<string, string> {
  const env: Record<string, string> = {
    ...sharedContractEnv(c),
    OPENAI_API_KEY: c.apiKey,
    SABOTEUR_TASK_FILE: c.taskFile,
    SABOTEUR_OUTPUT_FILE: c.outputFile,
    SABOTEUR_VARIANT: c.variant,
  };
  // Only the malicious variant names its target: a control run must look like a plain run.
  if (c.variant === 'malicious' && c.maliciousAgent !== undefined) env.SABOTEUR_MALICIOUS_AGENT = c.maliciousAgent;
  if (c.mcpUrl !== undefined) env.SABOTEUR_MCP_URL = c.mcpUrl;
  return env;
}
