/**
 * What the OTLP readers hand on: spans in the run log's shape (`runlog/otlp-spans.ts`, stored in
 * the trace) and the log records that belong to a span, joined into it as events.
 */
export { otlpEventSchema, otlpSpanSchema, type OtlpEvent, type OtlpSpan } from '../runlog/otlp-spans.js';
import { InputError } from '../util/input-error.js';

/** One OTLP log record that belongs to a span: an event of the GenAI conventions (`gen_ai.user.message`, `gen_ai.choice`, …). */
export interface OtlpLogEvent {
  traceId: string;
  spanId: string;
  name: string;
  timeMs: number;
  attributes: Record<string, unknown>;
}

/** An OTLP input saboteur cannot read: named file or request, and what was expected. */
export class OtlpInputError extends InputError {}
