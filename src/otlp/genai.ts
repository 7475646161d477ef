/**
 * The canonical GenAI view of a span, the one shape the trace graph reads: what operation it is
 * (an LLM call, an agent invocation, a tool execution), which agent and tool, the tool call's id,
 * arguments and result, and the messages in and out. Every dialect reader (dialects/) produces
 * it; this file also holds the reader of the OpenTelemetry GenAI semantic conventions themselves
 * (`chat`, `invoke_agent`, `execute_tool`; current `gen_ai.input/output.messages` parts, the
 * event form, and the legacy indexed `gen_ai.prompt.N.*` attributes).
 */
import type { OtlpSpan } from './schema.js';
import { asJsonObject } from '../util/json-object.js';
import { DEPTH_CAP, boundValue, safeStringify } from '../runlog/bound.js';

export type GenAiOperation = 'chat' | 'invoke_agent' | 'execute_tool' | 'other';

export interface GenAiMessage {
  role: string;
  text: string;
  /** tool_call parts (assistant) */
  toolCalls: { id?: string; name: string; arguments: string }[];
  /** tool_call_response parts: the ids of the tool calls this message answers. */
  responseTo: string[];
}

export interface GenAiSpan {
  span: OtlpSpan;
  op: GenAiOperation;
  agent?: string;
  tool?: string;
  toolCallId?: string;
  toolArguments?: Record<string, unknown>;
  toolResult?: string;
  input: GenAiMessage[];
  output: GenAiMessage[];
  /**
   * The tool definitions the span carries (offered to the model, or a tool span's own), parsed,
   * in the shape the exporter wrote them (tool-definitions.ts); absent when it carries none.
   */
  toolDefinitions?: Record<string, unknown>[];
}

type Json = Record<string, unknown>;

/** A value as text: strings as they are, anything else as JSON. */
/** Any value as text; a hostile object of any depth is written bounded, never by a recursive JSON.stringify. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : safeStringify(v));

/** Whether a parsed value nests deeper than `cap`: an explicit stack, so any depth is measured without recursion. */
function nestsDeeper(value: unknown, cap: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (depth >= cap) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

const UNCAPPED = Number.MAX_SAFE_INTEGER;

/**
 * A value read from a trace held to the depth saboteur records at (README "Security", Bounds):
 * nesting past it becomes a cut mark; texts, lists and sizes stay. Every reader passes what it
 * parsed through this before any recursive step (canonical JSON, flattening, profiling).
 */
export function depthCut<T>(value: T, cap = DEPTH_CAP): T {
  return nestsDeeper(value, cap)
    ? (boundValue(value, { maxDepth: cap, textCap: UNCAPPED, maxEntries: UNCAPPED, budget: UNCAPPED }) as T)
    : value;
}

/** JSON text parsed (JSON.parse itself does not recurse) and cut to the depth cap; throws as JSON.parse does. */
export function parseJsonBounded(text: string): unknown {
  return depthCut(JSON.parse(text) as unknown);
}

/** A string that holds a JSON object or list, parsed and cut to the depth cap; anything else unchanged. */
export function parseMaybeJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (!(t.startsWith('[') || t.startsWith('{'))) return v;
  try {
    return parseJsonBounded(t);
  } catch {
    return v;
  }
}

/** A JSON-encoded result (`"\"sent\""`, `{"a":1}`) as text: a JSON string decoded, anything else kept as written. */
export function resultText(v: unknown): string {
  if (typeof v !== 'string') return str(v);
  try {
    const parsed: unknown = JSON.parse(v);
    return typeof parsed === 'string' ? parsed : v;
  } catch {
    return v;
  }
}

/** Tool arguments as the graph keys them: an object; anything else under `arguments`. */
export function argumentsObject(v: unknown): Record<string, unknown> {
  const parsed = parseMaybeJson(v);
  return asJsonObject(parsed) ?? { arguments: parsed };
}

export const textMessage = (role: string, text: string): GenAiMessage => ({ role, text, toolCalls: [], responseTo: [] });

