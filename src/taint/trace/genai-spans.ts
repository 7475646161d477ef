/**
 * Items and structure edges from the pipeline's OpenTelemetry GenAI spans. A chat span that is an
 * LLM call the proxy recorded, or an execute_tool span that is a tool event the MCP server
 * recorded, merges into it; the rest become items of their own. An agent span (invoke_agent or
 * any span with children) is split in two: the agent receiving its task (at its start, with its
 * input) and the agent's answer (at its end, with its output), so that what the agent read while
 * working reaches its answer and nothing it read later flows back into its start.
 *
 * When tool spans sit directly under the agent span with no chat span that issued them (how many
 * frameworks export), each such call gets a step item: the agent deciding to call the tool, with
 * everything the agent had seen by then (its task and the results of its earlier calls). The step
 * is the call's issuer, as a chat span would be.
 */
import { ALL_MASK, ROOT_BIT } from '../labels.js';
import type { GraphBuilder, NodeMeta } from '../graph.js';
import { normalizeText } from '../content-links.js';
import type { GenAiSpan } from '../../otlp/index.js';
import { INPUT_ROLES_SKIPPED, callKey, parseArgs, type Item, type ItemList } from './items.js';
import type { ToolItemFactory } from './tool-events.js';
import { pushTo } from '../../util/maps.js';

export interface SpanItems {
  views: GenAiSpan[];
  /** Span id → the item it is (its own, or the proxy call / tool event it merged into). */
  item: Map<string, Item>;
  /** Agent span id → its answer item. */
  answer: Map<string, Item>;
  /** gen_ai.tool.call.id of an execute_tool span merged into a recorded tool event. */
  mergedCallId: Map<Item, string>;
  /** Span id → the span ids of its children, in the order given. */
  children: Map<string, string[]>;
  /** Tool call id → the tool item read from a chat span's output (chat-tool-calls.ts). */
  fromChat: Map<string, Item>;
}

function agentResolver(views: readonly GenAiSpan[]): (v: GenAiSpan) => string | undefined {
  const byId = new Map(views.map((v) => [v.span.spanId, v]));
  const memo = new Map<string, string | undefined>();
  const resolve = (v: GenAiSpan, depth: number): string | undefined => {
    if (v.agent) return v.agent;
    if (memo.has(v.span.spanId)) return memo.get(v.span.spanId);
    const parent = v.span.parentSpanId ? byId.get(v.span.parentSpanId) : undefined;
    const agent = parent && depth < 1000 ? resolve(parent, depth + 1) : undefined;
    memo.set(v.span.spanId, agent);
    return agent;
  };
  return (v) => resolve(v, 0);
}

const textOf = (messages: GenAiSpan['output']) =>
  messages
    .map((m) => m.text)
    .filter(Boolean)
    .join('\n');
const inputsOf = (v: GenAiSpan) => v.input.filter((m) => !INPUT_ROLES_SKIPPED.has(m.role) && m.text).map((m) => ({ text: m.text }));

/** A chat span is the proxy call with the same answer: its text and its tool calls. */
function outputSignature(text: string, calls: readonly { name: string; arguments: string }[]): string {
  return `${normalizeText(text)}\u0000${calls
    .map((t) => callKey(t.name, parseArgs(t.arguments)))
    .sort()
    .join('\u0000')}`;
}

/** What adding the spans shares: where items go, and the recorded calls and events a span can merge into. */
interface SpanContext {
  list: ItemList;
  toolItem: ToolItemFactory;
  /** Recorded tool events by call key, each taken by the first execute_tool span that matches it. */
  eventByKey: Map<string, Item[]>;
  /** Proxy calls by the signature of their answer. */
  callByOutput: Map<string, Item>;
  out: SpanItems;
}

