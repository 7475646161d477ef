/**
 * The pull request comment (and the job summary, the same text): the report of the run log with
 * a headline that sets this run beside the base branch's last stored run (metric, this PR, base,
 * Δ, threshold, ✅/❌), the trend over the base branch, the gate's verdict and a link to the
 * run's artifacts. Pure; golden-file tested. The body stays under GitHub's comment limit with a
 * visible cut, and the hidden REPORT_MARKER at the top is how the sticky comment is found again.
 */
import type { GateSettings } from '../scoring/gate.js';
import type { GateCheck, GateResult } from '../scoring/gate.js';
import { figureIn, type Figure, type HistoryEntry } from '../scoring/history-entry.js';
import type { Comparison } from '../scoring/regression.js';
import { metricInfo, sortMetricIds } from '../scoring/metric-id.js';
import type { RunLog } from '../runlog/schema.js';
import { code, escapeInline, safeUrl } from './escape.js';
import { ci, pct } from './format.js';
import { renderReport } from './markdown.js';
import type { MethodReport } from './method-report.js';
import { cutMarkdown, GITHUB_COMMENT_LIMIT } from './truncate.js';
import { trendCharts } from './trend.js';

/** A margin under GitHub's 65,536: its count and ours may differ on the odd character. */
export const COMMENT_BUDGET = GITHUB_COMMENT_LIMIT - 536;

export interface CommentOptions {
  current: HistoryEntry;
  comparisons: Comparison[];
  /** The combined verdict: absolute thresholds and regression checks. */
  gate: GateResult;
  thresholds: GateSettings;
  base?: HistoryEntry;
  baseBranch?: string;
  /** How the base is named instead of "BRANCH at SHA" (saboteur compare: the base run log's file). */
  baseLabel?: string;
  /** The base branch's last runs, oldest first. */
  trend: readonly HistoryEntry[];
  /** What this run is called in the table: "this PR", "this commit". */
  subject?: string;
  /** The trend's label for this run ("PR 12"). */
  trendLabel?: string;
  artifactsUrl?: string;
  /** The run's injection method as the report tells it (`RenderOptions.method`). */
  method?: MethodReport;
  /** Plain-text notes shown under the verdict (history problems, skipped steps); escaped here. */
  notes?: string[];
  maxChars?: number;
}

function signed(x: number, digits = 1): string {
  const v = x * 100;
  const s = Math.abs(v).toFixed(digits);
  if (Number(s) === 0) return `±${s}`;
  return `${v > 0 ? '+' : '−'}${s}`;
}

function figureValue(metric: string, f: Figure | undefined): string {
  if (!f || f.value === null) return '–';
  return metricInfo(metric).unit === 'pts' ? `${signed(f.value)} pts` : pct(f.value);
}

function figureCell(metric: string, f: Figure): string {
  if (f.value === null) return '–';
  const info = metricInfo(metric);
  const range = info.unit === 'pts' ? `[${signed(f.low)}, ${signed(f.high)}]` : ci(f);
  const counts = info.unit === 'pts' ? `${f.k} of ${f.n} pairs lost` : `${f.k}/${f.n}`;
  return `${figureValue(metric, f)} ${range} (${counts})`;
}

