/**
 * The trend in the PR comment: a Mermaid `xychart-beta` line per headline metric over the base
 * branch's last stored runs, with this run as the last point. GitHub renders Mermaid blocks in
 * comments; elsewhere the block reads as a plain list of numbers.
 */
import { figureIn, type HistoryEntry } from '../scoring/history-entry.js';
import { metricInfo, OBJECTIVE_SUCCESS, parseMetricId } from '../scoring/metric-id.js';
import { mermaidText as label } from './escape.js';

function niceBounds(values: number[], unit: 'pts' | '%'): [number, number] {
  if (unit === '%') return [0, 100];
  const lo = Math.min(0, ...values);
  const hi = Math.max(10, ...values);
  return [Math.floor(lo / 10) * 10, Math.ceil(hi / 10) * 10];
}

/**
 * One chart for `metric`, or undefined when fewer than two points have a value. `points` are the
 * base branch's runs oldest first; `current` is this run, labelled `currentLabel`.
 */
export function trendChart(
  metric: string,
  points: readonly HistoryEntry[],
  current: HistoryEntry | undefined,
  branch: string,
  currentLabel: string,
): string | undefined {
  const info = metricInfo(metric);
  const xs: string[] = [];
  const ys: number[] = [];
  for (const e of points) {
    const v = figureIn(e, metric)?.value;
    if (v === null || v === undefined) continue;
    xs.push(e.sha.slice(0, 7));
    ys.push(Math.round(v * 1000) / 10);
  }
  const v = current?.metrics[metric]?.value;
  if (v !== null && v !== undefined) {
    xs.push(currentLabel);
    ys.push(Math.round(v * 1000) / 10);
  }
  if (ys.length < 2) return undefined;
  const [lo, hi] = niceBounds(ys, info.unit);
  return [
    '```mermaid',
    'xychart-beta',
    `    title "${label(`${info.label} on ${branch}`)}"`,
    `    x-axis [${xs.map((x) => `"${label(x)}"`).join(', ')}]`,
    `    y-axis "${info.unit === 'pts' ? 'points' : 'percent'}" ${lo} --> ${hi}`,
    `    line [${ys.map((y) => y.toFixed(1)).join(', ')}]`,
    '```',
  ].join('\n');
}

/** Charts for the headline metrics worth a trend: the malicious drop, then ASR, the TCR drop and objective success under each defense. */
export function trendCharts(
  points: readonly HistoryEntry[],
  current: HistoryEntry,
  branch: string,
  currentLabel: string,
  max = 3,
): string[] {
  const RANK: Record<string, number> = { 'malicious-drop': 0, asr: 1, 'tcr-drop': 2, [OBJECTIVE_SUCCESS]: 3 };
  const rank = (m: string) => {
    const key = parseMetricId(m);
    return key && key.benchmark === undefined ? (RANK[key.figure] ?? -1) : -1;
  };
  const metrics = Object.keys(current.metrics).filter((m) => rank(m) >= 0);
  metrics.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const charts: string[] = [];
  for (const m of metrics) {
    const chart = trendChart(m, points, current, branch, currentLabel);
    if (chart) charts.push(chart);
    if (charts.length >= max) break;
  }
  return charts;
}