/** One message of gen_ai.input.messages / output.messages (parts), or a legacy {role, content, tool_calls}. */
export function messageOf(raw: unknown, fallbackRole: string, depth = 0): GenAiMessage {
  if (typeof raw === 'string') return textMessage(fallbackRole, raw);
  const m = (raw ?? {}) as Json;
  const msg: GenAiMessage = { role: typeof m.role === 'string' ? m.role : fallbackRole, text: '', toolCalls: [], responseTo: [] };
  const texts: string[] = [];
  if (Array.isArray(m.parts)) {
    for (const p of m.parts as Json[]) {
      const type = p?.type;
      if (type === 'tool_call')
        msg.toolCalls.push({ ...(typeof p.id === 'string' ? { id: p.id } : {}), name: str(p.name), arguments: str(p.arguments) });
      else if (type === 'tool_call_response') {
        if (typeof p.id === 'string') msg.responseTo.push(p.id);
        texts.push(str(p.response ?? p.result ?? p.content));
      } else texts.push(str(p.content ?? p.text));
    }
  }
  if (m.content !== undefined) texts.push(typeof m.content === 'string' ? m.content : str(m.content));
  // A message wrapping a message: a few levels are real, more is hostile.
  if (m.message && typeof m.message === 'object' && depth < 4) {
    const inner = messageOf(m.message, msg.role, depth + 1);
    texts.push(inner.text);
    for (const c of inner.toolCalls) msg.toolCalls.push(c);
  }
  for (const c of (Array.isArray(m.tool_calls) ? m.tool_calls : []) as Json[]) {
    const fn = (c?.function ?? c) as Json;
    msg.toolCalls.push({
      ...(typeof c?.id === 'string' ? { id: c.id as string } : {}),
      name: str(fn?.name),
      arguments: str(fn?.arguments),
    });
  }
  if (typeof m.tool_call_id === 'string') msg.responseTo.push(m.tool_call_id);
  if (typeof m.id === 'string' && msg.role === 'tool') msg.responseTo.push(m.id);
  msg.text = texts.filter(Boolean).join('\n');
  return msg;
}

function messagesOf(v: unknown, role: string): GenAiMessage[] {
  const parsed = parseMaybeJson(v);
  if (parsed === undefined || parsed === null || parsed === '') return [];
  return (Array.isArray(parsed) ? parsed : [parsed]).map((m) => messageOf(m, role));
}

/**
 * Attributes flattened with a numeric index after `prefix` (`gen_ai.prompt.0.role`,
 * `llm.input_messages.2.message.content`), grouped per index in index order, each entry keyed by
 * the rest of the name.
 */
export function indexedEntries(attrs: Record<string, unknown>, prefix: string): Record<string, unknown>[] {
  const byIndex = new Map<number, Record<string, unknown>>();
  const head = `${prefix}.`;
  for (const [k, v] of Object.entries(attrs)) {
    if (!k.startsWith(head)) continue;
    const rest = k.slice(head.length);
    const dot = rest.indexOf('.');
    if (dot <= 0 || !/^\d+$/.test(rest.slice(0, dot))) continue;
    const i = Number(rest.slice(0, dot));
    const entry = byIndex.get(i) ?? {};
    entry[rest.slice(dot + 1)] = v;
    byIndex.set(i, entry);
  }
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, e]) => e);
}

/** OpenLLMetry-style indexed attributes: gen_ai.prompt.0.role / .content / .tool_calls.0.name ... */
function indexedMessages(attrs: Record<string, unknown>, prefix: string, role: string): GenAiMessage[] {
  return indexedEntries(attrs, prefix).map((e) => {
    const calls: GenAiMessage['toolCalls'] = [];
    for (let j = 0; e[`tool_calls.${j}.name`] !== undefined; j++) {
      const id = e[`tool_calls.${j}.id`];
      calls.push({
        ...(typeof id === 'string' ? { id } : {}),
        name: str(e[`tool_calls.${j}.name`]),
        arguments: str(e[`tool_calls.${j}.arguments`]),
      });
    }
    const tcid = e.tool_call_id;
    return {
      role: typeof e.role === 'string' ? e.role : role,
      text: str(e.content),
      toolCalls: calls,
      responseTo: typeof tcid === 'string' ? [tcid] : [],
    };
  });
}

const EVENT_ROLES: Record<string, string> = {
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
  'gen_ai.system.message': 'system',
};

/** Most specific first: a tool execution is a possible sink and must never be read as less. */
const SPECIFICITY: readonly GenAiOperation[] = ['execute_tool', 'chat', 'invoke_agent', 'other'];
const FIELDS = ['agent', 'tool', 'toolCallId', 'toolArguments', 'toolResult'] as const;

