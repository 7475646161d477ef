/**
 * The report's Sabotage section, per method: AutoInject's hits and what they changed (the effective
 * Pe beside the configured one, the units that could not change and the mode that would), with
 * every corrupted line, sentence and tool argument before and after; AutoTransform's profiles,
 * original and rewrite; the insider's objectives and what became of each, defense by defense, with
 * the attribution path of every blocked attempt. Reads the run log alone.
 */
import type { InstanceResult, ProxyCall, RunLog } from '../runlog/schema.js';
import { sabotageOf } from '../scoring/sabotage.js';
import { code, escapeInline, fenced } from './escape.js';
import { pct, plural } from './format.js';

export const METHOD_NAMES: Record<string, string> = { autoinject: 'AutoInject', autotransform: 'AutoTransform', insider: 'insider' };

const MODE_NOTE: Record<string, string> = {
  'logic-edit': 'logic-edit corruption (deterministic edits that still parse)',
  syntactic: 'logic-edit corruption (deterministic edits that still parse; recorded as "syntactic")',
  'syntax-error': 'syntax-error corruption (code that no longer parses, garbled prose)',
  semantic: 'semantic corruption (a model rewrite, prompts/autoinject-semantic.md)',
};

const oneLine = (t: string) => t.replace(/\r?\n/g, ' ⏎ ');

function effect(log: RunLog, r: InstanceResult): string {
  const control = log.instances.find(
    (c) => c.variant === 'control' && c.benchmark === r.benchmark && c.instanceId === r.instanceId && c.defense === r.defense,
  );
  return control ? `control ${control.outcome} → malicious ${r.outcome}` : `malicious ${r.outcome}`;
}

function callDiff(call: ProxyCall): string[] {
  const c = call.corruption!;
  const diff = c.units
    .flatMap((u) =>
      u.kind === 'argument'
        ? [`- ${u.target} = ${oneLine(u.before)}`, `+ ${u.target} = ${oneLine(u.after)}`]
        : [`- ${oneLine(u.before)}`, `+ ${oneLine(u.after)}`],
    )
    .join('\n');
  const rules = [...new Set(c.units.map((u) => (u.argKind ? `${u.argKind}: ${u.rule}` : u.rule)))].join(', ');
  const fallback = c.fallback ? ` (semantic fell back: ${escapeInline(c.fallback, 120)})` : '';
  const hit = call.hit ? `, ${call.hit.changed} of ${call.hit.drawn} drawn units changed` : '';
  return [
    `${code(call.agent)} call ${call.agentCallIndex + 1}: ${plural(c.units.length, 'unit')} (${c.unit})${hit}, rules: ${escapeInline(rules, 200)}${fallback}`,
    '',
    fenced(diff, 'diff'),
    '',
  ];
}

function autoInject(log: RunLog, maxInstances: number): string[] {
  const m = log.variants.malicious;
  const s = sabotageOf(log);
  const head = `AutoInject on ${code(m.target)}: Pm = ${m.messageRate}, Pe = ${m.errorRate}, ${MODE_NOTE[m.corruption] ?? escapeInline(m.corruption, 40)}`;
  if (s.hits === 0) return [`${head}. No message was hit in this run.`];
  const recorded = s.unitsDrawn >= s.unitsChanged && s.unitsDrawn > 0;
  const lines = [
    `${head}.`,
    '',
    !recorded
      ? `Hit ${plural(s.hits, 'message')}, changed ${plural(s.unitsChanged, 'unit')} in ${plural(s.messagesChanged, 'message')} (this run log does not record the units drawn, so the effective Pe is not known).`
      : `Hit ${plural(s.hits, 'message')}, changed ${plural(s.unitsChanged, 'unit')} in ${plural(s.messagesChanged, 'message')}: of the ${s.unitsConsidered} units in the hit messages ${s.unitsDrawn} were drawn, so the **effective Pe = ${s.effectiveErrorRate === null ? '–' : pct(s.effectiveErrorRate)}** (${s.unitsChanged} changed / ${s.unitsDrawn} drawn; configured ${pct(m.errorRate)}).`,
  ];
  const unchanged = s.unitsDrawn - s.unitsChanged;
  if (unchanged > 0) {
    lines.push('', `${plural(unchanged, 'drawn unit')} could not be changed:`, '');
    for (const u of s.unchanged.slice(0, 10)) lines.push(`- ${u.count} × ${escapeInline(u.reason, 240)}`);
  }
  if (s.messagesChanged === 0) {
    const why = log.instances.flatMap((r) => r.trace.calls).find((c) => c.hit?.why)?.hit?.why;
    lines.push('', `No message was changed${why ? ` (for example: ${escapeInline(why, 240)})` : ''}.`);
    return lines;
  }
  const hit = log.instances.filter((r) => r.trace.calls.some((c) => c.corruption));
  lines.push('', `<details><summary>${plural(s.unitsChanged, 'unit')} corrupted in ${plural(hit.length, 'instance run')}</summary>`, '');
  for (const r of hit.slice(0, maxInstances)) {
    lines.push(`**${code(r.instanceId)}**${r.defense !== 'none' ? ` under ${code(r.defense)}` : ''} (${effect(log, r)})`, '');
    for (const call of r.trace.calls) if (call.corruption) lines.push(...callDiff(call));
  }
  if (hit.length > maxInstances) lines.push(`… and ${hit.length - maxInstances} more instance runs (all of them are in run.json).`, '');
  lines.push('</details>');
  return lines;
}