/** "p = 0.013", or "p < 0.001". */
function pText(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

/** Metric labels are built from benchmark and defense names a run log carries: escaped like any input. */
function tableSafe(text: string): string {
  return escapeInline(text, 120);
}

function deltaCell(metric: string, cur: Figure, base: Figure | undefined, p: number | null | undefined): string {
  if (!base || cur.value === null || base.value === null) return '–';
  return `${signed(cur.value - base.value)} pts${p !== null && p !== undefined ? ` (${pText(p)})` : ''}`;
}

function thresholdCell(metric: string, t: GateSettings): string {
  const parts: string[] = [];
  const info = metricInfo(metric);
  // The thresholds hold whatever method measured the figure.
  const key = info.key && info.benchmark === undefined ? info.key : undefined;
  if (t.maliciousDrop && key?.figure === 'malicious-drop') parts.push(`≤ ${(t.maliciousDrop.max * 100).toFixed(1)} pts`);
  if (t.asr && key?.figure === 'asr' && key.of === t.asr.defense) parts.push(`≤ ${(t.asr.max * 100).toFixed(1)}%`);
  if (t.tcr && key?.figure === 'tcr' && key.of === t.tcr.defense) parts.push(`≥ ${(t.tcr.min * 100).toFixed(1)}%`);
  if (t.regression && info.headline) {
    const step = (t.regression.maxIncrease * 100).toFixed(1);
    parts.push(`Δ ${info.higherIsWorse ? `≤ +${step}` : `≥ −${step}`} pts or p ≥ ${t.regression.significance}`);
  }
  return parts.length ? parts.join('; ') : '–';
}

function statusCell(checks: GateCheck[]): string {
  if (checks.length === 0) return '–';
  return checks.every((c) => c.pass) ? '✅' : '❌';
}

function headlineTable(opts: CommentOptions, subject: string): string[] {
  const rows = ['| metric | ' + subject + ' | base | Δ | threshold | |', '|---|---|---|---|---|---|'];
  const checksFor = new Map<string, GateCheck[]>();
  const loose: GateCheck[] = [];
  for (const c of opts.gate.checks) {
    const m = c.id;
    if (m === undefined) loose.push(c);
    else checksFor.set(m, [...(checksFor.get(m) ?? []), c]);
  }
  const metrics = sortMetricIds(Object.keys(opts.current.metrics)).filter((m) => metricInfo(m).benchmark === undefined);
  for (const m of checksFor.keys()) if (!metrics.includes(m)) metrics.push(m);
  for (const m of metrics) {
    const cur = opts.current.metrics[m];
    const comparison = opts.comparisons.find((c) => c.metric === m);
    const base = figureIn(opts.base, m);
    const label = tableSafe(metricInfo(m).label);
    const thisCell = cur ? figureCell(m, cur) : '–';
    const delta = cur ? deltaCell(m, cur, base, comparison?.pValue) : '–';
    const baseCell = opts.base ? figureValue(m, base) : '–';
    rows.push(
      `| ${metricInfo(m).key?.figure === 'malicious-drop' ? `**${label}**` : label} | ${thisCell} | ${baseCell} | ${delta} | ${thresholdCell(m, opts.thresholds)} | ${statusCell(checksFor.get(m) ?? [])} |`,
    );
  }
  for (const c of loose)
    rows.push(
      `| ${escapeInline(c.metric, 60)} | ${c.value === null ? (c.why ? escapeInline(c.why, 80) : '–') : c.value.toFixed(4)} | | | ${escapeInline(c.threshold, 60)} | ${c.pass ? '✅' : '❌'} |`,
    );
  return rows;
}

function verdict(gate: GateResult): string {
  if (gate.checks.length === 0) return '**Gate: no thresholds set** (add `gate:` to saboteur.yml to gate merges).';
  if (gate.pass) return '**Gate: ✅ passed**';
  const failed = gate.checks
    .filter((c) => !c.pass)
    .map(
      (c) =>
        `${escapeInline(c.metric, 60)}${c.why ? ` (${escapeInline(c.why, 160)})` : c.value !== null ? ` (${c.value.toFixed(3)}, allowed ${escapeInline(c.threshold, 40)})` : ''}`,
    );
  return `**Gate: ❌ failed**: ${failed.join('; ')}`;
}

function baseLine(opts: CommentOptions): string[] {
  const branch = opts.baseBranch ? code(opts.baseBranch) : 'the base branch';
  if (!opts.base) return [`No stored run on ${branch} yet: nothing to compare with. The history starts with the first run on ${branch}.`];
  const b = opts.base;
  const runUrl = safeUrl(b.runUrl);
  const lines = [
    `Compared with ${opts.baseLabel ? code(opts.baseLabel) : `${branch} at ${code(b.sha.slice(0, 7))}`} (run ${code(b.runId)}${runUrl ? `, [log](${runUrl})` : ''}).`,
  ];
  const diffs: string[] = [];
  if (b.configHash !== opts.current.configHash)
    diffs.push(`config ${code(b.configHash.slice(0, 12))} → ${code(opts.current.configHash.slice(0, 12))}`);
  if (b.model.model !== opts.current.model.model || b.model.kind !== opts.current.model.kind)
    diffs.push(
      `model ${code(`${b.model.model ?? '?'} (${b.model.kind})`)} → ${code(`${opts.current.model.model ?? '?'} (${opts.current.model.kind})`)}`,
    );
  else if (b.model.serverVersion !== opts.current.model.serverVersion)
    diffs.push(`server ${code(b.model.serverVersion ?? '?')} → ${code(opts.current.model.serverVersion ?? '?')}`);
  if (b.seed !== opts.current.seed) diffs.push(`sample seed ${b.seed} → ${opts.current.seed}`);
  if (diffs.length)
    lines.push(
      '',
      '> [!NOTE]',
      `> Not the same setup as the base run: ${diffs.join('; ')}. Differences may come from these, not only from the code.`,
    );
  return lines;
}

/** Splits the report into its preamble (marker, title, run line, warnings) and its `## ` sections. */
function reportParts(log: RunLog, method?: MethodReport): { preamble: string; sections: { name: string; text: string }[] } {
  const parts = renderReport(log, method ? { method } : {})
    .replace(/\n+$/, '')
    .split(/\n(?=## )/);
  return {
    preamble: parts[0].replace(/\n+$/, ''),
    sections: parts.slice(1).map((text) => ({ name: text.slice(3, text.indexOf('\n') < 0 ? undefined : text.indexOf('\n')).trim(), text })),
  };
}

export function renderComment(log: RunLog, opts: CommentOptions): string {
  const subject = opts.subject ?? 'this PR';
  const { preamble, sections } = reportParts(log, opts.method);
  const head: string[] = [preamble, '', verdict(opts.gate), '', ...baseLine(opts)];
  if (opts.notes?.length) head.push('', ...opts.notes.slice(0, 10).map((n) => `- ⚠️ ${escapeInline(n, 400)}`));
  head.push('', '## Headline', '', ...headlineTable(opts, subject));
  const charts = opts.baseBranch ? trendCharts(opts.trend, opts.current, opts.baseBranch, opts.trendLabel ?? subject) : [];
  if (charts.length) {
    head.push(
      '',
      `## Trend on ${code(opts.baseBranch!)}`,
      '',
      `The last ${opts.trend.length} stored runs on ${code(opts.baseBranch!)}, then ${escapeInline(subject, 40)}.`,
      '',
    );
    head.push(charts.join('\n\n'));
  }
  const body = sections
    .filter((s) => s.name !== 'Headline')
    .map((s) => s.text)
    .join('\n');
  const artifacts = safeUrl(opts.artifactsUrl);
  const tail = artifacts ? `\n\n---\n\nFull run log, traces and report: [this run's artifacts](${artifacts})\n` : '\n';
  const headText = `${head.join('\n')}\n\n`;
  const maxChars = opts.maxChars ?? COMMENT_BUDGET;
  const budget = maxChars - headText.length - tail.length;
  const why =
    maxChars <= GITHUB_COMMENT_LIMIT
      ? `to stay under GitHub's limit of ${GITHUB_COMMENT_LIMIT.toLocaleString('en-US')} characters for a comment. The full report is in the job summary and the run's artifacts.`
      : "to stay under GitHub's size limit for a job summary. The full report is in the run's artifacts.";
  const notice = (cut: number) => `> [!WARNING]\n> ✂️ **The report was cut here** (${cut.toLocaleString('en-US')} more characters) ${why}`;
  const cutBody = cutMarkdown(body, Math.max(0, budget), notice);
  return `${headText}${cutBody}${tail}`;
}
