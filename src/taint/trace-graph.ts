/**
 * Builds the collaboration graph of one instance from what saboteur observed: the root request,
 * the proxy's LLM calls, the MCP server's tool events and staged sinks, and the pipeline's OTLP
 * spans when it sent them. Nodes are numbered in start-time order, so nearly every edge points
 * forward and propagation is one pass.
 *
 * Edges: an LLM call → the tool calls its response issued (tool), span nesting (parent,
 * delegation), and content: a producer's text (the request, a response, a tool result) that
 * reappears in a later request (message) or in a tool call's arguments (argument).
 *
 * Argument-level provenance: each argument of a tool call is traced to the earlier texts it
 * quotes. When every argument is accounted for, the issuing LLM call passes only the control
 * labels (an injected instruction, a harmful request) to the tool call, not everything that
 * happened to be in its context; an argument no earlier text explains was written by the model
 * from its whole context, so then the issuing call passes every label.
 */
import type { ProxyCall } from '../runlog/schema.js';
import type { SinkLabel, SourceLabel, ToolEvent, ToolSpec } from '../benchmarks/agentic.js';
import { GraphBuilder, type NodeKind, type NodeMeta, type TraceGraph } from './graph.js';
import { ContentIndex, normalizeText, type ContentIndexOptions } from './content-links.js';
import { ALL_MASK, ROOT_BIT, maskOf } from './labels.js';
import type { Policy } from './policy.js';
import {
  authorisedByPolicy,
  classifyTool,
  contentLabels,
  flattenArguments,
  hostOf,
  isDirectory,
  releaseAt,
  requestNeeds,
  targetsOf,
  type LabelEvidence,
  type Target,
} from './classify.js';
import { genAiView, type GenAiSpan, type OtlpSpan } from '../otlp/index.js';

/** What an LLM read of the request adds (prompts/taint-intent.md): labels, needed sinks, named targets. */
export interface RequestAnnotation {
  sources: SourceLabel[];
  needs: SinkLabel[];
  targets: string[];
  why: string;
}

export interface PendingCall {
  tool: string;
  arguments: Record<string, unknown>;
  agent?: string;
  /** The sinks the MCP server staged it for (the tool spec's). */
  sinks?: readonly SinkLabel[];
  id?: string;
}

export interface TraceInput {
  /** The root request: the task prompt. */
  root: string;
  calls?: readonly ProxyCall[];
  tools?: readonly ToolEvent[];
  spans?: readonly OtlpSpan[];
  /** Declared labels per tool (the task's tool specs). */
  toolSpecs?: readonly Pick<ToolSpec, 'name' | 'sinks' | 'sources'>[];
  /** The staged call being decided: it becomes the last node. */
  pending?: PendingCall;
  annotation?: RequestAnnotation;
  /** LLM annotations of tool results, by the exact result text. */
  toolResultLabels?: ReadonlyMap<string, { sources: SourceLabel[]; why: string }>;
}

export interface TargetCheck extends Target {
  ok: boolean;
  why: string;
  /** What authorises it, when it is authorised: the policy's list, the request, a directory tool, the intent annotation. */
  authority?: 'policy' | 'request' | 'directory' | 'annotation';
  /** The node where the target first appears, when that is what makes it untrusted. */
  origin?: number;
}

export interface SinkSite {
  node: number;
  tool: string;
  agent?: string;
  toolCallId: string;
  arguments: Record<string, unknown>;
  /** Hard sinks under the policy. */
  sinks: number;
  staged?: ToolEvent['staged'];
  targets: TargetCheck[];
  /** The LLM call that issued it, when found. */
  issuedBy?: number;
  /** Arguments no earlier text explains (written by the model). */
  generated: string[];
  pending: boolean;
}

export interface BuiltTrace {
  graph: TraceGraph;
  root: number;
  rootText: string;
  sinks: SinkSite[];
  /** Hard sinks the request asks for, with why. */
  needs: { mask: number; evidence: LabelEvidence[] };
  /** Things that could not be connected (orphan spans, tool calls without their LLM call). */
  notes: string[];
}

