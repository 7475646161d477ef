/**
 * The GenAI view of any span. A span may carry more than one dialect at once (GenAI attributes
 * beside `openinference.span.kind`, `traceloop.span.kind` or `ai.operationId`: several
 * instrumentations on one call, or a framework that writes both). Every dialect that claims the
 * span reads it, and so do the GenAI conventions; the views are merged so that no reading loses
 * what another found: the operation is the most specific any reader saw (a tool execution before
 * an LLM call before an agent run), and each field comes from the first reader of that operation
 * that has it. An extra attribute can add to what a span is, never hide it. The tool definitions
 * of every reader's attributes are all kept (tool-definitions.ts).
 */
import type { OtlpSpan } from './schema.js';
import { mergeViews, readGenAi, type GenAiSpan } from './genai.js';
import { isOpenInference, readOpenInference } from './dialects/openinference.js';
import { isOpenLlmetry, readOpenLlmetry } from './dialects/openllmetry.js';
import { isVercel, readVercel } from './dialects/vercel.js';
import { spanToolDefinitions } from './tool-definitions.js';

export const DIALECTS = ['genai', 'openinference', 'openllmetry', 'vercel'] as const;
export type Dialect = (typeof DIALECTS)[number];

const CLAIMS: readonly [Exclude<Dialect, 'genai'>, (span: OtlpSpan) => boolean][] = [
  ['openinference', isOpenInference],
  ['vercel', isVercel],
  ['openllmetry', isOpenLlmetry],
];

/** The dialects whose markers a span carries, in the order they are tried; `genai` when none. */
export function dialectsOf(span: OtlpSpan): Dialect[] {
  const out = CLAIMS.filter(([, claims]) => claims(span)).map(([d]) => d);
  return out.length ? out : ['genai'];
}

/** The first dialect a span carries (the one its own instrumentation wrote, as a rule). */
export function dialectOf(span: OtlpSpan): Dialect {
  return dialectsOf(span)[0];
}

const READERS: Record<Dialect, (span: OtlpSpan) => GenAiSpan> = {
  genai: (s) => readGenAi(s),
  openinference: readOpenInference,
  openllmetry: readOpenLlmetry,
  vercel: readVercel,
};

export function genAiView(span: OtlpSpan): GenAiSpan {
  const dialects = dialectsOf(span);
  // The GenAI conventions read first among equals: their attributes name the tool and the agent explicitly.
  const readers: Dialect[] = dialects[0] === 'genai' ? ['genai'] : ['genai', ...dialects];
  const view = mergeViews(readers.map((d) => READERS[d](span)));
  const definitions = spanToolDefinitions(span, readers, view);
  return definitions.length ? { ...view, toolDefinitions: definitions } : view;
}
