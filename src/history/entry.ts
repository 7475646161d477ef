/**
 * The history of a project's runs: one entry per commit, made from the run log alone (SPEC §8).
 * Each entry keeps the figures the trend, the dashboard and the regression test need: the value,
 * its 95% interval and the counts behind it (so an exact test can be run later against it).
 *
 * The file is tolerant on read: a corrupted file or a bad entry is reported and skipped, never
 * fatal, because a broken history must not stop a pull request from getting its report.
 */
import { z } from 'zod';
import type { RunLog } from '../runlog/schema.js';
import { computeMetrics, type BenchmarkMetrics } from '../scoring/metrics.js';
import { computeSecurity, overallSecurity, type Rate } from '../scoring/security-metrics.js';

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
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export interface HistoryRead {
  entries: HistoryEntry[];
  /** What was wrong with the stored history (corrupted file, dropped entries); empty when all was well. */
  problems: string[];
  /** False when there was no history yet (a first run): not a problem. */
  exists: boolean;
}

/** How a metric reads: its label, whether a rise is bad, and how its value is shown. */
export interface MetricInfo {
  id: string;
  label: string;
  benchmark?: string;
  higherIsWorse: boolean;
  /** 'pts' for differences (shown as signed points), '%' for rates. */
  unit: 'pts' | '%';
  /** Gated by the regression test (the headline figures). */
  headline: boolean;
}

export function metricInfo(id: string): MetricInfo {
  const slash = id.indexOf('/');
  const benchmark = slash >= 0 ? id.slice(0, slash) : undefined;
  const base = slash >= 0 ? id.slice(slash + 1) : id;
  const prefix = benchmark ? `${benchmark}: ` : '';
  const headline = benchmark === undefined;
  if (base === 'malicious-drop') return { id, label: `${prefix}malicious drop`, benchmark, higherIsWorse: true, unit: 'pts', headline };
  const m = /^(pass@1|asr|tcr):(.+)$/.exec(base);
  if (m?.[1] === 'pass@1') return { id, label: `${prefix}pass@1 ${m[2]}`, benchmark, higherIsWorse: false, unit: '%', headline: false };
  if (m?.[1] === 'asr') return { id, label: `${prefix}ASR (${m[2]})`, benchmark, higherIsWorse: true, unit: '%', headline };
  if (m?.[1] === 'tcr') return { id, label: `${prefix}TCR (${m[2]})`, benchmark, higherIsWorse: false, unit: '%', headline };
  return { id, label: id, benchmark, higherIsWorse: true, unit: '%', headline: false };
}

/** Display order: headline figures first, then per benchmark, each in a fixed order. */
export function sortMetricIds(ids: Iterable<string>): string[] {
  const rank = (id: string): number => {
    const base = id.includes('/') ? id.slice(id.indexOf('/') + 1) : id;
    if (base === 'malicious-drop') return 0;
    if (base === 'pass@1:control') return 1;
    if (base === 'pass@1:malicious') return 2;
    if (base.startsWith('asr:')) return 3;
    if (base.startsWith('tcr:')) return 4;
    return 5;
  };
  const key = (id: string) => {
    const info = metricInfo(id);
    return { group: info.benchmark === undefined ? 0 : 1, benchmark: info.benchmark ?? '', rank: rank(id) };
  };
  return [...new Set(ids)].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka.group - kb.group || ka.benchmark.localeCompare(kb.benchmark) || ka.rank - kb.rank || a.localeCompare(b);
  });
}

function rateFigure(r: Rate): Figure {
  return { value: r.rate, low: r.interval.low, high: r.interval.high, k: r.hits, n: r.n };
}

function codeFigures(m: BenchmarkMetrics, prefix: string, out: Record<string, Figure>): void {
  out[`${prefix}malicious-drop`] = { value: m.drop.absolute, low: m.drop.interval.low, high: m.drop.interval.high, k: m.drop.controlOnly, n: m.drop.pairs, gained: m.drop.maliciousOnly };
  out[`${prefix}pass@1:control`] = { value: m.control.passAt1, low: m.control.interval.low, high: m.control.interval.high, k: m.control.passed, n: m.control.scored };
  out[`${prefix}pass@1:malicious`] = { value: m.malicious.passAt1, low: m.malicious.interval.low, high: m.malicious.interval.high, k: m.malicious.passed, n: m.malicious.scored };
}

/**
 * Every figure of a run, by metric id: `malicious-drop`, `pass@1:control`, `pass@1:malicious`,
 * `asr:<defense>`, `tcr:<defense>` over all benchmarks of their kind, and the same per benchmark
 * as `<benchmark>/<id>` when a run has more than one benchmark of that kind.
 */
export function runFigures(log: RunLog): Record<string, Figure> {
  const out: Record<string, Figure> = {};
  const metrics = computeMetrics(log);
  if (metrics.benchmarks.length > 0) {
    codeFigures(metrics.overall, '', out);
    if (metrics.benchmarks.length > 1) for (const b of metrics.benchmarks) codeFigures(b, `${b.benchmark}/`, out);
  }
  for (const defense of log.defenses) {
    const s = overallSecurity(log, defense);
    if (!s) continue;
    out[`asr:${defense}`] = rateFigure(s.asr);
    out[`tcr:${defense}`] = rateFigure(s.tcr);
  }
  const security = computeSecurity(log);
  if (new Set(security.map((s) => s.benchmark)).size > 1) {
    for (const s of security) {
      out[`${s.benchmark}/asr:${s.defense}`] = rateFigure(s.asr);
      out[`${s.benchmark}/tcr:${s.defense}`] = rateFigure(s.tcr);
    }
  }
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
    status: log.status,
    model: { kind: log.model.kind, ...(log.model.model ? { model: log.model.model } : {}), ...(log.model.serverVersion ? { serverVersion: log.model.serverVersion } : {}) },
    configHash: log.config.hash,
    seed: log.config.seed,
    metrics: runFigures(log),
  };
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
    return { entries: [], problems: [`${source}: schemaVersion ${JSON.stringify(doc.schemaVersion)} is not supported (this saboteur reads ${HISTORY_VERSION}); starting a new one`], exists: true };
  }
  const entries: HistoryEntry[] = [];
  const problems: string[] = [];
  doc.entries.forEach((item, i) => {
    const parsed = historyEntrySchema.safeParse(item);
    if (parsed.success) entries.push(parsed.data);
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
export function findBase(entries: readonly HistoryEntry[], baseBranch: string | undefined, sha: string | undefined): HistoryEntry | undefined {
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
