/**
 * The text the validator reads for a produced text (a tool result, a message): a record is read by
 * its fields, whatever format printed it. A JSON document, JSON Lines, a JSON-encoded string, or a Python
 * literal (`str()` of a dict, a list, a dataclass, a pydantic model) is parsed and laid out one
 * field per line, a text field as its own block of lines; any other text is read as it is. So the
 * same email, printed as YAML, as compact JSON or by Python, gives the same orders, the same
 * passages, the same reach and the same structured fields (docs/validator.md, "Records, whatever
 * their format"). Content links and caches keep the text as produced.
 */
import { parsePythonLiteral } from './python-literal.js';

/** Records longer than this (characters) are read as text: the detector reads a long JSON document field by field itself. */
export const READING_LIMIT = 200_000;
/** A text field that is itself a record (a JSON string inside a JSON result) is opened this many levels deep. */
const NESTED = 2;
/** A record nested deeper than this is read as text (the model reads all of it; a cut would hide what lies below). */
const MAX_DEPTH = 64;

export interface Reading {
  /** The text to read: the record laid out, or the text itself. */
  text: string;
  /** The record the text prints, parsed, when it prints one (its fields are the structured fields a value is selected from). */
  record?: unknown;
}

/** The reading of `text`: its fields laid out when it is a record, else the text itself. */
export function readingOf(text: string): Reading {
  const value = recordOf(text, NESTED);
  if (value === undefined) return { text };
  if (typeof value === 'string') return { text: value };
  const lines: string[] = [];
  layOut(value, '', lines);
  return { text: lines.join('\n'), record: value };
}

/**
 * A record one field per line, in YAML's block layout: `key: value`, a text of several lines as a
 * `key: |` block indented under its key, a nested record or list indented under its key, list
 * items after `- `. Text is kept as it is, unquoted: it is read, not parsed back.
 */
function layOut(value: unknown, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      const at = out.length;
      entry(item, `${indent}  `, '', out);
      // The item's first line takes the dash in place of its indent.
      out[at] = `${indent}- ${out[at].slice(indent.length + 2)}`;
    }
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    entry(v, indent, `${k.includes('\n') ? k.replace(/\n/g, ' ') : k}:`, out);
}

/** One field (`label` is `key:`) or list item (`label` empty) holding `v`, its first line at `indent`. */
function entry(v: unknown, indent: string, label: string, out: string[]): void {
  const head = label ? `${label} ` : '';
  if (v !== null && typeof v === 'object') {
    const empty = Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;
    if (empty) return void out.push(`${indent}${head}${Array.isArray(v) ? '[]' : '{}'}`);
    if (!label) return layOut(v, indent, out);
    out.push(`${indent}${label}`);
    return layOut(v, `${indent}  `, out);
  }
  const text = typeof v === 'string' ? v : v === null || v === undefined ? 'null' : String(v);
  if (!text.includes('\n')) return void out.push(`${indent}${head}${text === '' ? '""' : text}`);
  out.push(`${indent}${head}|`);
  for (const line of (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n')) out.push(line ? `${indent}  ${line}` : '');
}

/** The parsed record `text` prints (a string for a JSON-encoded one), or undefined when it prints none. */
function recordOf(text: string, open: number): unknown {
  if (text.length > READING_LIMIT) return undefined;
  const t = text.trim();
  if (!/^[{["(<A-Za-z_]/.test(t)) return undefined;
  let value: unknown;
  if (/^[{["]/.test(t)) {
    try {
      value = JSON.parse(t) as unknown;
    } catch {
      value = undefined;
    }
    // JSON.parse keeps the last of a repeated key; the model reads both, so such a text is read as it is.
    if (value !== undefined && stringsIn(value, 0) !== jsonStrings(t)) return undefined;
    value ??= jsonLines(t);
  }
  if (value === undefined && t[0] !== '"') value = parsePythonLiteral(t);
  if (value === undefined || value === null || typeof value !== 'object') {
    // A JSON-encoded string is its text (read again: it may hold a record).
    if (typeof value === 'string') return open > 0 ? (recordOf(value, open - 1) ?? value) : value;
    return undefined;
  }
  return open > 0 ? opened(value, open - 1) : value;
}

/** JSON Lines (one record per line, as logs and streaming APIs print them): the records as a list, or undefined. */
function jsonLines(t: string): unknown[] | undefined {
  const lines = t.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return undefined;
  const out: unknown[] = [];
  for (const line of lines) {
    if (!/^\s*[{[]/.test(line)) return undefined;
    try {
      const v = JSON.parse(line) as unknown;
      if (stringsIn(v, 0) !== jsonStrings(line)) return undefined;
      out.push(v);
    } catch {
      return undefined;
    }
  }
  return out;
}

/** The string tokens of a JSON text: every key and every string value. */
const jsonStrings = (t: string) => t.match(/"(?:[^"\\]|\\.)*"/g)?.length ?? 0;

/** The keys and string values of a parsed record; NaN when it nests past MAX_DEPTH (no count matches it). */
function stringsIn(x: unknown, depth: number): number {
  if (typeof x === 'string') return 1;
  if (x === null || typeof x !== 'object') return 0;
  if (depth > MAX_DEPTH) return NaN;
  let n = 0;
  if (Array.isArray(x)) for (const v of x) n += stringsIn(v, depth + 1);
  else for (const [, v] of Object.entries(x)) n += 1 + stringsIn(v, depth + 1);
  return n;
}

/** `value` (freshly parsed, so changed in place) with each text field that is itself a record replaced by that record. */
function opened(value: unknown, open: number): unknown {
  if (typeof value === 'string') {
    if (!/^\s*[{[]/.test(value)) return value;
    const inner = recordOf(value, open);
    return inner !== undefined && typeof inner === 'object' ? inner : value;
  }
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) value[i] = opened(value[i], open);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const k of Object.keys(record)) if (typeof record[k] !== 'number') record[k] = opened(record[k], open);
  }
  return value;
}
