/**
 * What the docs/ tests compare: the field paths of a zod schema, and the sections and reference
 * tables of a Markdown page. A doc page documents a schema in tables whose first column names each
 * field in backticks (`model.serverVersion`, `trace.calls[].agentSource`); the tests check that
 * the table and the schema name the same fields, so neither can change without the other.
 */
import type { z } from 'zod';

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { def: Def }).def;
}

/** The schema without the wrappers that do not change its shape (optional, nullable, default, …). */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if (!def.innerType || !['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type)) return s;
    s = def.innerType;
  }
}

/**
 * Every field path of `schema`: `a`, `a.b`, and `a[].c` for the fields of objects in a list.
 * Records and unions of plain values end a path; a path in `stop` is listed but not entered.
 */
export function fieldPaths(schema: z.ZodType, stop: ReadonlySet<string> = new Set(), prefix = ''): string[] {
  const s = unwrap(schema);
  const def = defOf(s);
  if (def.type === 'array') return fieldPaths(def.element!, stop, `${prefix}[]`);
  if (def.type === 'union') return [...new Set(def.options!.flatMap((o) => fieldPaths(o, stop, prefix)))];
  if (def.type !== 'object') return [];
  const out: string[] = [];
  for (const [key, child] of Object.entries(def.shape!)) {
    const path = prefix ? `${prefix}.${key}` : key;
    out.push(path);
    if (!stop.has(path)) out.push(...fieldPaths(child, stop, path));
  }
  return out;
}

/** The sections of a Markdown page by their `## ` heading (each section runs to the next one). */
export function sections(markdown: string): { heading: string; text: string }[] {
  const out: { heading: string; text: string }[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) out.push({ heading: line.slice(3).trim(), text: '' });
    else if (out.length) out[out.length - 1].text += `${line}\n`;
  }
  return out;
}

/** The one section whose heading contains `marker`; throws when there is none or more than one. */
export function sectionOf(markdown: string, marker: string): string {
  const found = sections(markdown).filter((s) => s.heading.includes(marker));
  if (found.length !== 1) throw new Error(`expected one "## " heading containing ${marker}, found ${found.length}`);
  return found[0].text;
}

/**
 * The backticked names in the first column of the tables whose header row starts with
 * `| <column> |` (`| field |`, `| key |`), in order.
 */
export function tableNames(markdown: string, column: string): string[] {
  const names: string[] = [];
  let inTable = false;
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    const first = line.split('|')[1]?.trim() ?? '';
    if (first === column) {
      inTable = true;
      continue;
    }
    if (!inTable || /^-+$/.test(first)) continue;
    const m = /^`([^`]+)`$/.exec(first);
    if (!m) throw new Error(`a row of a "| ${column} |" table does not name one field in backticks: ${line}`);
    names.push(m[1]);
  }
  return names;
}

/** The fenced code blocks of a page in the given language, with their text. */
export function codeBlocks(markdown: string, lang: string): string[] {
  const blocks: string[] = [];
  const re = new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```', 'gm');
  for (const m of markdown.matchAll(re)) blocks.push(m[1]);
  return blocks;
}
