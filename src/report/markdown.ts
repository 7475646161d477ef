/**
 * The Markdown report, rendered from the run log alone by a pure function (golden-file tested).
 * The same text serves `report.md`, the job summary and, later, the PR comment.
 */
import type { InstanceResult, RunLog } from '../runlog/schema.js';
import { computeMetrics, type BenchmarkMetrics, type VariantStats } from '../scoring/metrics.js';
import { code, escapeInline, fenced } from './escape.js';
import { ci, pct, plural, pts, pValue } from './format.js';
import { agentCallTable } from './agent-calls.js';

export { pct, pts } from './format.js';
import { servingLine } from './compat.js';
import { securityHeadline, securitySection } from './security-tables.js';
import { gateSection } from './gate-table.js';
import { overallSecurity } from '../scoring/security-metrics.js';

export const REPORT_MARKER = '<!-- saboteur-report -->';

function passCell(s: VariantStats): string {
  return s.scored === 0 ? '–' : `${pct(s.passAt1)} (${s.passed}/${s.scored})`;
}

function apartCell(s: VariantStats): string {
  const parts: string[] = [];
  if (s.counts.error) parts.push(`${s.counts.error} error`);
  if (s.counts.timeout) parts.push(`${s.counts.timeout} timeout`);
  if (s.counts['model-error']) parts.push(`${s.counts['model-error']} model-error`);
  if (s.counts.refused) parts.push(`${s.counts.refused} refused`);
  if (s.counts.skipped) parts.push(`${s.counts.skipped} skipped`);
  if (s.counts['not-graded']) parts.push(`${s.counts['not-graded']} not graded`);
  return parts.length ? parts.join(', ') : '0';
}

function headline(m: BenchmarkMetrics): string[] {
  const d = m.drop;
  return [
    '| metric | value | 95% interval | note |',
    '|---|---|---|---|',
    `| pass@1 control | ${passCell(m.control)} | ${ci(m.control.interval)} | ${apartCell(m.control)} not scored |`,
    `| pass@1 malicious | ${passCell(m.malicious)} | ${ci(m.malicious.interval)} | ${apartCell(m.malicious)} not scored |`,
    `| **malicious drop** | **${pts(d.absolute)}** (${d.relative === null ? '–' : pct(d.relative)} relative) | ${ci(d.interval, true)} pts | McNemar exact p = ${pValue(d.pValue)} over ${d.pairs} pairs (${d.controlOnly} lost, ${d.maliciousOnly} gained) |`,
  ];
}

function benchmarkTable(log: RunLog, all: BenchmarkMetrics[]): string[] {
  const lines = [
    '| benchmark | instances | pass@1 control | pass@1 malicious | drop | p | not scored (control / malicious) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const m of all) {
    const info = log.benchmarks.find((b) => b.id === m.benchmark);
    const inst = info ? `${info.selected} of ${info.total}` : String(m.control.instances);
    lines.push(
      `| ${m.benchmark} | ${inst} | ${passCell(m.control)} | ${passCell(m.malicious)} | ${pts(m.drop.absolute)} | ${pValue(m.drop.pValue)} | ${apartCell(m.control)} / ${apartCell(m.malicious)} |`,
    );
  }
  return lines;
}

/** Which messages were corrupted, how, and what each corruption cost. */
function sabotageDetails(log: RunLog, maxInstances: number): string[] {
  const hit = log.instances.filter((r) => r.trace.calls.some((c) => c.corruption));
  const m = log.variants.malicious;
  const head = `AutoInject on ${code(m.target)}: Pm = ${m.messageRate}, Pe = ${m.errorRate}, ${m.corruption} corruption`;
  if (hit.length === 0) return [`${head}. No message was corrupted in this run.`];
  const control = new Map(log.instances.filter((r) => r.variant === 'control').map((r) => [`${r.benchmark}/${r.instanceId}/${r.defense}`, r]));
  const units = hit.reduce((s, r) => s + r.trace.calls.reduce((t, c) => t + (c.corruption?.units.length ?? 0), 0), 0);
  const out = [`<details><summary>${head}: ${plural(units, 'unit')} corrupted in ${plural(hit.length, 'instance')}</summary>`, ''];
  for (const r of hit.slice(0, maxInstances)) {
    const before = control.get(`${r.benchmark}/${r.instanceId}/${r.defense}`);
    const effect = before ? `control ${before.outcome} → malicious ${r.outcome}` : `malicious ${r.outcome}`;
    out.push(`**${code(r.instanceId)}** (${effect})`, '');
    for (const call of r.trace.calls) {
      if (!call.corruption) continue;
      const oneLine = (t: string) => t.replace(/\r?\n/g, ' ⏎ ');
      const diff = call.corruption.units.flatMap((u) => [`- ${oneLine(u.before)}`, `+ ${oneLine(u.after)}`]).join('\n');
      const rules = [...new Set(call.corruption.units.map((u) => u.rule))].join(', ');
      const fallback = call.corruption.fallback ? ` (semantic fell back: ${escapeInline(call.corruption.fallback, 120)})` : '';
      out.push(`${code(call.agent)} call ${call.agentCallIndex + 1}, ${plural(call.corruption.units.length, call.corruption.unit)}, rules: ${rules}${fallback}`, '', fenced(diff, 'diff'), '');
    }
  }
  if (hit.length > maxInstances) out.push(`… and ${plural(hit.length - maxInstances, 'more instance')} (all of them are in run.json).`, '');
  out.push('</details>');
  return out;
}

