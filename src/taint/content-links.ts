/**
 * Message edges recovered from content: when text one node produced (the root request, an LLM
 * response, a tool result) reappears in a later node's input (a request, tool arguments), the
 * two are linked. Texts are normalised (case, punctuation, JSON escapes, whitespace) into word
 * tokens; long texts are indexed by shingles of K consecutive words, short ones as a whole.
 * A consumer is linked to a producer when it contains at least MIN_SHINGLES of the producer's
 * shingles (a partial quote) or all of a short producer. Shingles are two independent 32-bit
 * polynomial hashes over the tokens, computed from prefix sums, so each window costs O(1).
 *
 * Texts shorter than a shingle (an address, an IBAN, "unit 4B") are found through a positional
 * token index: the needle's rarest token gives the candidate places, and each is checked token by
 * token, so the cost is the rare token's occurrences, not the size of the corpus.
 *
 * Causality is kept by a time bound: a producer only counts for inputs that start after it
 * produced its text.
 */

export interface ContentIndexOptions {
  /** Words per shingle (default 6). */
  k?: number;
  /** Shingles a consumer must share with a long producer to be linked (default 2: 7 words in a row). */
  minShingles?: number;
  /** Shortest text indexed as a whole: fewer words, or fewer letters, is too common to mean anything (default 3 words, 12 characters). */
  minShortWords?: number;
  minShortChars?: number;
}

const B1 = 0x9e3779b1;
const B2 = 0x85ebca77;