type Source =
  | { type: 'root' }
  | { type: 'call'; call: ProxyCall }
  | { type: 'tool'; event: ToolEvent }
  | { type: 'pending'; call: PendingCall }
  | { type: 'span'; view: GenAiSpan }
  | { type: 'pseudo' };

interface Item {
  kind: NodeKind;
  start: number;
  end: number;
  order: number;
  meta: NodeMeta;
  /** Texts it consumed, per message (requests) or per argument (tool calls). */
  input: { text: string; name?: string }[];
  output: string;
  src: Source;
  node: number;
  tool?: string;
  args?: Record<string, unknown>;
  classified?: ReturnType<typeof classifyTool>;
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

function parseArgs(raw: string): Record<string, unknown> {
  try {
    const v = JSON.parse(raw === '' ? '{}' : raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { arguments: v };
  } catch {
    return { arguments: raw };
  }
}

const time = (iso: string | undefined): number => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : 0;
};

/** Arguments worth tracing: text with at least two words or eight characters (not flags, counts or languages). */
function bearing(value: string): boolean {
  const n = normalizeText(value);
  return n.length >= 8 || n.includes(' ');
}

const INPUT_ROLES_SKIPPED = new Set(['system', 'developer']);

export function buildTraceGraph(input: TraceInput, policy: Policy, indexOptions: ContentIndexOptions = {}): BuiltTrace {
  const notes: string[] = [];
  const declared = new Map((input.toolSpecs ?? []).map((s) => [s.name, s]));
  const items: Item[] = [];
  let order = 0;
  const push = (it: Omit<Item, 'order' | 'node'>): Item => {
    const full = { ...it, order: order++, node: -1 } as Item;
    items.push(full);
    return full;
  };

  push({ kind: 'root', start: -Infinity, end: -Infinity, meta: { ref: 'root', name: 'request' }, input: [], output: input.root, src: { type: 'root' } });

  // LLM calls seen by the proxy.
  const toolMessages = new Map<string, number>();
  for (const call of input.calls ?? []) {
    if (call.endpoint === 'models' || call.endpoint === 'unsupported') continue;
    const start = time(call.startedAt);
    const ins: Item['input'] = [];
    for (const m of call.request.messages ?? []) {
      if (INPUT_ROLES_SKIPPED.has(m.role) || !m.content) continue;
      ins.push({ text: m.content });
      if (m.role === 'tool' && !toolMessages.has(m.content)) toolMessages.set(m.content, start);
    }
    if (call.request.prompt) ins.push({ text: call.request.prompt });
    // The response's text is what later inputs can quote; its tool calls become tool-call nodes of their own
    // (indexing them here would make every call "explain" its own arguments).
    const output = call.response?.content ?? '';
    push({ kind: 'message', start, end: start + Math.max(0, call.durationMs), meta: { ref: `call:${call.id}`, agent: call.agent, name: 'llm call', time: start }, input: ins, output, src: { type: 'call', call } });
  }

  const toolItem = (tool: string, args: Record<string, unknown>, base: Omit<Item, 'order' | 'node' | 'kind' | 'input' | 'tool' | 'args' | 'classified'>, extraSinks: readonly SinkLabel[] = [], staged = false): Item => {
    const spec = declared.get(tool);
    const classified = classifyTool(policy, tool, args, { sinks: [...(spec?.sinks ?? []), ...extraSinks], sources: spec?.sources });
    const kind: NodeKind = classified.sinks !== 0 || staged ? 'sink' : 'tool';
    return push({ ...base, kind, input: flattenArguments(args).map((a) => ({ text: a.value, name: a.name })), tool, args, classified });
  };

  // Tool events at the MCP server.
  const eventByKey = new Map<string, Item[]>();
  for (const ev of input.tools ?? []) {
    const start = time(ev.startedAt);
    const it = toolItem(
      ev.tool,
      ev.arguments ?? {},
      { start, end: start + Math.max(0, ev.durationMs), meta: { ref: `tool:${ev.id}`, agent: ev.agent, name: ev.tool, time: start, toolCallId: ev.id }, output: ev.result ?? '', src: { type: 'tool', event: ev } },
      (ev.staged?.sinks ?? []) as SinkLabel[],
      ev.staged !== undefined,
    );
    const key = `${ev.tool}\u0000${canonical(ev.arguments ?? {})}`;
    eventByKey.set(key, [...(eventByKey.get(key) ?? []), it]);
  }

  // Spans: a chat span that is a proxy call, or an execute_tool span that is a tool event, merges into it.
  const spanItem = new Map<string, Item>();
  /** The gen_ai.tool.call.id of an execute_tool span that is a tool event saboteur recorded. */
  const mergedCallId = new Map<Item, string>();
  const views = (input.spans ?? []).map(genAiView);
  // A span without gen_ai.agent.name belongs to the agent of its nearest ancestor that has one.
  const viewById = new Map(views.map((v) => [v.span.spanId, v]));
  const agentOfSpan = (v: GenAiSpan): string | undefined => {
    for (let cur: GenAiSpan | undefined = v, guard = 0; cur && guard < 1000; cur = cur.span.parentSpanId ? viewById.get(cur.span.parentSpanId) : undefined, guard++) {
      if (cur.agent) return cur.agent;
    }
    return undefined;
  };
  // A chat span is the proxy call with the same answer: its text and its tool calls.
  const signature = (text: string, calls: readonly { name: string; arguments: string }[]) =>
    `${normalizeText(text)}\u0000${calls.map((t) => `${t.name}:${canonical(parseArgs(t.arguments))}`).sort().join('\u0000')}`;
  const callByOutput = new Map<string, Item>();
  for (const it of items) {
    if (it.src.type !== 'call' || !it.src.call.response) continue;
    const key = signature(it.src.call.response.content, it.src.call.response.toolCalls ?? []);
    if (key !== '\u0000') callByOutput.set(key, it);
  }
  for (const v of views) {
    const s = v.span;
    const agent = agentOfSpan(v);
    const meta: NodeMeta = { ref: `span:${s.spanId}`, name: s.name, time: s.startMs, ...(agent ? { agent } : {}) };
    if (v.op === 'chat') {
      const out = v.output.map((m) => m.text).filter(Boolean).join('\n');
      const same = callByOutput.get(signature(out, v.output.flatMap((m) => m.toolCalls)));
      if (same) {
        spanItem.set(s.spanId, same);
        continue;
      }
      const ins = v.input.filter((m) => !INPUT_ROLES_SKIPPED.has(m.role) && m.text).map((m) => ({ text: m.text }));
      spanItem.set(s.spanId, push({ kind: 'message', start: s.startMs, end: s.endMs, meta: { ...meta, name: 'llm call' }, input: ins, output: out, src: { type: 'span', view: v } }));
    } else if (v.op === 'execute_tool' && v.tool) {
      const args = v.toolArguments ?? {};
      const key = `${v.tool}\u0000${canonical(args)}`;
      const same = eventByKey.get(key)?.shift();
      if (same) {
        spanItem.set(s.spanId, same);
        if (v.toolCallId) mergedCallId.set(same, v.toolCallId);
        continue;
      }
      const it = toolItem(v.tool, args, {
        start: s.startMs,
        end: s.endMs,
        meta: { ...meta, name: v.tool, toolCallId: v.toolCallId ?? s.spanId },
        output: v.toolResult ?? '',
        src: { type: 'span', view: v },
      });
      spanItem.set(s.spanId, it);
    } else {
      const ins = v.input.filter((m) => !INPUT_ROLES_SKIPPED.has(m.role) && m.text).map((m) => ({ text: m.text }));
      const out = v.output.map((m) => m.text).filter(Boolean).join('\n');
      spanItem.set(s.spanId, push({ kind: 'delegation', start: s.startMs, end: s.endMs, meta: { ...meta, name: v.agent ? `agent ${v.agent}` : s.name }, input: ins, output: out, src: { type: 'span', view: v } }));
    }
  }

  // Tool results the pipeline fed its models that saboteur did not serve (its own tools): their
  // origin is unknown. A result that quotes a served one (a pipeline may trim or wrap it) is that one.
  const servedIndex = new ContentIndex(indexOptions);
  items.forEach((it, i) => (it.kind === 'tool' || it.kind === 'sink') && it.output && servedIndex.add(i, it.output, -Infinity));
  const unserved = new Set<string>();
  for (const [content, firstUse] of toolMessages) {
    const n = normalizeText(content);
    // Too short to carry content ("ok", "sent"), already seen, or a served result.
    if (!n.includes(' ') || n.split(' ').length < 3 || unserved.has(n) || servedIndex.linked(content, Infinity).size > 0) continue;
    unserved.add(n);
    const it = push({ kind: 'tool', start: firstUse - 1e-3, end: firstUse - 1e-3, meta: { ref: `unserved:${items.length}`, name: 'tool result not served by saboteur' }, input: [], output: content, src: { type: 'pseudo' } });
    it.classified = { sources: maskOf(['UNTRUSTED_CONTENT']), sinks: 0, evidence: [{ mask: maskOf(['UNTRUSTED_CONTENT']), why: "a tool result the pipeline got elsewhere: saboteur cannot tell where it came from" }] };
  }

  let last = 0;
  for (const it of items) if (Number.isFinite(it.end)) last = Math.max(last, it.end, it.start);
  if (input.pending) {
    const p = input.pending;
    toolItem(p.tool, p.arguments, { start: last + 1, end: last + 1, meta: { ref: `pending:${p.id ?? p.tool}`, agent: p.agent, name: p.tool, time: last + 1, toolCallId: p.id ?? 'pending' }, output: '', src: { type: 'pending', call: p } }, p.sinks ?? [], true);
  }

  // Number nodes in start order (the root first; spans' parents before their children on ties).
  items.sort((a, b) => a.start - b.start || a.order - b.order);
  const g = new GraphBuilder({ nodes: items.length, edges: items.length * 4 });
  for (const it of items) it.node = g.addNode(it.kind, it.meta);
  const rootItem = items.find((it) => it.src.type === 'root')!;
  const root = rootItem.node;

  // Labels.
  g.label(root, ROOT_BIT);
  const rootContent = contentLabels(policy, input.root, 'request');
  for (const e of rootContent.evidence) g.label(root, e.mask, e.why);
  if (input.annotation && input.annotation.sources.length) g.label(root, maskOf(input.annotation.sources), input.annotation.why);
  for (const it of items) {
    if (it === rootItem) continue;
    for (const e of it.classified?.evidence ?? []) g.label(it.node, e.mask, e.why);
    const site = it.kind === 'tool' || it.kind === 'sink' ? 'tool-result' : 'message';
    for (const e of contentLabels(policy, it.output, site).evidence) g.label(it.node, e.mask, e.why);
    const annotated = site === 'tool-result' ? input.toolResultLabels?.get(it.output) : undefined;
    if (annotated?.sources.length) g.label(it.node, maskOf(annotated.sources), annotated.why);
    if (it.kind === 'sink') for (const e of contentLabels(policy, it.input.map((x) => x.text).join('\n'), 'argument').evidence) g.label(it.node, e.mask, `${e.why} in the arguments`);
    const rel = releaseAt(policy, { tool: it.tool, agent: it.meta.agent });
    if (rel) g.releaseAt(it.node, rel.mask, rel.why);
  }

  // Producers.
  const index = new ContentIndex(indexOptions);
  for (const it of items) if (it.output) index.add(it.node, it.output, it.end);
  const itemOf = new Map(items.map((it) => [it.node, it]));
  const describe = (node: number): string => {
    const it = itemOf.get(node)!;
    if (it.src.type === 'root') return 'the request';
    if (it.src.type === 'pseudo') return `a tool result saboteur did not serve (${it.meta.ref})`;
    if (it.kind === 'message') return `the response of ${it.meta.agent ? `agent ${it.meta.agent}` : 'an LLM call'} (${it.meta.ref})`;
    if (it.kind === 'tool' || it.kind === 'sink') return `the result of tool ${it.tool ?? it.meta.name} (${it.meta.ref})`;
    return `${it.meta.name ?? 'a span'} (${it.meta.ref})`;
  };
  const linkNote = (producer: number, count: number) => `${describe(producer)} reappears here (${count > 1 ? `${count} shared ${index.k}-word passages` : 'quoted'})`;

  // Message edges into LLM calls and agent spans, memoised per message text (a conversation repeats its history).
  const memo = new Map<string, Map<number, number>>();
  for (const it of items) {
    if (it.kind !== 'message' && it.kind !== 'delegation') continue;
    for (const m of it.input) {
      let hits = memo.get(m.text);
      if (!hits) memo.set(m.text, (hits = index.linked(m.text, it.start)));
      for (const [p, c] of hits) if (p !== it.node && itemOf.get(p)!.end <= it.start) g.addEdge(p, it.node, 'message', ALL_MASK, linkNote(p, c));
    }
  }

  // Issuing LLM call → tool call, by tool name and arguments (proxy calls) or tool call id (spans).
  // Each tool call of a response issues one tool event: the latest unused one that finished before
  // the event started, the same agent's first.
  const issued = new Map<string, { item: Item; slot: string }[]>();
  for (const it of items) {
    if (it.src.type !== 'call') continue;
    (it.src.call.response?.toolCalls ?? []).forEach((t, k) => {
      const key = `${t.name}\u0000${canonical(parseArgs(t.arguments))}`;
      issued.set(key, [...(issued.get(key) ?? []), { item: it, slot: `${it.node}#${k}` }]);
    });
  }
  const spanIssuer = new Map<string, Item>();
  for (const v of views) {
    const it = spanItem.get(v.span.spanId);
    if (!it) continue;
    for (const m of v.output) for (const t of m.toolCalls) if (t.id) spanIssuer.set(t.id, it);
  }
  const usedSlots = new Set<string>();
  const sinks: SinkSite[] = [];
  for (const it of items) {
    if (it.kind !== 'tool' && it.kind !== 'sink') continue;
    if (it.src.type === 'pseudo') continue;
    const args = it.args ?? {};
    const candidates = (issued.get(`${it.tool}\u0000${canonical(args)}`) ?? []).filter((c) => c.item.end <= it.start && !usedSlots.has(c.slot)).reverse();
    const pick = candidates.find((c) => c.item.meta.agent === it.meta.agent) ?? candidates[0];
    let issuer: Item | undefined;
    if (pick) {
      usedSlots.add(pick.slot);
      issuer = pick.item;
    } else {
      const callId = it.src.type === 'span' ? it.src.view.toolCallId : mergedCallId.get(it);
      if (callId) issuer = spanIssuer.get(callId);
    }

    // Argument provenance.
    const generated: string[] = [];
    for (const a of it.input) {
      if (!bearing(a.text)) continue;
      const cov = index.coverage(a.text, it.start);
      // The argument's provenance is where its text first appeared: a tool result that merely echoes
      // the request (a search engine repeating the query) is not where the text came from.
      for (const [p, c] of cov.firstSeen) {
        if (p === it.node || c < Math.min(index.minShingles, cov.windows)) continue;
        g.addEdge(p, it.node, 'argument', ALL_MASK, `${describe(p)} reappears in argument ${a.name ?? ''}`.trim());
      }
      const missing = cov.windows - cov.covered;
      if (missing > Math.max(cov.windows > 1 ? 1 : 0, 0.2 * cov.windows)) generated.push(a.name ?? '(argument)');
    }
    if (issuer && issuer.node !== it.node) {
      const mask = generated.length > 0 ? ALL_MASK : policy.controlMask | ROOT_BIT;
      const note = generated.length > 0 ? `issued this call; argument${generated.length > 1 ? 's' : ''} ${generated.join(', ')} written by the model from its whole context` : 'issued this call; every argument traced to its source, so only control labels pass';
      g.addEdge(issuer.node, it.node, 'tool', mask, note);
    } else if (it.src.type !== 'span' || !it.src.view.span.parentSpanId) {
      notes.push(`${it.meta.ref} (${it.tool}): no LLM call in the trace issued it`);
    }

    if (it.kind !== 'sink') continue;
    const targets = targetsOf(policy, it.tool!, args).map((t) => checkTarget(t, it.start));
    sinks.push({
      node: it.node,
      tool: it.tool!,
      ...(it.meta.agent !== undefined ? { agent: it.meta.agent } : {}),
      toolCallId: it.meta.toolCallId ?? it.meta.ref,
      arguments: args,
      sinks: it.classified?.sinks ?? 0,
      ...(it.src.type === 'tool' && it.src.event.staged ? { staged: it.src.event.staged } : {}),
      targets,
      ...(issuer ? { issuedBy: issuer.node } : {}),
      generated,
      pending: it.src.type === 'pending',
    });
  }

  // Span structure: nesting, delegation, tool results answered by id, top-level spans from the request.
  const bySpanId = new Map(views.map((v) => [v.span.spanId, v]));
  const toolBySpanCallId = new Map<string, Item>();
  for (const v of views) if (v.op === 'execute_tool' && v.toolCallId) toolBySpanCallId.set(v.toolCallId, spanItem.get(v.span.spanId)!);
  for (const v of views) {
    const child = spanItem.get(v.span.spanId);
    if (!child) continue;
    const parentId = v.span.parentSpanId;
    if (!parentId) {
      g.addEdge(root, child.node, 'delegation', ALL_MASK, 'a top-level span of the pipeline run the request started');
    } else {
      const parent = spanItem.get(parentId);
      if (parent && parent !== child) g.addEdge(parent.node, child.node, v.op === 'invoke_agent' ? 'delegation' : 'parent', ALL_MASK, `${bySpanId.get(parentId)?.span.name ?? 'span'} contains it`);
      else if (!parent) notes.push(`span ${v.span.spanId} (${v.span.name}): its parent span ${parentId} is not in the trace`);
    }
    for (const m of v.input) {
      for (const id of m.responseTo) {
        const t = toolBySpanCallId.get(id);
        if (t && t !== child) g.addEdge(t.node, child.node, 'message', ALL_MASK, `the result of tool call ${id} is in this request`);
      }
    }
  }

  function checkTarget(t: Target, before: number): TargetCheck {
    const byPolicy = authorisedByPolicy(policy, t.value);
    if (byPolicy) return { ...t, ok: true, authority: 'policy', why: `authorised by the policy (${byPolicy})` };
    if (input.annotation?.targets.some((x) => normalizeText(x) !== '' && normalizeText(x) === normalizeText(t.value))) {
      return { ...t, ok: true, authority: 'annotation', why: 'named in the request (intent annotation)' };
    }
    const probes = [t.value];
    const host = t.kind === 'url' ? hostOf(t.value) : undefined;
    if (host) probes.push(host);
    let origins: number[] = [];
    for (const probe of probes) {
      const cov = index.coverage(probe, before);
      if (cov.covered > 0) {
        origins = [...cov.firstSeen.keys()];
        break;
      }
    }
    if (origins.includes(root) && (t.require === 'trusted' || origins.length === 1)) return { ...t, ok: true, authority: 'request', why: 'named in the request' };
    const untrusted = origins.find((o) => {
      const it = itemOf.get(o)!;
      return (it.kind === 'tool' || it.kind === 'sink') && !(it.tool && isDirectory(policy, it.tool));
    });
    if (untrusted !== undefined) return { ...t, ok: false, origin: untrusted, why: `first appears in ${describe(untrusted)}: a ${t.kind} from a tool result is untrusted` };
    const directory = origins.find((o) => itemOf.get(o)!.tool !== undefined);
    if (directory !== undefined) return { ...t, ok: true, authority: 'directory', why: `from the directory tool ${itemOf.get(directory)!.tool} (policy directories)` };
    if (t.require === 'trusted') return { ...t, ok: true, why: origins.length ? `written by ${describe(origins[0])}` : 'written by the model' };
    return {
      ...t,
      ok: false,
      ...(origins.length ? { origin: origins[0] } : {}),
      why: origins.length ? `not named in the request: first written by ${describe(origins[0])}` : 'named neither in the request nor in the policy',
    };
  }

  const needs = requestNeeds(policy, input.root);
  if (input.annotation?.needs.length) {
    const m = maskOf(input.annotation.needs);
    needs.mask |= m;
    needs.evidence.push({ mask: m, why: input.annotation.why });
  }
  return { graph: g.build(), root, rootText: input.root, sinks, needs, notes };
}
