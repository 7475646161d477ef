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
import { canonicalString } from './canonical.js';

export interface ContentIndexOptions {
  /** Words per shingle (default 6). */
  k?: number;
  /** Shingles a consumer must share with a long producer to be linked (default 2: 7 words in a row). */
  minShingles?: number;
  /** Shortest text indexed as a whole: fewer words, or fewer letters, is too common to mean anything (default 3 words, 12 characters). */
  minShortWords?: number;
  minShortChars?: number;
}

/** Places kept per token (entry and position, so twice the occurrences): lookups stay bounded however common a word is. */
const POSTINGS_CAP = 8192;

/** How many producers of one passage are looked at: beyond this a passage is boilerplate (keeps lookups bounded). */
const COMMON_CAP = 64;

const B1 = 0x9e3779b1;
const B2 = 0x85ebca77;

export function normalizeTokens(text: string): string[] {
  // Read as the model reads it (canonical.ts): a zero-width space or a look-alike letter splits no word.
  // JSON escapes (\n, \t, \") inside serialised arguments must not glue letters onto words.
  return canonicalString(text)
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

  /** The two 32-bit hashes of tokens [i, i+len): the first picks the bucket, the second checks the entry. */
  h1(i: number, len: number, pow: Pow): number {
    return (this.p1[i + len] - Math.imul(this.p1[i], pow.p1(len))) >>> 0;
  }

  h2(i: number, len: number, pow: Pow): number {
    return (this.p2[i + len] - Math.imul(this.p2[i], pow.p2(len))) >>> 0;
  }
}

/**
 * A hash multimap from a passage's hashes to the producers that contain it, earliest first. Keys
 * are the first hash cut to 30 bits (small integers: no boxed numbers, no garbage); each entry
 * keeps the second hash, so two passages that share a bucket are told apart.
 */
class Buckets {
  private readonly map = new Map<number, number[]>();

  get size(): number {
    return this.map.size;
  }

  /** Adds `node` under the passage (h1, h2), keeping each list in time order. */
  add(h1: number, h2: number, node: number, timeOf: (n: number) => number): void {
    const key = h1 & 0x3fffffff;
    const list = this.map.get(key);
    if (!list) {
      this.map.set(key, [h2, node]);
      return;
    }
    // Already there (a text repeats a passage, or a producer is added twice).
    for (let j = list.length - 2; j >= 0 && j >= list.length - 8; j -= 2) if (list[j] === h2 && list[j + 1] === node) return;
    const t = timeOf(node);
    let i = list.length;
    while (i > 0 && timeOf(list[i - 1]) > t) i -= 2;
    if (i === list.length) list.push(h2, node);
    else list.splice(i, 0, h2, node);
  }

  /** The producers of the passage (h1, h2), earliest first, at most `cap` of them. */
  each(h1: number, h2: number, cap: number, visit: (node: number) => void): void {
    const list = this.map.get(h1 & 0x3fffffff);
    if (!list) return;
    let seen = 0;
    for (let j = 0; j < list.length && seen < cap; j += 2) {
      if (list[j] !== h2) continue;
      seen++;
      visit(list[j + 1]);
    }
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
  /** Shingles → producers containing them, earliest first. */
  private readonly shingles = new Buckets();
  /** Short producers, indexed whole: word count → whole-text hashes → producers. */
  private readonly shortByLength = new Map<number, Buckets>();
  private readonly availableAt = new Map<number, number>();
  private readonly shingleCount = new Map<number, number>();
  /** Producer texts as token hashes, for containment of texts shorter than a shingle. */
  private readonly corpus: { node: number; a: Uint32Array; b: Uint32Array }[] = [];
  /** Token → places it occurs: [corpus entry, token position, ...], bucketed by the token's first hash. */
  private readonly postings = new Map<number, number[]>();
  private readonly timeOf = (n: number) => this.availableAt.get(n)!;

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
      const key = hashes.a[i] & 0x3fffffff;
      const list = this.postings.get(key);
      if (!list) this.postings.set(key, [entry, i]);
      else if (list.length < POSTINGS_CAP) list.push(entry, i);
      else if (list.length === POSTINGS_CAP) list.push(-1, -1);
    }
    const w = new Windows(tokens);
    if (tokens.length >= this.k) {
      let count = 0;
      for (let i = 0; i + this.k <= tokens.length; i++, count++)
        this.shingles.add(w.h1(i, this.k, this.pow), w.h2(i, this.k, this.pow), node, this.timeOf);
      this.shingleCount.set(node, (this.shingleCount.get(node) ?? 0) + count);
      return;
    }
    let chars = 0;
    for (const t of tokens) chars += t.length;
    if (tokens.length < this.minShortWords || chars < this.minShortChars) return;
    let byKey = this.shortByLength.get(tokens.length);
    if (!byKey) this.shortByLength.set(tokens.length, (byKey = new Buckets()));
    byKey.add(w.h1(0, tokens.length, this.pow), w.h2(0, tokens.length, this.pow), node, this.timeOf);
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
      for (let i = 0; i + this.k <= tokens.length; i++) {
        // A passage in very many producers is boilerplate, not a quote: only its earliest producers count.
        this.shingles.each(w.h1(i, this.k, this.pow), w.h2(i, this.k, this.pow), COMMON_CAP, (p) => {
          if (this.usable(p, before)) hits.set(p, (hits.get(p) ?? 0) + 1);
        });
      }
      for (const [p, c] of hits) if (c < Math.min(this.minShingles, this.shingleCount.get(p) ?? 1)) hits.delete(p);
    }
    for (const [len, byKey] of this.shortByLength) {
      for (let i = 0; i + len <= tokens.length; i++) {
        byKey.each(w.h1(i, len, this.pow), w.h2(i, len, this.pow), COMMON_CAP, (p) => {
          if (this.usable(p, before) && !hits.has(p)) hits.set(p, 1);
        });
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
      let first = -1;
      this.shingles.each(w.h1(i, this.k, this.pow), w.h2(i, this.k, this.pow), COMMON_CAP, (p) => {
        if (!this.usable(p, before)) return;
        byProducer.set(p, (byProducer.get(p) ?? 0) + 1);
        if (first < 0) first = p;
      });
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
      const list = this.postings.get(a[j] & 0x3fffffff);
      if (!list) return [];
      if (!places || list.length < places.length) {
        places = list;
        rare = j;
      }
    }
    const found = new Set<number>();
    const matchAt = (c: { a: Uint32Array; b: Uint32Array }, start: number) => {
      if (start < 0 || start + tokens.length > c.a.length) return false;
      for (let j = 0; j < tokens.length; j++) if (c.a[start + j] !== a[j] || c.b[start + j] !== b[j]) return false;
      return true;
    };
    // A needle made only of very common words is looked up among its rarest word's first occurrences (the earliest producers).
    for (let x = 0; x < places!.length; x += 2) {
      if (places![x] < 0) break;
      const c = this.corpus[places![x]];
      if (!found.has(c.node) && this.usable(c.node, before) && matchAt(c, places![x + 1] - rare)) found.add(c.node);
    }
    return [...found].sort((x, y) => this.availableAt.get(x)! - this.availableAt.get(y)! || x - y);
  }

  private earliest(nodes: readonly number[]): number {
    return nodes.reduce((best, p) => (this.availableAt.get(p)! < this.availableAt.get(best)! ? p : best), nodes[0]);
  }
}
