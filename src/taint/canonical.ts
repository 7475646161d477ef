/**
 * Text as the model reads it. What a reader never sees, or sees as the plain letter, must not hide
 * an order from the detector: "De\u200blete" (a zero-width space), "Dele\u00adte" (a soft hyphen),
 * "Dеlete" (a Cyrillic "е" among Latin letters), "D e l e t e" (letters spaced out), "Ｄｅｌｅｔｅ" (fullwidth), "𝐃𝐞𝐥𝐞𝐭𝐞" (mathematical
 * bold), "**Delete**", "<b>Delete</b>", "&#68;elete", a combining accent on a Latin letter, a literal
 * "\n" between sentences, and the bidirectional controls around a line. Each is read as the plain
 * text; every character of the result knows where it stood in the original, so what is found is
 * marked where it was written. docs/taint-policy.md, "Principles", 3.
 */
import { actsBy } from './action-verbs.js';

export interface CanonicalText {
  text: string;
  /** The offset in the original of an offset in `text` (its length maps to the original's). */
  at(i: number): number;
}

/**
 * The pieces read otherwise: letters spaced out one by one, format characters (zero-width, soft hyphen, bidirectional controls),
 * combining marks, fullwidth forms and ligatures, mathematical letters, inline markup tags, HTML
 * entities, Markdown emphasis and code marks, and escaped line breaks and tabs.
 */
const SPECIAL =
  /(?<![\p{L}\p{N}])\p{L}(?: \p{L}){2,}(?![\p{L}\p{N}])|(?<=^|[^\p{L}\p{N} ]| {2})\p{L} \p{L}(?=[^\p{L}\p{N} ]| {2}|$)|\p{Cf}|\p{M}+|[\uFF01-\uFF5E\uFB00-\uFB06]|[\u{1D400}-\u{1D7FF}]|<\/?(?:b|i|u|em|strong|span|mark|font|small|big|sub|sup|s|del|ins|code|a)\b[^<>]{0,200}>|&(?:#\d{1,7}|#x[0-9a-f]{1,6}|amp|lt|gt|quot|apos|nbsp);|\*\*|__|~~|`|\\[ntr]/giu;

/** Cyrillic and Greek letters that look like Latin ones, by the Latin letter they pass for. */
const CONFUSABLE: Readonly<Record<string, string>> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  І: 'I',
  Ј: 'J',
  Ѕ: 'S',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  τ: 't',
  ι: 'i',
  κ: 'k',
  υ: 'u',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};
const CONFUSABLES = new RegExp(`[${Object.keys(CONFUSABLE).join('')}]`, 'u');
/** A word that mixes Latin letters with look-alikes of another script. */
const MIXED_WORD = /\p{L}+/gu;

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** What one special piece reads as (undefined: nothing); `before` is the character written before it. */
function readAs(piece: string, before: string): string | undefined {
  const c = piece.codePointAt(0)!;
  // Letters spaced out one by one ("D e l e t e") are the word; two of them ("a t") only between
  // wider gaps, as spaced-out words stand ("J K Rowling" is two initials).
  if (/^\p{L}(?: \p{L})+$/u.test(piece)) return spacedWord(piece.replace(/ /g, ''));
  if (/^\p{Cf}$/u.test(piece)) return undefined;
  if (/^\p{M}/u.test(piece)) return /[A-Za-z]/.test(before) ? undefined : piece;
  if ((c >= 0xff01 && c <= 0xff5e) || (c >= 0xfb00 && c <= 0xfb06) || (c >= 0x1d400 && c <= 0x1d7ff)) return piece.normalize('NFKC');
  if (piece.startsWith('<')) return undefined;
  if (piece.startsWith('&')) {
    const name = piece.slice(1, -1).toLowerCase();
    if (name in ENTITIES) return ENTITIES[name];
    const code = name.startsWith('#x') ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : piece;
  }
  if (piece.startsWith('\\')) return piece === '\\n' ? '\n' : ' ';
  return undefined;
}

/**
 * A spaced-out word joined. A one-letter word after it, spaced as its letters are, joins it too
 * ("C r e a t e a 1 hour event" reads "Createa"): where the letters make no verb of an action but
 * all of them save a last "a" or "I" do (action-verbs.ts), they are the verb and that word, as the
 * model reads them.
 */
function spacedWord(word: string): string {
  const m = /^(\p{L}{3,})([aAI])$/u.exec(word);
  if (!m || actsBy(word) || !actsBy(m[1])) return word;
  return `${m[1]} ${m[2]}`;
}

/** Each word that mixes Latin letters with look-alikes of another script, in Latin letters (one for one: offsets hold). */
function unconfuse(text: string): string {
  return text.replace(MIXED_WORD, (w) =>
    /[A-Za-z]/.test(w) && CONFUSABLES.test(w) ? [...w].map((ch) => CONFUSABLE[ch] ?? ch).join('') : w,
  );
}

/** The text as the model reads it, without the way back (for comparing values and texts: content-links.ts). */
export function canonicalString(original: string): string {
  return read(original, undefined);
}

/** The text as the model reads it, with the way back to the original's offsets. */
export function canonicalText(original: string): CanonicalText {
  const map: number[] = [];
  const text = read(original, map);
  if (text === original) return { text, at: (i) => i };
  return { text, at: (i) => (i < map.length ? map[i] : original.length) };
}

/**
 * One reading of `original`; with `map`, each character of the result gets the offset it stood at
 * (left empty when nothing is read otherwise: the result is then `original` itself).
 */
function read(original: string, map: number[] | undefined): string {
  SPECIAL.lastIndex = 0;
  let m = SPECIAL.exec(original);
  const mixed = CONFUSABLES.test(original);
  if (!m && !mixed) return original;
  let text = '';
  let from = 0;
  const copy = (to: number) => {
    if (map) for (let i = from; i < to; i++) map.push(i);
    text += original.slice(from, to);
  };
  for (; m; m = SPECIAL.exec(original)) {
    copy(m.index);
    const as = readAs(m[0], original[m.index - 1] ?? '');
    if (as !== undefined) {
      text += as;
      if (map) for (let k = 0; k < as.length; k++) map.push(m.index);
    }
    from = m.index + m[0].length;
  }
  copy(original.length);
  return mixed ? unconfuse(text) : text;
}