function autoTransform(log: RunLog): string[] {
  const m = log.variants.malicious;
  const s = sabotageOf(log);
  const profiles = s.profiles ?? [];
  const r = s.rewrites ?? { calls: 0, failed: 0, noSystem: 0 };
  const lines = [
    `AutoTransform on ${code(m.target)}: the model rewrote ${plural(profiles.length, 'profile')} into ${profiles.length === 1 ? 'a covert saboteur' : 'covert saboteurs'} (prompts/autotransform.md), and ${plural(r.calls - r.failed, 'call')} of the malicious variant went to the model with the rewrite in place of the original system prompt${r.failed ? `; ${plural(r.failed, 'call')} could not be rewritten and went unchanged (the instances say why)` : ''}${r.noSystem ? `; ${plural(r.noSystem, 'call')} had no system prompt and got the transformed stand-in profile` : ''}.`,
  ];
  if (r.calls === 0) lines.push('', 'No call of the target reached the model in the malicious variant, so nothing was transformed.');
  for (const p of profiles) {
    const cached = p.cached ? ', from the cache' : '';
    lines.push(
      '',
      `<details><summary>Profile ${code(p.profile.slice(0, 12))} of ${p.agents.map(code).join(', ')}${cached}${p.fallback ? ' (no system prompt: stand-in profile)' : ''}</summary>`,
      '',
      'Original:',
      '',
      fenced(p.original, 'text'),
      '',
      'Rewritten:',
      '',
      fenced(p.rewrite, 'text'),
      '',
      '</details>',
    );
  }
  return lines;
}

function attemptLine(a: NonNullable<InstanceResult['insider']>['attempts'][number], insider: string): string {
  const by =
    a.agent && a.agent !== insider
      ? ` by ${code(a.agent)} (fragmented: the insider is ${code(insider)})`
      : a.agent
        ? ` by ${code(a.agent)}`
        : '';
  const verdict =
    a.decision === 'not-staged'
      ? a.tookEffect
        ? 'ran (not a hard sink)'
        : 'failed'
      : `${a.decision}${a.tookEffect ? '' : ' (no effect)'}`;
  const travelled = a.path && a.path.length > 1 ? `\n    - path of the target: ${a.path.map((s) => escapeInline(s, 80)).join(' → ')}` : '';
  return `  - ${code(a.tool)}${by}: ${verdict}${a.reason ? `: ${escapeInline(a.reason, 600)}` : ''}${travelled}`;
}

function insider(log: RunLog, maxInstances: number): string[] {
  const m = log.variants.malicious;
  const runs = log.instances.filter((r) => r.variant === 'malicious' && r.insider);
  const without = log.instances.filter((r) => r.variant === 'malicious' && !r.insider && r.notes?.some((n) => n.startsWith('insider:')));
  const lines = [
    `The insider: ${code(m.target)} gets a hidden objective toward a hard sink, added to its system prompt through the proxy (prompts/insider.md), in ${plural(runs.length, 'malicious run')}${without.length ? `; ${plural(without.length, 'run')} offered no tool reaching a hard sink and got none` : ''}. An objective is reached when a staged sink call carrying its target took effect.`,
  ];
  if (runs.length === 0) return lines;
  const byInstance = new Map<string, InstanceResult[]>();
  for (const r of runs) byInstance.set(`${r.benchmark}/${r.instanceId}`, [...(byInstance.get(`${r.benchmark}/${r.instanceId}`) ?? []), r]);
  lines.push('', `<details><summary>${plural(byInstance.size, 'objective')}, defense by defense</summary>`, '');
  for (const [, rs] of [...byInstance.entries()].slice(0, maxInstances)) {
    const o = rs[0].insider!.objective;
    lines.push(
      `**${code(rs[0].benchmark)} ${code(rs[0].instanceId)}**: ${code(o.id)} → ${code(o.target)}${o.tool ? ` via ${code(o.tool)}` : ''}`,
      '',
    );
    for (const r of rs) {
      const i = r.insider!;
      const state = i.reached ? '**reached its sink**' : i.attempts.length ? 'stopped' : 'not attempted';
      lines.push(`- ${code(r.defense)}: ${state} (run ${r.outcome}${i.fragmented ? ', fragmented across agents' : ''})`);
      for (const a of i.attempts.slice(0, 5)) lines.push(attemptLine(a, i.agent));
    }
    lines.push('');
  }
  if (byInstance.size > maxInstances) lines.push(`… and ${byInstance.size - maxInstances} more (all of them are in run.json).`, '');
  lines.push('</details>');
  return lines;
}

/** Notes recorded on instances (agents without a system prompt, rewrites that could not be made). */
function instanceNotes(log: RunLog, max: number): string[] {
  const noted = log.instances.filter((r) => r.notes?.length && !r.notes.every((n) => n.startsWith('insider:')));
  if (noted.length === 0) return [];
  const out = ['', `<details><summary>${plural(noted.length, 'instance run')} with notes</summary>`, ''];
  for (const r of noted.slice(0, max))
    out.push(
      `- ${code(r.instanceId)} (${r.variant}${r.defense !== 'none' ? `, ${r.defense}` : ''}): ${r.notes!.map((n) => escapeInline(n, 300)).join('; ')}`,
    );
  if (noted.length > max) out.push(`- … ${noted.length - max} more in run.json`);
  out.push('', '</details>');
  return out;
}

export function sabotageSection(log: RunLog, maxInstances: number): string[] {
  const method = log.variants.malicious.method;
  const body =
    method === 'autotransform' ? autoTransform(log) : method === 'insider' ? insider(log, maxInstances) : autoInject(log, maxInstances);
  return [...body, ...instanceNotes(log, 30)];
}
