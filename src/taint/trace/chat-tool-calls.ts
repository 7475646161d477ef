/**
 * Tool calls read from LLM calls alone. The most common instrumentation traces the model calls and
 * nothing else: chat spans whose output lists the tool calls the model made, and whose later
 * requests carry the tools' results as `tool` messages, with no span for the tool execution.
 * Each tool call a chat span's output lists that no tool span, tool event or pending call
 * accounts for becomes a tool item of its own: issued by that chat span, run when it ended, its
 * result the `tool` message a later LLM call sent back for it (by tool call id, else by its place
 * after the assistant message that made it). A call is never dropped for want of a tool span.
 */
import type { GenAiMessage, GenAiSpan } from '../../otlp/index.js';
import { callKey, parseArgs, type Item, type ItemList } from './items.js';
import type { SpanItems } from './genai-spans.js';
import type { ToolItemFactory } from './tool-events.js';

/** What a later request sent back for a tool call: the text and when that request started. */
interface Answer {
  text: string;
  at: number;
}

type ToolCall = GenAiMessage['toolCalls'][number];

/** The `tool` message answering each tool call id, from the earliest chat request that carries it. */
function answersById(chats: readonly GenAiSpan[]): Map<string, Answer> {
  const out = new Map<string, Answer>();
  for (const v of chats) {
    for (const m of v.input) {
      for (const id of m.responseTo) {
        const old = out.get(id);
        if (!old || v.span.startMs < old.at) out.set(id, { text: m.text, at: v.span.startMs });
      }
    }
  }
  return out;
}

/** How many later requests are searched for the answer to a call without an id: it comes in the next one, as a rule. */
const LOOKAHEAD = 16;

/** Each tool call of a request's history by key: the tool message at its place after the assistant message that made it. */
function repliesByKey(v: GenAiSpan): Map<string, string> {
  const out = new Map<string, string>();
  v.input.forEach((m, i) => {
    if (m.toolCalls.length === 0) return;
    let j = i + 1;
    for (const c of m.toolCalls) {
      const reply = v.input[j]?.role === 'tool' ? v.input[j++] : undefined;
      const key = callKey(c.name, parseArgs(c.arguments));
      if (reply && !out.has(key)) out.set(key, reply.text);
    }
  });
  return out;
}

/** A call without an id: its reply in one of the next requests (each request's history indexed once). */
function answerByPlace(
  chats: readonly GenAiSpan[],
  index: Map<GenAiSpan, Map<string, string>>,
  call: ToolCall,
  after: number,
): Answer | undefined {
  const key = callKey(call.name, parseArgs(call.arguments));
  let searched = 0;
  for (const v of chats) {
    if (v.span.startMs < after) continue;
    if (searched++ >= LOOKAHEAD) break;
    let replies = index.get(v);
    if (!replies) index.set(v, (replies = repliesByKey(v)));
    const text = replies.get(key);
    if (text !== undefined) return { text, at: v.span.startMs };
  }
  return undefined;
}

/** How many calls of each key the recorded tool items (events, tool spans, the pending call) already account for. */
function coveredKeys(items: readonly Item[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const it of items) {
    if ((it.kind !== 'tool' && it.kind !== 'sink') || it.src.type === 'pseudo' || it.src.type === 'chat-call' || !it.tool) continue;
    const key = callKey(it.tool, it.args ?? {});
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/**
 * Adds a tool item for each tool call of a chat span's output that nothing recorded; returns each
 * with the chat span item that issued it. Chat spans that are proxy calls are left out: the
 * proxy's record and the MCP server's events already speak for them.
 */
export function addChatToolCalls(list: ItemList, toolItem: ToolItemFactory, spans: SpanItems): Map<Item, Item> {
  const issued = new Map<Item, Item>();
  const chats = spans.views.filter((v) => v.op === 'chat').sort((a, b) => a.span.startMs - b.span.startMs);
  if (!chats.some((v) => v.output.some((m) => m.toolCalls.length > 0))) return issued;
  const recordedIds = new Set<string>();
  for (const v of spans.views) if (v.op === 'execute_tool' && v.toolCallId) recordedIds.add(v.toolCallId);
  for (const id of spans.mergedCallId.values()) recordedIds.add(id);
  const covered = coveredKeys(list.items);
  const answers = answersById(chats);
  const byPlace = new Map<GenAiSpan, Map<string, string>>();
  for (const v of chats) {
    const chat = spans.item.get(v.span.spanId);
    if (!chat || chat.src.type !== 'span') continue;
    v.output.forEach((m, i) =>
      m.toolCalls.forEach((call, k) => {
        if (call.id && recordedIds.has(call.id)) return;
        const args = parseArgs(call.arguments);
        const key = callKey(call.name, args);
        const left = covered.get(key) ?? 0;
        if (left > 0) return void covered.set(key, left - 1);
        const start = v.span.endMs;
        const answer = (call.id ? answers.get(call.id) : undefined) ?? answerByPlace(chats, byPlace, call, start);
        const end = answer && answer.at > start ? answer.at - 1e-3 : start;
        const ref = `span:${v.span.spanId}#call${i}.${k}`;
        const meta = {
          ref,
          name: call.name,
          time: start,
          toolCallId: call.id ?? ref,
          ...(chat.meta.agent ? { agent: chat.meta.agent } : {}),
        };
        const it = toolItem(call.name, args, {
          start,
          end,
          meta,
          output: answer?.text ?? '',
          src: { type: 'chat-call', view: v, ...(call.id ? { callId: call.id } : {}) },
        });
        issued.set(it, chat);
        if (call.id) spans.fromChat.set(call.id, it);
      }),
    );
  }
  return issued;
}

/**
 * Tool results the pipeline sent its models, as chat spans' requests show them, with the first
 * time each was sent. One no tool item produced is untrusted content of unknown origin
 * (content-edges.ts, addUnservedResults), as it is when the proxy saw it.
 */
export function chatToolMessages(spans: SpanItems): Map<string, number> {
  const out = new Map<string, number>();
  for (const v of spans.views) {
    if (v.op !== 'chat' || spans.item.get(v.span.spanId)?.src.type !== 'span') continue;
    for (const m of v.input) {
      if ((m.role !== 'tool' && m.responseTo.length === 0) || !m.text) continue;
      const old = out.get(m.text);
      if (old === undefined || v.span.startMs < old) out.set(m.text, v.span.startMs);
    }
  }
  return out;
}