export function addSpans(list: ItemList, toolItem: ToolItemFactory, views: GenAiSpan[], eventByKey: Map<string, Item[]>): SpanItems {
  const out: SpanItems = { views, item: new Map(), answer: new Map(), mergedCallId: new Map(), children: new Map(), fromChat: new Map() };
  for (const v of views) {
    const p = v.span.parentSpanId;
    if (!p) continue;
    pushTo(out.children, p, v.span.spanId);
  }
  const agentOf = agentResolver(views);
  const callByOutput = new Map<string, Item>();
  for (const it of list.items) {
    if (it.src.type !== 'call' || !it.src.call.response) continue;
    const key = outputSignature(it.src.call.response.content, it.src.call.response.toolCalls ?? []);
    if (key !== '\u0000') callByOutput.set(key, it);
  }
  const cx: SpanContext = { list, toolItem, eventByKey, callByOutput, out };
  for (const v of views) {
    const s = v.span;
    const agent = agentOf(v);
    const meta: NodeMeta = { ref: `span:${s.spanId}`, name: s.name, time: s.startMs, ...(agent ? { agent } : {}) };
    if (v.op === 'chat') addChatSpan(cx, v, meta);
    else if (v.op === 'execute_tool' && v.tool) addToolSpan(cx, v, v.tool, meta);
    else addAgentSpan(cx, v, meta, agent);
  }
  return out;
}

/** A chat span: merged into the proxy call with the same answer, else an LLM call of its own. */
function addChatSpan(cx: SpanContext, v: GenAiSpan, meta: NodeMeta): void {
  const s = v.span;
  const text = textOf(v.output);
  const same = cx.callByOutput.get(
    outputSignature(
      text,
      v.output.flatMap((m) => m.toolCalls),
    ),
  );
  if (same) {
    cx.out.item.set(s.spanId, same);
    return;
  }
  cx.out.item.set(
    s.spanId,
    cx.list.push({
      kind: 'message',
      start: s.startMs,
      end: s.endMs,
      meta: { ...meta, name: 'llm call' },
      input: inputsOf(v),
      output: text,
      src: { type: 'span', view: v },
    }),
  );
}

/** An execute_tool span: merged into the recorded tool event with the same call, else a tool call of its own. */
function addToolSpan(cx: SpanContext, v: GenAiSpan, tool: string, meta: NodeMeta): void {
  const s = v.span;
  const args = v.toolArguments ?? {};
  const same = cx.eventByKey.get(callKey(tool, args))?.shift();
  if (same) {
    cx.out.item.set(s.spanId, same);
    if (v.toolCallId) cx.out.mergedCallId.set(same, v.toolCallId);
    return;
  }
  cx.out.item.set(
    s.spanId,
    cx.toolItem(tool, args, {
      start: s.startMs,
      end: s.endMs,
      meta: { ...meta, name: tool, toolCallId: v.toolCallId ?? s.spanId },
      output: v.toolResult ?? '',
      src: { type: 'span', view: v },
    }),
  );
}

/** An agent (or any other) span: the agent receiving its task at its start, and its answer, if any, at its end. */
function addAgentSpan(cx: SpanContext, v: GenAiSpan, meta: NodeMeta, agent: string | undefined): void {
  const s = v.span;
  const it = cx.list.push({
    kind: 'delegation',
    start: s.startMs,
    end: s.startMs,
    meta: { ...meta, name: v.agent ? `agent ${v.agent}` : s.name },
    input: inputsOf(v),
    output: '',
    src: { type: 'span', view: v },
  });
  cx.out.item.set(s.spanId, it);
  const answer = textOf(v.output);
  if (!answer) return;
  cx.out.answer.set(
    s.spanId,
    cx.list.push({
      kind: 'message',
      start: s.endMs,
      end: s.endMs,
      meta: {
        ref: `span:${s.spanId}#answer`,
        name: v.agent ? `answer of agent ${v.agent}` : `output of ${s.name}`,
        time: s.endMs,
        ...(agent ? { agent } : {}),
      },
      input: [],
      output: answer,
      src: { type: 'answer', agent: it },
    }),
  );
}

/** A step item for each tool span nothing issued whose parent is an agent (or any other non-chat) span. */
export function addSteps(list: ItemList, spans: SpanItems, unissued: ReadonlySet<Item>): Map<Item, Item> {
  const stepOf = new Map<Item, Item>();
  for (const v of spans.views) {
    if (v.op !== 'execute_tool' || !v.span.parentSpanId) continue;
    const tool = spans.item.get(v.span.spanId);
    const parent = spans.item.get(v.span.parentSpanId);
    if (!tool || !parent || parent.kind !== 'delegation' || !unissued.has(tool)) continue;
    const at = tool.start - 1e-3;
    stepOf.set(
      tool,
      list.push({
        kind: 'message',
        start: at,
        end: at,
        meta: {
          ref: `step:${v.span.spanId}`,
          name: `${parent.meta.agent ? `agent ${parent.meta.agent}` : 'the agent'} calls ${tool.tool}`,
          time: at,
          ...(parent.meta.agent ? { agent: parent.meta.agent } : {}),
        },
        input: [],
        output: '',
        src: { type: 'step', agent: parent, tool },
      }),
    );
  }
  return stepOf;
}

