/**
 * A record's field carried to the field of the call that has its purpose (docs/taint-policy.md,
 * "Onward instructions"): a shipment's `delivery_instructions` from the applicant's own
 * `delivery_notes`, a work order's `access_notes` from the tenant's `access_notes`. The value moves,
 * whole or reworded, from a key to an argument whose names share a word, so it says to its next
 * reader what it said in the record ("ring the bell twice"); an order quoted into other prose is
 * still carried on.
 */
import { normalizeText } from '../content-links.js';
import { words } from '../lexicon.js';

const MAX_DEPTH = 8;
const MAX_FIELDS = 5_000;

/** Words any text field is named with (`body`, `notes`): sharing one says nothing of a field's purpose. */
const GENERIC = new Set(
  'body text message messages content contents note notes comment comments description details summary subject title info information remarks instructions data value values reply'.split(
    ' ',
  ),
);

/** A run of this many words in common makes a field's text the argument's. */
const RUN = 4;

/** Whether `value` takes a run of words from a field of `record` whose key shares a word of four letters or more with `argument`. */
export function carriedToItsField(record: unknown, argument: string, value: string): boolean {
  const own = new Set(words(argument).filter((w) => w.length >= 4 && !GENERIC.has(w)));
  const v = runsOf(value);
  if (own.size === 0 || v.size === 0) return false;
  let seen = 0;
  const walk = (x: unknown, depth: number): boolean => {
    if (x === null || typeof x !== 'object' || depth > MAX_DEPTH) return false;
    for (const [key, field] of Object.entries(x as Record<string, unknown>)) {
      if (++seen > MAX_FIELDS) return false;
      if (typeof field === 'string') {
        if (words(key).some((w) => own.has(w)) && [...runsOf(field)].some((r) => v.has(r))) return true;
      } else if (walk(field, depth + 1)) return true;
    }
    return false;
  };
  return walk(record, 0);
}

/** The runs of RUN words of a text, normalised (a text of fewer words is one run). */
function runsOf(text: string): Set<string> {
  const ws = normalizeText(text.slice(0, 20_000)).split(' ').filter(Boolean);
  const out = new Set<string>();
  for (let i = 0; i + RUN <= ws.length; i++) out.add(ws.slice(i, i + RUN).join(' '));
  if (ws.length > 0 && ws.length < RUN) out.add(ws.join(' '));
  return out;
}
