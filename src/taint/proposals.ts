/**
 * What an assistant's proposal or plan offers, read the same way in the languages whose readers list
 * each verb by its forms (czech.ts, croatian.ts, polish.ts): the verb after up to three pronouns, a
 * light verb taking its noun's action ("udělat platbu", "napraviti uplatu", "zrobić przelew"), and
 * the proposal written back as the request would ask for it (docs/taint-policy.md, "Agreeing to a
 * proposal"). Each language passes its own tables.
 */
import type { Category } from './lexicon.js';

/** A verb's form as a reader lists it: its action, its infinitive, and which form it is. */
export interface VerbForm<K extends string> {
  category: Category;
  verb: string;
  kind: K;
}

/** A reader's tables for proposals. */
export interface ProposalTables<K extends string> {
  forms: ReadonlyMap<string, VerbForm<K>>;
  /** The first person of each verb, with its infinitive ("pošlu" → "poslat"). */
  first: ReadonlyMap<string, string>;
  /** Verbs that carry no action of their own, with the infinitive and the form. */
  light: ReadonlyMap<string, { verb: string; kind: K }>;
  /** The action a light verb takes from the nouns after it, where one names one. */
  lightCategory(verb: string, after: readonly string[]): Category | undefined;
  pronouns: ReadonlySet<string>;
  /** A word folded, without what is not a letter or a digit. */
  bare(word: string): string;
}

/** A light verb's form with the action its noun names (the six words after it), as a verb's form. */
export function lightFormIn<K extends string>(t: ProposalTables<K>, w: string, after: readonly string[]): VerbForm<K> | undefined {
  const light = t.light.get(w);
  const category = light ? t.lightCategory(light.verb, after.slice(0, 6)) : undefined;
  return light && category ? { category, verb: light.verb, kind: light.kind } : undefined;
}

/**
 * The words of a proposal with its verb (after up to three pronouns) written as the infinitive a
 * request would use, where its form is one of `kinds` ('first': a first person the tables list), or
 * undefined.
 */
export function proposedIn<K extends string>(
  t: ProposalTables<K>,
  words: readonly string[],
  kinds: ReadonlySet<K | 'first'>,
): string | undefined {
  let i = 0;
  while (i < words.length - 1 && i < 3 && t.pronouns.has(t.bare(words[i]))) i++;
  if (i >= words.length) return undefined;
  const w = t.bare(words[i]);
  const say = (verb: string) => [...words.slice(0, i), verb, ...words.slice(i + 1)].join(' ');
  const f = t.forms.get(w) ?? lightFormIn(t, w, words.slice(i + 1).map(t.bare));
  if (f && f.category !== 'read' && kinds.has(f.kind)) return say(f.kind === 'inf' ? words[i] : f.verb);
  const first = kinds.has('first') ? t.first.get(w) : undefined;
  return first ? say(first) : undefined;
}
