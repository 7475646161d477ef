/** The taint validator (docs/validator.md, "The taint validator", docs/taint-policy.md): graph, policy, propagation, adjudication, offline validation; the defenses built on it are in `defenses/`. */
export {
  GraphBuilder,
  NODE_KINDS,
  EDGE_KINDS,
  type TraceGraph,
  type NodeKind,
  type EdgeKind,
  type NodeMeta,
  type Evidence,
} from './graph.js';
export { LABELS, ROOT_BIT, ALL_MASK, SOURCE_MASK, SINK_MASK, bitOf, maskOf, labelsOf, type Label } from './labels.js';
export { ContentIndex, normalizeText, normalizeTokens, type ContentIndexOptions, type Coverage } from './content-links.js';
export {
  PolicyError,
  loadPolicy,
  parsePolicy,
  policyFromDocument,
  defaultPolicy,
  policyFileSchema,
  POLICY_EXAMPLES,
  type Policy,
  type PolicyFile,
} from './policy.js';
export { DEFAULT_POLICY } from './default-policy.js';
export { classifyTool, contentLabels, requestNeeds, targetsOf, type Target } from './classify.js';
export { propagate, labelsInScope, attributionPath, type Propagation, type Scope, type PathStep } from './propagate.js';
export {
  buildTraceGraph,
  type TraceInput,
  type BuiltTrace,
  type SinkSite,
  type TargetCheck,
  type PendingCall,
  type RequestAnnotation,
} from './trace-graph.js';
export {
  adjudicateSink,
  adjudicateTrace,
  formatPath,
  type SinkVerdict,
  type Violation,
  type Decision,
  type AdjudicationOptions,
} from './adjudicate.js';
export { createIntentAnnotator, type IntentAnnotator, type AnnotatorOptions } from './annotate.js';
export {
  validateTrace,
  validateTraces,
  tracesOfDocument,
  tracesOfSpans,
  TraceInputError,
  type ValidateOptions,
  type ValidatedSink,
} from './validate-trace.js';
export {
  evaluateDefenses,
  replayCase,
  renderDefenseTable,
  type OfflineCase,
  type OfflineDefenseFactory,
  type DefenseRow,
  type CaseOutcome,
} from './compare-offline.js';
