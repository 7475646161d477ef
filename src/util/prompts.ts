/**
 * Prompt templates ship in `prompts/` at the root of saboteur; they are found by walking up from
 * this module (src/util/ in the source tree, dist/ in the bundle), read once and cached.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cache = new Map<string, string>();

export function loadPromptFile(file: string): string {
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
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => (key in values ? values[key] : whole));
}