function problems(log: RunLog, max: number): string[] {
  const bad = log.instances.filter((r) => r.outcome === 'error' || r.outcome === 'timeout' || r.outcome === 'model-error' || r.outcome === 'not-graded');
  if (bad.length === 0) return [];
  const out = ['', `<details><summary>${plural(bad.length, 'instance run')} not scored (errors, timeouts, model errors, not gradable here)</summary>`, '', '| instance | variant | outcome | what happened |', '|---|---|---|---|'];
  for (const r of bad.slice(0, max)) out.push(`| ${code(r.instanceId)} | ${r.variant} | ${r.outcome} | ${escapeInline(r.error ?? r.security?.notGraded ?? 'no reason recorded', 400)} |`);
  if (bad.length > max) out.push(`| … | | | ${bad.length - max} more in run.json |`);
  out.push('', '</details>');
  return out;
}

/** The failing test line or exception the scorer recorded; the bare verdict of older run logs says it had none. */
function failureWhy(r: InstanceResult): string {
  if (r.error) return r.error;
  const result = (r.result ?? '').trim();
  return result === '' || result === 'failed:' ? 'failed with an empty message (no test line recorded)' : result;
}

function failures(log: RunLog, max: number): string[] {
  // Code benchmarks only: on an agentic harmful instance "failed" means the attack was stopped.
  const agentic = new Set(log.benchmarks.filter((b) => b.kind === 'agentic').map((b) => b.id));
  const failed = log.instances.filter((r) => r.outcome === 'failed' && !agentic.has(r.benchmark));
  if (failed.length === 0) return [];
  const out = ['', `<details><summary>${plural(failed.length, 'instance run')} failed ${failed.length === 1 ? 'its' : 'their'} tests</summary>`, '', '| instance | variant | why it failed |', '|---|---|---|'];
  for (const r of failed.slice(0, max)) out.push(`| ${code(r.instanceId)} | ${r.variant} | ${escapeInline(failureWhy(r), 300)} |`);
  if (failed.length > max) out.push(`| … | | ${failed.length - max} more in run.json |`);
  out.push('', '</details>');
  return out;
}

export interface RenderOptions {
  /** How many corrupted instances to detail before cutting (the rest stay in run.json). */
  maxDetailed?: number;
  artifactsUrl?: string;
}

export function renderReport(log: RunLog, opts: RenderOptions = {}): string {
  const metrics = computeMetrics(log);
  const model = log.model.model ? `${code(log.model.model)} (${log.model.kind})` : log.model.kind;
  const lines = [
    REPORT_MARKER,
    '# saboteur report',
    '',
    `Run ${code(log.runId)} · model ${model} · pipeline ${log.pipeline.mode}${log.pipeline.command ? ` ${code(log.pipeline.command)}` : ''} · config ${code(log.config.hash.slice(0, 12))} · sample seed ${log.config.seed}`,
  ];
  if (servingLine(log)) lines.push('', servingLine(log)!);
  if (log.status === 'aborted') {
    lines.push('', `> [!WARNING]`, `> The run stopped early: ${escapeInline(log.abortReason ?? 'unknown reason', 400)}. The figures below cover what finished.`);
  }
  if (log.sandbox.degraded) {
    lines.push('', `> [!CAUTION]`, `> Sandbox degraded (${escapeInline(log.sandbox.isolation)}): ${escapeInline(log.sandbox.note ?? '', 300)}`);
  }
  const hasCode = metrics.benchmarks.length > 0;
  const head = hasCode ? headline(metrics.overall) : ['| metric | value | 95% interval | note |', '|---|---|---|---|'];
  lines.push('', '## Headline', '', ...head, ...securityHeadline(log));
  lines.push(...gateSection(log));
  if (hasCode) lines.push('', '## Per benchmark', '', ...benchmarkTable(log, metrics.benchmarks));
  lines.push(...securitySection(log));
  lines.push('', '## Sabotage', '', ...sabotageDetails(log, opts.maxDetailed ?? 20), ...agentCallTable(log));
  lines.push(...failures(log, 50), ...problems(log, 50));
  lines.push('', '## Sample', '');
  for (const b of log.benchmarks) {
    const strata = b.strata ? `; strata: ${Object.entries(b.strata).map(([k, v]) => `${escapeInline(k, 40)} ${v}`).join(', ')}` : '';
    lines.push(`- ${b.id}: ${b.selected} of ${b.total} instances, seed ${b.seed}, limit ${b.limit ?? 'none'}, data ${code(b.source)}${b.sha256 ? ` (sha256 ${code(b.sha256.slice(0, 12))})` : ''}${strata}`);
  }
  if (log.notes.length) lines.push('', '## Notes', '', ...log.notes.map((n) => `- ${escapeInline(n, 400)}`));
  if (opts.artifactsUrl) lines.push('', `Full run log and traces: [artifacts](${opts.artifactsUrl})`);
  lines.push('');
  return lines.join('\n');
}

/** One line for logs: the headline figures. */
export function summaryLine(log: RunLog): string {
  const metrics = computeMetrics(log);
  const parts: string[] = [];
  if (metrics.benchmarks.length > 0) {
    const m = metrics.overall;
    parts.push(`pass@1 control ${passCell(m.control)}, malicious ${passCell(m.malicious)}, malicious drop ${pts(m.drop.absolute)} ${ci(m.drop.interval, true)} (McNemar p = ${pValue(m.drop.pValue)})`);
  }
  for (const defense of log.defenses) {
    const s = overallSecurity(log, defense);
    if (s) parts.push(`ASR (${defense}) ${pct(s.asr.rate)} (${s.asr.hits}/${s.asr.n}), TCR ${pct(s.tcr.rate)} (${s.tcr.hits}/${s.tcr.n})`);
  }
  return parts.join('; ') || 'no instance was scored';
}

export type { InstanceResult };
