/**
 * The OpenAI wire format as saboteur speaks it: building chat/completions responses and their SSE
 * streams (the replay server, and the proxy when it re-emits a corrupted stream), and assembling a
 * response back from a stream or a JSON body (the recorder and the proxy's trace). The Responses
 * API has its own module (responses-wire.ts); `wireFor` picks the right reader for an endpoint.
 */
import { randomBytes } from 'node:crypto';

export type Endpoint = 'chat.completions' | 'completions' | 'responses';

export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Everything needed to write one response, streaming or not. */
export interface ResponseSpec {
  id: string;
  created: number;
  model: string;
  content: string;
  toolCalls: ToolCall[];
  finishReason: string;
  usage: Usage;
  systemFingerprint?: string | null;
}

/** A message's `content` as text: a string, or the text parts of an array of content parts. */
export function flattenContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        if (typeof part === 'string') return part;
        if (part && typeof part === 'object') {
          const p = part as { type?: unknown; text?: unknown };
          if (typeof p.text === 'string') return p.text;
          return `[${typeof p.type === 'string' ? p.type : 'part'}]`;
        }
        return '';
      })
      .join('');
  }
  return '';
}

/** The prompt of a /v1/completions request as text (a list of prompts is joined by newlines). */
export function flattenPrompt(prompt: unknown): string {
  if (typeof prompt === 'string') return prompt;
  if (Array.isArray(prompt)) return prompt.filter((p) => typeof p === 'string').join('\n');
  return '';
}

/** Rough token count (4 characters a token): good enough for usage numbers of a replayed answer. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

export function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('base64url')}`;
}

export function sseData(payload: unknown): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
}

export const SSE_DONE = 'data: [DONE]\n\n';

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
} as const;

/** Splits text into a few word-aligned pieces, as a model server streams it (both wires). */
export function splitForStream(text: string, wordsPerPiece = 3): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerPiece) pieces.push(words.slice(i, i + wordsPerPiece).join(''));
  // Whitespace-only text still has to arrive.
  if (pieces.join('') !== text) return text ? [text] : [];
  return pieces;
}

function splitArguments(args: string): string[] {
  if (args.length < 8) return [args];
  const third = Math.ceil(args.length / 3);
  return [args.slice(0, third), args.slice(third, 2 * third), args.slice(2 * third)].filter((s) => s.length > 0);
}

export function chatCompletionJson(spec: ResponseSpec) {
  return {
    id: spec.id,
    object: 'chat.completion',
    created: spec.created,
    model: spec.model,
    system_fingerprint: spec.systemFingerprint ?? null,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: spec.toolCalls.length > 0 && spec.content === '' ? null : spec.content,
          refusal: null,
          ...(spec.toolCalls.length > 0
            ? {
                tool_calls: spec.toolCalls.map((t) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.arguments } })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: spec.finishReason,
      },
    ],
    usage: spec.usage,
  };
}

/** The SSE events of a streamed chat completion, `data: [DONE]` included. */
export function chatCompletionEvents(spec: ResponseSpec, includeUsage: boolean): string[] {
  const base = {
    id: spec.id,
    object: 'chat.completion.chunk',
    created: spec.created,
    model: spec.model,
    system_fingerprint: spec.systemFingerprint ?? null,
  };
  const usageField = includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sseData({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...usageField });
  const events = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of splitForStream(spec.content)) events.push(chunk({ content: piece }));
  spec.toolCalls.forEach((t, index) => {
    events.push(chunk({ tool_calls: [{ index, id: t.id, type: 'function', function: { name: t.name, arguments: '' } }] }));
    for (const piece of splitArguments(t.arguments)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, spec.finishReason));
  if (includeUsage) events.push(sseData({ ...base, choices: [], usage: spec.usage }));
  events.push(SSE_DONE);
  return events;
}

export function completionJson(spec: ResponseSpec) {
  return {
    id: spec.id,
    object: 'text_completion',
    created: spec.created,
    model: spec.model,
    system_fingerprint: spec.systemFingerprint ?? null,
    choices: [{ index: 0, text: spec.content, logprobs: null, finish_reason: spec.finishReason }],
    usage: spec.usage,
  };
}

