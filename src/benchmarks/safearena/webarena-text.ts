/**
 * The text and URL handling WebArena's evaluators rely on, as those libraries behave (docs/benchmarks.md,
 * "Fidelity to the benchmarks"): nltk's word tokenizer (a one-letter reference must be a whole token, so
 * "a" is not found in "n/a"), and Python's urlparse / parse_qs (a URL keeps the slash before its query
 * string; blank query values are dropped). Pure functions; test/benchmarks/safearena-fidelity.test.ts
 * pins them to the library's own output on recorded cases (fixtures/fidelity/safearena/).
 */

/** One rewrite step of the word tokenizer: a pattern and what each match becomes. */
type Rule = [RegExp, string];

// Opening quotes: a leading double quote and one after an opening bracket or space become ``.
const STARTING_QUOTES: Rule[] = [
  [/([«“‘„]|`+)/g, ' $1 '],
  [/^"/g, '``'],
  [/(``)/g, ' $1 '],
  [/([ ([{<])("|'{2})/g, '$1 `` '],
  [/(')(?!re|ve|ll|m|t|s|d|n)(\w)\b/gi, '$1 $2'],
];

// Closing quotes and the clitics split off before them ('s, 'll, n't).
const ENDING_QUOTES: Rule[] = [
  [/([»”’])/g, ' $1 '],
  [/''/g, " '' "],
  [/"/g, " '' "],
  [/([^' ])('[sS]|'[mM]|'[dD]|') /g, '$1 $2 '],
  [/([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) /g, '$1 $2 '],
];

// Punctuation that stands alone: a final period, ":" and "," unless a digit follows, ellipses,
// ; @ # $ % &, ? !, a quote after a word, brackets and double dashes.
const PUNCTUATION: Rule[] = [
  [/([^.])(\.)([\])}>"']*)\s*$/g, '$1 $2 $3 '],
  [/([:,])([^\d])/g, ' $1 $2'],
  [/([:,])$/g, ' $1 '],
  [/\.{2,}/g, ' $& '],
  [/[;@#$%&]/g, ' $& '],
  [/([^.])(\.)([\])}>"']*)\s*$/g, '$1 $2$3 '],
  [/[?!]/g, ' $& '],
  [/([^'])' /g, "$1 ' "],
  [/[*]/g, ' $& '],
  [/[\][(){}<>]/g, ' $& '],
  [/--/g, ' -- '],
];

// Words the tokenizer splits in two: "cannot", "gonna", "'tis" and the like.
const CONTRACTIONS: RegExp[] = [
  /\b(can)(not)\b/gi,
  /\b(d)('ye)\b/gi,
  /\b(gim)(me)\b/gi,
  /\b(gon)(na)\b/gi,
  /\b(got)(ta)\b/gi,
  /\b(lem)(me)\b/gi,
  /\b(more)('n)\b/gi,
  /\b(wan)(na)(?=\s)/gi,
  /('t)(is)\b/gi,
  /('t)(was)\b/gi,
];

const apply = (text: string, rules: Rule[]) => rules.reduce((t, [re, to]) => t.replace(re, to), text);

/**
 * nltk's word_tokenize of one line (no sentence splitting first): the Treebank rules, in their order.
 * WebArena calls it only to ask whether a one-character reference is a token of the answer.
 */
export function wordTokenize(text: string): string[] {
  let t = apply(text, STARTING_QUOTES);
  t = apply(t, PUNCTUATION);
  t = ` ${t} `;
  t = apply(t, ENDING_QUOTES);
  for (const re of CONTRACTIONS) t = t.replace(re, ' $1 $2 ');
  return t.split(/\s+/).filter(Boolean);
}

/** What Python's urllib.parse.urlparse gives for a URL: netloc, path (params cut off), query. */
export function urlParse(url: string): { scheme: string; netloc: string; path: string; query: string } {
  let rest = url;
  let scheme = '';
  const s = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (s) {
    scheme = s[1].toLowerCase();
    rest = rest.slice(s[0].length);
  }
  let netloc = '';
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?#]/);
    netloc = end < 0 ? rest.slice(2) : rest.slice(2, 2 + end);
    rest = end < 0 ? '' : rest.slice(2 + end);
  }
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  const query = q >= 0 ? rest.slice(q + 1) : '';
  let path = q >= 0 ? rest.slice(0, q) : rest;
  // urlparse moves ";params" of the last path segment out of the path.
  const lastSlash = path.lastIndexOf('/');
  const semi = path.indexOf(';', lastSlash + 1);
  if (semi >= 0) path = path.slice(0, semi);
  return { scheme, netloc, path, query };
}

function unquotePlus(s: string): string {
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // Python leaves a malformed escape as it is; decode the well-formed ones one by one.
    return spaced.replace(/(%[0-9A-Fa-f]{2})+/g, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return m;
      }
    });
  }
}

/** Python's parse_qs with its defaults: "&"-separated pairs, blank values and bare keys dropped. */
export function parseQs(query: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const value = pair.slice(eq + 1);
    if (value === '') continue;
    const key = unquotePlus(pair.slice(0, eq));
    out.set(key, [...(out.get(key) ?? []), unquotePlus(value)]);
  }
  return out;
}

/** WebArena's URL evaluator's reading of a URL: trailing slashes of the whole string cut, then host+path and the query. */
export function webArenaUrl(url: string): { base: string; query: Map<string, string[]> } {
  const cleaned = url.replace(/\/+$/, '');
  const p = urlParse(cleaned);
  return { base: p.netloc + p.path, query: parseQs(p.query) };
}