export function normalizeTokens(text: string): string[] {
  // JSON escapes (\n, \t, \") inside serialised arguments must not glue letters onto words.
  return text
    .toLowerCase()
    .replace(/\\[nrtbf"\\/]/g, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

export function normalizeText(text: string): string {
  return normalizeTokens(text).join(' ');
}

function tokenHashes(tokens: readonly string[]): { a: Uint32Array; b: Uint32Array } {
  const a = new Uint32Array(tokens.length);
  const b = new Uint32Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    let h1 = 0x811c9dc5;
    let h2 = 5381;
    for (let j = 0; j < t.length; j++) {
      const c = t.charCodeAt(j);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2, 33) ^ c;
    }
    a[i] = h1 >>> 0;
    b[i] = h2 >>> 0;
  }
  return { a, b };
}

/** Prefix hashes of a token sequence: the hash of any window in O(1). */
class Windows {
  readonly length: number;
  private readonly p1: Uint32Array;
  private readonly p2: Uint32Array;

  constructor(tokens: readonly string[]) {
    const { a, b } = tokenHashes(tokens);
    this.length = tokens.length;
    this.p1 = new Uint32Array(tokens.length + 1);
    this.p2 = new Uint32Array(tokens.length + 1);
    for (let i = 0; i < tokens.length; i++) {
      this.p1[i + 1] = (Math.imul(this.p1[i], B1) + a[i]) >>> 0;
      this.p2[i + 1] = (Math.imul(this.p2[i], B2) + b[i]) >>> 0;
    }
  }

  /** A 53-bit key of tokens [i, i+len). */
  key(i: number, len: number, pow: Pow): number {
    const h1 = (this.p1[i + len] - Math.imul(this.p1[i], pow.p1(len))) >>> 0;
    const h2 = (this.p2[i + len] - Math.imul(this.p2[i], pow.p2(len))) >>> 0;
    return (h1 & 0x1fffff) * 4294967296 + h2;
  }
}

class Pow {
  private readonly a: number[] = [1];
  private readonly b: number[] = [1];
  p1(n: number): number {
    while (this.a.length <= n) this.a.push(Math.imul(this.a[this.a.length - 1], B1) >>> 0);
    return this.a[n];
  }
  p2(n: number): number {
    while (this.b.length <= n) this.b.push(Math.imul(this.b[this.b.length - 1], B2) >>> 0);
    return this.b[n];
  }
}

/** How much of a text earlier producers account for (argument provenance). */
export interface Coverage {
  /** Token windows of the text (1 for a text shorter than a shingle). */
  windows: number;
  /** Windows found in some producer. */
  covered: number;
  /** Producer → windows of the text it contains. */
  byProducer: Map<number, number>;
  /** Producer → windows where it is the earliest producer containing them (where the text first appeared). */
  firstSeen: Map<number, number>;
}

export class ContentIndex {
  readonly k: number;
  readonly minShingles: number;
  private readonly minShortWords: number;
  private readonly minShortChars: number;
  private readonly pow = new Pow();
  /** Shingle key → producers containing it, earliest first. */
  private readonly shingles = new Map<number, number[]>();
  /** Short producers: word count → whole-text key → producers. */
  private readonly shortByLength = new Map<number, Map<number, number[]>>();
  private readonly availableAt = new Map<number, number>();
  private readonly shingleCount = new Map<number, number>();
  /** Producer texts as token hashes, for containment of texts shorter than a shingle. */
  private readonly corpus: { node: number; a: Uint32Array; b: Uint32Array }[] = [];
  /** Token hash → places it occurs: corpus entry × 2^32 + token position. */
  private readonly postings = new Map<number, number[]>();

  constructor(opts: ContentIndexOptions = {}) {
    this.k = opts.k ?? 6;
    this.minShingles = opts.minShingles ?? 2;
    this.minShortWords = opts.minShortWords ?? 3;
    this.minShortChars = opts.minShortChars ?? 12;
  }

  get producers(): number {
    return this.availableAt.size;
  }

  /** Registers text that `node` produced, usable by inputs that start at or after `availableAt` (ms). */
  add(node: number, text: string, availableAt: number): void {
    const tokens = normalizeTokens(text);
    if (tokens.length === 0) return;
    const prev = this.availableAt.get(node);
    this.availableAt.set(node, prev === undefined ? availableAt : Math.min(prev, availableAt));
    const hashes = tokenHashes(tokens);
    const entry = this.corpus.length;
    this.corpus.push({ node, ...hashes });
    for (let i = 0; i < tokens.length; i++) {
      const key = (hashes.a[i] & 0x1fffff) * 4294967296 + hashes.b[i];
      const list = this.postings.get(key);
      const place = entry * 4294967296 + i;
      if (list) list.push(place);
      else this.postings.set(key, [place]);
    }
    const w = new Windows(tokens);
    if (tokens.length >= this.k) {
      const seen = new Set<number>();
      for (let i = 0; i + this.k <= tokens.length; i++) {
        const key = w.key(i, this.k, this.pow);
        if (seen.has(key)) continue;
        seen.add(key);
        const list = this.shingles.get(key);
        if (!list) this.shingles.set(key, [node]);
        else if (!list.includes(node)) this.insertByTime(list, node);
      }
      this.shingleCount.set(node, (this.shingleCount.get(node) ?? 0) + seen.size);
      return;
    }
    const chars = tokens.reduce((s, t) => s + t.length, 0);
    if (tokens.length < this.minShortWords || chars < this.minShortChars) return;
    let byKey = this.shortByLength.get(tokens.length);
    if (!byKey) this.shortByLength.set(tokens.length, (byKey = new Map()));
    const key = w.key(0, tokens.length, this.pow);
    const list = byKey.get(key);
    if (!list) byKey.set(key, [node]);
    else if (!list.includes(node)) this.insertByTime(list, node);
  }

  private insertByTime(list: number[], node: number): void {
    const t = this.availableAt.get(node)!;
    let i = list.length;
    while (i > 0 && this.availableAt.get(list[i - 1])! > t) i--;
    list.splice(i, 0, node);
  }

  private usable(node: number, before: number): boolean {
    return this.availableAt.get(node)! <= before;
  }

  /** Producers available by `before` that `text` quotes enough of to be linked, with the windows shared. */
  linked(text: string, before: number): Map<number, number> {
    const tokens = normalizeTokens(text);
    const hits = new Map<number, number>();
    if (tokens.length === 0) return hits;
    const w = new Windows(tokens);
    if (tokens.length >= this.k && this.shingles.size > 0) {
      const counted = new Set<number>();
      for (let i = 0; i + this.k <= tokens.length; i++) {
        const key = w.key(i, this.k, this.pow);
        if (counted.has(key)) continue;
        counted.add(key);
        const list = this.shingles.get(key);
        if (!list) continue;
        for (const p of list) if (this.usable(p, before)) hits.set(p, (hits.get(p) ?? 0) + 1);
      }
      for (const [p, c] of hits) if (c < Math.min(this.minShingles, this.shingleCount.get(p) ?? 1)) hits.delete(p);
    }
    for (const [len, byKey] of this.shortByLength) {
      for (let i = 0; i + len <= tokens.length; i++) {
        const list = byKey.get(w.key(i, len, this.pow));
        if (!list) continue;
        for (const p of list) if (this.usable(p, before) && !hits.has(p)) hits.set(p, 1);
      }
    }
    return hits;
  }

  /**
   * Where the pieces of `text` come from: each K-word window of a long text, or the whole of a
   * short one, looked up in the producers available by `before`.
   */
  coverage(text: string, before: number): Coverage {
    const tokens = normalizeTokens(text);
    const byProducer = new Map<number, number>();
    const firstSeen = new Map<number, number>();
    if (tokens.length === 0) return { windows: 0, covered: 0, byProducer, firstSeen };
    if (tokens.length < this.k) {
      const found = this.containing(tokens, before);
      for (const p of found) byProducer.set(p, 1);
      if (found.length > 0) firstSeen.set(this.earliest(found), 1);
      return { windows: 1, covered: found.length > 0 ? 1 : 0, byProducer, firstSeen };
    }
    const w = new Windows(tokens);
    let covered = 0;
    const windows = tokens.length - this.k + 1;
    for (let i = 0; i < windows; i++) {
      const list = this.shingles.get(w.key(i, this.k, this.pow));
      if (!list) continue;
      let first = -1;
      for (const p of list) {
        if (!this.usable(p, before)) continue;
        byProducer.set(p, (byProducer.get(p) ?? 0) + 1);
        if (first < 0) first = p;
      }
      if (first >= 0) {
        covered++;
        firstSeen.set(first, (firstSeen.get(first) ?? 0) + 1);
      }
    }
    return { windows, covered, byProducer, firstSeen };
  }

  /** Producers available by `before` whose normalised text contains `text` as whole words, earliest first. */
  containingText(text: string, before: number): number[] {
    return this.containing(normalizeTokens(text), before);
  }

  private containing(tokens: readonly string[], before: number): number[] {
    if (tokens.length === 0) return [];
    const { a, b } = tokenHashes(tokens);
    // The rarest token of the needle gives the fewest places to check.
    let rare = -1;
    let places: number[] | undefined;
    for (let j = 0; j < tokens.length; j++) {
      const list = this.postings.get((a[j] & 0x1fffff) * 4294967296 + b[j]);
      if (!list) return [];
      if (!places || list.length < places.length) {
        places = list;
        rare = j;
      }
    }
    const found = new Set<number>();
    for (const place of places!) {
      const entry = Math.floor(place / 4294967296);
      const c = this.corpus[entry];
      if (found.has(c.node) || !this.usable(c.node, before)) continue;
      const start = place - entry * 4294967296 - rare;
      if (start < 0 || start + tokens.length > c.a.length) continue;
      let ok = true;
      for (let j = 0; j < tokens.length && ok; j++) ok = c.a[start + j] === a[j] && c.b[start + j] === b[j];
      if (ok) found.add(c.node);
    }
    return [...found].sort((x, y) => this.availableAt.get(x)! - this.availableAt.get(y)! || x - y);
  }

  private earliest(nodes: readonly number[]): number {
    return nodes.reduce((best, p) => (this.availableAt.get(p)! < this.availableAt.get(best)! ? p : best), nodes[0]);
  }
}
