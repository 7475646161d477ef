/**
 * The span as saboteur keeps it: one OTLP span with its attributes flattened to plain values and
 * the log events the pipeline's instrumentation emitted for it (OTLP logs carrying a span id)
 * joined in as events. Stored in the run log's trace; read by the GenAI view.
 */
import { z } from 'zod';
import { InputError } from '../util/input-error.js';

export const otlpEventSchema = z.object({ name: z.string(), timeMs: z.number(), attributes: z.record(z.string(), z.unknown()) });
export type OtlpEvent = z.infer<typeof otlpEventSchema>;

export const otlpSpanSchema = z.object({
  traceId: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().optional(),
  name: z.string(),
  startMs: z.number(),
  endMs: z.number(),
  attributes: z.record(z.string(), z.unknown()),
  events: z.array(otlpEventSchema).optional(),
  service: z.string().optional(),
  /** The instrumentation scope that wrote it (e.g. `@arizeai/openinference-instrumentation-openai`, `ai`). */
  scope: z.string().optional(),
});
export type OtlpSpan = z.infer<typeof otlpSpanSchema>;

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
