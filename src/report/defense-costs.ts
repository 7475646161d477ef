/**
 * What each defense stopped and what it cost, from the run log's tool events: every staged sink a
 * defense blocked (or could not verify) with its reason, and every benign task that completed
 * without a defense but not under it, with the sinks that were blocked in it and why.
 */
import type { InstanceResult, RunLog } from '../runlog/schema.js';
import { code, escapeInline } from './escape.js';
import { plural } from './format.js';

type ToolEvent = NonNullable<InstanceResult['trace']['tools']>[number];

const stopped = (t: ToolEvent): boolean => !!t.staged && t.staged.decision !== 'release';
const agentic = (log: RunLog): Set<string> => new Set(log.benchmarks.filter((b) => b.kind === 'agentic').map((b) => b.id));
const side = (r: InstanceResult): string => r.security?.role ?? (r.variant === 'malicious' ? 'harmful' : 'benign');
const pairKey = (r: InstanceResult): string => `${r.benchmark}\u0000${r.instanceId}\u0000${r.variant}`;

function decisionCell(t: ToolEvent): string {
  return `${t.staged!.decision}${t.staged!.observed ? ' (observed: it ran)' : ''}`;
}

/** The benign tasks each defense lost against the run without one: completed under `none`, not under the defense. */
export function benignCosts(log: RunLog): Map<string, InstanceResult[]> {
  const costs = new Map<string, InstanceResult[]>();
  if (!log.defenses.includes('none')) return costs;
  const kinds = agentic(log);
  const benign = log.instances.filter((r) => kinds.has(r.benchmark) && r.variant === 'control');
  const completed = new Set(benign.filter((r) => r.defense === 'none' && r.outcome === 'passed').map(pairKey));
  for (const d of log.defenses)
    if (d !== 'none')
      costs.set(
        d,
        benign.filter((r) => r.defense === d && r.outcome !== 'passed' && completed.has(pairKey(r))),
      );
  return costs;
}

/** One cell: "2 tasks" or "–" when there is no run without a defense to compare with. */
export function costCell(costs: Map<string, InstanceResult[]>, defense: string, benchmark?: string): string {
  if (defense === 'none') return '–';
  const lost = costs.get(defense);
  if (!lost) return '–';
  return plural(lost.filter((r) => benchmark === undefined || r.benchmark === benchmark).length, 'task');
}

/** Why a benign task was lost: its stopped sinks and their reasons, else its outcome. */
function lossReason(r: InstanceResult): string {
  const blocked = (r.trace.tools ?? []).filter(stopped);
  if (blocked.length) return blocked.map((t) => `${t.tool} ${t.staged!.decision}: ${t.staged!.reason ?? 'no reason recorded'}`).join('; ');
  return `${r.outcome}${r.error ? `: ${r.error}` : ''} (no sink was stopped)`;
}

export function benignCostDetails(log: RunLog, max: number): string[] {
  const costs = benignCosts(log);
  const lost = [...costs.entries()].flatMap(([defense, rs]) => rs.map((r) => ({ defense, r })));
  if (lost.length === 0) return [];
  const out = [
    '',
    `<details><summary>${plural(lost.length, 'benign task')} completed without a defense but not under one</summary>`,
    '',
    '| benchmark | task | defense | outcome | why |',
    '|---|---|---|---|---|',
  ];
  for (const { defense, r } of lost.slice(0, max))
    out.push(
      `| ${escapeInline(r.benchmark, 60)} | ${code(r.taskId ?? r.instanceId)} | ${code(defense)} | ${escapeInline(r.outcome, 20)} | ${escapeInline(lossReason(r), 600)} |`,
    );
  if (lost.length > max) out.push(`| … | | | | ${lost.length - max} more in run.json |`);
  out.push('', '</details>');
  return out;
}

export function blockedSinkDetails(log: RunLog, max: number): string[] {
  const kinds = agentic(log);
  const rows = log.instances
    .filter((r) => kinds.has(r.benchmark))
    .flatMap((r) => (r.trace.tools ?? []).filter(stopped).map((t) => ({ r, t })));
  if (rows.length === 0) return [];
  const out = [
    '',
    `<details><summary>${plural(rows.length, 'staged sink')} blocked or unverifiable, with the reason</summary>`,
    '',
    '| benchmark | task | side | defense | tool | sinks | decision | reason |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const { r, t } of rows.slice(0, max)) {
    out.push(
      `| ${escapeInline(r.benchmark, 60)} | ${code(r.taskId ?? r.instanceId)} | ${escapeInline(side(r), 20)} | ${code(r.defense)} | ${code(t.tool)} | ${escapeInline(t.staged!.sinks.join(', '), 80)} | ${decisionCell(t)} | ${escapeInline(t.staged!.reason ?? 'no reason recorded', 400)} |`,
    );
  }
  if (rows.length > max) out.push(`| … | | | | | | | ${rows.length - max} more in run.json |`);
  out.push('', '</details>');
  return out;
}
