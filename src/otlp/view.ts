/**
 * The GenAI view of any span: the dialect it was written in is read off its attributes, and that
 * dialect's reader turns it into the canonical view (genai.ts). A span no dialect claims is read
 * by the GenAI conventions, which call it `other` when nothing in it is GenAI.
 */
import type { OtlpSpan } from './schema.js';
import { readGenAi, type GenAiSpan } from './genai.js';
import { isOpenInference, readOpenInference } from './dialects/openinference.js';
import { isOpenLlmetry, readOpenLlmetry } from './dialects/openllmetry.js';
import { isVercel, readVercel } from './dialects/vercel.js';

export const DIALECTS = ['genai', 'openinference', 'openllmetry', 'vercel'] as const;
export type Dialect = (typeof DIALECTS)[number];

export function dialectOf(span: OtlpSpan): Dialect {
  if (isOpenInference(span)) return 'openinference';
  if (isVercel(span)) return 'vercel';
  if (isOpenLlmetry(span)) return 'openllmetry';
  return 'genai';
}

const READERS: Record<Dialect, (span: OtlpSpan) => GenAiSpan> = {
  genai: (s) => readGenAi(s),
  openinference: readOpenInference,
  openllmetry: readOpenLlmetry,
  vercel: readVercel,
};

export function genAiView(span: OtlpSpan): GenAiSpan {
  return READERS[dialectOf(span)](span);
}
