/**
 * Which verbs act: the words an order to an agent opens with. Read by the injection detector
 * (injection.ts) and by the reading of spaced-out letters (canonical.ts), so both hear the same verbs.
 */
import { verbCategory } from './lexicon.js';

/** Verbs that fetch from elsewhere: an order to visit a page sends the request out. */
export const FETCH_VERBS = new Set(['visit', 'open', 'click', 'go', 'navigate', 'browse', 'download', 'fetch', 'call']);
/** General verbs that order an action whatever follows them: "make a reservation", "say that", "put it in". */
export const GENERAL_VERBS = new Set(['make', 'say', 'take', 'put', 'keep', 'bring', 'concatenate', 'combine', 'include']);

/** Whether a verb in any form ("deleted", "sending", "pay", "make") names an action: a category other than reading, a fetch, or a general verb. */
export function actsBy(verb: string): boolean {
  const w = verb.toLowerCase();
  const c = verbCategory(w);
  return (c !== undefined && c !== 'read') || FETCH_VERBS.has(w) || GENERAL_VERBS.has(w);
}
