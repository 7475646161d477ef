/**
 * The OpenAI Responses API (`POST /v1/responses`) as saboteur speaks it: the request read as a chat
 * conversation (so agent identification, cassette matching, hashing and the trace treat both APIs
 * alike), the response object and its SSE event stream written from a spec (the replay server, and
 * the proxy when it re-emits a corrupted answer), and a response assembled back from a stream or a
 * JSON body (the proxy's trace and the recorder).
 */
import {
  errorText,
  flattenContent,
  newId,
  splitForStream,
  SseLines,
  type AssembledResponse,
  type ResponseSpec,
  type ToolCall,
  type Usage,
} from './openai-wire.js';

/** One turn of the conversation a Responses request carries, in chat form. */
export interface ChatLikeMessage {
  role: string;
  content: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** Items that belong to the assistant's turn: consecutive ones form one assistant message. */
function isAssistantItem(item: Record<string, unknown>): boolean {
  return (
    item.type === 'function_call' ||
    item.type === 'reasoning' ||
    ((item.type === 'message' || item.type === undefined) && item.role === 'assistant')
  );
}

function outputText(value: unknown): string {
  if (typeof value === 'string') return value;
  return flattenContent(value);
}

/**
 * `instructions` and `input` as chat messages: input messages keep their role, the assistant's
 * consecutive items (one response's reasoning, message and function calls) make one assistant
 * message with `tool_calls`, a
 * `function_call_output` is a `tool` message. Reasoning items carry no text the trace keeps; other
 * item kinds (built-in tool calls) are kept as a `[type]` marker so nothing disappears silently.
 */
export function responsesMessages(body: Record<string, unknown>): ChatLikeMessage[] {
  const out: ChatLikeMessage[] = [];
  if (typeof body.instructions === 'string' && body.instructions !== '') out.push({ role: 'system', content: body.instructions });
  const input = body.input;
  if (typeof input === 'string') {
    out.push({ role: 'user', content: input });
    return out;
  }
  if (!Array.isArray(input)) return out;
  let assistant: ChatLikeMessage | undefined;
  for (const raw of input as unknown[]) {
    if (!raw || typeof raw !== 'object') continue;
    const item = raw as Record<string, unknown>;
    if (!isAssistantItem(item)) assistant = undefined;
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = typeof item.role === 'string' ? item.role : 'user';
      const content = flattenContent(item.content);
      if (role === 'assistant' && assistant) {
        assistant.content += content;
        continue;
      }
      const message: ChatLikeMessage = { role, content };
      out.push(message);
      if (role === 'assistant') assistant = message;
    } else if (type === 'function_call') {
      if (!assistant) {
        assistant = { role: 'assistant', content: '' };
        out.push(assistant);
      }
      const args = typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {});
      (assistant.tool_calls ??= []).push({
        id: String(item.call_id ?? item.id ?? ''),
        type: 'function',
        function: { name: String(item.name ?? ''), arguments: args },
      });
    } else if (type === 'function_call_output') {
      out.push({ role: 'tool', tool_call_id: String(item.call_id ?? ''), content: outputText(item.output) });
    } else if (type === 'reasoning') {
      if (!assistant) {
        assistant = { role: 'assistant', content: '' };
        out.push(assistant);
      }
    } else {
      out.push({ role: 'unknown', content: `[${String(type)}]` });
    }
  }
  return out;
}

/** Names of the function tools a Responses request offers (`{type: "function", name}`). */
export function responsesToolNames(body: Record<string, unknown>): string[] {
  if (!Array.isArray(body.tools)) return [];
  return (body.tools as Record<string, unknown>[])
    .filter((t) => t?.type === 'function' && typeof t.name === 'string')
    .map((t) => t.name as string);
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function responseUsage(u: Usage) {
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.total_tokens,
  };
}

