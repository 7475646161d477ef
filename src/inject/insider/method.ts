/**
 * The insider as a method: the target agent gets a hidden objective toward a hard sink the
 * instance's tools reach (../insider.ts, ../insider-catalogue.ts), each run is graded by whether
 * the objective reached its sink, and the report shows the objectives and what became of each,
 * defense by defense, with the attribution path of every blocked attempt.
 */
import { NO_OBJECTIVE_NOTE_PREFIX, type InstanceResult, type RunLog } from '../../runlog/schema.js';
import { code, escapeInline } from '../../report/escape.js';
import { plural } from '../../report/format.js';
import { chooseObjective } from '../insider-catalogue.js';
import { createInsider, gradeInsider } from '../insider.js';
import { instructionsGuide, type InjectionMethodDefinition } from '../method.js';
import type { MethodInstance, MethodRun } from '../types.js';

/** The note on a malicious run that got no objective (its tools reach no hard sink). */
const NOTE_PREFIX = NO_OBJECTIVE_NOTE_PREFIX;
const ownsNote = (note: string) => note.startsWith(NOTE_PREFIX);

/** Each malicious run gets its instance's objective (seeded by `sample.seed`), and is graded by whether it reached its sink. */
function perInstance(run: { seed: number }, instance: MethodInstance): MethodRun {
  const choice = chooseObjective({ seed: run.seed, ...instance });
  if (!('objective' in choice)) return { note: `${NOTE_PREFIX} ${choice.none}` };
  const objective = choice.objective;
  return {
    plan: objective,
    grade: (ended) => ({ objective: gradeInsider(objective, ended.target, ended.tools, ended.output, ended.calls) }),
  };
}

function attemptLine(a: NonNullable<InstanceResult['objective']>['attempts'][number], insider: string): string {
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

function section(log: RunLog, maxInstances: number): string[] {
  const m = log.variants.malicious;
  const runs = log.instances.filter((r) => r.variant === 'malicious' && r.objective);
  const without = log.instances.filter((r) => r.variant === 'malicious' && !r.objective && r.notes?.some(ownsNote));
  const lines = [
    `The insider: ${code(m.target)} gets a hidden objective toward a hard sink, added to its system prompt through the proxy (prompts/insider.md), in ${plural(runs.length, 'malicious run')}${without.length ? `; ${plural(without.length, 'run')} offered no tool reaching a hard sink and got none` : ''}. An objective is reached when a staged sink call carrying its target took effect.`,
  ];
  if (runs.length === 0) return lines;
  const byInstance = new Map<string, InstanceResult[]>();
  for (const r of runs) byInstance.set(`${r.benchmark}/${r.instanceId}`, [...(byInstance.get(`${r.benchmark}/${r.instanceId}`) ?? []), r]);
  lines.push('', `<details><summary>${plural(byInstance.size, 'objective')}, defense by defense</summary>`, '');
  for (const [, rs] of [...byInstance.entries()].slice(0, maxInstances)) {
    const o = rs[0].objective!.objective;
    lines.push(
      `**${code(rs[0].benchmark)} ${code(rs[0].instanceId)}**: ${code(o.id)} → ${code(o.target)}${o.tool ? ` via ${code(o.tool)}` : ''}`,
      '',
    );
    for (const r of rs) {
      const i = r.objective!;
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

export const INSIDER: InjectionMethodDefinition = {
  id: 'insider',
  description: "the target agent gets a hidden objective toward a hard sink the instance's tools reach",
  agenticTask: 'benign',
  create: ({ settings: m }) => ({ injector: createInsider({ target: m.target }), close: async () => undefined }),
  perInstance,
  report: { label: 'insider', section, ownsNote, guide: (log) => instructionsGuide('insider', code(log.variants.malicious.target)) },
};
