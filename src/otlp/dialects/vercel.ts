/**
 * The Vercel AI SDK's telemetry (`experimental_telemetry`): spans named `ai.*` with
 * `ai.operationId`. `ai.generateText` / `ai.streamText` (and the object variants) are one whole
 * call with its tool loop, named by `ai.telemetry.functionId`; `ai.*.doGenerate` / `ai.*.doStream`
 * are the single LLM calls (`ai.prompt.messages` in, `ai.response.text` and `ai.response.toolCalls`
 * out); `ai.toolCall` is one tool execution (`ai.toolCall.name/id/args/result`, named input/output
 * in newer releases). Messages are the SDK's: content a string or parts (text, tool-call,
 * tool-result).
 */
import type { OtlpSpan } from '../schema.js';
import { isJsonObject } from '../../util/json-object.js';
import { argumentsObject, parseMaybeJson, resultText, str, textMessage, type GenAiMessage, type GenAiSpan } from '../genai.js';

type Json = Record<string, unknown>;

export function isVercel(span: OtlpSpan): boolean {
  return span.name.startsWith('ai.') && typeof span.attributes['ai.operationId'] === 'string';
}

/** A tool result part's output: `{type: 'text' | 'json' | 'error-text' | …, value}` (v5+) or the plain result (v4). */
function toolOutputText(part: Json): string {
  const out = part.output ?? part.result;
  if (isJsonObject(out) && 'value' in out) return str(out.value);
  return str(out);
}

function messageOf(raw: unknown): GenAiMessage {
  const m = (raw ?? {}) as Json;
  const msg: GenAiMessage = { role: typeof m.role === 'string' ? m.role : 'user', text: '', toolCalls: [], responseTo: [] };
  if (typeof m.content === 'string') {
    msg.text = m.content;
    return msg;
  }
  const texts: string[] = [];
  for (const p of (Array.isArray(m.content) ? m.content : []) as Json[]) {
    if (p?.type === 'text' || p?.type === 'reasoning') texts.push(str(p.text));
    else if (p?.type === 'tool-call')
      msg.toolCalls.push({
        ...(typeof p.toolCallId === 'string' ? { id: p.toolCallId } : {}),
        name: str(p.toolName),
        arguments: str(p.input ?? p.args),
      });
    else if (p?.type === 'tool-result') {
      if (typeof p.toolCallId === 'string') msg.responseTo.push(p.toolCallId);
      texts.push(toolOutputText(p));
    }
  }
  msg.text = texts.filter(Boolean).join('\n');
  return msg;
}

/** `ai.prompt` of a whole call: `{system?, prompt?, messages?}`. */
function promptMessages(raw: unknown): GenAiMessage[] {
  const p = parseMaybeJson(raw);
  if (typeof p === 'string') return [textMessage('user', p)];
  if (!p || typeof p !== 'object') return [];
  const o = p as Json;
  const out: GenAiMessage[] = [];
  if (typeof o.system === 'string') out.push(textMessage('system', o.system));
  if (typeof o.prompt === 'string') out.push(textMessage('user', o.prompt));
  else if (Array.isArray(o.prompt)) out.push(...o.prompt.map(messageOf));
  if (Array.isArray(o.messages)) out.push(...o.messages.map(messageOf));
  return out;
}

/** `ai.response.toolCalls`: [{toolCallId, toolName, input | args}]. */
function responseToolCalls(raw: unknown): GenAiMessage['toolCalls'] {
  const list = parseMaybeJson(raw);
  if (!Array.isArray(list)) return [];
  return (list as Json[]).map((c) => ({
    ...(typeof c?.toolCallId === 'string' ? { id: c.toolCallId } : {}),
    name: str(c?.toolName),
    arguments: str(c?.input ?? c?.args),
  }));
}

export function readVercel(span: OtlpSpan): GenAiSpan {
  const a = span.attributes;
  const op = String(a['ai.operationId']);
  const fn =
    typeof a['ai.telemetry.functionId'] === 'string' && a['ai.telemetry.functionId'] !== ''
      ? (a['ai.telemetry.functionId'] as string)
      : undefined;
  if (op === 'ai.toolCall') {
    const view: GenAiSpan = { span, op: 'execute_tool', tool: str(a['ai.toolCall.name']), input: [], output: [] };
    if (typeof a['ai.toolCall.id'] === 'string') view.toolCallId = a['ai.toolCall.id'] as string;
    const args = a['ai.toolCall.args'] ?? a['ai.toolCall.input'];
    if (args !== undefined) view.toolArguments = argumentsObject(args);
    const result = a['ai.toolCall.result'] ?? a['ai.toolCall.output'];
    if (result !== undefined) view.toolResult = resultText(result);
    return view;
  }
  const text = a['ai.response.text'] ?? a['ai.response.object'];
  const calls = responseToolCalls(a['ai.response.toolCalls']);
  const output: GenAiMessage[] =
    text === undefined && calls.length === 0 ? [] : [{ role: 'assistant', text: str(text), toolCalls: calls, responseTo: [] }];
  if (/\.do(Generate|Stream)$/.test(op)) {
    const parsed = parseMaybeJson(a['ai.prompt.messages']);
    return { span, op: 'chat', ...(fn ? { agent: fn } : {}), input: Array.isArray(parsed) ? parsed.map(messageOf) : [], output };
  }
  // A whole call with its tool loop: one agent's run, named by its function id.
  const whole = /^ai\.(generate|stream)(Text|Object)$/.test(op);
  return { span, op: whole ? 'invoke_agent' : 'other', ...(fn ? { agent: fn } : {}), input: promptMessages(a['ai.prompt']), output };
}
