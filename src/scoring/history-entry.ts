/**
 * The history of a project's runs: one entry per commit, made from the run log alone (docs/configuration.md, "History and dashboard").
 * Each entry keeps the figures the trend, the dashboard and the regression test need: the value,
 * its 95% interval and the counts behind it (so an exact test can be run later against it).
 *
 * The file is tolerant on read: a corrupted file or a bad entry is reported and skipped, never
 * fatal, because a broken history must not stop a pull request from getting its report.
 */
import { z } from 'zod';
import type { RunLog } from '../runlog/schema.js';
import { evaluateGate } from './gate.js';
import { computeMetrics, type BenchmarkMetrics } from './metrics.js';
import { computeSecurity, meanScoreOf, overallSecurity, type MeanScore, type Rate, type SecurityStats } from './security-metrics.js';
import { HARM_SCORE_BENCHMARKS, metricId, OBJECTIVE_SUCCESS, upgradeLegacyId, type MetricId } from './metric-id.js';

export const HISTORY_VERSION = 1;

/**
 * One measured figure. `k` of `n` are the events the rate counts: passes for pass@1, successful
 * attacks for ASR, completed tasks for TCR, pairs lost to the saboteur for the malicious drop
 * (`gained` holds the pairs that went the other way).
 */
export const figureSchema = z.object({
  value: z.number().nullable(),
  low: z.number(),
  high: z.number(),
  k: z.number().int().nonnegative(),
  n: z.number().int().nonnegative(),
  gained: z.number().int().nonnegative().optional(),
});
export type Figure = z.infer<typeof figureSchema>;

