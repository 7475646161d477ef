/**
 * The Markdown report, rendered from the run log alone by a pure function (golden-file tested).
 * The same text serves `report.md`, the job summary and, later, the PR comment.
 */
import type { InstanceResult, RunLog } from '../runlog/schema.js';
import { computeMetrics, type BenchmarkMetrics, type VariantStats } from '../scoring/metrics.js';
import { code, escapeInline, safeUrl } from './escape.js';
import { ci, pct, plural, pts, pValue } from './format.js';
import { agentCallTable } from './agent-calls.js';

export { pct, pts } from './format.js';
import { servingLine } from './compat.js';
import { securityHeadline, securitySection } from './security-tables.js';
import { gateSection } from './gate-table.js';
import { readingGuide } from './reading-guide.js';
import { unscoredReason } from '../scoring/unscored.js';
import { sabotageSection } from './sabotage-section.js';
import { methodReportFor, type MethodReport } from './method-report.js';
import { overallSecurity } from '../scoring/security-metrics.js';
import { OBJECTIVE_SUCCESS_NAME } from '../scoring/metric-id.js';
import { sabotageOf } from '../scoring/sabotage.js';

export const REPORT_MARKER = '<!-- saboteur-report -->';
/** Notes shown in the report; the rest stay in run.json. */
const MAX_NOTES = 50;

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

function headline(m: BenchmarkMetrics, method: MethodReport): string[] {
  const d = m.drop;
  return [
    '| metric | value | 95% interval | note |',
    '|---|---|---|---|',
    `| pass@1 control | ${passCell(m.control)} | ${ci(m.control.interval)} | ${apartCell(m.control)} not scored |`,
    `| pass@1 malicious | ${passCell(m.malicious)} | ${ci(m.malicious.interval)} | ${apartCell(m.malicious)} not scored |`,
    `| **malicious drop** (${method.label}) | **${pts(d.absolute)}** (${d.relative === null ? '–' : pct(d.relative)} relative) | ${ci(d.interval, true)} pts | McNemar exact p = ${pValue(d.pValue)} over ${d.pairs} pairs (${d.controlOnly} lost, ${d.maliciousOnly} gained) |`,
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
      `| ${escapeInline(m.benchmark, 60)} | ${inst} | ${passCell(m.control)} | ${passCell(m.malicious)} | ${pts(m.drop.absolute)} | ${pValue(m.drop.pValue)} | ${apartCell(m.control)} / ${apartCell(m.malicious)} |`,
    );
  }
  return lines;
}

function problems(log: RunLog, max: number): string[] {
  const bad = log.instances.filter(
    (r) => r.outcome === 'error' || r.outcome === 'timeout' || r.outcome === 'model-error' || r.outcome === 'not-graded',
  );
  if (bad.length === 0) return [];
  const out = [
    '',
    `<details><summary>${plural(bad.length, 'instance run')} not scored (errors, timeouts, model errors, not gradable here)</summary>`,
    '',
    '| instance | variant | outcome | what happened |',
    '|---|---|---|---|',
  ];
  for (const r of bad.slice(0, max))
    out.push(
      `| ${code(r.instanceId)} | ${escapeInline(r.variant, 20)} | ${escapeInline(r.outcome, 20)} | ${escapeInline(r.error ?? r.security?.notGraded ?? 'no reason recorded', 400)} |`,
    );
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
  const out = [
    '',
    `<details><summary>${plural(failed.length, 'instance run')} failed ${failed.length === 1 ? 'its' : 'their'} tests</summary>`,
    '',
    '| instance | variant | why it failed |',
    '|---|---|---|',
  ];
  for (const r of failed.slice(0, max))
    out.push(`| ${code(r.instanceId)} | ${escapeInline(r.variant, 20)} | ${escapeInline(failureWhy(r), 300)} |`);
  if (failed.length > max) out.push(`| … | | ${failed.length - max} more in run.json |`);
  out.push('', '</details>');
  return out;
}

export interface RenderOptions {
  /** How many corrupted instances to detail before cutting (the rest stay in run.json). */
  maxDetailed?: number;
  artifactsUrl?: string;
  /** What the report calls the run's injection method and shows of it (its definition's; by default, its id). */
  method?: MethodReport;
}

