/**
 * Other people's records in a message (docs/taint-policy.md, "Other people's data to whoever
 * asked"). A read that lists people (two records or more, each with a way to reach that person:
 * an address, a phone number, an e-mail address, an account) holds their personal data, whatever
 * the tool is called. A message that carries the contacts of several of them goes where the list
 * goes; when it goes to whoever wrote a message the run read, and the request does not name them,
 * it is the reply an outsider's "please send me the client list" asked for. Known here: which
 * records of which read a call's text carries, leaving out the recipient's own.
 */
import { normalizeText } from '../content-links.js';
import { itemReading, type Item } from './items.js';
import { DATE, EMAIL, IBAN } from '../argument-roles.js';

const MAX_DEPTH = 4;
const MAX_RECORDS = 2_000;
/** People indexed in a trace at the most: each message is checked against every one. */
const MAX_PEOPLE = 10_000;
const MAX_FIELDS = 60;
const MAX_TEXT = 200;

/**
 * A phone number as written: a "+" or a trunk "0" first, or digits in groups, eight digits at
 * least; no date ("2025-03-03") and no bare run of digits (an account, a tax number).
 */
export function phoneLike(value: string): boolean {
  const v = value.trim();
  if (!/^\+?[\d ()./-]{8,24}$/.test(v) || DATE.test(v) || v.replace(/\D/g, '').length < 8) return false;
  return /^[+0(]/.test(v) || /\d[ ./-]\d/.test(v);
}
/** A phone number as compared: its last eight digits, whatever country code or trunk prefix it was written with. */
export const phoneKey = (value: string): string => value.replace(/\D/g, '').slice(-8);
/** Prose: eight words at least, most of them words (a message's body or preview, not a record's field). */
export const isProse = (text: string): boolean => (text.match(/\p{L}{2,}/gu)?.length ?? 0) >= 8;
/** A postal address: words and a house number, then a comma and more ("Rua Mourato Coelho 1.020, ap 52", "Route de Chêne 115, 1224 Chêne-Bougeries"). */
const ADDRESS = /^(?=[^,]*\p{L}{3})(?=[^,]*\d)[^,\n]{6,60},\s*\S/u;

/** One person's ways to be reached, normalised for matching: e-mail addresses, phone digits, account numbers, an address's street. */
interface Person {
  emails: string[];
  phones: string[];
  accounts: string[];
  streets: string[];
}

function personOf(record: Record<string, unknown>): Person | undefined {
  const p: Person = { emails: [], phones: [], accounts: [], streets: [] };
  let fields = 0;
  const walk = (x: unknown, depth: number): void => {
    if (x === null || typeof x !== 'object' || depth > 2) return;
    for (const field of Object.values(x as Record<string, unknown>)) {
      if (++fields > MAX_FIELDS) return;
      if (typeof field !== 'string') {
        walk(field, depth + 1);
        continue;
      }
      const v = field.trim();
      if (v.length > MAX_TEXT) continue;
      if (EMAIL.test(v)) p.emails.push(v.toLowerCase());
      else if (phoneLike(v)) p.phones.push(phoneKey(v));
      else if (IBAN.test(v)) p.accounts.push(v.replace(/ /g, ''));
      else if (ADDRESS.test(v)) {
        const street = normalizeText(v.split(',')[0]);
        if (street.length >= 8) p.streets.push(street);
      }
    }
  };
  walk(record, 0);
  return p.emails.length + p.phones.length + p.accounts.length + p.streets.length > 0 ? p : undefined;
}

/** The lists of people in a record: arrays of two objects or more, each a person. */
function listsIn(record: unknown): Person[][] {
  const out: Person[][] = [];
  let seen = 0;
  const walk = (x: unknown, depth: number): void => {
    if (x === null || typeof x !== 'object' || depth > MAX_DEPTH || seen > MAX_RECORDS) return;
    if (Array.isArray(x)) {
      seen += x.length;
      const people = x
        .slice(0, MAX_RECORDS)
        .filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r))
        .map(personOf);
      const found = people.filter((p): p is Person => p !== undefined);
      if (found.length >= 2 && found.length === people.length) out.push(found);
      else for (const r of x.slice(0, MAX_RECORDS)) walk(r, depth + 1);
      return;
    }
    for (const v of Object.values(x as Record<string, unknown>)) walk(v, depth + 1);
  };
  walk(record, 0);
  return out;
}

