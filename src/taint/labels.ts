/**
 * The taint labels (docs/taint-policy.md, "Labels") as bits of a 16-bit set, so a node's labels fit one slot of a Uint16Array and
 * propagation is a bitwise OR. Bits 0-5: sources, 6-11: hard sinks, 12: "reached from the root
 * request" (provenance, never released), which turns the provenance-gap check into one more label.
 */
import { SINK_LABELS, SOURCE_LABELS, type SinkLabel, type SourceLabel } from '../benchmarks/agentic/agentic.js';

export { SINK_LABELS, SOURCE_LABELS, type SinkLabel, type SourceLabel };
export type Label = SourceLabel | SinkLabel;

export const LABELS: readonly Label[] = [...SOURCE_LABELS, ...SINK_LABELS];
export const ROOT_BIT = 1 << 12;

const BIT = new Map<string, number>(LABELS.map((l, i) => [l, 1 << i]));

export function bitOf(label: Label): number {
  const b = BIT.get(label);
  if (b === undefined) throw new Error(`unknown label ${JSON.stringify(label)} (expected one of ${LABELS.join(', ')})`);
  return b;
}

export function maskOf(labels: Iterable<Label>): number {
  let m = 0;
  for (const l of labels) m |= bitOf(l);
  return m;
}

export const SOURCE_MASK = maskOf(SOURCE_LABELS);
export const SINK_MASK = maskOf(SINK_LABELS);
/**
 * Sinks that move something to someone. An order in data that asks for one claims its target for
 * any of them: the writer of "send a transaction to …" means a payment, and the request, not the
 * instruction, is where the exact action is read (trace-graph.ts, provenance.ts).
 */
export const OUTWARD_MASK = maskOf(['EXTERNAL_SEND', 'FINANCIAL_TRANSFER', 'PUBLIC_POST']);
/** Every label plus the root bit: what a plain data edge carries. */
export const ALL_MASK = SOURCE_MASK | SINK_MASK | ROOT_BIT;

export function labelsOf(mask: number): Label[] {
  const out: Label[] = [];
  for (let i = 0; i < LABELS.length; i++) if (mask & (1 << i)) out.push(LABELS[i]);
  return out;
}

export function sourcesOf(mask: number): SourceLabel[] {
  return labelsOf(mask & SOURCE_MASK) as SourceLabel[];
}

export function sinksOf(mask: number): SinkLabel[] {
  return labelsOf(mask & SINK_MASK) as SinkLabel[];
}

export function isSourceLabel(x: unknown): x is SourceLabel {
  return typeof x === 'string' && (SOURCE_LABELS as readonly string[]).includes(x);
}

export function isSinkLabel(x: unknown): x is SinkLabel {
  return typeof x === 'string' && (SINK_LABELS as readonly string[]).includes(x);
}
