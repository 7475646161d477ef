/**
 * The `syntax-error` corruption mode, as in the paper's syntactic runs: the chosen line of code no
 * longer parses (an unclosed bracket, a missing colon or comma, a dropped operator, a misspelt
 * keyword, an unterminated string, a bad indentation), and the chosen sentence of prose is garbled
 * (words swapped, dropped, doubled, or the sentence broken off). Some edit always fits a non-empty
 * unit, so in this mode every unit drawn is changed. The edit is drawn from the caller's seeded
 * generator among those that fit.
 */
import { maskCode } from './logic-edit.js';

export interface SyntaxEdit {
  rule: string;
  after: string;
}

const BLOCK_HEADER = /^(?:async\s+)?(?:def|class|if|elif|else|for|while|try|except|finally|with|match|case)\b.*:$/;

/** A keyword misspelt the way a hurried typist would: two inner letters swapped. */
const MISSPELT: Record<string, string> = {
  return: 'retrun',
  else: 'esle',
  elif: 'elfi',
  while: 'whlie',
  for: 'fro',
  def: 'dfe',
  import: 'improt',
  lambda: 'lamdba',
  yield: 'yeild',
  raise: 'riase',
  class: 'calss',
  function: 'funtcion',
  const: 'cosnt',
};

function lastIndexOfAny(text: string, chars: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (chars.includes(text[i])) return i;
  return -1;
}

/** Every syntax-breaking edit that fits this line of code (without its indentation). */
export function codeSyntaxEdits(line: string): SyntaxEdit[] {
  const masked = maskCode(line);
  const edits: SyntaxEdit[] = [];
  const cut = (at: number, length = 1) => line.slice(0, at) + line.slice(at + length);
  const close = lastIndexOfAny(masked, ')]}');
  if (close >= 0) edits.push({ rule: 'unclosed-bracket', after: cut(close) });
  const trimmed = masked.replace(/\s+$/, '');
  if (BLOCK_HEADER.test(trimmed)) edits.push({ rule: 'missing-colon', after: cut(trimmed.length - 1) });
  // An assignment or comparison written with spaces: `x = y` → `x  y` (a keyword argument `f(a=1)` would still parse).
  const operator = /(?<=\s)(?:[=<>]|[=!<>+\-*/]=)(?=\s)/.exec(masked);
  if (operator) edits.push({ rule: 'missing-operator', after: cut(operator.index, operator[0].length) });
  const comma = masked.indexOf(',');
  if (comma >= 0) edits.push({ rule: 'missing-comma', after: cut(comma) });
  const keyword = /\b(return|else|elif|while|for|def|import|lambda|yield|raise|class|function|const)\b/.exec(masked);
  if (keyword)
    edits.push({
      rule: 'misspelt-keyword',
      after: line.slice(0, keyword.index) + MISSPELT[keyword[1]] + line.slice(keyword.index + keyword[1].length),
    });
  const quote = /(["'])/.exec(line);
  if (quote && masked[quote.index] === quote[1]) {
    // The first literal's closing quote: masking blanked what lies between the two.
    let end = quote.index + 1;
    while (end < line.length && masked[end] === '\u0000') end++;
    if (line[end] === quote[1] && end > quote.index) edits.push({ rule: 'unterminated-string', after: cut(end) });
  }
  // Fits any line: one space more than its block's indentation ("unexpected indent").
  edits.push({ rule: 'indentation', after: ` ${line}` });
  return edits;
}

/** Every garbling edit that fits this sentence. */
export function textSyntaxEdits(sentence: string): SyntaxEdit[] {
  const words = sentence.split(/\s+/).filter((w) => w !== '');
  const edits: SyntaxEdit[] = [];
  if (words.length >= 2) {
    const i = Math.floor(words.length / 2) - 1;
    const swapped = [...words];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1], swapped[i]];
    edits.push({ rule: 'word-order', after: swapped.join(' ') });
    edits.push({ rule: 'dropped-word', after: [...words.slice(0, i + 1), ...words.slice(i + 2)].join(' ') });
  }
  if (words.length >= 4)
    edits.push({
      rule: 'broken-off',
      after: words
        .slice(0, Math.ceil(words.length / 2))
        .join(' ')
        .replace(/[.,;:!?]+$/, ''),
    });
  if (words.length >= 1) {
    const i = Math.min(words.length - 1, 1);
    edits.push({
      rule: 'doubled-word',
      after: [...words.slice(0, i + 1), words[i].replace(/[.,;:!?]+$/, ''), ...words.slice(i + 1)].join(' '),
    });
  }
  return edits.filter((e) => e.after !== sentence && e.after !== '');
}

/** One syntax-breaking edit drawn by `rng`; undefined only for a unit with nothing in it. */
export function breakUnit(text: string, kind: 'line' | 'sentence', rng: () => number): SyntaxEdit | undefined {
  const edits = kind === 'line' ? codeSyntaxEdits(text) : textSyntaxEdits(text);
  if (edits.length === 0) return undefined;
  return edits[Math.floor(rng() * edits.length)];
}
