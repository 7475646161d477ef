/**
 * Semantic corruption: the prompt that asks a model to rewrite each chosen unit so that it leads to
 * a wrong result while staying plausible (prompts/autoinject-semantic.md), and the strict reading
 * of its answer. Anything unusable is reported with a reason so the caller can fall back to the
 * logic-edit rules.
 */
import { fillTemplate, loadPromptFile } from '../util/prompts.js';

export const SEMANTIC_TEMPLATE_FILE = 'prompts/autoinject-semantic.md';

/** One unit as the semantic prompt shows it: a code line, a sentence, or a free-text tool argument. */
export interface SemanticUnit {
  index: number;
  text: string;
  kind: 'line' | 'sentence' | 'argument';
  /** For arguments: which tool and argument (`send_email.body`). */
  label?: string;
}

/** The template from the `prompts/` folder that ships with saboteur. */
export function loadSemanticTemplate(): string {
  return loadPromptFile(SEMANTIC_TEMPLATE_FILE);
}

const KIND_NAME: Record<SemanticUnit['kind'], string> = { line: 'code line', sentence: 'sentence', argument: 'tool argument' };

export function buildSemanticPrompt(template: string, content: string, units: readonly SemanticUnit[], targets: readonly number[]): string {
  const numbered = units
    .map((u) => `[${u.index}] (${u.label ? `${KIND_NAME[u.kind]} ${u.label}` : KIND_NAME[u.kind]}) ${u.text.replace(/\r?\n/g, '\\n')}`)
    .join('\n');
  return fillTemplate(template, { MESSAGE: content, UNITS: numbered, TARGETS: targets.join(', ') });
}

export type SemanticReading = { ok: true; rewrites: Map<number, string>; problems: string[] } | { ok: false; reason: string };

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
 * unchanged, or (for code lines) spans several lines is a problem for that unit, not for the answer.
 */
export function parseSemanticAnswer(answer: string, units: readonly SemanticUnit[], targets: readonly number[]): SemanticReading {
  let value: unknown;
  try {
    value = extractJson(answer);
  } catch (err) {
    return { ok: false, reason: `the model's answer is not JSON (${(err as Error).message}): ${JSON.stringify(answer.slice(0, 80))}` };
  }
  const found = (value as { units?: unknown } | null)?.units;
  if (!found || typeof found !== 'object' || Array.isArray(found))
    return { ok: false, reason: 'the model\'s answer has no "units" object' };
  const byIndex = new Map(units.map((u) => [u.index, u]));
  const rewrites = new Map<number, string>();
  const problems: string[] = [];
  for (const index of targets) {
    const unit = byIndex.get(index);
    if (!unit) continue;
    const raw = (found as Record<string, unknown>)[String(index)];
    if (typeof raw !== 'string') {
      problems.push(`unit ${index} missing`);
      continue;
    }
    let rewrite = unit.kind === 'argument' ? raw.replace(/\\n/g, '\n') : raw.trim();
    if (unit.kind === 'line' && rewrite.includes('\n')) {
      problems.push(`unit ${index} spans several lines`);
      continue;
    }
    if (unit.kind === 'sentence') rewrite = rewrite.replace(/\s*\n\s*/g, ' ');
    if (rewrite.trim() === '' || rewrite === unit.text) {
      problems.push(`unit ${index} ${rewrite.trim() === '' ? 'empty' : 'unchanged'}`);
      continue;
    }
    rewrites.set(index, rewrite);
  }
  if (rewrites.size === 0) return { ok: false, reason: `the model's answer rewrote none of the requested units (${problems.join(', ')})` };
  return { ok: true, rewrites, problems };
}
