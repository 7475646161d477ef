/**
 * Whether a run scored anything at all. A run in which every instance timed out, errored or could
 * not be graded has no figure to show and no gate to pass or fail, so the CLI and the action exit 3
 * (infrastructure) with this reason, whether or not `gate:` is set, and the report says so. Pure.
 */
import type { InstanceResult, Outcome, RunLog } from '../runlog/schema.js';

/** Outcomes a scorer decided: a code benchmark's tests ran; an agentic run reached its grader (a refusal is graded there). */
function scored(r: InstanceResult, agentic: ReadonlySet<string>): boolean {
  return r.outcome === 'passed' || r.outcome === 'failed' || (r.outcome === 'refused' && agentic.has(r.benchmark));
}

const MAX_WHY = 200;

/** The reason the run scored nothing (`no instance could be scored: 8 timeout, 8 error; …`), or undefined when something was scored. */
export function unscoredReason(log: RunLog): string | undefined {
  // A shard may hold no instance at all when there are more shards than instances: nothing failed.
  if (log.instances.length === 0)
    return log.shard && log.shard.count > 1 ? undefined : 'no instance was run (the benchmarks selected none)';
  const agentic = new Set(log.benchmarks.filter((b) => b.kind === 'agentic').map((b) => b.id));
  if (log.instances.some((r) => scored(r, agentic))) return undefined;
  const counts = new Map<Outcome, number>();
  for (const r of log.instances) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
  const tally = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([o, n]) => `${n} ${o}`)
    .join(', ');
  const first = log.instances.find((r) => r.error)?.error?.split('\n')[0];
  const example = first ? `; the first: ${first.length > MAX_WHY ? `${first.slice(0, MAX_WHY - 1)}…` : first}` : '';
  return `no instance could be scored (${log.instances.length} instance runs: ${tally})${example}`;
}
