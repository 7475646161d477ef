/**
 * OpenTelemetry spans of the pipeline (SPEC §3 `OTEL_EXPORTER_OTLP_ENDPOINT`, §7): an OTLP/HTTP
 * receiver on 127.0.0.1 that files spans under the invocation whose endpoint they were sent to,
 * the reader of OTLP JSON exports (one request, a list of them, or JSON lines as the collector's
 * file exporter writes), and the GenAI reading of a span (`chat`, `invoke_agent`, `execute_tool`
 * of the OpenTelemetry GenAI semantic conventions, current and legacy attribute names).
 */
import http from 'node:http';
import { gunzipSync, inflateSync } from 'node:zlib';
import { z } from 'zod';
import type { Log } from '../util/log.js';
import { closeServer, listenLocal, sendJson } from '../model/http-util.js';
import { decodeOtlpProtobuf } from './otlp-proto.js';

/** One span, attributes flattened to plain values; stored in the run log's trace. */
export const otlpSpanSchema = z.object({
  traceId: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().optional(),
  name: z.string(),
  startMs: z.number(),
  endMs: z.number(),
  attributes: z.record(z.string(), z.unknown()),
  events: z.array(z.object({ name: z.string(), timeMs: z.number(), attributes: z.record(z.string(), z.unknown()) })).optional(),
  service: z.string().optional(),
});
export type OtlpSpan = z.infer<typeof otlpSpanSchema>;

type Json = Record<string, unknown>;

/** An OTLP AnyValue as a plain value. */
export function anyValue(v: unknown): unknown {
  if (!v || typeof v !== 'object') return v;
  const o = v as Json;
  if ('stringValue' in o) return o.stringValue;
  if ('boolValue' in o) return o.boolValue;
  if ('intValue' in o) return Number(o.intValue);
  if ('doubleValue' in o) return Number(o.doubleValue);
  if ('bytesValue' in o) return o.bytesValue;
  if ('arrayValue' in o) return (((o.arrayValue as Json)?.values as unknown[]) ?? []).map(anyValue);
  if ('kvlistValue' in o) return attributes(((o.kvlistValue as Json)?.values as unknown[]) ?? []);
  return undefined;
}

function attributes(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    const k = (kv as Json)?.key;
    if (typeof k === 'string') out[k] = anyValue((kv as Json).value);
  }
  return out;
}

/** OTLP/JSON ids are hex; some exporters wrote base64. Either way the result is lower-case hex. */
function idOf(v: unknown): string | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  if (/^[0-9a-f]+$/i.test(v) && (v.length === 16 || v.length === 32)) return v.toLowerCase();
  const b = Buffer.from(v, 'base64');
  return b.length === 8 || b.length === 16 ? b.toString('hex') : v;
}

function nanosToMs(v: unknown): number {
  if (typeof v === 'number') return v / 1e6;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(BigInt(v) / 1000n) / 1000;
  return 0;
}

/** The spans of one ExportTraceServiceRequest object (OTLP/JSON shape). */
export function spansOfRequest(req: unknown): OtlpSpan[] {
  const out: OtlpSpan[] = [];
  for (const rs of ((req as Json)?.resourceSpans as unknown[]) ?? []) {
    const resource = attributes(((rs as Json)?.resource as Json)?.attributes);
    const service = typeof resource['service.name'] === 'string' ? (resource['service.name'] as string) : undefined;
    const scopes = (((rs as Json)?.scopeSpans ?? (rs as Json)?.instrumentationLibrarySpans) as unknown[]) ?? [];
    for (const ss of scopes) {
      for (const s of ((ss as Json)?.spans as unknown[]) ?? []) {
        const sp = s as Json;
        const traceId = idOf(sp.traceId);
        const spanId = idOf(sp.spanId);
        if (!traceId || !spanId) continue;
        const parent = idOf(sp.parentSpanId);
        const events = Array.isArray(sp.events)
          ? (sp.events as Json[]).map((e) => ({ name: String(e?.name ?? ''), timeMs: nanosToMs(e?.timeUnixNano), attributes: attributes(e?.attributes) }))
          : [];
        out.push({
          traceId,
          spanId,
          ...(parent ? { parentSpanId: parent } : {}),
          name: String(sp.name ?? ''),
          startMs: nanosToMs(sp.startTimeUnixNano),
          endMs: nanosToMs(sp.endTimeUnixNano),
          attributes: attributes(sp.attributes),
          ...(events.length ? { events } : {}),
          ...(service ? { service } : {}),
        });
      }
    }
  }
  return out;
}

