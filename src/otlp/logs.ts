/**
 * Joining OTLP log events to their spans. Instrumentation that follows the event-based GenAI
 * conventions (e.g. @opentelemetry/instrumentation-openai) writes the messages of a chat call as
 * log records carrying the span's id, not as span attributes; saboteur reads them as the span's
 * events. Records whose span never arrives are dropped (they describe nothing in the trace).
 */
import type { OtlpLogEvent, OtlpSpan } from './schema.js';
import { pushTo } from '../util/maps.js';

export function joinLogEvents(spans: readonly OtlpSpan[], events: readonly OtlpLogEvent[]): OtlpSpan[] {
  if (events.length === 0) return [...spans];
  const bySpan = new Map<string, OtlpLogEvent[]>();
  for (const e of events) {
    pushTo(bySpan, `${e.traceId}/${e.spanId}`, e);
  }
  return spans.map((s) => {
    const mine = bySpan.get(`${s.traceId}/${s.spanId}`);
    if (!mine) return s;
    // Arrival order is emission order, which is message order (timestamps often tie).
    const joined = [...(s.events ?? []), ...mine.map(({ name, timeMs, attributes }) => ({ name, timeMs, attributes }))];
    return { ...s, events: joined };
  });
}
