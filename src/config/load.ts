/**
 * Reads `saboteur.yml` once, validates it with zod and returns the camelCase `Config`.
 * Relative paths in the file resolve against the file's own folder, so a config works
 * whatever directory the CLI is started from.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import { configFileSchema, type ConfigFile, type BENCHMARK_IDS } from './schema.js';
import { exampleFor } from './examples.js';

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type BenchmarkId = (typeof BENCHMARK_IDS)[number];

export interface Config {
  file: string;
  dir: string;
  /** sha256 of the file's bytes: two runs are comparable only under the same config hash. */
  hash: string;
  model: {
    kind: ConfigFile['model']['kind'];
    model?: string;
    args: string[];
    env: Record<string, string>;
    startupTimeoutMs: number;
    baseUrl?: string;
    apiKeyEnv?: string;
    run?: string;
    binary?: string;
    port?: number;
    host?: string;
    reuse: boolean;
    gpus?: string;
    cassette?: string;
    record: boolean;
    sampling: { temperature?: number; topP?: number; maxTokens?: number; seed?: number };
  };
  pipeline: {
    mode: 'process' | 'http';
    run?: string;
    serve?: string;
    url?: string;
    readyUrl?: string;
    readyTimeoutMs: number;
    cwd: string;
    timeoutMs: number;
    concurrency: number;
    env: string[];
    agents: { name: string; match: { system?: string; header?: string } }[];
  };
  benchmarks: {
    humaneval?: { limit?: number; path?: string; timeoutMs: number };
    asb?: { limit?: number; attacks?: ('dpi' | 'opi')[]; path?: string };
    agentharm?: { split?: 'test_public' | 'validation'; limit?: number; path?: string; judge: boolean };
    redcode?: { limit?: number; path?: string };
    safearena?: { limit?: number; path?: string };
  };
  sample: { seed: number };
  variants: {
    malicious: {
      target: string;
      method: 'autoinject' | 'autotransform' | 'insider';
      messageRate: number;
      errorRate: number;
      corruption: 'syntactic' | 'semantic';
    };
  };
  defenses: ConfigFile['defenses'];
  policy?: string;
  /** enforce: a blocked sink returns a policy error to the agent; observe: it runs and the decision is recorded. */
  defenseMode: 'enforce' | 'observe';
  /** LLM intent annotation for the taint validator (prompts/taint-intent.md), cached per text. */
  taintAnnotate: boolean;
  gate: {
    maliciousDrop?: { max: number };
    asr?: { max: number; defense: string };
    tcr?: { min: number; defense: string };
    regression?: { maxIncrease: number; significance: number };
  };
  history: { store: 'branch' | 'file' | 'none'; branch: string; file?: string; keep: number };
}

function formatIssue(file: string, issue: z.core.$ZodIssue): string {
  const key = issue.path.length ? issue.path.join('.') : '(top level)';
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    message = `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (check the spelling)`;
  } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    message = 'is required';
  }
  const example = exampleFor(issue.path as (string | number)[]);
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
  if (m.kind === 'replay' && !m.cassette) problems.push({ path: ['model', 'cassette'], message: 'model.kind replay needs a cassette file' });
  if (m.kind === 'external' && !m['base-url']) problems.push({ path: ['model', 'base-url'], message: 'model.kind external needs base-url' });
  if (m.kind === 'command' && !m.run) problems.push({ path: ['model', 'run'], message: 'model.kind command needs run' });
  if (m.record && m.kind === 'replay') problems.push({ path: ['model', 'record'], message: 'record: true records a live model; replay only plays a cassette back' });
  if (m.record && !m.cassette) problems.push({ path: ['model', 'cassette'], message: 'record: true needs the cassette path to write' });
  if (m.kind !== 'replay' && m.kind !== 'external' && m.kind !== 'embedded' && !m.model && m.kind !== 'command')
    problems.push({ path: ['model', 'model'], message: `model.kind ${m.kind} needs the model to serve` });
  const p = doc.pipeline;
  if (p.mode === 'process' && !p.run) problems.push({ path: ['pipeline', 'run'], message: 'pipeline mode process needs run (the command started per task)' });
  if (p.mode === 'http' && !p.url) problems.push({ path: ['pipeline', 'url'], message: 'pipeline mode http needs url (where each task is POSTed)' });
  if (Object.keys(doc.benchmarks).length === 0) problems.push({ path: ['benchmarks'], message: 'name at least one benchmark' });
  return problems;
}

function resolvePath(dir: string, p: string | undefined): string | undefined {
  if (p === undefined) return undefined;
  return path.isAbsolute(p) ? p : path.resolve(dir, p);
}

export function parseConfig(text: string, file: string): Config {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    const where = err instanceof YAMLParseError && err.linePos ? ` (line ${err.linePos[0].line})` : '';
    throw new ConfigError(`${file}: not valid YAML${where}: ${(err as Error).message.split('\n')[0]}\n  a valid example:\n    ${exampleFor([]).split('\n').join('\n    ')}`, file);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(`${file}: the config must be a YAML mapping with model and pipeline keys\n  a valid example:\n    ${exampleFor([]).split('\n').join('\n    ')}`, file);
  }
  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => formatIssue(file, i)).join('\n'), file);
  }
  const doc = parsed.data;
  const problems = crossChecks(doc);
  if (problems.length) {
    throw new ConfigError(
      problems.map((p) => formatIssue(file, { code: 'custom', path: p.path, message: p.message, input: undefined } as z.core.$ZodIssue)).join('\n'),
      file,
    );
  }
  const dir = path.dirname(path.resolve(file));
  const m = doc.model;
  const p = doc.pipeline;
  const b = doc.benchmarks;
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
      sampling: { temperature: m.sampling?.temperature, topP: m.sampling?.['top-p'], maxTokens: m.sampling?.['max-tokens'], seed: m.sampling?.seed },
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
      agents: p.agents,
    },
    benchmarks: {
      humaneval: b.humaneval && { limit: b.humaneval.limit, path: resolvePath(dir, b.humaneval.path), timeoutMs: b.humaneval.timeout },
      asb: b.asb && { ...b.asb, path: resolvePath(dir, b.asb.path) },
      agentharm: b.agentharm && { ...b.agentharm, path: resolvePath(dir, b.agentharm.path) },
      redcode: b.redcode && { ...b.redcode, path: resolvePath(dir, b.redcode.path) },
      safearena: b.safearena && { ...b.safearena, path: resolvePath(dir, b.safearena.path) },
    },
    sample: doc.sample,
    variants: {
      malicious: {
        target: doc.variants.malicious.target,
        method: doc.variants.malicious.method,
        messageRate: doc.variants.malicious['message-rate'],
        errorRate: doc.variants.malicious['error-rate'],
        corruption: doc.variants.malicious.corruption,
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
      regression: doc.gate.regression && { maxIncrease: doc.gate.regression['max-increase'], significance: doc.gate.regression.significance },
    },
    history: { store: doc.history.store, branch: doc.history.branch, file: resolvePath(dir, doc.history.file), keep: doc.history.keep },
  };
}

export async function loadConfig(file: string): Promise<Config> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${file}: cannot read the config (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); pass --config with the path of your saboteur.yml`, file);
  }
  return parseConfig(text, file);
}