export class OtlpInputError extends Error {}

/** Whether a parsed JSON document looks like an OTLP trace export. */
export function isOtlpDocument(doc: unknown): boolean {
  const first = Array.isArray(doc) ? doc[0] : doc;
  return !!first && typeof first === 'object' && Array.isArray((first as Json).resourceSpans);
}

/** Spans of an OTLP JSON export: one request object, an array of them, or one per line. */
export function parseOtlpJson(text: string, file: string): OtlpSpan[] {
  const trimmed = text.trim();
  let docs: unknown[];
  try {
    const doc = JSON.parse(trimmed);
    docs = Array.isArray(doc) ? doc : [doc];
  } catch {
    docs = [];
    const lines = trimmed.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].trim() === '') continue;
      try {
        docs.push(JSON.parse(lines[i]));
      } catch (err) {
        throw new OtlpInputError(`${file}:${i + 1}: not JSON (${(err as Error).message}); an OTLP export is an ExportTraceServiceRequest object, a list of them, or one per line`);
      }
    }
  }
  if (!docs.every((d) => d && typeof d === 'object' && Array.isArray((d as Json).resourceSpans))) {
    throw new OtlpInputError(`${file}: not an OTLP trace export: expected {"resourceSpans": [...]} (OTLP/JSON), a list of those, or one per line`);
  }
  return docs.flatMap(spansOfRequest);
}

// ---------------------------------------------------------------------------------------------
// GenAI semantic conventions

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
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

function parseMaybeJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (!(t.startsWith('[') || t.startsWith('{'))) return v;
  try {
    return JSON.parse(t);
  } catch {
    return v;
  }
}

