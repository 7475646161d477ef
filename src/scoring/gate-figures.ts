/**
 * Gate checks on one benchmark's figure named by its metric id (config `gate.figures`): its ASR or
 * TCR, and AgentHarm's harm score, harm score without refusals and refusal rate. Pure: the run log
 * and the bound in, a check out; a figure that could not be measured fails its check.
 */
import type { RunLog } from '../runlog/schema.js';
import type { GateCheck } from './gate.js';
import { HARM_SCORE_BENCHMARKS, metricId, parseMetricId, type MetricKey } from './metric-id.js';
import { computeSecurity, meanScoreOf } from './security-metrics.js';
import type { Interval } from './stats.js';

const GATED = new Set(['asr', 'tcr', 'harm-score', 'harm-score-non-refused', 'refusal']);

/** The parsed id when it names a figure `gate.figures` can bound: one benchmark's, under one defense. */
export function gatedFigureKey(id: string): MetricKey | undefined {
  const key = parseMetricId(id);
  if (!key || !key.benchmark || !key.of || !GATED.has(key.figure)) return undefined;
  if (key.figure !== 'asr' && key.figure !== 'tcr' && !HARM_SCORE_BENCHMARKS.has(key.benchmark)) return undefined;
  return key;
}

function measure(log: RunLog, key: MetricKey): { value: number | null; interval?: Interval } {
  const s = computeSecurity(log).find((x) => x.benchmark === key.benchmark && x.defense === key.of);
  if (!s) return { value: null };
  if (key.figure === 'asr') return { value: s.asr.rate, interval: s.asr.interval };
  if (key.figure === 'tcr') return { value: s.tcr.rate, interval: s.tcr.interval };
  if (key.figure === 'refusal') return { value: s.asr.refusal.rate, interval: s.asr.refusal.interval };
  const m = meanScoreOf(key.figure === 'harm-score' ? s.asr.scores.all : s.asr.scores.nonRefused);
  return { value: m.value, interval: m.interval };
}

export function gatedFigureCheck(log: RunLog, id: string, bound: { max?: number; min?: number }): GateCheck {
  const key = gatedFigureKey(id);
  const op = bound.max !== undefined ? '≤' : '≥';
  const limit = (bound.max ?? bound.min)!;
  const base = { metric: id, threshold: `${op} ${limit}`, bound: { op, value: limit } as const, format: 'rate' as const };
  if (!key) return { ...base, value: null, pass: false, why: `${id} is not a figure the gate can bound` };
  const { value, interval } = measure(log, key);
  // Figures of the malicious variant carry the method, as the history names them.
  const named = metricId({ ...key, ...(key.figure === 'tcr' ? {} : { method: log.variants.malicious.method }) });
  if (value === null) return { ...base, id: named, value: null, pass: false, why: `no graded runs for ${id}` };
  return { ...base, id: named, value, pass: op === '≤' ? value <= limit : value >= limit, ...(interval ? { interval } : {}) };
}