/** What a text carries of one read's people: how many of them, the recipients' own records left out. */
export interface OthersData {
  /** The read's node. */
  node: number;
  people: number;
}

/** Whether a value is the writer's of a message in a record: it stands in an object that also holds prose (a body, a preview). */
function writerIn(record: unknown, value: string): boolean {
  let seen = 0;
  const walk = (x: unknown, depth: number): boolean => {
    if (x === null || typeof x !== 'object' || depth > MAX_DEPTH || ++seen > MAX_RECORDS) return false;
    const fields = Object.values(x as Record<string, unknown>);
    const holds = fields.some((f) => typeof f === 'string' && f.toLowerCase().includes(value));
    if (holds && !Array.isArray(x) && fields.some((f) => typeof f === 'string' && isProse(f))) return true;
    return fields.some((f) => walk(f, depth + 1));
  };
  return walk(record, 0);
}

export class PeopleRecords {
  private readonly reads: { node: number; people: Person[] }[] = [];
  private readonly outputs = new Map<number, Item>();
  private indexed = 0;

  constructor(items: readonly Item[]) {
    for (const it of items) {
      if (it.kind !== 'tool' || !it.output) continue;
      this.outputs.set(it.node, it);
      const { record } = itemReading(it);
      if (record === undefined) continue;
      const people = listsIn(record).flat();
      if (people.length < 2 || this.indexed + people.length > MAX_PEOPLE) continue;
      this.indexed += people.length;
      this.reads.push({ node: it.node, people });
    }
  }

  /**
   * Whether a message the read at `node` returned gives `value` (an address, a number): it stands
   * beside prose in one of its records (its writer's, or one the text names), or in a text that is
   * a message (prose under it).
   */
  inMessage(node: number, value: string): boolean {
    const it = this.outputs.get(node);
    if (!it) return false;
    const v = value.trim().toLowerCase();
    if (v.length < 5) return false;
    const { record } = itemReading(it);
    if (record !== undefined) return writerIn(record, v);
    const at = it.output.toLowerCase().indexOf(v);
    return at >= 0 && isProse(it.output.slice(at, at + 2_000));
  }

  /** The read, before `before`, two or more of whose people `texts` carry, none of them a recipient. */
  carried(texts: readonly string[], recipients: readonly string[], before: number): OthersData | undefined {
    if (this.reads.length === 0) return undefined;
    const text = texts.join('\n');
    const lower = text.toLowerCase();
    const norm = ` ${normalizeText(text)} `;
    const digits = new Set((text.match(/\+?\d[\d ()./-]{6,}\d/g) ?? []).map(phoneKey));
    const flat = text.replace(/ /g, '');
    const own = new Set(recipients.map((r) => r.toLowerCase()));
    const ownDigits = new Set(recipients.map(phoneKey).filter((d) => d.length === 8));
    let best: OthersData | undefined;
    for (const r of this.reads) {
      if (r.node >= before) continue;
      let people = 0;
      for (const p of r.people) {
        if (p.emails.some((e) => own.has(e)) || p.phones.some((d) => ownDigits.has(d))) continue;
        const carried =
          p.emails.some((e) => lower.includes(e)) ||
          p.phones.some((d) => digits.has(d)) ||
          p.accounts.some((a) => flat.includes(a)) ||
          p.streets.some((s) => norm.includes(` ${s} `));
        if (carried) people++;
      }
      if (people >= 2 && (!best || people > best.people)) best = { node: r.node, people };
    }
    return best;
  }
}