/** The Response object for a spec, echoing the request's settings as the API does. */
export function responseObject(spec: ResponseSpec, body: Record<string, unknown>): Record<string, unknown> {
  const output: Record<string, unknown>[] = [];
  if (spec.content !== '' || spec.toolCalls.length === 0) {
    output.push({
      type: 'message',
      id: newId('msg_'),
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: spec.content, annotations: [], logprobs: [] }],
    });
  }
  for (const t of spec.toolCalls) {
    output.push({ type: 'function_call', id: newId('fc_'), call_id: t.id, name: t.name, arguments: t.arguments, status: 'completed' });
  }
  const incomplete = spec.finishReason === 'length';
  return {
    id: spec.id,
    object: 'response',
    created_at: spec.created,
    status: incomplete ? 'incomplete' : 'completed',
    completed_at: incomplete ? null : spec.created,
    error: null,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: num(body.max_output_tokens),
    model: spec.model,
    output,
    parallel_tool_calls: body.parallel_tool_calls !== false,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: body.store !== false,
    temperature: num(body.temperature) ?? 1,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: Array.isArray(body.tools) ? body.tools : [],
    top_p: num(body.top_p) ?? 1,
    truncation: 'disabled',
    usage: responseUsage(spec.usage),
    metadata: body.metadata ?? {},
    output_text: spec.content,
  };
}

/** The JSON body as the API sends it: `output_text` is an SDK convenience, not on the wire. */
export function responseJson(response: Record<string, unknown>): Record<string, unknown> {
  const { output_text: _omit, ...rest } = response;
  return rest;
}

/** One SSE event of the Responses API: a named event whose data carries the same `type`. */
export function responsesEvent(type: string, payload: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
}

/**
 * The event stream of a finished response, in the order the API emits it: created, in_progress,
 * then per output item added → (content part added → text deltas → text done → part done |
 * argument deltas → arguments done) → item done, and a terminal completed (or incomplete) event
 * carrying the whole response. Every event has its sequence number.
 */
export function responseEvents(response: Record<string, unknown>): string[] {
  const full = responseJson(response);
  const output = Array.isArray(full.output) ? (full.output as Record<string, unknown>[]) : [];
  const events: string[] = [];
  let seq = 0;
  const emit = (type: string, payload: Record<string, unknown>) =>
    events.push(responsesEvent(type, { sequence_number: seq++, ...payload }));
  const shell = { ...full, status: 'in_progress', output: [], usage: null, completed_at: null, incomplete_details: null };
  emit('response.created', { response: shell });
  emit('response.in_progress', { response: shell });
  output.forEach((item, outputIndex) => {
    const id = String(item.id ?? '');
    if (item.type === 'message' && Array.isArray(item.content)) {
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
      (item.content as Record<string, unknown>[]).forEach((part, contentIndex) => {
        const where = { item_id: id, output_index: outputIndex, content_index: contentIndex };
        if (part.type !== 'output_text') {
          emit('response.content_part.added', { ...where, part });
          emit('response.content_part.done', { ...where, part });
          return;
        }
        const text = typeof part.text === 'string' ? part.text : '';
        emit('response.content_part.added', { ...where, part: { ...part, text: '' } });
        for (const delta of splitForStream(text)) emit('response.output_text.delta', { ...where, delta, logprobs: [] });
        emit('response.output_text.done', { ...where, text, logprobs: [] });
        emit('response.content_part.done', { ...where, part });
      });
    } else if (item.type === 'function_call') {
      const args = typeof item.arguments === 'string' ? item.arguments : '';
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
      for (const delta of splitForStream(args, 4))
        emit('response.function_call_arguments.delta', { item_id: id, output_index: outputIndex, delta });
      emit('response.function_call_arguments.done', { item_id: id, output_index: outputIndex, name: item.name, arguments: args });
    } else {
      emit('response.output_item.added', { output_index: outputIndex, item });
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  });
  emit(full.status === 'incomplete' ? 'response.incomplete' : full.status === 'failed' ? 'response.failed' : 'response.completed', {
    response: full,
  });
  return events;
}

function readResponsesUsage(u: unknown): Usage | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const x = u as Record<string, unknown>;
  const prompt = typeof x.input_tokens === 'number' ? x.input_tokens : 0;
  const completion = typeof x.output_tokens === 'number' ? x.output_tokens : 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: typeof x.total_tokens === 'number' ? x.total_tokens : prompt + completion,
  };
}

/** The text of a response: every output_text part of its assistant messages, in order. */
function messageTexts(output: Record<string, unknown>[]): { item: number; part: number; text: string }[] {
  const texts: { item: number; part: number; text: string }[] = [];
  output.forEach((item, i) => {
    if (item?.type !== 'message' || !Array.isArray(item.content)) return;
    (item.content as Record<string, unknown>[]).forEach((part, k) => {
      if (part?.type === 'output_text' && typeof part.text === 'string') texts.push({ item: i, part: k, text: part.text });
    });
  });
  return texts;
}

