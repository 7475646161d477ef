/**
 * Checks that make `saboteur validate` fail closed on spans it cannot use: a span without a valid
 * trace id or span id (W3C: 32 and 16 hex digits, not all zero; OTLP/JSON may carry them as
 * base64), a parent id that is not a span id, or a start time that is missing. The OTLP reader
 * drops such spans quietly; a gate must not, so each one is an input error that names the file,
 * the span's place in it and its name.
 */
import type { OtlpSpan } from '../otlp/index.js';
import { InputError } from '../util/input-error.js';

class SpanInputError extends InputError {}

type Json = Record<string, unknown>;

function idProblem(v: unknown, bytes: 8 | 16, what: string, optional: boolean): string | undefined {
  if (v === undefined || v === null || v === '') return optional ? undefined : `${what} is missing`;
  if (typeof v !== 'string') return `${what} is not a string`;
  let hex: string | undefined;
  if (new RegExp(`^[0-9a-f]{${bytes * 2}}$`, 'i').test(v)) hex = v;
  else if (/^[A-Za-z0-9+/]+={0,2}$/.test(v) && v.length === Math.ceil(bytes / 3) * 4) hex = Buffer.from(v, 'base64').toString('hex');
  if (!hex || hex.length !== bytes * 2) return `${what} ${JSON.stringify(v.slice(0, 40))} is not ${bytes * 2} hex digits`;
  if (/^0+$/.test(hex)) return `${what} is all zeros (an invalid id)`;
  return undefined;
}

function nanos(v: unknown): bigint | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  return undefined;
}

/** The problems of one raw OTLP/JSON span, or an empty list. */
function rawSpanProblems(sp: Json): string[] {
  const out: string[] = [];
  for (const p of [
    idProblem(sp.traceId, 16, 'traceId', false),
    idProblem(sp.spanId, 8, 'spanId', false),
    idProblem(sp.parentSpanId, 8, 'parentSpanId', true),
  ])
    if (p) out.push(p);
  const start = nanos(sp.startTimeUnixNano);
  const end = nanos(sp.endTimeUnixNano);
  if (start === undefined || start <= 0n) out.push('startTimeUnixNano is missing, so the span cannot be placed in time');
  else if (end !== undefined && end < start) out.push('endTimeUnixNano is before startTimeUnixNano');
  return out;
}

function documents(text: string): unknown[] {
  try {
    const doc = JSON.parse(text);
    return Array.isArray(doc) ? doc : [doc];
  } catch {
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return undefined;
        }
      });
  }
}

/** Throws a SpanInputError naming the first malformed spans of an OTLP JSON export. */
export function checkOtlpText(text: string, file: string): void {
  const problems: string[] = [];
  documents(text).forEach((doc, d) => {
    ((doc as Json)?.resourceSpans as unknown[] | undefined)?.forEach((rs, r) => {
      const scopes = (((rs as Json)?.scopeSpans ?? (rs as Json)?.instrumentationLibrarySpans) as unknown[]) ?? [];
      scopes.forEach((ss, sIdx) => {
        (((ss as Json)?.spans as unknown[]) ?? []).forEach((span, k) => {
          const ps = rawSpanProblems((span ?? {}) as Json);
          if (ps.length === 0 || problems.length >= 3) return;
          const name = typeof (span as Json)?.name === 'string' ? ` (${JSON.stringify((span as Json).name)})` : '';
          problems.push(
            `${d > 0 ? `document ${d + 1}: ` : ''}resourceSpans[${r}].scopeSpans[${sIdx}].spans[${k}]${name}: ${ps.join('; ')}`,
          );
        });
      });
    });
  });
  if (problems.length)
    throw new SpanInputError(
      `${file}: spans saboteur cannot place in a trace, so it refuses to judge the file:\n  ${problems.join('\n  ')}`,
    );
}

/** The same checks on spans already read (a run log's or a bare trace's `spans`). */
export function checkSpans(spans: readonly OtlpSpan[], where: string): void {
  const problems: string[] = [];
  spans.forEach((s, i) => {
    const ps = [
      idProblem(s.traceId, 16, 'traceId', false),
      idProblem(s.spanId, 8, 'spanId', false),
      idProblem(s.parentSpanId, 8, 'parentSpanId', true),
    ].filter((p): p is string => p !== undefined);
    if (!(s.startMs > 0)) ps.push('startMs is missing or not positive, so the span cannot be placed in time');
    if (ps.length && problems.length < 3) problems.push(`spans[${i}] (${JSON.stringify(s.name)}): ${ps.join('; ')}`);
  });
  if (problems.length)
    throw new SpanInputError(`${where}: spans saboteur cannot place in a trace, so it refuses to judge them:\n  ${problems.join('\n  ')}`);
}
