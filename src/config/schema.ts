/**
 * The one schema of `saboteur.yml`, and of the `Config` the rest of the code reads: its output.
 * Keys are kebab-case as users write them; each section's transform gives them as camelCase
 * fields, relative paths resolved against the file's folder. Defaults sit before the transforms,
 * on the keys as written, so the JSON Schema (input side) shows them as users write them.
 * Every object is strict: a typo is an error, never a silently ignored key. The vocabularies
 * (model kinds, benchmarks and their keys, injection methods, defenses) come from the registries.
 */
import path from 'node:path';
import { DEFENSE_MODES } from '../tools/types.js';
import { z } from 'zod';
import { BENCHMARK_IDS, type BenchmarkId, type BenchmarkSettings } from '../benchmarks/registry.js';
import { DEFENSE_IDS } from '../defenses/registry.js';
import { INJECTION_METHOD_IDS, INJECTION_METHODS } from '../inject/registry.js';
import { MODEL_KIND_IDS } from '../model/registry.js';
import { duration, rate } from '../util/config-fields.js';
import { gatedFigureKey } from '../scoring/gate-figures.js';
import { BUILT_IN, type Registries } from './registries.js';
import { CORRUPTION_MODES, GATE_ON } from '../runlog/schema.js';
import { DEFAULT_COVERAGE_MAX_LOSS } from '../scoring/coverage.js';
import { DEFAULT_LIMITS } from '../pipeline/limits.js';

export { BENCHMARK_IDS, DEFENSE_IDS, INJECTION_METHOD_IDS };
export const MODEL_KINDS = MODEL_KIND_IDS;

/** Where the config was read from: relative paths resolve against `dir`; `hash` is the sha256 of its bytes. */
export interface ConfigSource {
  file: string;
  dir: string;
  /** Two runs are comparable only under the same config hash. */
  hash: string;
}

type CamelCase<K extends string> = K extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : K;
type CamelKeys<T> = { [K in keyof T as K extends string ? CamelCase<K> : K]: T[K] };

