/**
 * The validator's decision on each staged sink of a bare trace (bare-trace.ts), as
 * `saboteur validate` reads the file: tool, decision and reason per call.
 */
import { adjudicateTrace } from '../../src/taint/adjudicate.js';
import { defaultPolicy, type Policy } from '../../src/taint/policy.js';
import { buildNamedTrace, tracesOfDocument } from '../../src/taint/validate-trace.js';
import { bareTrace, type Step } from './bare-trace.js';

export function decideBare(root: string, steps: readonly Step[][], policy: Policy = defaultPolicy()) {
  const [t] = tracesOfDocument(JSON.stringify(bareTrace(root, steps)), 'trace.json');
  return adjudicateTrace(buildNamedTrace(t, policy), policy).map((v) => ({ tool: v.tool, decision: v.decision, reason: v.reason }));
}
