/**
 * OTLP/JSON: the body of an OTLP/HTTP JSON request and the collector's file exports (one
 * ExportTraceServiceRequest / ExportLogsServiceRequest object, a list of them, or one per line).
 * Protobuf bodies are decoded into this same shape first (protobuf.ts), so one reader serves both.
 */
import { OtlpInputError, type OtlpLogEvent, type OtlpSpan } from './schema.js';
import { asJsonObject } from '../util/json-object.js';
import { joinLogEvents } from './logs.js';
import { DEPTH_CAP } from '../runlog/bound.js';
import { jsonProblem } from '../util/input-file.js';

type Json = Record<string, unknown>;

/** An OTLP AnyValue as a plain value. */
export function anyValue(v: unknown, depth = 0): unknown {
  if (!v || typeof v !== 'object') return v;
  const o = v as Json;
  if ('stringValue' in o) return o.stringValue;
  if ('boolValue' in o) return o.boolValue;
  if ('intValue' in o) return Number(o.intValue);
  if ('doubleValue' in o) return Number(o.doubleValue);
  if ('bytesValue' in o) return o.bytesValue;
  // Nesting past the cap becomes a cut mark: hostile depth never recurses far (docs/security.md, "Security").
  if (depth >= DEPTH_CAP && ('arrayValue' in o || 'kvlistValue' in o))
    return `…[✂ cut by saboteur: nested deeper than ${DEPTH_CAP} levels]`;
  if ('arrayValue' in o) return (((o.arrayValue as Json)?.values as unknown[]) ?? []).map((x) => anyValue(x, depth + 1));
  if ('kvlistValue' in o) return attributes(((o.kvlistValue as Json)?.values as unknown[]) ?? [], depth + 1);
  return undefined;
}

function attributes(list: unknown, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    const k = (kv as Json)?.key;
    if (typeof k === 'string') out[k] = anyValue((kv as Json).value, depth);
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

const serviceOf = (rs: unknown): string | undefined => {
  const resource = attributes(((rs as Json)?.resource as Json)?.attributes);
  return typeof resource['service.name'] === 'string' ? (resource['service.name'] as string) : undefined;
};

/** The spans of one ExportTraceServiceRequest object (OTLP/JSON shape). */
export function spansOfRequest(req: unknown): OtlpSpan[] {
  const out: OtlpSpan[] = [];
  for (const rs of ((req as Json)?.resourceSpans as unknown[]) ?? []) {
    const service = serviceOf(rs);
    const scopes = (((rs as Json)?.scopeSpans ?? (rs as Json)?.instrumentationLibrarySpans) as unknown[]) ?? [];
    for (const ss of scopes) {
      const scopeName = (((ss as Json)?.scope ?? (ss as Json)?.instrumentationLibrary) as Json)?.name;
      for (const s of ((ss as Json)?.spans as unknown[]) ?? []) {
        const sp = s as Json;
        const traceId = idOf(sp.traceId);
        const spanId = idOf(sp.spanId);
        if (!traceId || !spanId) continue;
        const parent = idOf(sp.parentSpanId);
        const events = Array.isArray(sp.events)
          ? (sp.events as Json[]).map((e) => ({
              name: String(e?.name ?? ''),
              timeMs: nanosToMs(e?.timeUnixNano),
              attributes: attributes(e?.attributes),
            }))
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
          ...(typeof scopeName === 'string' && scopeName !== '' ? { scope: scopeName } : {}),
        });
      }
    }
  }
  return out;
}

/**
 * The log records of one ExportLogsServiceRequest that belong to a span. Their event name is the
 * record's `eventName` or its `event.name` attribute; a structured body is spread into the event's
 * attributes (the GenAI conventions put the message there).
 */
export function logEventsOfRequest(req: unknown): OtlpLogEvent[] {
  const out: OtlpLogEvent[] = [];
  for (const rl of ((req as Json)?.resourceLogs as unknown[]) ?? []) {
    for (const sl of ((rl as Json)?.scopeLogs as unknown[]) ?? []) {
      for (const r of ((sl as Json)?.logRecords as unknown[]) ?? []) {
        const rec = r as Json;
        const traceId = idOf(rec.traceId);
        const spanId = idOf(rec.spanId);
        if (!traceId || !spanId) continue;
        const attrs = attributes(rec.attributes);
        const name =
          typeof rec.eventName === 'string' && rec.eventName !== ''
            ? rec.eventName
            : typeof attrs['event.name'] === 'string'
              ? (attrs['event.name'] as string)
              : '';
        if (name === '') continue;
        delete attrs['event.name'];
        const body = anyValue(rec.body);
        const fromBody = asJsonObject(body) ?? (body === undefined ? {} : { body });
        const time = nanosToMs(rec.timeUnixNano) || nanosToMs(rec.observedTimeUnixNano);
        out.push({ traceId, spanId, name, timeMs: time, attributes: { ...fromBody, ...attrs } });
      }
    }
  }
  return out;
}

const isTraceRequest = (d: unknown): boolean => !!d && typeof d === 'object' && Array.isArray((d as Json).resourceSpans);
const isLogsRequest = (d: unknown): boolean => !!d && typeof d === 'object' && Array.isArray((d as Json).resourceLogs);

/** Whether a parsed JSON document looks like an OTLP export (traces, or logs beside them). */
export function isOtlpDocument(doc: unknown): boolean {
  const first = Array.isArray(doc) ? doc[0] : doc;
  return isTraceRequest(first) || isLogsRequest(first);
}

/**
 * Spans of an OTLP JSON export: one request object, an array of them, or one per line. Log
 * requests in the same file (a collector writing traces and logs to one file) are joined onto
 * their spans as events.
 */
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
        throw new OtlpInputError(
          `${file}:${i + 1}: not JSON (${jsonProblem(err)}); an OTLP export is an ExportTraceServiceRequest object, a list of them, or one per line`,
        );
      }
    }
  }
  if (!docs.every((d) => isTraceRequest(d) || isLogsRequest(d)) || !docs.some(isTraceRequest)) {
    throw new OtlpInputError(
      `${file}: not an OTLP trace export: expected {"resourceSpans": [...]} (OTLP/JSON), a list of those, or one per line`,
    );
  }
  return joinLogEvents(docs.flatMap(spansOfRequest), docs.flatMap(logEventsOfRequest));
}
