/**
 * What a trace lets the validator read, said plainly when it is not enough. A request must be
 * text someone wrote: an agent span's input of `{}` or `{"args":[],"kwargs":{}}` (a decorator
 * called with no arguments) is opaque, and the request is then taken from the LLM calls. A trace
 * with no LLM span may come from a set-up that emits nothing (the README's trace table): the
 * AI SDK 7 without `@ai-sdk/otel`, OpenTelemetry's openai instrumentation on openai 7 and later.
 */
import { parseMaybeJson, type GenAiSpan } from '../../otlp/genai.js';

/** Whether a text carries no words anyone wrote: empty, or JSON whose strings are all empty. */
export function isOpaqueText(text: string): boolean {
  const t = text.trim();
  if (t === '' || t === 'null' || t === 'undefined') return true;
  const parsed = parseMaybeJson(t);
  if (typeof parsed === 'string') return false;
  const stack: unknown[] = [parsed];
  for (let seen = 0; stack.length && seen < 10_000; seen++) {
    const v = stack.pop();
    if (typeof v === 'string' && v.trim() !== '') return false;
    if (typeof v === 'number' || typeof v === 'boolean') return false;
    if (v && typeof v === 'object') stack.push(...(Array.isArray(v) ? v : Object.values(v)).slice(0, 1000));
  }
  return stack.length === 0;
}

/** Calls to a model API as an HTTP client span shows them (path or URL attributes). */
const MODEL_API = /\/(?:chat\/completions|completions|responses|messages|embeddings)(?:[/?]|$)/;

function httpModelCalls(views: readonly GenAiSpan[]): number {
  let n = 0;
  for (const v of views) {
    const a = v.span.attributes;
    const where = [a['url.full'], a['http.url'], a['url.path'], a['http.target'], a['http.route']].find((x) => typeof x === 'string') as
      string | undefined;
    if (where && MODEL_API.test(where)) n++;
  }
  return n;
}

export const SILENT_SETUPS =
  "set-ups known to emit no LLM spans: the AI SDK 7 without @ai-sdk/otel (experimental_telemetry records nothing without it), and OpenTelemetry's openai instrumentation (@opentelemetry/instrumentation-openai) on openai 7 or later (it patches nothing there); see the trace table of the README";

/** Why a trace with no LLM span reads as it does: what spans it has, and the set-ups that would explain it. */
export function noLlmSpansHint(views: readonly GenAiSpan[]): string {
  if (views.length === 0) return `the export holds no spans (${SILENT_SETUPS})`;
  const scopes = [...new Set(views.map((v) => v.span.scope ?? '(no scope)'))].slice(0, 5);
  const http = httpModelCalls(views);
  const seen = `${views.length} span${views.length === 1 ? '' : 's'} from ${scopes.join(', ')}`;
  const calls =
    http > 0
      ? `; ${http} of them ${http === 1 ? 'is an HTTP call' : 'are HTTP calls'} to a model API, so the model was called but no LLM instrumentation recorded it`
      : '';
  return `none of the ${seen} is an LLM call${calls} (${SILENT_SETUPS})`;
}