/** Reads a Response object (a JSON body, or the `response` of a terminal stream event). */
export function assembleResponseObject(value: unknown): AssembledResponse {
  const out: AssembledResponse = { content: '', toolCalls: [], choiceCount: 0, done: false };
  if (!value || typeof value !== 'object') return out;
  const r = value as Record<string, unknown>;
  out.raw = r;
  const error = r.error === undefined || r.error === null ? undefined : errorText(r.error);
  if (error) out.error = error;
  if (typeof r.id === 'string') out.id = r.id;
  if (typeof r.model === 'string') out.model = r.model;
  if (typeof r.created_at === 'number') out.created = r.created_at;
  out.usage = readResponsesUsage(r.usage);
  const output = Array.isArray(r.output) ? (r.output as Record<string, unknown>[]) : [];
  out.content = messageTexts(output)
    .map((t) => t.text)
    .join('');
  for (const item of output) {
    if (item?.type !== 'function_call') continue;
    out.toolCalls.push({
      id: String(item.call_id ?? ''),
      name: String(item.name ?? ''),
      arguments: typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}),
    });
  }
  // One response is one answer: the counterpart of a chat completion's single choice.
  out.choiceCount = r.object === 'response' || output.length > 0 ? 1 : 0;
  if (r.status === 'incomplete') out.finishReason = 'length';
  else if (r.status === 'failed') out.finishReason = 'error';
  else if (r.status === 'completed') out.finishReason = out.toolCalls.length ? 'tool_calls' : 'stop';
  out.done = r.status === 'completed' || r.status === 'incomplete' || r.status === 'failed';
  return out;
}

/**
 * Assembles a streamed Responses answer from raw SSE bytes fed as they arrive. The terminal event
 * (`response.completed`, `.incomplete`, `.failed`) carries the whole response and wins; a stream
 * cut before it is assembled from its deltas and finished items.
 */
export class ResponsesSseAssembler {
  private readonly lines = new SseLines((line) => this.line(line));
  private final?: AssembledResponse;
  private readonly partial: AssembledResponse = { content: '', toolCalls: [], choiceCount: 0, done: false };

  feed(chunk: Buffer | string): void {
    this.lines.feed(chunk);
  }

  end(): AssembledResponse {
    this.lines.end();
    return this.final ?? this.partial;
  }

  private line(line: string): void {
    if (!line.startsWith('data:')) return;
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line.slice(5).trim()) as Record<string, unknown>;
    } catch {
      return;
    }
    const p = this.partial;
    switch (e.type) {
      case 'response.created':
        p.choiceCount = 1;
        p.id ??= typeof (e.response as { id?: unknown })?.id === 'string' ? (e.response as { id: string }).id : undefined;
        break;
      case 'response.output_text.delta':
        if (typeof e.delta === 'string') p.content += e.delta;
        break;
      case 'response.output_item.done': {
        const item = (e.item ?? {}) as Record<string, unknown>;
        if (item.type === 'function_call')
          p.toolCalls.push({ id: String(item.call_id ?? ''), name: String(item.name ?? ''), arguments: String(item.arguments ?? '') });
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        this.final = assembleResponseObject(e.response);
        break;
      case 'error':
        p.error = errorText(e.error ?? e);
        if (this.final) this.final.error = p.error;
        break;
      default:
        if (e.error !== undefined && e.error !== null) p.error = errorText(e.error);
    }
  }
}

/**
 * The response object with the delivered text and tool-call arguments in place of the model's:
 * the whole text goes into the first output_text part (the others are emptied), each function
 * call gets the arguments of the delivered tool call with its call_id.
 */
export function withDelivered(response: Record<string, unknown>, delivered: AssembledResponse): Record<string, unknown> {
  const output = Array.isArray(response.output) ? (response.output as Record<string, unknown>[]).map((item) => ({ ...item })) : [];
  const texts = messageTexts(output);
  texts.forEach((t, n) => {
    const item = output[t.item];
    const content = (item.content as Record<string, unknown>[]).slice();
    content[t.part] = { ...content[t.part], text: n === 0 ? delivered.content : '' };
    item.content = content;
  });
  const byId = new Map<string, ToolCall>(delivered.toolCalls.map((t) => [t.id, t]));
  for (const item of output) {
    if (item.type !== 'function_call') continue;
    const t = byId.get(String(item.call_id ?? ''));
    if (t) item.arguments = t.arguments;
  }
  return { ...response, output, output_text: delivered.content };
}
