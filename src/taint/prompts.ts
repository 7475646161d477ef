/**
 * The taint validator's prompt templates (prompts/taint-*.md, prompts/judge-*.md), found in the
 * `prompts/` folder above this module: src/taint/ in the source tree, dist/ in the bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const JUDGE_LOCAL_TEMPLATE = 'prompts/judge-local.md';
export const JUDGE_GLOBAL_TEMPLATE = 'prompts/judge-global.md';
export const INTENT_TEMPLATE = 'prompts/taint-intent.md';
export const NODE_TEMPLATE = 'prompts/taint-node.md';

const cache = new Map<string, string>();

export function loadTemplate(file: string): string {
  const hit = cache.get(file);
  if (hit !== undefined) return hit;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, file);
    if (existsSync(candidate)) {
      const text = readFileSync(candidate, 'utf8');
      cache.set(file, text);
      return text;
    }
    dir = path.dirname(dir);
  }
  throw new Error(`cannot find ${file} above ${fileURLToPath(import.meta.url)}; it ships with saboteur`);
}

/** One pass over `{{KEY}}` placeholders, so placeholder-like text inside a value is never expanded. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => (key in values ? values[key] : whole));
}

/** The first JSON object in a model's answer, tolerating a code fence or words around it. */
export function jsonObjectIn(answer: string): Record<string, unknown> | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(answer);
  const text = fenced ? fenced[1] : answer;
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first < 0 || last <= first) return undefined;
  try {
    const v = JSON.parse(text.slice(first, last + 1));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