/**
 * One view from several readings of the same span (view.ts): the operation is the most specific
 * any reading saw, and each field comes from the first reading of that operation that has it.
 */
export function mergeViews(views: readonly GenAiSpan[]): GenAiSpan {
  if (views.length === 1) return views[0];
  const op = SPECIFICITY.find((o) => views.some((v) => v.op === o)) ?? 'other';
  const same = views.filter((v) => v.op === op);
  const merged: GenAiSpan = { span: views[0].span, op, input: [], output: [] };
  for (const f of FIELDS) {
    const from = same.find((v) => v[f] !== undefined) ?? (f === 'agent' ? views.find((v) => v.agent !== undefined) : undefined);
    if (from) (merged as unknown as Record<string, unknown>)[f] = from[f];
  }
  merged.input = same.find((v) => v.input.length > 0)?.input ?? [];
  merged.output = same.find((v) => v.output.length > 0)?.output ?? [];
  return merged;
}

/** The operation a span's `gen_ai.operation.name` (or its name) gives; `extra` maps other names (e.g. OpenLLMetry's llm.request.type). */
export function operationOf(span: OtlpSpan, extra?: string): GenAiOperation {
  const a = span.attributes;
  const opAttr = typeof a['gen_ai.operation.name'] === 'string' ? (a['gen_ai.operation.name'] as string) : '';
  const byName = /^(chat|text_completion|generate_content|invoke_agent|create_agent|execute_tool)\b/.exec(span.name)?.[1] ?? '';
  const raw = opAttr || extra || byName;
  if (raw === 'execute_tool') return 'execute_tool';
  if (raw === 'invoke_agent') return 'invoke_agent';
  return ['chat', 'text_completion', 'generate_content', 'completion'].includes(raw) ? 'chat' : 'other';
}

/** The OpenTelemetry GenAI semantic conventions (and OpenLLMetry's LLM spans, which follow them). */
export function readGenAi(span: OtlpSpan, op: GenAiOperation = operationOf(span)): GenAiSpan {
  const a = span.attributes;
  const agent =
    typeof a['gen_ai.agent.name'] === 'string'
      ? (a['gen_ai.agent.name'] as string)
      : op === 'invoke_agent'
        ? /^invoke_agent\s+(.+)$/.exec(span.name)?.[1]
        : undefined;
  const tool =
    typeof a['gen_ai.tool.name'] === 'string'
      ? (a['gen_ai.tool.name'] as string)
      : op === 'execute_tool'
        ? /^execute_tool\s+(.+)$/.exec(span.name)?.[1]
        : undefined;
  const view: GenAiSpan = { span, op, input: [], output: [] };
  if (agent) view.agent = agent;
  if (tool) view.tool = tool;
  if (typeof a['gen_ai.tool.call.id'] === 'string') view.toolCallId = a['gen_ai.tool.call.id'] as string;
  if (a['gen_ai.tool.call.arguments'] !== undefined) view.toolArguments = argumentsObject(a['gen_ai.tool.call.arguments']);
  if (a['gen_ai.tool.call.result'] !== undefined) view.toolResult = str(a['gen_ai.tool.call.result']);

  view.input = [
    ...messagesOf(a['gen_ai.system_instructions'], 'system'),
    ...messagesOf(a['gen_ai.input.messages'], 'user'),
    ...indexedMessages(a, 'gen_ai.prompt', 'user'),
  ];
  if (view.input.every((m) => m.role === 'system') && a['gen_ai.prompt'] !== undefined)
    view.input.push(...messagesOf(a['gen_ai.prompt'], 'user'));
  view.output = [...messagesOf(a['gen_ai.output.messages'], 'assistant'), ...indexedMessages(a, 'gen_ai.completion', 'assistant')];
  if (view.output.length === 0 && a['gen_ai.completion'] !== undefined) view.output = messagesOf(a['gen_ai.completion'], 'assistant');
  for (const e of span.events ?? []) {
    const role = EVENT_ROLES[e.name];
    if (role) view.input.push(messageOf({ role, ...e.attributes }, role));
    else if (e.name === 'gen_ai.choice') view.output.push(messageOf(e.attributes, 'assistant'));
    else if (e.name === 'gen_ai.client.inference.operation.details') {
      view.input.push(...messagesOf(e.attributes['gen_ai.input.messages'], 'user'));
      view.output.push(...messagesOf(e.attributes['gen_ai.output.messages'], 'assistant'));
    }
  }
  return view;
}
