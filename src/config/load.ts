/**
 * Reads `saboteur.yml` once and returns the camelCase `Config`: the output of the schema
 * (schema.ts), then the checks that span several keys. Each error names the key and shows a valid
 * example. Relative paths in the file resolve against the file's own folder, so a config works
 * whatever directory the CLI is started from.
 */
import { LIMITS, readInputText } from '../util/input-file.js';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import { camelCase, configSchemaFor, type Config } from './schema.js';
import { exampleFor, keyExamples, KEY_EXAMPLES } from './examples.js';
import { BUILT_IN, type Registries } from './registries.js';
import type { BenchmarkId } from '../benchmarks/registry.js';
import { MODEL_SERVERS } from '../model/registry.js';
import { isForbiddenName } from '../pipeline/env.js';
import { InputError } from '../util/input-error.js';

export class ConfigError extends InputError {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type { BenchmarkId };
export type { Config, ConfigSource } from './schema.js';

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

/** Checks that depend on several keys at once (which model kind needs which key, and so on); paths as the file writes them. */
function crossChecks(config: Config): { path: string[]; message: string }[] {
  const problems: { path: string[]; message: string }[] = [];
  const m = config.model;
  for (const need of MODEL_SERVERS[m.kind].requires) {
    if (!m[camelCase(need.key) as keyof typeof m]) problems.push({ path: ['model', need.key], message: need.message });
  }
  if (m.record && m.kind === 'replay')
    problems.push({ path: ['model', 'record'], message: 'record: true records a live model; replay only plays a cassette back' });
  if (m.record && !m.cassette) problems.push({ path: ['model', 'cassette'], message: 'record: true needs the cassette path to write' });
  const p = config.pipeline;
  if (p.mode === 'process' && !p.run)
    problems.push({ path: ['pipeline', 'run'], message: 'pipeline mode process needs run (the command started per task)' });
  if (p.mode === 'http' && !p.url)
    problems.push({ path: ['pipeline', 'url'], message: 'pipeline mode http needs url (where each task is POSTed)' });
  // {port}: one service per variant, each told its own port; the URLs must say where it listens.
  const ported = p.serve?.includes('{port}') ?? false;
  for (const [key, value] of [
    ['url', p.url],
    ['ready-url', p.readyUrl],
  ] as const) {
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
    else if (name === m.apiKeyEnv)
      problems.push({
        path: ['pipeline', 'secrets', String(i)],
        message: `${name} holds the model's key (model.api-key-env): the pipeline reaches the model only through saboteur's proxy`,
      });
  });
  if (Object.keys(config.benchmarks).length === 0) problems.push({ path: ['benchmarks'], message: 'name at least one benchmark' });
  return problems;
}

/** The file's example of the whole config, indented under an error. */
function wholeExample(examples: Record<string, string>): string {
  return `  a valid example:\n    ${exampleFor([], examples).split('\n').join('\n    ')}`;
}

/**
 * `registries`: the benchmarks and defenses the file may name (default: the built-in ones; see
 * `extendRegistries` for a project's own).
 */
export function parseConfig(text: string, file: string, registries: Registries = BUILT_IN): Config {
  const examples = registries === BUILT_IN ? KEY_EXAMPLES : keyExamples(registries);
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    const where = err instanceof YAMLParseError && err.linePos ? ` (line ${err.linePos[0].line})` : '';
    throw new ConfigError(`${file}: not valid YAML${where}: ${(err as Error).message.split('\n')[0]}\n${wholeExample(examples)}`, file);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(`${file}: the config must be a YAML mapping with model and pipeline keys\n${wholeExample(examples)}`, file);
  }
  const source = { file, dir: path.dirname(path.resolve(file)), hash: createHash('sha256').update(text).digest('hex') };
  const parsed = configSchemaFor(registries, source).safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => formatIssue(file, i, examples)).join('\n'), file);
  }
  const problems = crossChecks(parsed.data);
  if (problems.length) {
    throw new ConfigError(
      problems
        .map((p) => formatIssue(file, { code: 'custom', path: p.path, message: p.message, input: undefined } as z.core.$ZodIssue, examples))
        .join('\n'),
      file,
    );
  }
  return parsed.data;
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
