/**
 * Semantic corruption: the prompt that asks a model to rewrite chosen units plausibly but wrongly
 * (prompts/autoinject-semantic.md), and the strict reading of its answer. Anything unusable is
 * reported with a reason so the caller can fall back to the syntactic rules.
 */
import { loadPromptFile } from '../util/prompts.js';
import type { Segmentation } from './units.js';

export const SEMANTIC_TEMPLATE_FILE = 'prompts/autoinject-semantic.md';

/** The template from the `prompts/` folder that ships with saboteur. */
export function loadSemanticTemplate(): string {
  return loadPromptFile(SEMANTIC_TEMPLATE_FILE);
}

export function buildSemanticPrompt(template: string, content: string, seg: Segmentation, targets: readonly number[]): string {
  const numbered = seg.units.map((u) => `[${u.index}] ${u.text}`).join('\n');
  const values: Record<string, string> = {
    UNIT_KIND: seg.kind,
    MESSAGE: content,
    UNITS: numbered,
    TARGETS: targets.join(', '),
  };
  // One pass, so a placeholder-like text inside the message is never expanded.
  return template.replace(/\{\{(UNIT_KIND|MESSAGE|UNITS|TARGETS)\}\}/g, (_, k: string) => values[k]);
}

export type SemanticReading =
  | { ok: true; rewrites: Map<number, string>; problems: string[] }
  | { ok: false; reason: string };

/** The JSON object in an answer, tolerating a code fence or a sentence around it. */
function extractJson(answer: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(answer);
  const text = fenced ? fenced[1] : answer;
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first < 0 || last <= first) throw new Error('no JSON object in the answer');
  return JSON.parse(text.slice(first, last + 1));
}

/**
 * Reads `{"units": {"<index>": "<rewrite>"}}`. Only requested indexes count; a rewrite that is empty,
 * unchanged, or (for lines) spans several lines is a problem for that unit, not for the answer.
 */
export function parseSemanticAnswer(answer: string, seg: Segmentation, targets: readonly number[]): SemanticReading {
  let value: unknown;
  try {
    value = extractJson(answer);
  } catch (err) {
    return { ok: false, reason: `the model's answer is not JSON (${(err as Error).message}): ${JSON.stringify(answer.slice(0, 80))}` };
  }
  const units = (value as { units?: unknown } | null)?.units;
  if (!units || typeof units !== 'object' || Array.isArray(units)) return { ok: false, reason: 'the model\'s answer has no "units" object' };
  const rewrites = new Map<number, string>();
  const problems: string[] = [];
  for (const index of targets) {
    const raw = (units as Record<string, unknown>)[String(index)];
    const original = seg.units[index].text;
    if (typeof raw !== 'string') {
      problems.push(`unit ${index} missing`);
      continue;
    }
    let rewrite = seg.kind === 'line' ? raw.replace(/\s+$/, '').replace(/^\s+/, '') : raw.trim();
    if (seg.kind === 'line' && rewrite.includes('\n')) {
      problems.push(`unit ${index} spans several lines`);
      continue;
    }
    if (seg.kind === 'sentence') rewrite = rewrite.replace(/\s*\n\s*/g, ' ');
    if (rewrite === '' || rewrite === original) {
      problems.push(`unit ${index} ${rewrite === '' ? 'empty' : 'unchanged'}`);
      continue;
    }
    rewrites.set(index, rewrite);
  }
  if (rewrites.size === 0) return { ok: false, reason: `the model's answer rewrote none of the requested units (${problems.join(', ')})` };
  return { ok: true, rewrites, problems };
}