export function camelCase(key: string): string {
  return key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The same object with kebab-case keys as camelCase fields (`max-tokens` → `maxTokens`). */
function camelKeys<T extends object>(doc: T): CamelKeys<T> {
  return Object.fromEntries(Object.entries(doc).map(([key, value]) => [camelCase(key), value])) as CamelKeys<T>;
}

/** A path as written, resolved against the config's folder. */
function configPath(dir: string) {
  return (p: string) => (path.isAbsolute(p) ? p : path.resolve(dir, p));
}

const sampling = z
  .strictObject({
    temperature: z.number().min(0).max(2).optional(),
    'top-p': z.number().min(0).max(1).optional(),
    'max-tokens': z.number().int().positive().optional(),
    seed: z.number().int().optional(),
  })
  .optional()
  .transform((s) => camelKeys(s ?? {}));

const modelSchema = (dir: string) =>
  z
    .strictObject({
      kind: z.enum(MODEL_KIND_IDS),
      model: z.string().min(1).optional(),
      args: z.array(z.string()).default([]),
      env: z.record(z.string(), z.string()).default({}),
      'startup-timeout': duration.default(15 * 60_000), // defaults are output values (ms): zod skips the transform for them
      'base-url': z
        .url()
        .transform((u) => u.replace(/\/+$/, ''))
        .optional(),
      'api-key-env': z
        .string()
        .regex(/^[A-Z_][A-Z0-9_]*$/)
        .optional(),
      run: z.string().min(1).optional(),
      binary: z.string().min(1).optional(),
      port: z.number().int().min(1).max(65535).optional(),
      host: z.string().optional(),
      reuse: z.boolean().default(false),
      gpus: z
        .union([z.string(), z.number().int()])
        .transform((g) => String(g))
        .optional(),
      cassette: z.string().min(1).transform(configPath(dir)).optional(),
      record: z.boolean().default(false),
      sampling,
    })
    .transform(({ 'startup-timeout': startupTimeoutMs, ...m }) => ({ ...camelKeys(m), startupTimeoutMs }));

/** `model`: a glob (`*`, `?`) on the model name the agent requests, e.g. `coder-*`. */
const agentMatch = z
  .strictObject({
    system: z.string().min(1).optional(),
    header: z.string().min(1).optional(),
    model: z.string().min(1).max(200).optional(),
  })
  .refine((m) => m.system !== undefined || m.header !== undefined || m.model !== undefined, {
    message: 'a match needs `system`, `model` or `header`',
  });

/** A URL, where `{port}` may stand for the port saboteur gives each variant's service (http mode). */
const urlWithPort = z.string().refine((u) => z.url().safeParse(u.replace(/\{port\}/g, '1')).success, {
  message: 'expected a URL such as http://127.0.0.1:9000/run (or http://127.0.0.1:{port}/run with {port} in pipeline.serve)',
});

/** A whole number within bounds, with an error that says what the key holds. */
function capField(what: string, min: number, max: number) {
  const error = `expected a whole number from ${min} to ${max}: ${what}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** `pipeline.limits`: the caps on each run (docs/security.md, "Caps"; src/pipeline/limits.ts). */
const limitsSchema = z.strictObject({
  'disk-mb': capField(
    "the MiB each run's HOME, TMPDIR and /tmp hold together (memory folders; a write past it fails with ENOSPC)",
    16,
    1 << 20,
  ).default(DEFAULT_LIMITS.diskMb),
  processes: capField('the processes and threads each run may have at once', 16, 1 << 22).default(DEFAULT_LIMITS.processes),
});

const pipelineSchema = (dir: string) =>
  z
    .strictObject({
      mode: z.enum(['process', 'http']).default('process'),
      run: z.string().min(1).optional(),
      serve: z.string().min(1).optional(),
      url: urlWithPort.optional(),
      'ready-url': urlWithPort.optional(),
      'ready-timeout': duration.default(60_000),
      cwd: z.string().optional(),
      timeout: duration.default(120_000),
      concurrency: z.number().int().min(1).max(1024).default(16),
      env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).default([]),
      /** Secret-looking variables the pipeline needs, passed on purpose (docs/security.md, "Security"). */
      secrets: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).default([]),
      agents: z.array(z.strictObject({ name: z.string().regex(/^[A-Za-z0-9_.-]+$/), match: agentMatch })).default([]),
      limits: limitsSchema.default(limitsSchema.parse({})).transform(({ 'disk-mb': diskMb, processes }) => ({ diskMb, processes })),
    })
    .transform(({ 'ready-timeout': readyTimeoutMs, timeout: timeoutMs, cwd, ...p }) => ({
      ...camelKeys(p),
      readyTimeoutMs,
      timeoutMs,
      cwd: cwd === undefined ? dir : configPath(dir)(cwd),
    }));

/** A corruption mode; the old name `syntactic` is refused with what to write instead (it meant logic-edit, which the paper does not call syntactic). */
const corruptionMode = z.string().transform((value, ctx) => {
  if ((CORRUPTION_MODES as readonly string[]).includes(value)) return value as (typeof CORRUPTION_MODES)[number];
  ctx.addIssue({
    code: 'custom',
    message:
      value === 'syntactic'
        ? '"syntactic" is no longer a mode: write logic-edit for the deterministic edits that still parse (what syntactic did), or syntax-error for real syntax errors (what the paper\'s syntactic runs made)'
        : `"${value}" is not a corruption mode (logic-edit, syntax-error or semantic)`,
  });
  return z.NEVER;
});

const maliciousSchema = z.strictObject({
  target: z.string().min(1).default('coder'),
  method: z.enum(INJECTION_METHOD_IDS).default('autoinject'),
  'message-rate': rate.default(0.2),
  'error-rate': rate.default(0.6),
  corruption: corruptionMode.default('logic-edit'),
  /** Agentic benchmarks: which twin the malicious variant runs (default: the method's `agenticTask`, src/inject/). */
  'agentic-task': z.enum(['harmful', 'benign']).optional(),
});

/** Without `agentic-task`, the method's own default twin (its definition's `agenticTask`). */
function maliciousSettings(m: z.output<typeof maliciousSchema>) {
  return { ...camelKeys(m), agenticTask: m['agentic-task'] ?? INJECTION_METHODS[m.method].agenticTask };
}

const historySchema = z.strictObject({
  store: z.enum(['branch', 'file', 'none']).default('branch'),
  branch: z
    .string()
    .regex(/^[A-Za-z0-9._/-]+$/)
    .default('saboteur-data'),
  file: z.string().optional(),
  keep: z.number().int().positive().default(500),
});

/** The model the graders ask (AgentHarm's criteria and every benchmark's refusals); default: the served model. */
const judgeSchema = z
  .strictObject({
    model: z.string().min(1).optional(),
    'base-url': z.url().optional(),
    'api-key-env': z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/)
      .optional(),
  })
  .transform(camelKeys);

/** `benchmarks:`: one optional key per registered benchmark, each with the benchmark's own keys. */
function benchmarksSchema<B extends Registries['benchmarks']>(benchmarks: B) {
  const shape = Object.fromEntries(Object.entries(benchmarks).map(([id, def]) => [id, def.schema.optional()]));
  return z.strictObject(shape as { [K in keyof B]: z.ZodOptional<B[K]['schema']> });
}

/**
 * What a check compares with its threshold: the point estimate, or one end of its 95% interval
 * (docs/configuration.md, "Gate"): `lower-bound` on a `max` fails only when the figure is above it
 * with confidence, `upper-bound` on a `min` only when it is below it with confidence.
 */
const gateOn = z
  .enum(GATE_ON, { error: (issue) => `"${String(issue.input)}" is not what a check judges (${GATE_ON.join(', ')})` })
  .optional();

function gateSchema(defense: z.ZodType<string>) {
  return z.strictObject({
    'malicious-drop': z.strictObject({ max: rate, on: gateOn }).optional(),
    asr: z.strictObject({ max: rate, defense: defense.default('taint'), on: gateOn }).optional(),
    tcr: z.strictObject({ min: rate, defense: defense.default('taint'), on: gateOn }).optional(),
    regression: z.strictObject({ 'max-increase': rate.default(0.03), significance: z.number().gt(0).lt(1).default(0.05) }).optional(),
    /** One benchmark's figure by metric id (`agentharm/harm-score:taint`), with a bound (scoring/gate.ts, gatedFigure). */
    figures: z
      .record(
        z.string(),
        z
          .strictObject({ max: rate.optional(), min: rate.optional() })
          .refine((b) => (b.max === undefined) !== (b.min === undefined), { message: 'give exactly one of max and min' }),
      )
      .superRefine((figures, ctx) => {
        for (const id of Object.keys(figures)) {
          if (gatedFigureKey(id) === undefined) {
            ctx.addIssue({
              code: 'custom',
              path: [id],
              message: `${JSON.stringify(id)} is not a metric id of one benchmark: <benchmark>/<asr|tcr|harm-score|harm-score-non-refused|refusal>:<defense>, e.g. agentharm/harm-score:taint`,
            });
          }
        }
      })
      .optional(),
    /** On wherever malicious-drop is set: `false` turns it off, `max-loss` tunes it (scoring/coverage.ts). */
    coverage: z.union([z.literal(false), z.strictObject({ 'max-loss': rate.default(DEFAULT_COVERAGE_MAX_LOSS) })]).optional(),
  });
}

/** The coverage check is on wherever malicious-drop is, unless `coverage: false`; absent when off. */
function gateSettings({ coverage, regression, ...gate }: z.output<ReturnType<typeof gateSchema>>) {
  const maxLoss =
    coverage === false ? undefined : (coverage?.['max-loss'] ?? (gate['malicious-drop'] ? DEFAULT_COVERAGE_MAX_LOSS : undefined));
  return {
    ...camelKeys(gate),
    ...(regression ? { regression: camelKeys(regression) } : {}),
    ...(maxLoss === undefined ? {} : { coverage: { maxLoss } }),
  };
}

/** Each registered benchmark the file names, with its settings as the benchmark's `configure` made them. */
export type BenchmarksSettings = { [K in BenchmarkId]?: BenchmarkSettings<K> } & Record<string, object | undefined>;

/** Each named benchmark's settings through its own `configure`, in the order of the registry. */
function configureBenchmarks(doc: Record<string, unknown>, benchmarks: Registries['benchmarks'], dir: string): BenchmarksSettings {
  const resolve = (p: string | undefined) => (p === undefined ? undefined : configPath(dir)(p));
  const out: Record<string, object | undefined> = {};
  for (const [id, def] of Object.entries(benchmarks)) {
    if (doc[id] !== undefined) out[id] = def.configure(doc[id], resolve);
  }
  return out as BenchmarksSettings;
}

/** No file: relative paths resolve against the working directory. */
const NO_FILE: ConfigSource = { file: 'saboteur.yml', dir: '.', hash: '' };

/**
 * The schema of saboteur.yml against `reg` (the built-in registries, or ones extended with a
 * project's own), for the file `source`: its output is the `Config`.
 */
export function configSchemaFor<B extends Registries['benchmarks']>(
  reg: { benchmarks: B; defenses: Registries['defenses'] },
  source: ConfigSource = NO_FILE,
) {
  const { dir } = source;
  const defense = z.enum(Object.keys(reg.defenses) as [string, ...string[]]);
  const maliciousDefault = maliciousSchema.parse({});
  return z
    .strictObject({
      model: modelSchema(dir),
      pipeline: pipelineSchema(dir),
      benchmarks: benchmarksSchema(reg.benchmarks)
        .default({ humaneval: { timeout: 3000 } } as never)
        .transform((doc) => configureBenchmarks(doc, reg.benchmarks, dir)),
      sample: z.strictObject({ seed: z.number().int().default(20260509) }).default({ seed: 20260509 }),
      variants: z
        .strictObject({ malicious: maliciousSchema.default(maliciousDefault) })
        .default({ malicious: maliciousDefault })
        .transform((v) => ({ malicious: maliciousSettings(v.malicious) })),
      /** Registered defense names, in the order the file lists them. */
      defenses: z.array(defense).min(1).default(['none']),
      policy: z.string().transform(configPath(dir)).optional(),
      /** enforce: a blocked sink returns a policy error to the agent; observe: it runs and the decision is recorded. */
      'defense-mode': z.enum(DEFENSE_MODES).default('enforce'),
      /** The taint validator may also ask the model for the intent of the request and of each node (cached). */
      'taint-annotate': z.boolean().default(false),
      gate: gateSchema(defense).default({}).transform(gateSettings),
      judge: judgeSchema.optional(),
      history: historySchema
        .default(historySchema.parse({}))
        .transform(({ file, ...h }) => ({ ...h, ...(file === undefined ? {} : { file: configPath(dir)(file) }) })),
    })
    .transform((doc) => ({ ...source, ...camelKeys(doc) }));
}

export const configFileSchema = configSchemaFor(BUILT_IN);

/** saboteur.yml as the code reads it: camelCase fields, defaults filled, paths absolute. */
export type Config = z.output<typeof configFileSchema>;
