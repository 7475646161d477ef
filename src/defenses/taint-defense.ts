/**
 * The taint validator as the MCP server's sink defense. At each staged hard-sink call it builds
 * the instance's graph from what has been seen so far (the proxy's LLM calls, the session's
 * earlier tool events, OTLP spans), adds the pending call as the last node, propagates and
 * adjudicates that node. The ablations of the report are the same defense with a narrower
 * context scope or plain reachability instead of propagation rules.
 */
import type { SinkDefense } from '../tools/types.js';
import { adjudicateSink, formatPath, type SinkVerdict } from '../taint/adjudicate.js';
import type { IntentAnnotator, NodeAnnotation, ToolAnnotation } from '../taint/annotate.js';
import { classifyTool } from '../taint/classify.js';
import type { StagedCall, TraceSource } from '../tools/types.js';
import type { Policy } from '../taint/policy.js';
import { propagate, type Scope } from '../taint/propagate.js';
import { buildTraceGraph, type RequestAnnotation } from '../taint/trace-graph.js';

export interface TaintDefenseOptions {
  policy: Policy;
  /** Context scope of the labels a sink is judged on (default full upstream). */
  scope?: Scope;
  /** false: plain reachability, no propagation rules (the ablation). Default true. */
  propagate?: boolean;
  /** The instance's LLM calls (and spans) so far; without it only the tool events are seen. */
  traceSoFar?: TraceSource;
  /** LLM intent annotation of the request and of tool results (cached by the annotator). */
  annotator?: IntentAnnotator;
  /** Name in the run log; default `taint`, or `taint/<variant>` for an ablation. */
  name?: string;
  /** Receives every full verdict (labels, attribution path), e.g. to keep them beside the run log. */
  onVerdict?: (verdict: SinkVerdict, call: StagedCall) => void;
}

/** `taint`, `taint/local`, `taint/one-hop`, `taint/no-propagation`, ... */
export function taintDefenseName(scope: Scope = 'full', propagateLabels = true): string {
  const parts = [...(scope !== 'full' ? [scope] : []), ...(propagateLabels ? [] : ['no-propagation'])];
  return parts.length ? `taint/${parts.join('+')}` : 'taint';
}

/** The reason recorded on the tool event (and shown to the agent when enforced): why, then the path. */
export function verdictReason(v: SinkVerdict): string {
  const path = v.path.length > 1 ? ` [path: ${formatPath(v.path)}]` : '';
  return `${v.reason}${path}`;
}

export function createTaintDefense(opts: TaintDefenseOptions): SinkDefense {
  const scope = opts.scope ?? 'full';
  const propagateLabels = opts.propagate ?? true;
  const name = opts.name ?? taintDefenseName(scope, propagateLabels);
  return {
    name,
    async decide(call) {
      const trace = opts.traceSoFar?.(call) ?? { calls: [] };
      const notes: string[] = [];
      let annotation: RequestAnnotation | undefined;
      let toolResultLabels: Map<string, NodeAnnotation> | undefined;
      let toolLabels: Map<string, ToolAnnotation> | undefined;
      if (opts.annotator) {
        try {
          annotation = await opts.annotator.annotateRequest(call.task.prompt);
          toolResultLabels = new Map();
          for (const e of call.events) {
            if (!e.result || toolResultLabels.has(e.result)) continue;
            const a = await opts.annotator.annotateToolResult(e.result);
            if (a) toolResultLabels.set(e.result, a);
          }
          toolLabels = await unplacedToolLabels(opts.annotator, opts.policy, call);
        } catch (err) {
          notes.push(`intent annotation failed (${(err as Error)?.message ?? String(err)}); the policy's rules alone decided`);
        }
      }
      const built = buildTraceGraph(
        {
          root: call.task.prompt,
          // A benchmark task is one prompt: a later "user" message in the pipeline's calls is the pipeline's own.
          singleTurn: true,
          calls: trace.calls,
          tools: call.events,
          ...(trace.spans ? { spans: trace.spans } : {}),
          toolSpecs: call.task.toolSpecs,
          pending: {
            tool: call.tool,
            arguments: call.arguments,
            sinks: call.sinks,
            ...(call.agent !== undefined ? { agent: call.agent } : {}),
          },
          ...(annotation ? { annotation } : {}),
          ...(toolResultLabels ? { toolResultLabels } : {}),
          ...(toolLabels?.size ? { toolLabels } : {}),
        },
        opts.policy,
      );
      const site = built.sinks.find((s) => s.pending);
      if (!site) return { decision: 'unverifiable', reason: `the ${name} defense found no node for the pending call ${call.tool}` };
      const p = propagate(built.graph, { reachability: !propagateLabels });
      const verdict = adjudicateSink(built, p, site, opts.policy, { scope, propagate: propagateLabels });
      opts.onVerdict?.(verdict, call);
      const reason = [verdictReason(verdict), ...notes].join('; ');
      return { decision: verdict.decision, reason };
    },
  };
}

/** The model's labels for the tools of this call and its session that the deterministic profile could not place. */
async function unplacedToolLabels(annotator: IntentAnnotator, policy: Policy, call: StagedCall): Promise<Map<string, ToolAnnotation>> {
  const out = new Map<string, ToolAnnotation>();
  const seen = new Set<string>();
  for (const c of [...call.events.map((e) => ({ tool: e.tool, args: e.arguments })), { tool: call.tool, args: call.arguments }]) {
    if (seen.has(c.tool)) continue;
    seen.add(c.tool);
    const spec = call.task.toolSpecs.find((s) => s.name === c.tool);
    const def = { name: c.tool, ...(spec ? { description: spec.description, inputSchema: spec.inputSchema } : {}) };
    if (!classifyTool(policy, c.tool, c.args, { sinks: spec?.sinks, sources: spec?.sources }, def).profile?.unknown) continue;
    const a = await annotator.annotateTool(def);
    if (a) out.set(c.tool, a);
  }
  return out;
}