export const historyEntrySchema = z.object({
  sha: z.string().regex(/^[0-9a-f]{7,64}$/),
  branch: z.string().optional(),
  pr: z.number().int().optional(),
  runId: z.string(),
  runUrl: z.string().optional(),
  /** When the run finished (ISO 8601). */
  at: z.string(),
  status: z.enum(['completed', 'aborted']),
  model: z.object({ kind: z.string(), model: z.string().optional(), serverVersion: z.string().optional() }),
  configHash: z.string(),
  seed: z.number().int(),
  metrics: z.record(z.string(), figureSchema),
  /** The gate's threshold checks on this run (the dashboard draws the thresholds and marks failures); absent in older entries. */
  gate: z.array(z.object({ metric: z.string(), op: z.enum(['≤', '≥']), threshold: z.number(), pass: z.boolean() })).optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export interface HistoryRead {
  entries: HistoryEntry[];
  /** What was wrong with the stored history (corrupted file, dropped entries); empty when all was well. */
  problems: string[];
  /** False when there was no history yet (a first run): not a problem. */
  exists: boolean;
}

export { metricInfo, sortMetricIds, type MetricInfo } from './metric-id.js';

/** A figure of an entry by id; an entry written before figures carried their method is read as AutoInject's. */
export function figureIn(entry: Pick<HistoryEntry, 'metrics'> | undefined, id: string): Figure | undefined {
  if (!entry) return undefined;
  const f = entry.metrics[id];
  if (f !== undefined || !id.endsWith('[autoinject]')) return f;
  return entry.metrics[id.slice(0, -'[autoinject]'.length)];
}

function rateFigure(r: Rate): Figure {
  return { value: r.rate, low: r.interval.low, high: r.interval.high, k: r.hits, n: r.n };
}

function codeFigures(m: BenchmarkMetrics, benchmark: string | undefined, method: string, out: Partial<Record<MetricId, Figure>>): void {
  out[metricId({ figure: 'malicious-drop', benchmark, method })] = {
    value: m.drop.absolute,
    low: m.drop.interval.low,
    high: m.drop.interval.high,
    k: m.drop.controlOnly,
    n: m.drop.pairs,
    gained: m.drop.maliciousOnly,
  };
  out[metricId({ figure: 'pass@1', of: 'control', benchmark })] = {
    value: m.control.passAt1,
    low: m.control.interval.low,
    high: m.control.interval.high,
    k: m.control.passed,
    n: m.control.scored,
  };
  out[metricId({ figure: 'pass@1', of: 'malicious', benchmark, method })] = {
    value: m.malicious.passAt1,
    low: m.malicious.interval.low,
    high: m.malicious.interval.high,
    k: m.malicious.passed,
    n: m.malicious.scored,
  };
}

/** The figures of one benchmark (or all) under one defense: ASR (when harmful twins ran) and TCR; under a saboteur the TCR drop and objective success. */
function addSecurityFigures(s: SecurityStats, benchmark: string | undefined, method: string, out: Partial<Record<MetricId, Figure>>): void {
  if (s.asr.n > 0 || !s.sabotaged) out[metricId({ figure: 'asr', of: s.defense, benchmark, method })] = rateFigure(s.asr);
  out[metricId({ figure: 'tcr', of: s.defense, benchmark })] = rateFigure(s.tcr);
  const d = s.sabotaged?.drop;
  if (d)
    out[metricId({ figure: 'tcr-drop', of: s.defense, benchmark, method })] = {
      value: d.absolute,
      low: d.interval.low,
      high: d.interval.high,
      k: d.lost,
      n: d.pairs,
      gained: d.gained,
    };
  if (s.objective) out[metricId({ figure: OBJECTIVE_SUCCESS, of: s.defense, benchmark, method })] = rateFigure(s.objective.success);
}

/** A benchmark that scores its runs (AgentHarm): its own figures on the harmful runs, always named with the benchmark. */
function scoredFigures(s: SecurityStats, method: string, out: Partial<Record<MetricId, Figure>>): void {
  if (!HARM_SCORE_BENCHMARKS.has(s.benchmark) || s.asr.meanScore === null || s.asr.n === 0) return;
  const benchmark = s.benchmark;
  const figure = (m: MeanScore): Figure => ({ value: m.value, low: m.interval.low, high: m.interval.high, k: m.mass, n: m.n });
  out[metricId({ figure: 'harm-score', of: s.defense, benchmark, method })] = figure(meanScoreOf(s.asr.scores.all));
  out[metricId({ figure: 'harm-score-non-refused', of: s.defense, benchmark, method })] = figure(meanScoreOf(s.asr.scores.nonRefused));
  out[metricId({ figure: 'refusal', of: s.defense, benchmark, method })] = rateFigure(s.asr.refusal);
}

/**
 * Every figure of a run, by metric id: `malicious-drop`, `pass@1:control`, `pass@1:malicious`,
 * `asr:<defense>`, `tcr:<defense>`, and under a saboteur on agentic benchmarks `tcr-drop:<defense>`
 * and the objective success (`OBJECTIVE_SUCCESS`), over all benchmarks of their kind, and the same per benchmark as
 * `<benchmark>/<id>` when a run has more than one benchmark of that kind. Figures of the malicious
 * variant end in the method: `malicious-drop[autotransform]`.
 */
export function runFigures(log: RunLog): Partial<Record<MetricId, Figure>> {
  const out: Partial<Record<MetricId, Figure>> = {};
  const method = log.variants.malicious.method;
  const metrics = computeMetrics(log);
  if (metrics.benchmarks.length > 0) {
    codeFigures(metrics.overall, undefined, method, out);
    if (metrics.benchmarks.length > 1) for (const b of metrics.benchmarks) codeFigures(b, b.benchmark, method, out);
  }
  for (const defense of log.defenses) {
    const s = overallSecurity(log, defense);
    if (s) addSecurityFigures(s, undefined, method, out);
  }
  const security = computeSecurity(log);
  if (new Set(security.map((s) => s.benchmark)).size > 1) {
    for (const s of security) addSecurityFigures(s, s.benchmark, method, out);
  }
  for (const s of security) scoredFigures(s, method, out);
  return out;
}

export interface EntryMeta {
  sha: string;
  branch?: string;
  pr?: number;
  runUrl?: string;
}

export function entryFromRunLog(log: RunLog, meta: EntryMeta): HistoryEntry {
  return {
    sha: meta.sha.toLowerCase(),
    ...(meta.branch ? { branch: meta.branch } : {}),
    ...(meta.pr !== undefined ? { pr: meta.pr } : {}),
    runId: log.runId,
    ...(meta.runUrl ? { runUrl: meta.runUrl } : {}),
    at: log.finishedAt,
    status: log.status === 'completed' ? 'completed' : 'aborted',
    model: {
      kind: log.model.kind,
      ...(log.model.model ? { model: log.model.model } : {}),
      ...(log.model.serverVersion ? { serverVersion: log.model.serverVersion } : {}),
    },
    configHash: log.config.hash,
    seed: log.config.seed,
    metrics: runFigures(log) as Record<string, Figure>,
    ...(log.gate ? { gate: gateOf(log, log.gate) } : {}),
  };
}

/** The run's threshold checks by figure, as its run log recorded the thresholds. */
function gateOf(log: RunLog, thresholds: NonNullable<RunLog['gate']>): NonNullable<HistoryEntry['gate']> {
  return evaluateGate(log, thresholds).checks.flatMap((c) =>
    c.id && c.bound ? [{ metric: c.id, op: c.bound.op, threshold: c.bound.value, pass: c.pass }] : [],
  );
}

/** Reads a history file's text; never throws: what cannot be read is reported in `problems`. */
export function parseHistory(text: string | undefined, source: string): HistoryRead {
  if (text === undefined) return { entries: [], problems: [], exists: false };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { entries: [], problems: [`${source}: the history is not JSON (${(err as Error).message}); starting a new one`], exists: true };
  }
  const doc = raw as { schemaVersion?: unknown; entries?: unknown };
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.entries)) {
    return { entries: [], problems: [`${source}: the history has no "entries" list; starting a new one`], exists: true };
  }
  if (doc.schemaVersion !== HISTORY_VERSION) {
    return {
      entries: [],
      problems: [
        `${source}: schemaVersion ${JSON.stringify(doc.schemaVersion)} is not supported (this saboteur reads ${HISTORY_VERSION}); starting a new one`,
      ],
      exists: true,
    };
  }
  const entries: HistoryEntry[] = [];
  const problems: string[] = [];
  doc.entries.forEach((item, i) => {
    const parsed = historyEntrySchema.safeParse(item);
    // Entries stored before figures carried their method were AutoInject runs: read their ids as such, so trends continue.
    if (parsed.success)
      entries.push({
        ...parsed.data,
        metrics: Object.fromEntries(Object.entries(parsed.data.metrics).map(([id, f]) => [upgradeLegacyId(id), f])),
      });
    else {
      const issue = parsed.error.issues[0];
      problems.push(`${source}: entries[${i}] dropped: ${issue.path.join('.') || '(entry)'}: ${issue.message}`);
    }
  });
  return { entries, problems, exists: true };
}

