/**
 * The pipeline's OpenTelemetry (docs/validator.md, "Traces"): an OTLP/HTTP receiver on 127.0.0.1 that files
 * spans, and the log events that belong to them, under the invocation whose endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`) they were sent to. JSON and protobuf bodies, gzip or not.
 */
import http from 'node:http';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { Log } from '../util/log.js';
import { closeServer, listenLocal, sendJson } from '../util/http.js';
import { DEFAULT_BODY_LIMIT, readBodyWithin, refusalHeaders, tooLargeMessage } from '../util/body-limit.js';
import { boundValue, capText } from '../runlog/bound.js';
import { decodeOtlpLogsProtobuf, decodeOtlpProtobuf } from './protobuf.js';
import { isOtlpDocument, logEventsOfRequest, spansOfRequest } from './json.js';
import { joinLogEvents } from './logs.js';
import type { OtlpLogEvent, OtlpSpan } from './schema.js';
import { jsonProblem } from '../util/input-file.js';

export interface OtlpReceiver {
  /** http://127.0.0.1:PORT */
  readonly baseUrl: string;
  /** Starts collecting spans for `key`; returns the value for OTEL_EXPORTER_OTLP_ENDPOINT (exporters append /v1/traces and /v1/logs). */
  open(key: string): string;
  /** The spans received for `key` so far (the taint defense reads them while the pipeline runs). */
  spans(key: string): readonly OtlpSpan[];
  /** Stops collecting for `key` and returns its spans in arrival order, their log events joined in. */
  close(key: string): OtlpSpan[];
  stop(): Promise<void>;
}

export interface OtlpReceiverOptions {
  log: Log;
  /** Largest request body accepted, after decompression (default 32 MiB). */
  maxBodyBytes?: number;
  /** Most spans plus log events kept per invocation (default 100,000); past it a request is refused with 413. */
  maxItems?: number;
}

const KEY_PATTERN = /^[A-Za-z0-9._~-]{1,200}$/;

/** A decompression that would pass the limit: a gzip bomb gets the same 413 as a large body. */
function inflateWithin(body: Buffer, encoding: string, limit: number): Buffer {
  try {
    return encoding === 'gzip' ? gunzipSync(body, { maxOutputLength: limit }) : inflateSync(body, { maxOutputLength: limit });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError)
      throw Object.assign(new Error(`${tooLargeMessage('otlp receiver', limit)} once decompressed`), { status: 413 });
    throw Object.assign(new Error(`the ${encoding} body does not decompress: ${e.message}`), { status: 400 });
  }
}

/** Events one span keeps. */
const EVENTS_CAP = 128;

/** A span within the bounds of what a trace records (docs/security.md, "Security"): capped strings, depth, counts. */
function boundSpan(span: OtlpSpan): OtlpSpan {
  const out: OtlpSpan = {
    ...span,
    traceId: capText(span.traceId, 64),
    spanId: capText(span.spanId, 64),
    name: capText(span.name, 1024),
    attributes: boundValue(span.attributes) as Record<string, unknown>,
  };
  if (span.parentSpanId !== undefined) out.parentSpanId = capText(span.parentSpanId, 64);
  if (span.service !== undefined) out.service = capText(span.service, 1024);
  if (span.scope !== undefined) out.scope = capText(span.scope, 1024);
  if (span.events)
    out.events = span.events.slice(0, EVENTS_CAP).map((e) => ({
      name: capText(e.name, 1024),
      timeMs: e.timeMs,
      attributes: boundValue(e.attributes, { budget: 64 * 1024 }) as Record<string, unknown>,
    }));
  return out;
}

function boundLogEvent(e: OtlpLogEvent): OtlpLogEvent {
  return {
    ...e,
    traceId: capText(e.traceId, 64),
    spanId: capText(e.spanId, 64),
    name: capText(e.name, 1024),
    attributes: boundValue(e.attributes) as Record<string, unknown>,
  };
}

interface Bucket {
  spans: OtlpSpan[];
  events: OtlpLogEvent[];
}

type Signal = 'traces' | 'logs';