export function completionEvents(spec: ResponseSpec, includeUsage: boolean): string[] {
  const base = {
    id: spec.id,
    object: 'text_completion',
    created: spec.created,
    model: spec.model,
    system_fingerprint: spec.systemFingerprint ?? null,
  };
  const usageField = includeUsage ? { usage: null } : {};
  const events: string[] = [];
  for (const piece of splitForStream(spec.content)) {
    events.push(sseData({ ...base, choices: [{ index: 0, text: piece, logprobs: null, finish_reason: null }], ...usageField }));
  }
  events.push(sseData({ ...base, choices: [{ index: 0, text: '', logprobs: null, finish_reason: spec.finishReason }], ...usageField }));
  if (includeUsage) events.push(sseData({ ...base, choices: [], usage: spec.usage }));
  events.push(SSE_DONE);
  return events;
}

/** What a response said, whatever way it came: the trace and the cassette keep this. */
export interface AssembledResponse {
  id?: string;
  model?: string;
  created?: number;
  systemFingerprint?: string | null;
  content: string;
  toolCalls: ToolCall[];
  finishReason?: string;
  usage?: Usage;
  /** How many choices the response had (only choice 0 is assembled). */
  choiceCount: number;
  /** An error the server reported inside the body or the stream. */
  error?: string;
  /** A stream that ended with `data: [DONE]` (a Responses stream: with its terminal event). */
  done: boolean;
  /** Responses API: the whole response object, to write it again (corrupted) with everything else kept. */
  raw?: Record<string, unknown>;
}

function emptyAssembled(): AssembledResponse {
  return { content: '', toolCalls: [], choiceCount: 0, done: false };
}

/** The text of an error a model server sent: its `message`, or the whole value as JSON. */
export function errorText(error: unknown): string {
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string')
    return (error as { message: string }).message;
  return JSON.stringify(error);
}

function readUsage(u: unknown): Usage | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const x = u as Record<string, unknown>;
  const prompt = typeof x.prompt_tokens === 'number' ? x.prompt_tokens : 0;
  const completion = typeof x.completion_tokens === 'number' ? x.completion_tokens : 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: typeof x.total_tokens === 'number' ? x.total_tokens : prompt + completion,
  };
}

/** Reads a non-streamed chat or completions JSON body. */
export function assembleJson(body: unknown, endpoint: Endpoint): AssembledResponse {
  const out = emptyAssembled();
  if (!body || typeof body !== 'object') return out;
  const b = body as Record<string, unknown>;
  if (b.error !== undefined) out.error = errorText(b.error);
  if (typeof b.id === 'string') out.id = b.id;
  if (typeof b.model === 'string') out.model = b.model;
  if (typeof b.created === 'number') out.created = b.created;
  if (typeof b.system_fingerprint === 'string') out.systemFingerprint = b.system_fingerprint;
  out.usage = readUsage(b.usage);
  const choices = Array.isArray(b.choices) ? (b.choices as Record<string, unknown>[]) : [];
  out.choiceCount = choices.length;
  const first = choices.find((c) => (c?.index ?? 0) === 0) ?? choices[0];
  if (first) {
    if (typeof first.finish_reason === 'string') out.finishReason = first.finish_reason;
    if (endpoint === 'completions') {
      out.content = typeof first.text === 'string' ? first.text : '';
    } else {
      const message = (first.message ?? {}) as Record<string, unknown>;
      out.content = flattenContent(message.content);
      if (Array.isArray(message.tool_calls)) {
        for (const t of message.tool_calls as Record<string, unknown>[]) {
          const fn = (t.function ?? {}) as Record<string, unknown>;
          out.toolCalls.push({
            id: String(t.id ?? ''),
            name: String(fn.name ?? ''),
            arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
          });
        }
      }
    }
  }
  return out;
}

/**
 * Splits a streamed body into lines (LF or CR LF), across chunk boundaries and split UTF-8
 * sequences; `end` hands on a last line without a newline. Both streaming wires read SSE with it.
 */
export class SseLines {
  private pending = '';
  private readonly decoder = new TextDecoder();

