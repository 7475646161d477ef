/**
 * Every benchmark saboteur runs, by the key users write under `benchmarks:` in saboteur.yml.
 * The config schema, its error examples, the run and `saboteur validate` all read this table:
 * a benchmark is its folder (which exports a `BenchmarkDefinition`) plus one line here.
 * See the CONTRIBUTING.md, "Extending saboteur".
 */
import type { BenchmarkDefinition } from './core/definition.js';
import { agentHarmBenchmark } from './agentharm/benchmark.js';
import { asbBenchmark } from './asb/benchmark.js';
import { humanEvalBenchmark } from './humaneval/benchmark.js';
import { redcodeBenchmark } from './redcode/benchmark.js';
import { safeArenaBenchmark } from './safearena/benchmark.js';
import { checkRegistry } from '../util/registry.js';

export const BENCHMARKS = checkRegistry('benchmark', {
  humaneval: humanEvalBenchmark,
  asb: asbBenchmark,
  agentharm: agentHarmBenchmark,
  redcode: redcodeBenchmark,
  safearena: safeArenaBenchmark,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own settings types; the table only needs their shape
} satisfies Record<string, BenchmarkDefinition<any, any>>);

export type BenchmarkId = keyof typeof BENCHMARKS;
export const BENCHMARK_IDS = Object.keys(BENCHMARKS) as BenchmarkId[];

/** A table of benchmarks: the built-in one, or one extended with a project's own (see `extendRegistries`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above: a project's own entries bring their own settings types
export type BenchmarkRegistry = Readonly<Record<string, BenchmarkDefinition<any, any>>>;

/** `benchmarks.<id>` as the run reads it. */
export type BenchmarkSettings<Id extends BenchmarkId> = ReturnType<(typeof BENCHMARKS)[Id]['configure']>;
