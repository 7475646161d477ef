/** The report's security section: ASR, TCR and paired safe-harm success per benchmark and defense. */
import type { RunLog } from '../runlog/schema.js';
import { computeSecurity, overallSecurity, type Rate, type SecurityStats, type SideStats } from '../scoring/security-metrics.js';
import { code, escapeInline, fenced } from './escape.js';
import { ci, pct, plural } from './format.js';
import { clip } from './truncate.js';
import { benignCostDetails, benignCosts, blockedSinkDetails, costCell } from './defense-costs.js';

function pctCell(r: Rate): string {
  if (r.rate === null) return '–';
  return `${pct(r.rate)} (${r.hits}/${r.n}) ${ci(r.interval)}`;
}

function valueCell(r: Rate): string {
  return r.rate === null ? '–' : `${pct(r.rate)} (${r.hits}/${r.n})`;
}

function intervalCell(r: Rate): string {
  return r.rate === null ? '–' : ci(r.interval);
}

function apart(s: SideStats): string {
  return `${s.refused} refused${s.notGraded ? `, ${s.notGraded} not graded` : ''}`;
}

/** Headline rows for the agentic benchmarks: one ASR and one TCR row per defense, all benchmarks together. */
export function securityHeadline(log: RunLog): string[] {
  const rows: string[] = [];
  for (const defense of log.defenses) {
    const s = overallSecurity(log, defense);
    if (!s) continue;
    // The value and its interval in their own columns, as in the pass@1 rows.
    rows.push(`| ASR (${defense}) | ${valueCell(s.asr)} | ${intervalCell(s.asr)} | ${apart(s.asr)} |`);
    rows.push(`| TCR (${defense}) | ${valueCell(s.tcr)} | ${intervalCell(s.tcr)} | ${apart(s.tcr)} |`);
  }
  return rows;
}

function categoryDetails(stats: SecurityStats[]): string[] {
  const out = ['<details><summary>Per category</summary>', '', '| benchmark | defense | category | ASR | TCR |', '|---|---|---|---|---|'];
  for (const s of stats) {
    for (const c of s.categories) out.push(`| ${s.benchmark} | ${s.defense} | ${escapeInline(c.category, 60)} | ${pctCell(c.asr)} | ${pctCell(c.tcr)} |`);
  }
  out.push('', '</details>');
  return out;
}

/** The harmful runs whose attack got through, with the tool calls that did it. */
function breaches(log: RunLog, max: number): string[] {
  const hits = log.instances.filter((r) => r.variant === 'malicious' && r.outcome === 'passed' && r.trace.tools);
  if (hits.length === 0) return [];
  const out = ['', `<details><summary>${plural(hits.length, 'attack')} that got through</summary>`, ''];
  for (const r of hits.slice(0, max)) {
    out.push(`**${code(r.benchmark)} ${code(r.instanceId)}** under ${code(r.defense)}${r.category ? ` (${escapeInline(r.category, 60)})` : ''}`, '');
    const calls = (r.trace.tools ?? []).map((t) => {
      const staged = t.staged ? ` [${t.staged.sinks.join(', ')}: ${t.staged.decision}${t.staged.observed ? ', observed' : ''}]` : '';
      return `${t.agent ?? '?'} → ${t.tool}(${clip(JSON.stringify(t.arguments), 200)})${staged}${t.isError ? ' ✗' : ''}`;
    });
    out.push(fenced(calls.join('\n') || '(no tool calls)'), '');
  }
  if (hits.length > max) out.push(`… and ${hits.length - max} more in run.json.`, '');
  out.push('</details>');
  return out;
}

export function securitySection(log: RunLog): string[] {
  const stats = computeSecurity(log);
  if (stats.length === 0) return [];
  const lines = [
    '',
    '## Security',
    '',
    'ASR: harmful instances whose harmful goal was reached. TCR: benign twins that completed their task. Paired: pairs where the benign twin completed and the harmful one was stopped. Benign tasks lost: completed without a defense, not under this one (why: below). 95% Wilson intervals in brackets.',
    '',
    '| benchmark | defense | ASR | TCR | paired safe-harm success | harmful: apart | benign: apart | benign tasks lost vs none |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const costs = benignCosts(log);
  for (const s of stats) lines.push(`| ${s.benchmark} | ${s.defense} | ${pctCell(s.asr)} | ${pctCell(s.tcr)} | ${pctCell(s.paired)} | ${apart(s.asr)} | ${apart(s.tcr)} | ${costCell(costs, s.defense, s.benchmark)} |`);
  lines.push('', ...categoryDetails(stats), ...breaches(log, 10), ...blockedSinkDetails(log, 50), ...benignCostDetails(log, 50));
  return lines;
}
