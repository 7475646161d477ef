/**
 * One evaluation-set scenario rendered in a trace shape and validated: the decision of each staged
 * call by its id (`<case>-call-<step>`), for tests that build a small vocabulary of their own.
 */
import { renderCase, type EvalCase, type Shape, type Vocabulary } from '../../bench/taint-eval/eval-set.js';
import type { Policy } from '../../src/taint/policy.js';
import { tracesOfDocument, validateTraces } from '../../src/taint/validate-trace.js';

export function caseDecisions(vocabulary: Vocabulary, c: EvalCase, shape: Shape, policy: Policy): Map<string, string> {
  const file = `${c.id}.json`;
  return new Map(
    validateTraces(tracesOfDocument(renderCase({ ...vocabulary, cases: [c] }, c, shape), file), policy).map((s) => [
      s.toolCallId,
      s.decision,
    ]),
  );
}

/** A tool's JSON schema from its arguments' names and types (`{ order_id: 'string' }`). */
export const objectSchema = (properties: Record<string, string>) => ({
  type: 'object',
  properties: Object.fromEntries(Object.entries(properties).map(([k, t]) => [k, { type: t }])),
});
