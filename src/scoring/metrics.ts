/**
 * Metrics computed from a run log alone (docs/benchmarks.md, "Metrics"). Pure: the report, the CLI summary and the
 * history all call this on the same `RunLog` and so always agree.
 *
 * pass@1 counts only instances that reached the scorer (passed or failed). Errors, timeouts,
 * refusals and model errors are counted apart and shown next to it, never folded in silently.
 */
import type { InstanceResult, Outcome, RunLog } from '../runlog/schema.js';
import { mcnemarExact, pairedDifferenceInterval, wilson, type Interval } from './stats.js';

export interface VariantStats {
  instances: number;
  scored: number;
  passed: number;
  counts: Record<Outcome, number>;
  passAt1: number | null;
  interval: Interval;
}

export interface DropStats {
  /** pass@1(control) − pass@1(malicious) over the pairs that both reached the scorer. */
  absolute: number | null;
  /** absolute / pass@1(control), null when control is 0. */
  relative: number | null;
  interval: Interval;
  pValue: number;
  pairs: number;
  controlOnly: number;
  maliciousOnly: number;
}

export interface CorruptionStats {
  /** Target-agent calls in the malicious variant (the messages that could be hit). */
  targetCalls: number;
  corruptedMessages: number;
  corruptedUnits: number;
  instancesTouched: number;
}

export interface BenchmarkMetrics {
  benchmark: string;
  control: VariantStats;
  malicious: VariantStats;
  drop: DropStats;
  corruption: CorruptionStats;
}

export interface RunMetrics {
  benchmarks: BenchmarkMetrics[];
  /** All benchmarks together (the headline). */
  overall: BenchmarkMetrics;
}

const SCORED: ReadonlySet<Outcome> = new Set(['passed', 'failed']);

function emptyCounts(): Record<Outcome, number> {
  return { passed: 0, failed: 0, error: 0, timeout: 0, refused: 0, 'model-error': 0, skipped: 0, 'not-graded': 0 };
}

function variantStats(results: InstanceResult[]): VariantStats {
  const counts = emptyCounts();
  for (const r of results) counts[r.outcome]++;
  const scored = counts.passed + counts.failed;
  return {
    instances: results.length,
    scored,
    passed: counts.passed,
    counts,
    passAt1: scored > 0 ? counts.passed / scored : null,
    interval: wilson(counts.passed, scored),
  };
}

function corruptionStats(malicious: InstanceResult[], target: string): CorruptionStats {
  let targetCalls = 0;
  let corruptedMessages = 0;
  let corruptedUnits = 0;
  let instancesTouched = 0;
  for (const r of malicious) {
    let touched = false;
    for (const call of r.trace.calls) {
      if (target === 'all' || target === 'each' || call.agent === target) targetCalls++;
      if (call.corruption) {
        corruptedMessages++;
        corruptedUnits += call.corruption.units.length;
        touched = true;
      }
    }
    if (touched) instancesTouched++;
  }
  return { targetCalls, corruptedMessages, corruptedUnits, instancesTouched };
}

function benchmarkMetrics(benchmark: string, results: InstanceResult[], target: string): BenchmarkMetrics {
  const control = results.filter((r) => r.variant === 'control');
  const malicious = results.filter((r) => r.variant === 'malicious');
  const maliciousById = new Map(malicious.map((r) => [`${r.benchmark}\u0000${r.instanceId}\u0000${r.defense}`, r]));
  const pairs: { a: boolean; b: boolean }[] = [];
  for (const c of control) {
    const m = maliciousById.get(`${c.benchmark}\u0000${c.instanceId}\u0000${c.defense}`);
    if (!m || !SCORED.has(c.outcome) || !SCORED.has(m.outcome)) continue;
    pairs.push({ a: c.outcome === 'passed', b: m.outcome === 'passed' });
  }
  const controlOnly = pairs.filter((p) => p.a && !p.b).length;
  const maliciousOnly = pairs.filter((p) => !p.a && p.b).length;
  const pc = pairs.length ? pairs.filter((p) => p.a).length / pairs.length : null;
  const pm = pairs.length ? pairs.filter((p) => p.b).length / pairs.length : null;
  const absolute = pc === null || pm === null ? null : pc - pm;
  return {
    benchmark,
    control: variantStats(control),
    malicious: variantStats(malicious),
    drop: {
      absolute,
      relative: absolute === null || !pc ? null : absolute / pc,
      interval: pairedDifferenceInterval(pairs),
      pValue: mcnemarExact(controlOnly, maliciousOnly),
      pairs: pairs.length,
      controlOnly,
      maliciousOnly,
    },
    corruption: corruptionStats(malicious, target),
  };
}

/** pass@1 and the malicious drop over the code benchmarks (the agentic ones have ASR/TCR: see security.ts). */
export function computeMetrics(log: RunLog): RunMetrics {
  const target = log.variants.malicious.target;
  const agentic = new Set(log.benchmarks.filter((b) => b.kind === 'agentic').map((b) => b.id));
  const ids = log.benchmarks.filter((b) => b.kind !== 'agentic').map((b) => b.id);
  for (const r of log.instances) if (!ids.includes(r.benchmark) && !agentic.has(r.benchmark)) ids.push(r.benchmark);
  const code = log.instances.filter((r) => !agentic.has(r.benchmark));
  return {
    benchmarks: ids.map((id) =>
      benchmarkMetrics(
        id,
        code.filter((r) => r.benchmark === id),
        target,
      ),
    ),
    overall: benchmarkMetrics('all', code, target),
  };
}