  constructor(private readonly onLine: (line: string) => void) {}

  feed(chunk: Buffer | string): void {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, nl).replace(/\r$/, '');
      this.pending = this.pending.slice(nl + 1);
      this.onLine(line);
    }
  }

  end(): void {
    this.pending += this.decoder.decode();
    if (this.pending) this.onLine(this.pending.replace(/\r$/, ''));
    this.pending = '';
  }
}

/**
 * Assembles a streamed response from raw SSE bytes fed as they arrive (chunk boundaries may fall
 * anywhere, even inside a UTF-8 character). Lines that are not JSON `data:` payloads are skipped.
 */
export class SseAssembler {
  readonly result: AssembledResponse = emptyAssembled();
  private readonly lines = new SseLines((line) => this.line(line));
  private readonly choices = new Set<number>();
  private readonly toolIndex = new Map<number, ToolCall>();

  constructor(private readonly endpoint: Endpoint) {}

  feed(chunk: Buffer | string): void {
    this.lines.feed(chunk);
  }

  /** Call at the end of the stream: handles a last line without a newline. */
  end(): AssembledResponse {
    this.lines.end();
    return this.result;
  }

  private line(line: string): void {
    if (!line.startsWith('data:')) return;
    const data = line.slice(5).trim();
    if (data === '[DONE]') {
      this.result.done = true;
      return;
    }
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(data) as Record<string, unknown>;
    } catch {
      return;
    }
    this.chunk(payload);
  }

  private chunk(p: Record<string, unknown>): void {
    const r = this.result;
    if (p.error !== undefined) r.error = errorText(p.error);
    if (r.id === undefined && typeof p.id === 'string') r.id = p.id;
    if (r.model === undefined && typeof p.model === 'string') r.model = p.model;
    if (r.created === undefined && typeof p.created === 'number') r.created = p.created;
    if (r.systemFingerprint === undefined && typeof p.system_fingerprint === 'string') r.systemFingerprint = p.system_fingerprint;
    const usage = readUsage(p.usage);
    if (usage) r.usage = usage;
    if (!Array.isArray(p.choices)) return;
    for (const c of p.choices as Record<string, unknown>[]) {
      const index = typeof c.index === 'number' ? c.index : 0;
      this.choices.add(index);
      r.choiceCount = this.choices.size;
      if (index !== 0) continue;
      if (typeof c.finish_reason === 'string') r.finishReason = c.finish_reason;
      if (this.endpoint === 'completions') {
        if (typeof c.text === 'string') r.content += c.text;
        continue;
      }
      const delta = (c.delta ?? {}) as Record<string, unknown>;
      if (typeof delta.content === 'string') r.content += delta.content;
      if (Array.isArray(delta.tool_calls)) {
        for (const t of delta.tool_calls as Record<string, unknown>[]) {
          const ti = typeof t.index === 'number' ? t.index : 0;
          let call = this.toolIndex.get(ti);
          if (!call) {
            call = { id: '', name: '', arguments: '' };
            this.toolIndex.set(ti, call);
            r.toolCalls.push(call);
          }
          if (typeof t.id === 'string' && t.id) call.id = t.id;
          const fn = (t.function ?? {}) as Record<string, unknown>;
          if (typeof fn.name === 'string') call.name += fn.name;
          if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
        }
      }
    }
  }
}

/** Turns an assembled response back into a spec, to write it again (corrupted) in the same shape. */
export function specFromAssembled(a: AssembledResponse, fallbackModel: string): ResponseSpec {
  const completion = estimateTokens(a.content + a.toolCalls.map((t) => t.name + t.arguments).join(''));
  return {
    id: a.id ?? newId('chatcmpl-'),
    created: a.created ?? Math.floor(Date.now() / 1000),
    model: a.model ?? fallbackModel,
    content: a.content,
    toolCalls: a.toolCalls,
    finishReason: a.finishReason ?? (a.toolCalls.length ? 'tool_calls' : 'stop'),
    usage: a.usage ?? { prompt_tokens: 0, completion_tokens: completion, total_tokens: completion },
    systemFingerprint: a.systemFingerprint,
  };
}
