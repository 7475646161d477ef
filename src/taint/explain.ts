/**
 * `saboteur validate --explain` (docs/validator.md, "The taint validator"): for every staged sink,
 * the chain from the request to the decision, as the validator computed it: what the request asks
 * for, why the call is a sink, where each argument value came from (the request, a tool result,
 * an agent's message, or the model itself), which targets passed their check and why, which
 * labels reached the call and along which path, and the decision with its reason. Nothing here
 * decides: it reads the graph, the propagation and the verdicts of the adjudication.
 */
import { code, escapeInline } from '../report/escape.js';
import { ROOT_BIT, SINK_MASK, sinksOf, sourcesOf, type SinkLabel } from './labels.js';
import { attributionPath, describeNode, labelsInScope, type PathStep, type Scope } from './propagate.js';
import type { Violation } from './adjudicate.js';
import type { ArgumentTrace } from './trace-graph.js';
import type { AdjudicatedTrace } from './validate-trace.js';

/** A node of the trace, as the explanation names it. */
export interface NodeRef {
  node: string;
  kind: string;
  name?: string;
  agent?: string;
}

export interface ArgumentExplanation {
  name: string;
  value: string;
  role: ArgumentTrace['role'];
  /** Where the value first appeared: the request, a tool result, an agent's message, or nowhere (the model wrote it). */
  from: ArgumentTrace['origin'];
  source?: NodeRef;
  /** It sits inside a passage of injected instructions there. */
  injected: boolean;
}

export interface SinkExplanation {
  trace: string;
  toolCallId: string;
  tool: string;
  agent?: string;
  request: { text: string; asks: { sinks: SinkLabel[]; why: string }[] };
  /** Its hard sinks and the evidence that gives them. */
  sink: { sinks: SinkLabel[]; evidence: string[] };
  issuedBy?: NodeRef;
  arguments: ArgumentExplanation[];
  targets: { kind: string; argument: string; value: string; ok: boolean; why: string; authority?: string; origin?: NodeRef }[];
  /** Each label that reached the call (and the request itself), with the path it came along. */
  reached: { label: string; path: PathStep[] }[];
  decision: string;
  reason: string;
  violations: Pick<Violation, 'kind' | 'message' | 'path'>[];
}

/** Every staged sink of one adjudicated trace, explained (in the order of its verdicts). */
export function explainTrace(a: AdjudicatedTrace, scope: Scope = 'full'): SinkExplanation[] {
  const { built: b, propagation: p, verdicts } = a;
  const g = b.graph;
  const ref = (v: number): NodeRef => {
    const d = describeNode(g, v, 0);
    return {
      node: d.node,
      kind: d.kind,
      ...(d.name !== undefined ? { name: d.name } : {}),
      ...(d.agent !== undefined ? { agent: d.agent } : {}),
    };
  };
  const asks = b.needs.evidence.map((e) => ({ sinks: sinksOf(e.mask), why: e.why })).filter((e) => e.sinks.length);
  return b.sinks.map((site, i) => {
    const v = verdicts[i];
    const inScope = labelsInScope(g, p, site.node, scope);
    const reached = [
      ...(inScope & ROOT_BIT ? [{ label: 'request', path: attributionPath(g, p, site.node, 'ROOT', scope) }] : []),
      ...sourcesOf(inScope).map((l) => ({ label: l, path: attributionPath(g, p, site.node, l, scope) })),
    ];
    return {
      trace: a.trace.name,
      toolCallId: v.toolCallId,
      tool: v.tool,
      ...(v.agent !== undefined ? { agent: v.agent } : {}),
      // With the user's later turns before the call (trace/user-turns.ts), the request as the call saw it.
      request: site.request
        ? {
            text: site.request.text,
            asks: [...asks, { sinks: sinksOf(site.request.needs & ~b.needs.mask), why: "the user's later turns" }].filter(
              (e) => e.sinks.length,
            ),
          }
        : { text: b.rootText, asks },
      sink: { sinks: sinksOf(site.sinks), evidence: describeNode(g, site.node, g.own[site.node] & SINK_MASK).evidence },
      ...(site.issuedBy !== undefined ? { issuedBy: ref(site.issuedBy) } : {}),
      arguments: (site.args ?? []).map((x) => ({
        name: x.name,
        value: x.value,
        role: x.role,
        from: x.origin,
        ...(x.node !== undefined ? { source: ref(x.node) } : {}),
        injected: x.injected,
      })),
      targets: site.targets.map((t) => ({
        kind: t.kind,
        argument: t.argument,
        value: t.value,
        ok: t.ok,
        why: t.why,
        ...(t.authority ? { authority: t.authority } : {}),
        ...(t.origin !== undefined ? { origin: ref(t.origin) } : {}),
      })),
      reached,
      decision: v.decision,
      reason: v.reason,
      violations: v.violations.map(({ kind, message, path }) => ({ kind, message, path })),
    };
  });
}