/** One message of gen_ai.input.messages / output.messages (parts), or a legacy {role, content, tool_calls}. */
function messageOf(raw: unknown, fallbackRole: string): GenAiMessage {
  if (typeof raw === 'string') return { role: fallbackRole, text: raw, toolCalls: [], responseTo: [] };
  const m = (raw ?? {}) as Json;
  const msg: GenAiMessage = { role: typeof m.role === 'string' ? m.role : fallbackRole, text: '', toolCalls: [], responseTo: [] };
  const texts: string[] = [];
  if (Array.isArray(m.parts)) {
    for (const p of m.parts as Json[]) {
      const type = p?.type;
      if (type === 'tool_call') msg.toolCalls.push({ ...(typeof p.id === 'string' ? { id: p.id } : {}), name: str(p.name), arguments: str(p.arguments) });
      else if (type === 'tool_call_response') {
        if (typeof p.id === 'string') msg.responseTo.push(p.id);
        texts.push(str(p.response ?? p.result ?? p.content));
      } else texts.push(str(p.content ?? p.text));
    }
  }
  if (m.content !== undefined) texts.push(typeof m.content === 'string' ? m.content : str(m.content));
  if (m.message && typeof m.message === 'object') {
    const inner = messageOf(m.message, msg.role);
    texts.push(inner.text);
    msg.toolCalls.push(...inner.toolCalls);
  }
  for (const c of (Array.isArray(m.tool_calls) ? m.tool_calls : []) as Json[]) {
    const fn = (c?.function ?? c) as Json;
    msg.toolCalls.push({ ...(typeof c?.id === 'string' ? { id: c.id as string } : {}), name: str(fn?.name), arguments: str(fn?.arguments) });
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

/** OpenLLMetry-style indexed attributes: gen_ai.prompt.0.role / .content / .tool_calls.0.name ... */
function indexedMessages(attrs: Record<string, unknown>, prefix: string, role: string): GenAiMessage[] {
  const byIndex = new Map<number, Json>();
  const re = new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.(\\d+)\\.(.+)$`);
  for (const [k, v] of Object.entries(attrs)) {
    const m = re.exec(k);
    if (!m) continue;
    const i = Number(m[1]);
    const entry = byIndex.get(i) ?? {};
    entry[m[2]] = v;
    byIndex.set(i, entry);
  }
  return [...byIndex.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, e]) => {
      const calls: GenAiMessage['toolCalls'] = [];
      for (let j = 0; e[`tool_calls.${j}.name`] !== undefined; j++) {
        const id = e[`tool_calls.${j}.id`];
        calls.push({ ...(typeof id === 'string' ? { id } : {}), name: str(e[`tool_calls.${j}.name`]), arguments: str(e[`tool_calls.${j}.arguments`]) });
      }
      const tcid = e.tool_call_id;
      return { role: typeof e.role === 'string' ? e.role : role, text: str(e.content), toolCalls: calls, responseTo: typeof tcid === 'string' ? [tcid] : [] };
    });
}

const EVENT_ROLES: Record<string, string> = {
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
  'gen_ai.system.message': 'system',
};

export function genAiView(span: OtlpSpan): GenAiSpan {
  const a = span.attributes;
  const opAttr = typeof a['gen_ai.operation.name'] === 'string' ? (a['gen_ai.operation.name'] as string) : '';
  const byName = /^(chat|text_completion|generate_content|invoke_agent|create_agent|execute_tool)\b/.exec(span.name)?.[1] ?? '';
  const raw = opAttr || byName;
  const op: GenAiOperation = raw === 'execute_tool' ? 'execute_tool' : raw === 'invoke_agent' ? 'invoke_agent' : ['chat', 'text_completion', 'generate_content'].includes(raw) ? 'chat' : 'other';
  const agent = typeof a['gen_ai.agent.name'] === 'string' ? (a['gen_ai.agent.name'] as string) : op === 'invoke_agent' ? /^invoke_agent\s+(.+)$/.exec(span.name)?.[1] : undefined;
  const tool = typeof a['gen_ai.tool.name'] === 'string' ? (a['gen_ai.tool.name'] as string) : op === 'execute_tool' ? /^execute_tool\s+(.+)$/.exec(span.name)?.[1] : undefined;
  const view: GenAiSpan = { span, op, input: [], output: [] };
  if (agent) view.agent = agent;
  if (tool) view.tool = tool;
  if (typeof a['gen_ai.tool.call.id'] === 'string') view.toolCallId = a['gen_ai.tool.call.id'] as string;
  const args = parseMaybeJson(a['gen_ai.tool.call.arguments']);
  if (args !== undefined) view.toolArguments = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : { arguments: args };
  if (a['gen_ai.tool.call.result'] !== undefined) view.toolResult = str(a['gen_ai.tool.call.result']);

  view.input = [...messagesOf(a['gen_ai.input.messages'], 'user'), ...indexedMessages(a, 'gen_ai.prompt', 'user')];
  if (view.input.length === 0 && a['gen_ai.prompt'] !== undefined) view.input = messagesOf(a['gen_ai.prompt'], 'user');
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

// ---------------------------------------------------------------------------------------------
// The receiver

export interface OtlpReceiver {
  /** http://127.0.0.1:PORT */
  readonly baseUrl: string;
  /** Starts collecting spans for `key`; returns the value for OTEL_EXPORTER_OTLP_ENDPOINT (exporters append /v1/traces). */
  open(key: string): string;
  /** The spans received for `key` so far (the taint defense reads them while the pipeline runs). */
  spans(key: string): readonly OtlpSpan[];
  /** Stops collecting for `key` and returns its spans in arrival order. */
  close(key: string): OtlpSpan[];
  stop(): Promise<void>;
}

export interface OtlpReceiverOptions {
  log: Log;
  /** Largest request body accepted, after decompression (default 32 MiB). */
  maxBodyBytes?: number;
}

const KEY_PATTERN = /^[A-Za-z0-9._~-]{1,200}$/;

function readLimited(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(Object.assign(new Error(`request body over ${limit} bytes`), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startOtlpReceiver(opts: OtlpReceiverOptions): Promise<OtlpReceiver> {
  const limit = opts.maxBodyBytes ?? 32 << 20;
  const live = new Map<string, OtlpSpan[]>();

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const m = /^\/([^/]+)\/v1\/traces\/?$/.exec(url.pathname);
    if (!m) return sendJson(res, 404, { code: 5, message: `no route ${req.method} ${url.pathname}: spans go to <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces` });
    if (req.method !== 'POST') return sendJson(res, 405, { code: 12, message: 'OTLP/HTTP traces are POSTed' }, { allow: 'POST' });
    const key = decodeURIComponent(m[1]);
    const bucket = live.get(key);
    if (!bucket) return sendJson(res, 404, { code: 5, message: `unknown or finished invocation ${JSON.stringify(key)}: use the OTEL_EXPORTER_OTLP_ENDPOINT of the running invocation` });
    let body = await readLimited(req, limit);
    const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
    if (encoding === 'gzip') body = gunzipSync(body, { maxOutputLength: limit });
    else if (encoding === 'deflate') body = inflateSync(body, { maxOutputLength: limit });
    else if (encoding !== '' && encoding !== 'identity') return sendJson(res, 415, { code: 3, message: `Content-Encoding ${encoding} is not supported (use gzip or none)` });
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'application/x-protobuf' || type === 'application/protobuf') {
      let decoded;
      try {
        decoded = decodeOtlpProtobuf(body);
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end((err as Error).message);
        return;
      }
      bucket.push(...spansOfRequest(decoded));
      // An empty ExportTraceServiceResponse is zero bytes in protobuf.
      res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': 0 });
      res.end();
      return;
    }
    if (type !== 'application/json' && type !== '') {
      return sendJson(res, 415, { code: 3, message: `Content-Type ${type} is not OTLP: send application/json or application/x-protobuf` });
    }
    let doc: unknown;
    try {
      doc = JSON.parse(body.toString('utf8'));
    } catch (err) {
      return sendJson(res, 400, { code: 3, message: `body is not JSON: ${(err as Error).message}` });
    }
    if (!isOtlpDocument(doc)) return sendJson(res, 400, { code: 3, message: 'body is not an ExportTraceServiceRequest: expected {"resourceSpans": [...]}' });
    bucket.push(...spansOfRequest(doc));
    sendJson(res, 200, { partialSuccess: {} });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = (err as { status?: number }).status ?? 400;
      opts.log.debug(`otlp receiver: ${req.method} ${req.url}: ${(err as Error)?.message}`);
      if (!res.headersSent) sendJson(res, status, { code: 3, message: (err as Error)?.message ?? String(err) });
      else res.end();
    });
  });
  const port = await listenLocal(server);
  const baseUrl = `http://127.0.0.1:${port}`;
  opts.log.debug(`otlp receiver listening on ${baseUrl}`);
  return {
    baseUrl,
    open(key) {
      if (!KEY_PATTERN.test(key)) throw new Error(`otlp receiver key ${JSON.stringify(key)} must be 1-200 characters of A-Z a-z 0-9 . _ ~ -`);
      if (live.has(key)) throw new Error(`otlp receiver: ${key} is already open`);
      live.set(key, []);
      return `${baseUrl}/${key}`;
    },
    spans: (key) => live.get(key) ?? [],
    close(key) {
      const spans = live.get(key) ?? [];
      live.delete(key);
      return spans;
    },
    async stop() {
      live.clear();
      await closeServer(server);
    },
  };
}
