/**
 * Nouns matched by stem and case ending, for the languages that decline them (czech.ts, polish.ts,
 * croatian.ts): "faktura", "fakturu", "fakturou" are the stem "faktur" with an ending the language
 * lists. A word is every stem it may be, so a noun is found in any case.
 */
import type { ObjectKind } from './lexicon.js';

export class DeclinedNouns {
  private readonly kinds = new Map<string, ObjectKind[]>();

  /** `stems`: the stems of each object kind, separated by spaces; `endings`: the case endings, "" among them; `longest`: letters of ending at most. */
  constructor(
    stems: Partial<Record<ObjectKind, string>>,
    private readonly endings: ReadonlySet<string>,
    private readonly longest: number,
    norm: (stem: string) => string = (s) => s,
  ) {
    for (const [k, list] of Object.entries(stems) as [ObjectKind, string][])
      for (const s of list.split(' ').map(norm)) this.kinds.set(s, [...(this.kinds.get(s) ?? []), k]);
  }

  /** The stems a folded word may be, with the ending after each. */
  stemsOf(w: string): string[] {
    const out: string[] = [];
    for (let n = 0; n <= this.longest && n < w.length - 1; n++)
      if (this.endings.has(w.slice(w.length - n))) out.push(w.slice(0, w.length - n));
    return out;
  }

  /** The object kinds the nouns among the first 64 words name, in any case. */
  objects(ws: readonly string[]): Set<ObjectKind> {
    const out = new Set<ObjectKind>();
    for (const w of ws.slice(0, 64)) for (const s of this.stemsOf(w)) for (const k of this.kinds.get(s) ?? []) out.add(k);
    return out;
  }
}
