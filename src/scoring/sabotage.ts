/**
 * The run's sabotage in figures, from the instances alone: for AutoInject, the messages hit, the
 * units they had, drew and changed, the effective Pe (units changed / units drawn) and why the
 * rest could not change; for the methods that rewrite requests (AutoTransform and others), the
 * target calls whose system prompt was rewritten and those that could not be. Pure; the run writes it into run.json, and the report
 * and `merge` compute the same from the same instances.
 */
import type { InstanceResult, RunLog, SabotageProfile, SabotageSummary } from '../runlog/schema.js';

export function summarizeSabotage(
  instances: readonly InstanceResult[],
  method: string,
  profiles?: readonly SabotageProfile[],
): SabotageSummary {
  let hits = 0;
  let messagesChanged = 0;
  let unitsConsidered = 0;
  let unitsDrawn = 0;
  let unitsChanged = 0;
  let rewriteCalls = 0;
  let rewriteFailed = 0;
  let noSystem = 0;
  const unchanged = new Map<string, number>();
  for (const r of instances) {
    if (r.variant !== 'malicious') continue;
    for (const c of r.trace.calls) {
      if (c.hit) {
        hits++;
        unitsConsidered += c.hit.units;
        unitsDrawn += c.hit.drawn;
        unitsChanged += c.hit.changed;
        if (c.hit.changed > 0) messagesChanged++;
        const listed = c.hit.unchanged ?? [];
        for (const u of listed) unchanged.set(u.reason, (unchanged.get(u.reason) ?? 0) + 1);
        // Past the listed ones the reasons are not kept; they are still counted.
        const unlisted = c.hit.drawn - c.hit.changed - listed.length;
        if (unlisted > 0)
          unchanged.set('not listed (over 50 in one message)', (unchanged.get('not listed (over 50 in one message)') ?? 0) + unlisted);
      } else if (c.corruption) {
        // Run logs written before hits were recorded: the corruption is all there is (what was drawn is not known).
        hits++;
        messagesChanged++;
        unitsChanged += c.corruption.units.length;
      }
      if (c.rewrite) {
        rewriteCalls++;
        if (c.rewrite.action === 'none') rewriteFailed++;
        if (c.rewrite.action === 'inserted') noSystem++;
      }
    }
  }
  return {
    method,
    hits,
    messagesChanged,
    unitsConsidered,
    unitsDrawn,
    unitsChanged,
    effectiveErrorRate: unitsDrawn > 0 && unitsDrawn >= unitsChanged ? unitsChanged / unitsDrawn : null,
    unchanged: [...unchanged.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([reason, count]) => ({ reason, count })),
    ...(rewriteCalls > 0 ? { rewrites: { calls: rewriteCalls, failed: rewriteFailed, noSystem } } : {}),
    ...(profiles && profiles.length ? { profiles: [...profiles] } : {}),
  };
}

/** The summary of a run log, computed from its instances, with the profiles it carries. */
export function sabotageOf(log: RunLog): SabotageSummary {
  return summarizeSabotage(log.instances, log.variants.malicious.method, log.sabotage?.profiles);
}
