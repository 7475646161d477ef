/** The checks every sink defense's answer goes through, live (the tool session) and offline (`taint/compare-offline.ts`). */
import { SINK_DECISIONS } from '../runlog/schema.js';
import type { SinkDecision, SinkDefense, StagedCall } from './types.js';

/**
 * Asks `defense` and never throws: a defense that fails or answers something else than the three
 * decisions makes the call `unverifiable`, with the reason saying why, so a broken defense shows
 * up in the run log instead of silently releasing or crashing the session.
 */
export async function askDefense(defense: SinkDefense, call: StagedCall): Promise<{ decision: SinkDecision; reason?: string }> {
  let answer: unknown;
  try {
    answer = await defense.decide(call);
  } catch (err) {
    return { decision: 'unverifiable', reason: `the ${defense.name} defense failed: ${(err as Error)?.message ?? String(err)}` };
  }
  const a = answer as { decision?: unknown; reason?: unknown } | undefined;
  if (!a || !SINK_DECISIONS.includes(a.decision as SinkDecision)) {
    return {
      decision: 'unverifiable',
      reason: `the ${defense.name} defense answered ${JSON.stringify(answer)?.slice(0, 120)}, not a decision (${SINK_DECISIONS.join(', ')})`,
    };
  }
  return typeof a.reason === 'string' && a.reason !== ''
    ? { decision: a.decision as SinkDecision, reason: a.reason }
    : { decision: a.decision as SinkDecision };
}
