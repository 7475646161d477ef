/**
 * The `logic-edit` corruption mode: small deterministic edits that keep a line of code or a
 * sentence plausible and well-formed but wrong (a flipped comparison, an off-by-one, a dropped
 * negation, an antonym). Code edited here still parses; the `syntax-error` mode (syntax-error.ts)
 * is the one that breaks it. One edit per unit; which of the applicable edits is taken is drawn
 * from the caller's seeded generator. A unit no rule fits is left alone, and the caller says so.
 */

export interface Edit {
  rule: string;
  start: number;
  end: number;
  replacement: string;
}

/**
 * The line with string literals and comments blanked out (same length), so code rules never edit
 * text inside quotes or comments.
 */
export function maskCode(line: string): string {
  const out = line.split('');
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    const prev = i > 0 ? line[i - 1] : ' ';
    if (c === '#' && /\s/.test(prev) && line[i + 1] !== '{') {
      for (let k = i; k < line.length; k++) out[k] = '\u0000';
      break;
    }
    if (c === '/' && line[i + 1] === '/' && (i === 0 || /[;{}),]\s*$/.test(line.slice(0, i)) || line.slice(0, i).trim() === '')) {
      for (let k = i; k < line.length; k++) out[k] = '\u0000';
      break;
    }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
      for (let k = i + 1; k < Math.min(j, line.length); k++) out[k] = '\u0000';
      i = j + 1;
      continue;
    }
    i++;
  }
  return out.join('');
}

interface Rule {
  name: string;
  pattern: RegExp;
  replace: (m: RegExpExecArray) => string | undefined;
}

const SWAP = (pairs: Record<string, string>) => (m: RegExpExecArray) => pairs[m[0]];

/** A run of digits plus one, exactly at any length (Number() would round past 2^53). */
function plusOne(digits: string): string {
  return String(BigInt(digits) + 1n);
}

