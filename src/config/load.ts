/**
 * Reads `saboteur.yml` once, validates it with zod and returns the camelCase `Config`.
 * Relative paths in the file resolve against the file's own folder, so a config works
 * whatever directory the CLI is started from.
 */
import type { DefenseMode } from '../tools/types.js';
import { LIMITS, readInputText } from '../util/input-file.js';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import { configFileSchema, configSchemaFor, type ConfigFile } from './schema.js';
import { exampleFor, keyExamples, KEY_EXAMPLES } from './examples.js';
import { BUILT_IN, type Registries } from './registries.js';
import type { BenchmarkId, BenchmarkSettings } from '../benchmarks/registry.js';
import { MODEL_SERVERS } from '../model/registry.js';
import type { ModelSettings } from '../model/settings.js';
import { isForbiddenName } from '../pipeline/env.js';
import type { PipelineConfig } from '../pipeline/types.js';
import type { HistorySettings } from '../history/open.js';
import { INJECTION_METHODS, type MaliciousVariantSettings } from '../inject/registry.js';
import { DEFAULT_COVERAGE_MAX_LOSS } from '../scoring/coverage.js';
import type { GateSettings } from '../scoring/gate.js';

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type { BenchmarkId };

export interface Config {
  file: string;
  dir: string;
  /** sha256 of the file's bytes: two runs are comparable only under the same config hash. */
  hash: string;
  model: ModelSettings;
  pipeline: PipelineConfig;
  /** Each registered benchmark the file names, with its settings as the benchmark's `configure` made them. */
  benchmarks: { [K in BenchmarkId]?: BenchmarkSettings<K> } & Record<string, object | undefined>;
  sample: { seed: number };
  variants: { malicious: MaliciousVariantSettings };
  /** Registered defense names, in the order the file lists them. */
  defenses: string[];
  policy?: string;
  /** enforce: a blocked sink returns a policy error to the agent; observe: it runs and the decision is recorded. */
  defenseMode: DefenseMode;
  /** LLM intent annotation for the taint validator (prompts/taint-intent.md), cached per text. */
  taintAnnotate: boolean;
  gate: GateSettings;
  history: HistorySettings;
  /** The graders' judge; absent: the served model judges. */
  judge?: { model?: string; baseUrl?: string; apiKeyEnv?: string };
}

function formatIssue(file: string, issue: z.core.$ZodIssue, examples: Record<string, string>): string {
  const key = issue.path.length ? issue.path.join('.') : '(top level)';
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    message = `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (check the spelling)`;
  } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    message = 'is required';
  }
  const example = exampleFor(issue.path as (string | number)[], examples);
  const indented = example
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
  return `${file}: ${key}: ${message}\n  a valid example:\n${indented}`;
}

/** Checks that depend on several keys at once (which model kind needs which key, and so on). */
function crossChecks(doc: ConfigFile): { path: string[]; message: string }[] {
  const problems: { path: string[]; message: string }[] = [];
  const m = doc.model;
  for (const need of MODEL_SERVERS[m.kind].requires) {
    if (!m[need.key]) problems.push({ path: ['model', need.key], message: need.message });
  }
  if (m.record && m.kind === 'replay')
    problems.push({ path: ['model', 'record'], message: 'record: true records a live model; replay only plays a cassette back' });
  if (m.record && !m.cassette) problems.push({ path: ['model', 'cassette'], message: 'record: true needs the cassette path to write' });
  const p = doc.pipeline;
  if (p.mode === 'process' && !p.run)
    problems.push({ path: ['pipeline', 'run'], message: 'pipeline mode process needs run (the command started per task)' });
  if (p.mode === 'http' && !p.url)
    problems.push({ path: ['pipeline', 'url'], message: 'pipeline mode http needs url (where each task is POSTed)' });
  // {port}: one service per variant, each told its own port; the URLs must say where it listens.
  const ported = p.serve?.includes('{port}') ?? false;
  for (const key of ['url', 'ready-url'] as const) {
    const value = p[key];
    if (value?.includes('{port}') && !ported)
      problems.push({
        path: ['pipeline', key],
        message: `{port} stands for the port saboteur gives each variant's service: pipeline.serve needs it too (serve: "python serve.py --port {port}")`,
      });
  }
  if (ported && p.url && !p.url.includes('{port}'))
    problems.push({
      path: ['pipeline', 'url'],
      message: 'pipeline.serve takes {port} (one service per variant): write it in url too (url: http://127.0.0.1:{port}/run)',
    });
  p.secrets.forEach((name, i) => {
    if (isForbiddenName(name))
      problems.push({
        path: ['pipeline', 'secrets', String(i)],
        message: `${name} is the job's own credential (or saboteur's per-invocation key): it never reaches the pipeline`,
      });
    else if (name === m['api-key-env'])
      problems.push({
        path: ['pipeline', 'secrets', String(i)],
        message: `${name} holds the model's key (model.api-key-env): the pipeline reaches the model only through saboteur's proxy`,
      });
  });
  if (Object.keys(doc.benchmarks).length === 0) problems.push({ path: ['benchmarks'], message: 'name at least one benchmark' });
  return problems;
}

function resolvePath(dir: string, p: string | undefined): string | undefined {
  if (p === undefined) return undefined;
  return path.isAbsolute(p) ? p : path.resolve(dir, p);
}