export function serializeHistory(entries: HistoryEntry[]): string {
  return `${JSON.stringify({ schemaVersion: HISTORY_VERSION, entries }, null, 2)}\n`;
}

/**
 * Adds `entry`: one entry per commit, so a second run of the same commit replaces the first in
 * place; then only the newest `keep` entries are kept.
 */
export function addEntry(entries: readonly HistoryEntry[], entry: HistoryEntry, keep: number): HistoryEntry[] {
  const i = entries.findIndex((e) => e.sha === entry.sha);
  const next = i >= 0 ? entries.map((e, j) => (j === i ? entry : e)) : [...entries, entry];
  return next.length > keep ? next.slice(next.length - keep) : next;
}

/** The base branch's last stored run before this commit: what a pull request is compared with. */
export function findBase(
  entries: readonly HistoryEntry[],
  baseBranch: string | undefined,
  sha: string | undefined,
): HistoryEntry | undefined {
  if (!baseBranch) return undefined;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.branch === baseBranch && e.sha !== sha?.toLowerCase() && e.status === 'completed') return e;
  }
  return undefined;
}

/** The last `max` completed runs on a branch, oldest first (the trend). */
export function branchTrend(entries: readonly HistoryEntry[], branch: string | undefined, max: number, exceptSha?: string): HistoryEntry[] {
  if (!branch) return [];
  const mine = entries.filter((e) => e.branch === branch && e.status === 'completed' && e.sha !== exceptSha?.toLowerCase());
  return mine.slice(Math.max(0, mine.length - max));
}
