/**
 * The logic-edit mode's fallback chain for code: when none of the rules in logic-edit.ts fits a line
 * of code, these are tried in order, so that almost every drawn line is changed (the paper's
 * rewrite changes every unit it draws; see docs/methods.md). Each keeps the line parsing where it
 * stands: a condition negated, a loop that skips its first item, two parameters swapped or the first
 * one renamed, and last a whole simple statement replaced by `pass`. Only lines that are no statement of their own (a block
 * opener such as `else:` or `try:`, a piece of a statement spread over several lines) stay as they
 * were, and the caller reports them.
 */
import { maskCode } from './logic-edit.js';

export interface FallbackEdit {
  rule: string;
  after: string;
}

/** Net bracket depth a masked line adds: `(`, `[`, `{` open, their partners close. */
export function bracketDelta(masked: string): number {
  let depth = 0;
  for (const c of masked) {
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
  }
  return depth;
}

/** Whether a line read on its own is a whole statement: brackets balanced, no continuation at its end. */
export function wholeLine(line: string): boolean {
  const masked = maskCode(line).replace(/[\s\u0000]+$/, '');
  const triples = (line.match(/"""|'''/g) ?? []).length;
  return bracketDelta(masked) === 0 && !/[\\,([{]$/.test(masked) && triples % 2 === 0;
}

/** Splits a masked parameter list at its top-level commas, as spans of the original. */
function splitTopLevel(masked: string, original: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < masked.length; i++) {
    const c = masked[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(original.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(original.slice(from));
  return parts;
}

type Fallback = (line: string, masked: string) => string | undefined;

const BLOCK_OPENER = /^(?:async\s+)?(?:def|class|if|elif|else|for|while|try|except|finally|with|match|case)\b/;

const FALLBACKS: [string, Fallback][] = [
  [
    'negated-condition',
    (line, masked) => {
      const m = /^(if|elif|while)(\s+)(\S.*?)\s*:$/.exec(masked);
      return m ? `${m[1]} not (${line.slice(m[1].length + m[2].length, m[1].length + m[2].length + m[3].length)}):` : undefined;
    },
  ],
  [
    'skipped-first',
    (line, masked) => {
      const m = /^((?:async\s+)?for\s+.+?\s+in\s+)(\S.*?)\s*:$/.exec(masked);
      return m ? `${line.slice(0, m[1].length)}list(${line.slice(m[1].length, m[1].length + m[2].length)})[1:]:` : undefined;
    },
  ],
  [
    'swapped-parameters',
    (line, masked) => {
      const m = /^((?:async\s+)?def\s+\w+\s*\()(.*)(\)\s*(?:->.*)?:)$/.exec(masked);
      if (!m) return undefined;
      const open = m[1].length;
      const params = splitTopLevel(m[2], line.slice(open, open + m[2].length));
      if (params.length < 2) return undefined;
      const [a, b] = params;
      const simple = (p: string) => /^\s*[A-Za-z_]\w*\s*(?::[^=]+)?(?:=.+)?$/.test(p);
      const hasDefault = (p: string) => p.includes('=');
      if (!simple(a) || !simple(b) || hasDefault(a) !== hasDefault(b)) return undefined;
      const lead = (p: string) => /^\s*/.exec(p)![0];
      const swapped = [lead(a) + b.trim(), lead(b) + a.trim(), ...params.slice(2)].join(',');
      return line.slice(0, open) + swapped + line.slice(open + m[2].length);
    },
  ],
  [
    // The body keeps the old name, which no longer is bound: the call fails as a misspelt name would.
    'renamed-parameter',
    (line, masked) => {
      const m = /^((?:async\s+)?def\s+\w+\s*\(\s*)([A-Za-z_]\w*)(?=\s*[:,=)])/.exec(masked);
      return m ? `${line.slice(0, m[1].length)}${m[2]}_${line.slice(m[1].length + m[2].length)}` : undefined;
    },
  ],
  [
    'dropped-statement',
    (line, masked) => {
      const code = masked.replace(/[\s\u0000]+$/, '');
      if (code === 'pass' || code.endsWith(':') || BLOCK_OPENER.test(code)) return undefined;
      return 'pass';
    },
  ],
];

/**
 * The first fallback that fits this line (without its indentation). `whole`: the line is a
 * statement of its own, not part of one spread over several lines (the segmenter knows; read on its
 * own, a line is whole when its brackets balance).
 */
export function fallbackEdit(line: string, whole: boolean = wholeLine(line)): FallbackEdit | undefined {
  if (!whole) return undefined;
  const masked = maskCode(line);
  const code = masked.replace(/[\s\u0000]+$/, '');
  const trimmedLine = line.slice(0, code.length);
  for (const [rule, edit] of FALLBACKS) {
    const after = edit(trimmedLine, code);
    if (after !== undefined && after !== trimmedLine) return { rule, after: after + line.slice(code.length) };
  }
  return undefined;
}