const FROM: Record<ArgumentTrace['origin'], string> = {
  request: 'from the request',
  'tool-result': 'from a tool result',
  message: "from an agent's message",
  model: 'written by the model (no earlier text holds it)',
};

/** A node as Markdown: its kind, name and agent, and its reference, each escaped. */
function nodeText(n: NodeRef | Omit<PathStep, 'via'>): string {
  return `${escapeInline(n.kind, 40)}${n.name ? ` ${code(n.name, 80)}` : ''}${n.agent ? ` (agent ${code(n.agent, 60)})` : ''} [${code(n.node, 80)}]`;
}

export function pathText(path: readonly PathStep[]): string {
  return path.map((s) => `${nodeText(s)}${s.labels.length ? ` ${s.labels.map((l) => code(l)).join(', ')}` : ''}`).join(' → ') || '–';
}

/** One sink's explanation as Markdown lines; every string from the trace is escaped. */
export function explanationMarkdown(x: SinkExplanation): string[] {
  const who = `${code(x.toolCallId, 80)} ${code(x.tool, 80)}${x.agent ? ` (agent ${code(x.agent, 60)})` : ''}`;
  const lines = [
    `### ${who}: ${x.decision}`,
    '',
    `- request: ${escapeInline(x.request.text, 400)}`,
    `- the request asks for: ${x.request.asks.map((a) => `${a.sinks.map((s) => code(s)).join(', ')} (${escapeInline(a.why, 160)})`).join('; ') || 'no hard sink (no verb of the action lexicon, no intent rule)'}`,
    `- a sink: ${x.sink.sinks.map((s) => code(s)).join(', ') || 'none under the policy'}${x.sink.evidence.length ? `: ${escapeInline(x.sink.evidence.join('; '), 400)}` : ''}`,
    ...(x.issuedBy ? [`- issued by: ${nodeText(x.issuedBy)}`] : []),
    `- arguments:${x.arguments.length ? '' : ' none'}`,
    ...x.arguments.map(
      (a) =>
        `  - ${code(a.name, 60)} = ${code(a.value, 120)} (${a.role}): ${FROM[a.from]}${a.source ? `, ${nodeText(a.source)}` : ''}${a.injected ? ', inside an injected passage' : ''}`,
    ),
    ...(x.targets.length ? ['- targets:'] : []),
    ...x.targets.map(
      (t) =>
        `  - ${t.kind} ${code(t.value, 120)} (argument ${code(t.argument, 60)}): ${t.ok ? 'passes' : 'fails'}: ${escapeInline(t.why, 300)}${t.origin ? `; first in ${nodeText(t.origin)}` : ''}`,
    ),
    `- labels that reach it:${x.reached.length ? '' : ' none'}`,
    ...x.reached.map((r) => `  - ${r.label === 'request' ? 'the request' : code(r.label)}: ${pathText(r.path)}`),
    // A block's reason is its violations' messages: each is shown with its path instead.
    x.decision === 'block' ? `- decision: **block**, by:` : `- decision: **${x.decision}**: ${escapeInline(x.reason, 800)}`,
    ...x.violations.map((v) => `  - ${escapeInline(v.message, 400)}; path: ${pathText(v.path)}`),
    '',
  ];
  return lines;
}

/** Every explanation under one heading, grouped by trace. */
export function explanationsMarkdown(xs: readonly SinkExplanation[]): string[] {
  if (xs.length === 0) return [];
  const lines = ['## Why each staged sink was decided', ''];
  let trace: string | undefined;
  for (const x of xs) {
    if (x.trace !== trace) lines.push(`trace: ${escapeInline(x.trace, 200)}`, '');
    trace = x.trace;
    lines.push(...explanationMarkdown(x));
  }
  return lines;
}