/** What one request carried, decoded by its content type; a string is the error to answer 400 with. */
function decodeBody(signal: Signal, type: string, body: Buffer): { spans: OtlpSpan[]; events: OtlpLogEvent[] } | string {
  if (type === 'application/x-protobuf' || type === 'application/protobuf') {
    try {
      return signal === 'traces'
        ? { spans: spansOfRequest(decodeOtlpProtobuf(body)), events: [] }
        : { spans: [], events: logEventsOfRequest(decodeOtlpLogsProtobuf(body)) };
    } catch (err) {
      return (err as Error).message;
    }
  }
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (err) {
    return `body is not JSON: ${jsonProblem(err)}`;
  }
  const list = signal === 'traces' ? 'resourceSpans' : 'resourceLogs';
  const ok = isOtlpDocument(doc) && Array.isArray((doc as Record<string, unknown>)[list]);
  if (!ok)
    return `body is not an ${signal === 'traces' ? 'ExportTraceServiceRequest' : 'ExportLogsServiceRequest'}: expected {"${list}": [...]}`;
  return signal === 'traces' ? { spans: spansOfRequest(doc), events: [] } : { spans: [], events: logEventsOfRequest(doc) };
}

export async function startOtlpReceiver(opts: OtlpReceiverOptions): Promise<OtlpReceiver> {
  const limit = opts.maxBodyBytes ?? DEFAULT_BODY_LIMIT;
  const maxItems = opts.maxItems ?? 100_000;
  const live = new Map<string, Bucket>();

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    // The whole body first, whatever the answer: an answer sent while the client is still writing
    // can be lost to a reset. And one request per connection: a keep-alive connection that the
    // server times out just as a slow (loaded) client sends on it resets that request, where a
    // fresh connection per export costs nothing on loopback.
    res.setHeader('connection', 'close');
    const read = await readBodyWithin(req, limit);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const m = /^\/([^/]+)\/v1\/(traces|logs)\/?$/.exec(url.pathname);
    if (!m)
      return sendJson(res, 404, {
        code: 5,
        message: `no route ${req.method} ${url.pathname}: spans go to <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces, their log events to <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/logs`,
      });
    const signal = m[2] as Signal;
    if (req.method !== 'POST') return sendJson(res, 405, { code: 12, message: `OTLP/HTTP ${signal} are POSTed` }, { allow: 'POST' });
    const key = decodeURIComponent(m[1]);
    const bucket = live.get(key);
    if (!bucket)
      return sendJson(res, 404, {
        code: 5,
        message: `unknown or finished invocation ${JSON.stringify(key)}: use the OTEL_EXPORTER_OTLP_ENDPOINT of the running invocation`,
      });
    if (!read.ok) return sendJson(res, 413, { code: 8, message: tooLargeMessage('otlp receiver', read.limit) }, refusalHeaders(read));
    let body = read.body;
    const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
    if (encoding === 'gzip' || encoding === 'deflate') body = inflateWithin(body, encoding, limit);
    else if (encoding !== '' && encoding !== 'identity')
      return sendJson(res, 415, { code: 3, message: `Content-Encoding ${encoding} is not supported (use gzip or none)` });
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const proto = type === 'application/x-protobuf' || type === 'application/protobuf';
    if (!proto && type !== 'application/json' && type !== '') {
      return sendJson(res, 415, { code: 3, message: `Content-Type ${type} is not OTLP: send application/json or application/x-protobuf` });
    }
    const decoded = decodeBody(signal, type, body);
    if (typeof decoded === 'string') {
      if (!proto) return sendJson(res, 400, { code: 3, message: decoded });
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(decoded);
      return;
    }
    const held = bucket.spans.length + bucket.events.length;
    if (held + decoded.spans.length + decoded.events.length > maxItems) {
      opts.log.warn(`otlp receiver: invocation ${key} sent more than ${maxItems} spans and log events; the rest are refused`);
      return sendJson(res, 413, { code: 8, message: `over ${maxItems} spans and log events for this invocation` });
    }
    // One by one, bounded: a spread of a hostile number of spans would overflow the stack.
    for (const s of decoded.spans) bucket.spans.push(boundSpan(s));
    for (const e of decoded.events) bucket.events.push(boundLogEvent(e));
    if (!proto) return sendJson(res, 200, { partialSuccess: {} });
    // An empty Export*ServiceResponse is zero bytes in protobuf.
    res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': 0 });
    res.end();
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
      if (!KEY_PATTERN.test(key))
        throw new Error(`otlp receiver key ${JSON.stringify(key)} must be 1-200 characters of A-Z a-z 0-9 . _ ~ -`);
      if (live.has(key)) throw new Error(`otlp receiver: ${key} is already open`);
      live.set(key, { spans: [], events: [] });
      return `${baseUrl}/${key}`;
    },
    spans(key) {
      const b = live.get(key);
      return b ? joinLogEvents(b.spans, b.events) : [];
    },
    close(key) {
      const b = live.get(key);
      live.delete(key);
      return b ? joinLogEvents(b.spans, b.events) : [];
    },
    async stop() {
      live.clear();
      await closeServer(server);
    },
  };
}