/**
 * Structure edges: the request → top-level spans, parent → child (an agent's task reaches its
 * chat calls and sub-agents whole; a tool call gets only the control labels and the request
 * through nesting, the rest through its issuer), tool results answered by id, and each agent's
 * chain of steps and its answer.
 */
export function spanEdges(
  g: GraphBuilder,
  root: number,
  spans: SpanItems,
  stepsOf: ReadonlyMap<Item, Item[]>,
  controlMask: number,
  notes: string[],
): void {
  const byId = new Map(spans.views.map((v) => [v.span.spanId, v]));
  const toolByCallId = new Map<string, Item>();
  for (const v of spans.views) if (v.op === 'execute_tool' && v.toolCallId) toolByCallId.set(v.toolCallId, spans.item.get(v.span.spanId)!);
  for (const [id, it] of spans.fromChat) if (!toolByCallId.has(id)) toolByCallId.set(id, it);
  for (const v of spans.views) {
    const child = spans.item.get(v.span.spanId);
    if (!child) continue;
    const parentId = v.span.parentSpanId;
    if (!parentId) {
      g.addEdge(root, child.node, 'delegation', ALL_MASK, 'a top-level span of the pipeline run the request started');
    } else {
      const parent = spans.item.get(parentId);
      const tool = child.kind === 'tool' || child.kind === 'sink';
      if (parent && parent !== child)
        g.addEdge(
          parent.node,
          child.node,
          v.op === 'invoke_agent' ? 'delegation' : 'parent',
          tool ? controlMask | ROOT_BIT : ALL_MASK,
          `${byId.get(parentId)?.span.name ?? 'span'} contains it`,
        );
      else if (!parent) notes.push(`span ${v.span.spanId} (${v.span.name}): its parent span ${parentId} is not in the trace`);
    }
    for (const m of v.input) {
      for (const id of m.responseTo) {
        const t = toolByCallId.get(id);
        if (t && t !== child) g.addEdge(t.node, child.node, 'message', ALL_MASK, `the result of tool call ${id} is in this request`);
      }
    }
  }
  agentContextEdges(g, spans, stepsOf);
}

/** Each agent span's steps in a chain, fed by the results of its tool calls as they finish; all of it reaches the answer. */
function agentContextEdges(g: GraphBuilder, spans: SpanItems, stepsOf: ReadonlyMap<Item, Item[]>): void {
  for (const [spanId, kids] of spans.children) {
    const agent = spans.item.get(spanId);
    if (!agent || agent.kind !== 'delegation') continue;
    const results: Item[] = [];
    const others: Item[] = [];
    for (const k of kids) {
      const x = spans.item.get(k);
      if (!x || x === agent) continue;
      if (x.kind === 'tool' || x.kind === 'sink') results.push(x);
      else others.push(spans.answer.get(k) ?? x);
    }
    results.sort((a, b) => a.end - b.end);
    let prev = agent;
    let r = 0;
    for (const step of stepsOf.get(agent) ?? []) {
      g.addEdge(
        prev.node,
        step.node,
        'parent',
        ALL_MASK,
        prev === agent ? `the task of ${agent.meta.name ?? 'the agent'}` : 'what the agent had seen before',
      );
      for (; r < results.length && results[r].end <= step.start; r++)
        g.addEdge(results[r].node, step.node, 'message', ALL_MASK, `the result of tool ${results[r].tool} is in the agent's context`);
      prev = step;
    }
    const answer = spans.answer.get(spanId);
    if (!answer) continue;
    g.addEdge(prev.node, answer.node, 'parent', ALL_MASK, 'what the agent had seen');
    for (; r < results.length; r++)
      if (results[r].end <= answer.start)
        g.addEdge(results[r].node, answer.node, 'message', ALL_MASK, `the result of tool ${results[r].tool} is in the agent's context`);
    for (const x of others) if (x.end <= answer.start) g.addEdge(x.node, answer.node, 'message', ALL_MASK, "part of the agent's work");
  }
}
