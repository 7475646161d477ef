/**
 * The one schema of `saboteur.yml`. Keys are kebab-case as users write them; `parseConfig`
 * turns the validated document into the camelCase `Config` the rest of the code reads.
 * Every object is strict: a typo is an error, never a silently ignored key.
 */
import { z } from 'zod';
import { parseDuration } from './duration.js';

export const MODEL_KINDS = ['vllm', 'sglang', 'llamacpp', 'ollama', 'tgi', 'command', 'external', 'embedded', 'replay'] as const;
export const BENCHMARK_IDS = ['humaneval', 'asb', 'agentharm', 'redcode', 'safearena'] as const;
export const DEFENSES = ['none', 'taint', 'local-judge', 'global-judge', 'taint/no-propagation', 'taint/local', 'taint/one-hop'] as const;
export const INJECTION_METHODS = ['autoinject', 'autotransform', 'insider'] as const;

const duration = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const ms = parseDuration(value);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a duration (write 120s, 15m, 1h or 500ms)` });
    return z.NEVER;
  }
  return ms;
});

const rate = z.number().min(0).max(1);

const sampling = z
  .strictObject({
    temperature: z.number().min(0).max(2).optional(),
    'top-p': z.number().min(0).max(1).optional(),
    'max-tokens': z.number().int().positive().optional(),
    seed: z.number().int().optional(),
  })
  .optional();

const modelSchema = z.strictObject({
  kind: z.enum(MODEL_KINDS),
  model: z.string().min(1).optional(),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  'startup-timeout': duration.default(15 * 60_000), // defaults are output values (ms): zod skips the transform for them
  'base-url': z.url().optional(),
  'api-key-env': z.string().regex(/^[A-Z_][A-Z0-9_]*$/).optional(),
  run: z.string().min(1).optional(),
  binary: z.string().min(1).optional(),
  port: z.number().int().min(1).max(65535).optional(),
  host: z.string().optional(),
  reuse: z.boolean().default(false),
  gpus: z.union([z.string(), z.number().int()]).optional(),
  cassette: z.string().min(1).optional(),
  record: z.boolean().default(false),
  sampling,
});

const agentMatch = z
  .strictObject({ system: z.string().min(1).optional(), header: z.string().min(1).optional() })
  .refine((m) => m.system !== undefined || m.header !== undefined, { message: 'a match needs `system` or `header`' });

const pipelineSchema = z.strictObject({
  mode: z.enum(['process', 'http']).default('process'),
  run: z.string().min(1).optional(),
  serve: z.string().min(1).optional(),
  url: z.url().optional(),
  'ready-url': z.url().optional(),
  'ready-timeout': duration.default(60_000),
  cwd: z.string().optional(),
  timeout: duration.default(120_000),
  concurrency: z.number().int().min(1).max(1024).default(16),
  env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).default([]),
  agents: z.array(z.strictObject({ name: z.string().regex(/^[A-Za-z0-9_.-]+$/), match: agentMatch })).default([]),
});

const humanevalSchema = z.strictObject({
  limit: z.number().int().positive().optional(),
  path: z.string().min(1).optional(),
  timeout: duration.default(3000),
});
const benchmarksSchema = z.strictObject({
  humaneval: humanevalSchema.optional(),
  asb: z.strictObject({ limit: z.number().int().positive().optional(), attacks: z.array(z.enum(['dpi', 'opi'])).optional(), path: z.string().optional() }).optional(),
  agentharm: z.strictObject({ split: z.enum(['test_public', 'validation']).optional(), limit: z.number().int().positive().optional(), path: z.string().optional(), judge: z.boolean().default(true) }).optional(),
  redcode: z.strictObject({ limit: z.number().int().positive().optional(), path: z.string().optional() }).optional(),
  safearena: z.strictObject({ limit: z.number().int().positive().optional(), path: z.string().optional() }).optional(),
});

const maliciousSchema = z.strictObject({
  target: z.string().min(1).default('coder'),
  method: z.enum(INJECTION_METHODS).default('autoinject'),
  'message-rate': rate.default(0.2),
  'error-rate': rate.default(0.6),
  corruption: z.enum(['syntactic', 'semantic']).default('syntactic'),
});

const gateSchema = z.strictObject({
  'malicious-drop': z.strictObject({ max: rate }).optional(),
  asr: z.strictObject({ max: rate, defense: z.enum(DEFENSES).default('taint') }).optional(),
  tcr: z.strictObject({ min: rate, defense: z.enum(DEFENSES).default('taint') }).optional(),
  regression: z.strictObject({ 'max-increase': rate.default(0.03), significance: z.number().gt(0).lt(1).default(0.05) }).optional(),
});

const historySchema = z.strictObject({
  store: z.enum(['branch', 'file', 'none']).default('branch'),
  branch: z.string().regex(/^[A-Za-z0-9._/-]+$/).default('saboteur-data'),
  file: z.string().optional(),
  keep: z.number().int().positive().default(500),
});

export const configFileSchema = z.strictObject({
  model: modelSchema,
  pipeline: pipelineSchema,
  benchmarks: benchmarksSchema.default({ humaneval: { timeout: 3000 } }),
  sample: z.strictObject({ seed: z.number().int().default(20260509) }).default({ seed: 20260509 }),
  variants: z.strictObject({ malicious: maliciousSchema.default(maliciousSchema.parse({})) }).default({ malicious: maliciousSchema.parse({}) }),
  defenses: z.array(z.enum(DEFENSES)).min(1).default(['none']),
  policy: z.string().optional(),
  'defense-mode': z.enum(['enforce', 'observe']).default('enforce'),
  /** The taint validator may also ask the model for the intent of the request and of each node (cached). */
  'taint-annotate': z.boolean().default(false),
  gate: gateSchema.default({}),
  history: historySchema.default(historySchema.parse({})),
});

export type ConfigFile = z.output<typeof configFileSchema>;