/** Each named benchmark's settings through its own `configure`, in the order of the registry. */
function configureBenchmarks(
  doc: Record<string, unknown>,
  registries: Registries,
  resolve: (p: string | undefined) => string | undefined,
): Config['benchmarks'] {
  const out: Record<string, object | undefined> = {};
  for (const [id, def] of Object.entries(registries.benchmarks)) {
    if (doc[id] !== undefined) out[id] = def.configure(doc[id], resolve);
  }
  return out as Config['benchmarks'];
}

/**
 * `registries`: the benchmarks and defenses the file may name (default: the built-in ones; see
 * `extendRegistries` for a project's own).
 */
/** The coverage check is on wherever a malicious-drop gate is, unless `gate.coverage: false`. */
function coverageOf(gate: ConfigFile['gate']): Config['gate']['coverage'] {
  if (gate.coverage === false) return undefined;
  if (gate.coverage) return { maxLoss: gate.coverage['max-loss'] };
  return gate['malicious-drop'] ? { maxLoss: DEFAULT_COVERAGE_MAX_LOSS } : undefined;
}

export function parseConfig(text: string, file: string, registries: Registries = BUILT_IN): Config {
  const examples = registries === BUILT_IN ? KEY_EXAMPLES : keyExamples(registries);
  const schema = registries === BUILT_IN ? configFileSchema : configSchemaFor(registries);
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    const where = err instanceof YAMLParseError && err.linePos ? ` (line ${err.linePos[0].line})` : '';
    throw new ConfigError(
      `${file}: not valid YAML${where}: ${(err as Error).message.split('\n')[0]}\n  a valid example:\n    ${exampleFor([], examples).split('\n').join('\n    ')}`,
      file,
    );
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(
      `${file}: the config must be a YAML mapping with model and pipeline keys\n  a valid example:\n    ${exampleFor([], examples).split('\n').join('\n    ')}`,
      file,
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => formatIssue(file, i, examples)).join('\n'), file);
  }
  const doc = parsed.data as ConfigFile;
  const problems = crossChecks(doc);
  if (problems.length) {
    throw new ConfigError(
      problems
        .map((p) => formatIssue(file, { code: 'custom', path: p.path, message: p.message, input: undefined } as z.core.$ZodIssue, examples))
        .join('\n'),
      file,
    );
  }
  const dir = path.dirname(path.resolve(file));
  const m = doc.model;
  const p = doc.pipeline;
  return {
    file,
    dir,
    hash: createHash('sha256').update(text).digest('hex'),
    model: {
      kind: m.kind,
      model: m.model,
      args: m.args,
      env: m.env,
      startupTimeoutMs: m['startup-timeout'],
      baseUrl: m['base-url']?.replace(/\/+$/, ''),
      apiKeyEnv: m['api-key-env'],
      run: m.run,
      binary: m.binary,
      port: m.port,
      host: m.host,
      reuse: m.reuse,
      gpus: m.gpus === undefined ? undefined : String(m.gpus),
      cassette: resolvePath(dir, m.cassette),
      record: m.record,
      sampling: {
        temperature: m.sampling?.temperature,
        topP: m.sampling?.['top-p'],
        maxTokens: m.sampling?.['max-tokens'],
        seed: m.sampling?.seed,
      },
    },
    pipeline: {
      mode: p.mode,
      run: p.run,
      serve: p.serve,
      url: p.url,
      readyUrl: p['ready-url'],
      readyTimeoutMs: p['ready-timeout'],
      cwd: resolvePath(dir, p.cwd) ?? dir,
      timeoutMs: p.timeout,
      concurrency: p.concurrency,
      env: p.env,
      secrets: p.secrets,
      agents: p.agents,
    },
    benchmarks: configureBenchmarks(doc.benchmarks, registries, (p) => resolvePath(dir, p)),
    sample: doc.sample,
    variants: {
      malicious: {
        target: doc.variants.malicious.target,
        method: doc.variants.malicious.method,
        messageRate: doc.variants.malicious['message-rate'],
        errorRate: doc.variants.malicious['error-rate'],
        corruption: doc.variants.malicious.corruption,
        agenticTask: doc.variants.malicious['agentic-task'] ?? INJECTION_METHODS[doc.variants.malicious.method].agenticTask,
      },
    },
    defenses: doc.defenses,
    policy: resolvePath(dir, doc.policy),
    defenseMode: doc['defense-mode'],
    taintAnnotate: doc['taint-annotate'],
    gate: {
      maliciousDrop: doc.gate['malicious-drop'],
      asr: doc.gate.asr,
      tcr: doc.gate.tcr,
      regression: doc.gate.regression && {
        maxIncrease: doc.gate.regression['max-increase'],
        significance: doc.gate.regression.significance,
      },
      ...(doc.gate.figures ? { figures: doc.gate.figures } : {}),
      coverage: coverageOf(doc.gate),
    },
    history: { store: doc.history.store, branch: doc.history.branch, file: resolvePath(dir, doc.history.file), keep: doc.history.keep },
    ...(doc.judge ? { judge: { model: doc.judge.model, baseUrl: doc.judge['base-url'], apiKeyEnv: doc.judge['api-key-env'] } } : {}),
  };
}

export async function loadConfig(file: string, registries: Registries = BUILT_IN): Promise<Config> {
  let text: string;
  try {
    text = await readInputText(file, { what: 'the config', maxBytes: LIMITS.config });
  } catch (err) {
    throw new ConfigError(`${(err as Error).message}; pass --config with the path of your saboteur.yml`, file);
  }
  return parseConfig(text, file, registries);
}