export function renderReport(log: RunLog, opts: RenderOptions = {}): string {
  const metrics = computeMetrics(log);
  const method = methodReportFor(log, opts.method);
  const kind = escapeInline(log.model.kind, 40);
  const model = log.model.model ? `${code(log.model.model)} (${kind})` : kind;
  const lines = [
    REPORT_MARKER,
    '# saboteur report',
    '',
    `Run ${code(log.runId)} · model ${model} · pipeline ${escapeInline(log.pipeline.mode, 20)}${log.pipeline.command ? ` ${code(log.pipeline.command)}` : ''} · config ${code(log.config.hash.slice(0, 12))} · sample seed ${log.config.seed}`,
  ];
  if (servingLine(log)) lines.push('', servingLine(log)!);
  if (log.status === 'aborted') {
    lines.push(
      '',
      `> [!WARNING]`,
      `> The run stopped early: ${escapeInline(log.abortReason ?? 'unknown reason', 400)}. The figures below cover what finished.`,
    );
  }
  if (log.status === 'cancelled') {
    lines.push(
      '',
      `> [!WARNING]`,
      `> The run was ${escapeInline(log.abortReason ?? 'cancelled', 200)} before it finished. The figures below cover what finished; the rest is marked skipped.`,
    );
  }
  const unscored = log.status === 'completed' ? unscoredReason(log) : undefined;
  if (unscored) {
    lines.push(
      '',
      `> [!CAUTION]`,
      `> ${escapeInline(unscored, 400)}: there is no figure to read and no gate to apply (exit code 3). The tables below say why for each instance run.`,
    );
  }
  if (log.pipeline.fence?.degraded) {
    lines.push(
      '',
      `> [!CAUTION]`,
      `> Pipeline fence degraded (${escapeInline(log.pipeline.fence.kind, 20)}): ${escapeInline(log.pipeline.fence.note ?? '', 400)}`,
    );
  }
  if (log.sandbox.degraded) {
    lines.push(
      '',
      `> [!CAUTION]`,
      `> Sandbox degraded (${escapeInline(log.sandbox.isolation)}): ${escapeInline(log.sandbox.note ?? '', 300)}`,
    );
  }
  const hasCode = metrics.benchmarks.length > 0;
  const head = hasCode ? headline(metrics.overall, method) : ['| metric | value | 95% interval | note |', '|---|---|---|---|'];
  lines.push(...readingGuide(log, method));
  lines.push('', '## Headline', '', ...head, ...securityHeadline(log));
  lines.push(...gateSection(log));
  if (hasCode) lines.push('', '## Per benchmark', '', ...benchmarkTable(log, metrics.benchmarks));
  lines.push(...securitySection(log));
  lines.push('', '## Sabotage', '', ...sabotageSection(log, opts.maxDetailed ?? 20, method), ...agentCallTable(log));
  lines.push(...failures(log, 50), ...problems(log, 50));
  lines.push('', '## Sample', '');
  for (const b of log.benchmarks) {
    const strataEntries = b.strata ? Object.entries(b.strata) : [];
    const strata = strataEntries.length
      ? `; strata: ${strataEntries
          .slice(0, 50)
          .map(([k, v]) => `${escapeInline(k, 40)} ${v}`)
          .join(', ')}${strataEntries.length > 50 ? `, … ${strataEntries.length - 50} more` : ''}`
      : '';
    lines.push(
      `- ${escapeInline(b.id, 60)}: ${b.selected} of ${b.total} instances, seed ${b.seed}, limit ${b.limit ?? 'none'}, data ${code(b.source)}${b.sha256 ? ` (sha256 ${code(b.sha256.slice(0, 12))})` : ''}${strata}`,
    );
  }
  if (log.notes.length) {
    lines.push('', '## Notes', '');
    for (const n of log.notes.slice(0, MAX_NOTES)) lines.push(`- ${escapeInline(n, 400)}`);
    if (log.notes.length > MAX_NOTES) lines.push(`- … and ${log.notes.length - MAX_NOTES} more notes in run.json`);
  }
  const artifacts = safeUrl(opts.artifactsUrl);
  if (artifacts) lines.push('', `Full run log and traces: [artifacts](${artifacts})`);
  lines.push('');
  return lines.join('\n');
}

/** One line for logs: the headline figures (`method`: as in `RenderOptions`). */
export function summaryLine(log: RunLog, method?: MethodReport): string {
  const metrics = computeMetrics(log);
  const parts: string[] = [];
  if (metrics.benchmarks.length > 0) {
    const m = metrics.overall;
    parts.push(
      `pass@1 control ${passCell(m.control)}, malicious ${passCell(m.malicious)}, malicious drop ${pts(m.drop.absolute)} ${ci(m.drop.interval, true)} (McNemar p = ${pValue(m.drop.pValue)})`,
    );
  }
  for (const defense of log.defenses) {
    const s = overallSecurity(log, defense);
    if (!s) continue;
    const extra = [
      ...(s.sabotaged
        ? [
            `TCR under saboteur ${pct(s.sabotaged.tcr.rate)} (drop ${pts(s.sabotaged.drop.absolute)}, McNemar p = ${pValue(s.sabotaged.drop.pValue)})`,
          ]
        : []),
      ...(s.objective
        ? [`${OBJECTIVE_SUCCESS_NAME} ${pct(s.objective.success.rate)} (${s.objective.success.hits}/${s.objective.success.n})`]
        : []),
    ];
    parts.push(
      `${s.asr.n > 0 || !s.sabotaged ? `ASR (${defense}) ${pct(s.asr.rate)} (${s.asr.hits}/${s.asr.n}), ` : `(${defense}) `}TCR ${pct(s.tcr.rate)} (${s.tcr.hits}/${s.tcr.n})${extra.length ? `, ${extra.join(', ')}` : ''}`,
    );
  }
  const sabotage = sabotageOf(log);
  if (sabotage.hits > 0)
    parts.push(
      `${methodReportFor(log, method).label} hit ${sabotage.hits} messages, changed ${sabotage.unitsChanged} units (effective Pe ${pct(sabotage.effectiveErrorRate)})`,
    );
  return parts.join('; ') || 'no instance was scored';
}

export type { InstanceResult };