/** Code rules, run on the masked line. Operators need spaces around them so `->`, `=>`, `List<T>` are left alone. */
const CODE_RULES: Rule[] = [
  { name: 'comparison', pattern: /(?<=\s)(<=|>=|<|>)(?=\s)/g, replace: SWAP({ '<': '<=', '<=': '<', '>': '>=', '>=': '>' }) },
  { name: 'equality', pattern: /(?<=\s)(===|!==|==|!=)(?=\s)/g, replace: SWAP({ '==': '!=', '!=': '==', '===': '!==', '!==': '===' }) },
  { name: 'arithmetic', pattern: /(?<=\s)(\+|-|\+=|-=)(?=\s)/g, replace: SWAP({ '+': '-', '-': '+', '+=': '-=', '-=': '+=' }) },
  {
    name: 'boolean',
    pattern: /\b(True|False|true|false)\b/g,
    replace: SWAP({ True: 'False', False: 'True', true: 'false', false: 'true' }),
  },
  { name: 'logic', pattern: /(?<=\s)(and|or|&&|\|\|)(?=\s)/g, replace: SWAP({ and: 'or', or: 'and', '&&': '||', '||': '&&' }) },
  {
    name: 'negation',
    pattern: /\bis not\b|\bnot in\b|\bnot\s+(?!in\b)|!(?=[\w(])(?!=)/g,
    replace: (m) => (m[0] === 'is not' ? 'is' : m[0] === 'not in' ? 'in' : ''),
  },
  { name: 'none-check', pattern: /\bis None\b/g, replace: () => 'is not None' },
  {
    name: 'integer',
    pattern: /(?<![\w.])\d+(?![\w.])/g,
    replace: (m) => {
      const input = m.input;
      const before = input[m.index - 1];
      const after = input[m.index + m[0].length];
      // An index ([0], [-1], [i + 1]) is left to the index rule, which names it so.
      if ((before === '[' || before === '-') && after === ']') return undefined;
      return plusOne(m[0]);
    },
  },
  { name: 'index', pattern: /\[(-?\d+)\]/g, replace: (m) => `[${Number(m[1]) < 0 ? Number(m[1]) - 1 : Number(m[1]) + 1}]` },
  { name: 'off-by-one', pattern: /\blen\(([^()]*)\)\s*-\s*1\b/g, replace: (m) => `len(${m[1]})` },
  { name: 'min-max', pattern: /\b(min|max)(?=\()/g, replace: SWAP({ min: 'max', max: 'min' }) },
  { name: 'loop-control', pattern: /\b(break|continue)\b/g, replace: SWAP({ break: 'continue', continue: 'break' }) },
  { name: 'case', pattern: /\.(lower|upper)(?=\()/g, replace: (m) => (m[1] === 'lower' ? '.upper' : '.lower') },
  { name: 'string-end', pattern: /\.(startswith|endswith)(?=\()/g, replace: (m) => (m[1] === 'startswith' ? '.endswith' : '.startswith') },
];

const ANTONYMS: Record<string, string> = {};
for (const [a, b] of [
  ['always', 'never'],
  ['first', 'last'],
  ['before', 'after'],
  ['increase', 'decrease'],
  ['increasing', 'decreasing'],
  ['increases', 'decreases'],
  ['true', 'false'],
  ['maximum', 'minimum'],
  ['largest', 'smallest'],
  ['greater', 'less'],
  ['higher', 'lower'],
  ['more', 'fewer'],
  ['ascending', 'descending'],
  ['include', 'exclude'],
  ['includes', 'excludes'],
  ['left', 'right'],
  ['even', 'odd'],
  ['positive', 'negative'],
  ['success', 'failure'],
  ['valid', 'invalid'],
  ['correct', 'incorrect'],
  ['safe', 'unsafe'],
  ['allow', 'deny'],
  ['above', 'below'],
  ['inside', 'outside'],
  ['accept', 'reject'],
  ['add', 'remove'],
  ['enable', 'disable'],
  ['all', 'none'],
  ['start', 'end'],
]) {
  ANTONYMS[a] ??= b;
  ANTONYMS[b] ??= a;
}

function keepCase(original: string, replacement: string): string {
  if (original === original.toUpperCase() && original.length > 1) return replacement.toUpperCase();
  if (original[0] === original[0].toUpperCase()) return replacement[0].toUpperCase() + replacement.slice(1);
  return replacement;
}

const CONTRACTIONS: Record<string, string> = {
  "don't": 'do',
  "doesn't": 'does',
  "didn't": 'did',
  "isn't": 'is',
  "aren't": 'are',
  "wasn't": 'was',
  "weren't": 'were',
  "can't": 'can',
  "won't": 'will',
  "shouldn't": 'should',
  "mustn't": 'must',
  "hasn't": 'has',
  "haven't": 'have',
};

const TEXT_RULES: Rule[] = [
  { name: 'negation', pattern: /\b(is|are|was|were|will|should|must|does|do|did|has|have) not\b/gi, replace: (m) => m[1] },
  { name: 'negation', pattern: /\bcannot\b/gi, replace: (m) => keepCase(m[0], 'can') },
  {
    name: 'negation',
    pattern: /\b\w+n't\b/gi,
    replace: (m) => {
      const r = CONTRACTIONS[m[0].toLowerCase()];
      return r ? keepCase(m[0], r) : undefined;
    },
  },
  { name: 'negation', pattern: /\b(is|are|was|were|will|should|must)\b(?! not\b)/gi, replace: (m) => `${m[1]} not` },
  { name: 'negation', pattern: /\bcan\b(?!not)/gi, replace: (m) => keepCase(m[0], 'cannot') },
  { name: 'number', pattern: /(?<![\w.])\d+(?![\w])/g, replace: (m) => plusOne(m[0]) },
  {
    name: 'antonym',
    pattern: /\b[A-Za-z]+\b/g,
    replace: (m) => {
      const r = ANTONYMS[m[0].toLowerCase()];
      return r ? keepCase(m[0], r) : undefined;
    },
  },
];

function candidates(rules: Rule[], subject: string): Edit[] {
  const edits: Edit[] = [];
  for (const rule of rules) {
    rule.pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = rule.pattern.exec(subject)) !== null) {
      if (m[0] === '' && rule.pattern.lastIndex === m.index) rule.pattern.lastIndex++;
      const replacement = rule.replace(m);
      if (replacement !== undefined && replacement !== m[0])
        edits.push({ rule: rule.name, start: m.index, end: m.index + m[0].length, replacement });
    }
  }
  return edits;
}

/** Every edit the code rules could make to this line (no indentation: units come without it). */
export function codeEdits(line: string): Edit[] {
  return candidates(CODE_RULES, maskCode(line));
}

export function textEdits(sentence: string): Edit[] {
  return candidates(TEXT_RULES, sentence);
}

/**
 * Corrupts one unit with one edit drawn by `rng`, or returns undefined when no rule applies (the
 * unit is then left alone and not recorded).
 */
export function corruptUnit(text: string, kind: 'line' | 'sentence', rng: () => number): { after: string; rule: string } | undefined {
  const edits = kind === 'line' ? codeEdits(text) : textEdits(text);
  if (edits.length === 0) return undefined;
  const e = edits[Math.floor(rng() * edits.length)];
  return { after: text.slice(0, e.start) + e.replacement + text.slice(e.end), rule: e.rule };
}
