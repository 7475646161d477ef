/**
 * What a benchmark is to saboteur: everything the config, the run and the offline validator need
 * of it, in one object. A benchmark folder exports one `BenchmarkDefinition`; the registry
 * (`registry.ts`) lists them, and the config schema, its error examples, the run and
 * `saboteur validate` read them from there. See the CONTRIBUTING.md, "Extending saboteur".
 */
import type { z } from 'zod';
import type { Isolation } from '../../sandbox/index.js';
import type { Log } from '../../util/log.js';
import type { ToolEvent, ToolSpec } from '../agentic/agentic.js';
import type { Ask } from '../../util/ask.js';
import type { BenchmarkSuite } from './suite.js';

/** What a benchmark may use while it loads and while it grades. */
export interface BenchmarkLoadContext {
  /** The sample seed (`sample.seed`): the slice of instances depends on it alone. */
  seed: number;
  /** The CLI's --limit: overrides the benchmark's own `limit`. */
  limit?: number;
  /** The sandbox code runs in (code benchmarks run model-written code there, and only there). */
  isolation: Isolation;
  /** Where downloads and caches go. */
  cacheDir: string;
  log: Log;
  /** The configured model as a grader; absent when there is none. */
  judge?: Ask;
  env?: NodeJS.ProcessEnv;
}

/** A tool's declared labels, as a recorded trace is judged by them. */
export type TraceToolSpec = Pick<ToolSpec, 'name' | 'sinks' | 'sources'>;

/**
 * One benchmark. `FileSettings` is `benchmarks.<id>` as the schema outputs it (kebab-case keys,
 * durations in ms); `Settings` is what the run reads (`Config['benchmarks'][id]`).
 */
export interface BenchmarkDefinition<Settings extends object = object, FileSettings = Settings> {
  /** The key under `benchmarks:` in saboteur.yml and the benchmark's name in the run log. */
  id: string;
  /** code: pass@1 and the malicious drop; agentic: ASR and TCR per defense, tools served over MCP. */
  kind: 'code' | 'agentic';
  /** One line for the docs. */
  description: string;
  /** The keys of `benchmarks.<id>`: a strict zod object, so a typo is an error. */
  schema: z.ZodType<FileSettings, unknown>;
  /** The valid example shown under an error about `benchmarks.<id>`. */
  example: string;
  /** The validated keys as the run reads them; `resolvePath` resolves a path against the config file's folder. */
  configure(file: FileSettings, resolvePath: (p: string | undefined) => string | undefined): Settings;
  /** The benchmark's fixed slice of instances, how each run is scored, and (agentic) its tools. */
  load(settings: Settings, ctx: BenchmarkLoadContext): Promise<BenchmarkSuite>;
  /**
   * Agentic: the declared labels of the tools a recorded trace called, so `saboteur validate`
   * judges a run log's traces as the live run did.
   */
  traceToolSpecs?(tools: readonly ToolEvent[]): TraceToolSpec[];
}

/** Keeps the settings types of a definition (a registry entry is read through them). */
export function defineBenchmark<Settings extends object, FileSettings>(
  def: BenchmarkDefinition<Settings, FileSettings>,
): BenchmarkDefinition<Settings, FileSettings> {
  return def;
}
