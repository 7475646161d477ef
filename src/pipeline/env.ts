/**
 * The pipeline's environment (docs/pipeline-contract.md, "The pipeline contract", "Security"): an allowlist, never
 * the job's environment. The pipeline is the PR's own code running on a self-hosted runner, so a
 * variable reaches it only when it is a harmless basic (PATH, HOME, …), named by the user in
 * `pipeline.env`, or part of the contract. Secret-looking names and values never pass that way;
 * a secret the pipeline needs is opted into by name in `pipeline.secrets`, and the job's own
 * credentials (GITHUB_TOKEN, INPUT_*, ACTIONS_*) never pass at all.
 */
import type { Log } from '../util/log.js';
import { secretValueKind } from '../util/secrets.js';

/** Basics every program expects; nothing secret lives in these. */
export const BASE_ENV_NAMES = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'TERM', 'USER'] as const;

/** Exact names of the job's credentials. */
const SECRET_NAMES = new Set(['GITHUB_TOKEN', 'GH_TOKEN', 'RUNNER_TOKEN']);
/** Prefixes of the runner's own variables (ACTIONS_RUNTIME_TOKEN, …) and of action inputs (INPUT_GITHUB-TOKEN, …). */
const SECRET_PREFIXES = ['ACTIONS_', 'INPUT_'];

/**
 * The secret-name rule (docs/security.md, "Security"): credentials by the words their names use. Tokens,
 * secrets, passwords and passphrases (PASS as a word: DB_PASS), keys and key ids (API_KEY,
 * AWS_ACCESS_KEY_ID, SSH_KEY), private keys and certificates' keys (PEM, PRIVATE), credentials
 * and auth of any kind (NPM_AUTH, SSH_AUTH_SOCK, GOOGLE_APPLICATION_CREDENTIALS), cookies and
 * sessions, signing material, and connection URLs that carry a password by convention
 * (DATABASE_URL, REDIS_URL, *_DSN).
 */
const SECRET_NAME_PATTERNS: RegExp[] = [
  /TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|COOKIE|PRIVATE|SESSION|SIGNING|BEARER|JWT|SALT/i,
  /(^|_)PASS($|_)|_PWD$|(^|_)PW($|_)/i,
  /AUTH(?!OR)/i,
  /(^|_)KEYS?($|_ID$|_(PEM|DATA|MATERIAL|B64|BASE64|JSON|FILE)$)|APIKEY|API_KEY|ACCESS_?KEY|KEY_?ID$|(^|_)PEM($|_)|(^|_)P12($|_)|PFX/i,
  // git config given through the environment: an extraheader with basic auth travels this way.
  /^GIT_CONFIG_(KEY|VALUE|COUNT|PARAMETERS)/i,
  /(^|_)(DATABASE|DB|REDIS|MONGO|MONGODB|POSTGRES|POSTGRESQL|PG|MYSQL|MARIADB|AMQP|RABBITMQ|BROKER|CELERY_BROKER|CONNECTION|CONN)_(URL|URI|STRING)$|(^|_)DSN$/i,
];

/**
 * True for names whose host value must never reach the pipeline unasked. OPENAI_API_KEY is one
 * of them: the pipeline gets saboteur's per-invocation token under that name (set by the
 * contract, not copied from the host), never the host's real key.
 */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (isForbiddenName(upper)) return true;
  return SECRET_NAME_PATTERNS.some((p) => p.test(name));
}

/** Names that never reach the pipeline, not even through `pipeline.secrets`: the job's and saboteur's own. */
export function isForbiddenName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAMES.has(upper) || upper === 'OPENAI_API_KEY' || SECRET_PREFIXES.some((p) => upper.startsWith(p));
}

/** What makes a value a credential whatever its name (src/util/secrets.ts). */
export { secretValueKind };

export interface PassThroughPlan {
  /** Names copied from the host environment when set there. */
  names: string[];
  /** Names listed in `pipeline.env` that were refused as secrets. */
  droppedSecrets: string[];
  /** Names listed in `pipeline.secrets`: passed on purpose, whatever their names or values look like. */
  optedIn: string[];
}

/**
 * Which host variables pass: the basics plus the names the user listed, minus secrets, plus the
 * secrets the user opted into. Decided once per run, so each warning is given once.
 */
export function planPassThrough(listed: readonly string[], secrets: readonly string[] = []): PassThroughPlan {
  const names: string[] = [];
  const droppedSecrets: string[] = [];
  const optedIn: string[] = [];
  for (const name of secrets) {
    if (isForbiddenName(name) || optedIn.includes(name)) continue;
    optedIn.push(name);
  }
  for (const name of [...BASE_ENV_NAMES, ...listed]) {
    if (names.includes(name) || droppedSecrets.includes(name) || optedIn.includes(name)) continue;
    if (isSecretName(name)) droppedSecrets.push(name);
    else names.push(name);
  }
  return { names, droppedSecrets, optedIn };
}

/**
 * Copies the planned names that are set in the host environment. A value that looks like a
 * credential is held back unless its name was opted in; `held` gets the reason for each.
 */
function passThroughEnv(
  plan: PassThroughPlan,
  hostEnv: NodeJS.ProcessEnv,
  held: { name: string; why: string }[] = [],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of plan.names) {
    const value = hostEnv[name];
    if (value === undefined) continue;
    const kind = secretValueKind(value);
    if (kind) held.push({ name, why: kind });
    else env[name] = value;
  }
  for (const name of plan.optedIn) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Warns once per refused name; the names that pass are fixed for the whole run. */
export function allowlistedBaseEnv(
  pipeline: { env: readonly string[]; secrets?: readonly string[] },
  opts: { log: Log; hostEnv?: NodeJS.ProcessEnv },
): Record<string, string> {
  const hostEnv = opts.hostEnv ?? process.env;
  const plan = planPassThrough(pipeline.env, pipeline.secrets ?? []);
  for (const name of plan.droppedSecrets) {
    opts.log.warn(
      name === 'OPENAI_API_KEY'
        ? "pipeline.env lists OPENAI_API_KEY: the host's key is not passed; the pipeline gets saboteur's per-invocation token under that name"
        : isForbiddenName(name)
          ? `pipeline.env lists ${name}, the job's own credential: it never reaches the pipeline`
          : `pipeline.env lists ${name}, which looks like a secret: it is not passed to the pipeline; list it under pipeline.secrets if the pipeline needs it`,
    );
  }
  const held: { name: string; why: string }[] = [];
  const env = passThroughEnv(plan, hostEnv, held);
  for (const h of held)
    opts.log.warn(
      `${h.name} holds what looks like ${h.why}: it is not passed to the pipeline; list it under pipeline.secrets if the pipeline needs it`,
    );
  for (const name of plan.optedIn) {
    if (hostEnv[name] === undefined) opts.log.warn(`pipeline.secrets lists ${name}, which is not set: the pipeline does not get it`);
    else opts.log.info(`pipeline.secrets: ${name} is passed to the pipeline`);
  }
  return env;
}

/** HOME and TMPDIR of a run: inside its own folder (`dir`), whatever the fence. */
export function privateHomeEnv(dir: string): Record<string, string> {
  return { HOME: `${dir}/home`, TMPDIR: `${dir}/tmp` };
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
