/**
 * A record that redirects where an action goes: it offers two values of one kind, in fields named
 * for one purpose (two IBANs, two billing addresses, two account numbers), and a note beside one of them, in prose, is what sets
 * it apart ("Bank details changed, please use these for all payments going forward", "enviar as
 * faturas APENAS para este endereço", "bitte ausschließlich zahlungsempfaenger_iban_aktuell
 * verwenden"). A call that takes that value took it on the note's word, whichever language the note
 * is in and whether or not it reads as an order: the structure shows the choice (provenance.ts,
 * valueSource). A list of separate entries (contacts, each with a note) offers no second value for
 * one entry: only values outside the entry's own list element count.
 */
import { normalizeText } from './content-links.js';
import { detailsChanged, movesTarget } from './injection.js';
import { DATE, EMAIL } from './argument-roles.js';

/** How deep a record is walked, and how many of its leaves. */
const MAX_DEPTH = 10;
const MAX_LEAVES = 5_000;

interface Leaf {
  key: string;
  value: string;
  /** The value normalised, and its kind (kindOf): read once when the record is walked. */
  norm: string;
  kind: string | undefined;
  /** The objects from the record's root to the one that holds the leaf. */
  path: readonly object[];
  /** The list elements the leaf sits in, as `list index` pairs (entries of a list are separate records). */
  lists: readonly string[];
  /** The field that holds the leaf's object (`datiPagamento` for its `iban`), '' at the root. */
  holderKey: string;
}

/** A prose note: six words or more, four of them lower-case words (a sentence, not "Regents of the University of Michigan"). */
const NOTE = /^(?=(?:.*?(?<![\p{L}\p{N}_])\p{Ll}{2,}(?![\p{L}\p{N}_])){4})\S+(?:\s+\S+){5,}$/su;

/** The kind of a value, for telling two values of one kind: an e-mail address, an IBAN, or a number (an account, a routing or phone number). */
function kindOf(value: string): string | undefined {
  const v = value.trim();
  if (EMAIL.test(v)) return 'email';
  const compact = v.replace(/[\s().-]/g, '');
  if (/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/i.test(compact)) return 'iban';
  if (/^\+?\d{5,20}$/.test(compact) && !DATE.test(v)) return 'number';
  return undefined;
}

/**
 * What sets a value apart from the other of its kind: the other is old, changed, closed or being
 * migrated, this one new or temporary, or the only one to use ("bank details changed", "alte IBAN wird aufgelöst", "o email antigo
 * deixou de ser monitorizado", "APENAS para este endereço", "ausschließlich", "only"), or the note
 * moves the action as "instead" does (injection.ts, movesTarget). "Please send statements here from
 * now on" says when, and sets nothing apart: a delivery address of the record's own.
 */
const APART = new RegExp(
  [
    String.raw`old|previous|former|outdated|changed|closed|closing|no longer|only|exclusively|new|migrat\w*|moved|replaced|replaces|superseded|temporar\w*|until further notice`,
    String.raw`neue[nrs]?|ersetzt|vorübergehend|bis auf weiteres|nov[oa]s?|nuev[oa]s?|nuov[oa]|nouve(?:au|lle)s?|nouvel|nieuwe?|now[aey]`,
    String.raw`substitu\w*|remplac\w*|vervangen|tempor[aá]ri[oa]|temporaire|tijdelijk|até novo aviso|hasta nuevo aviso|fino a nuovo avviso|jusqu['’]à nouvel ordre`,
    String.raw`alte[nrs]?|bisherige[nrs]?|geändert|geaendert|aufgelöst|aufgeloest|gekündigt|ausschließlich|ausschliesslich|nur noch`,
    String.raw`antig[oa]s?|anterior(?:es)?|alterad[oa]s?|mudou|encerrad[oa]|apenas|somente|só|exclusivamente`,
    String.raw`cambiad[oa]s?|cerrad[oa]|solo|sólo|solamente|únicamente|unicamente`,
    String.raw`vecchi[oa]|precedente|cambiat[oa]|chius[oa]|soltanto|esclusivamente`,
    String.raw`ancien(?:ne)?s?|précédent|changé|modifié|clôturé|fermé|uniquement|seulement|exclusivement`,
    String.raw`oude?|vorige|gewijzigd|veranderd|opgeheven|alleen|uitsluitend`,
    String.raw`star[aey]|starego|dawn[aey]|zmienion[aey]|zamknięt[aey]|wyłącznie|tylko`,
    String.raw`nov[iaou]|novog|star[iaou]|starog|isključivo|iskljucivo|zatvoren[aoi]?|promijenjen[aoi]?|promenjen[aoi]?|ugašen[aoi]?`,
    String.raw`új|uj|régi|regi|kizárólag|kizarolag|csak|megszűnt|megszunt|lezárva|lezarva`,
    String.raw`nou|noul|nouă|noua|noi|noile|vechi|vechiul|doar|numai|exclusiv|închis[ăa]?|inchis[ăa]?|schimbat[ăa]?`,
  ].join('|'),
  'iu',
);
const APART_WORD = new RegExp(`(?<![\\p{L}\\p{N}])(?:${APART.source})(?![\\p{L}\\p{N}])`, 'iu');
const setsApart = (note: string): boolean => APART_WORD.test(note) || movesTarget(note);

/** The words of a field's name (`zahlungsempfaenger_iban_aktuell`, `overrideEmail`), lower-case. */
const keyWords = (key: string): string[] =>
  key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3);
/** Whether two fields are named for one purpose: their names share a word (`iban`, `email`, `account`). */
const samePurpose = (a: string, b: string) => keyWords(a).some((w) => keyWords(b).includes(w));

/** The leaves of each record, walked once however many values are looked up in it. */
const LEAVES = new WeakMap<object, Leaf[]>();

function leavesOf(record: unknown): Leaf[] {
  const out: Leaf[] = [];
  const walk = (x: unknown, key: string, path: object[], lists: string[], holderKey: string, depth: number): void => {
    if (depth > MAX_DEPTH || out.length >= MAX_LEAVES || x === null || x === undefined) return;
    // A number in a record is a quantity (an amount, a count); accounts and phones are written as text.
    if (typeof x === 'string') {
      out.push({ key, value: x, norm: normalizeText(x), kind: kindOf(x), path, lists, holderKey });
      return;
    }
    if (Array.isArray(x)) {
      x.forEach((e, i) => walk(e, key, path, [...lists, `${path.length}:${i}`], holderKey, depth + 1));
      return;
    }
    if (typeof x === 'object') for (const [k, v] of Object.entries(x)) walk(v, k, [...path, x], lists, key, depth + 1);
  };
  walk(record, '', [], [], '', 0);
  return out;
}

/** Whether two leaves belong to one entry: no list separates them. */
const sameEntry = (a: Leaf, b: Leaf) => a.lists.every((l, i) => b.lists[i] === undefined || b.lists[i] === l) || b.lists.length === 0;

/**
 * The note that chose `value` in `record`, or undefined: the record holds another value of its
 * kind in the same entry, and a note of prose sits in the same nested object as `value`, names
 * its field ("… zahlungsempfaenger_iban_aktuell verwenden"), or sits above it and names the object
 * that holds it ("… sull'IBAN indicato in datiPagamento"); or the record holds no other, and a note
 * in the value's own nested object says the account or card on file is gone (injection.ts, detailsChanged).
 */
export function redirectingNote(record: unknown, value: string): string | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  const kind = kindOf(value);
  if (kind === undefined) return undefined;
  const n = normalizeText(value);
  let all = LEAVES.get(record);
  if (!all) LEAVES.set(record, (all = leavesOf(record)));
  for (const used of all.filter((l) => l.norm === n)) {
    const others = all.filter((l) => l !== used && l.norm !== n && l.kind === kind && samePurpose(l.key, used.key) && sameEntry(used, l));
    const holder = used.path[used.path.length - 1];
    const aNote = (l: Leaf) => l !== used && l.value.length <= 2_000 && NOTE.test(l.value) && sameEntry(used, l);
    if (others.length === 0) {
      // No other value of its kind, but a note beside it in its own nested object, or its own entry of
      // a list (a chat message beside its sender's number), says the account, card or phone on file is
      // gone ("Card ending 4417 was cancelled after fraud. Any refund … must go to this account").
      const own = used.path.length >= 2 || used.lists.length > 0;
      const gone = own ? all.find((l) => aNote(l) && l.path[l.path.length - 1] === holder && detailsChanged(l.value)) : undefined;
      if (gone) return gone.value.slice(0, 160);
      continue;
    }
    // The holder is a nested object of its own, the other value outside it (the details on file
    // beside the update), or the note names the field.
    const nested = used.path.length >= 2 && others.some((o) => o.path[o.path.length - 1] !== holder);
    const key = used.key.length >= 6 ? used.key.toLowerCase() : undefined;
    // A note higher up may name the object that holds the value ("… sull'IBAN indicato in datiPagamento").
    const holderKey = nested && used.holderKey.length >= 6 ? used.holderKey.toLowerCase() : undefined;
    const names = (text: string, k: string | undefined) => k !== undefined && text.toLowerCase().includes(k);
    const note = all.find(
      (l) =>
        aNote(l) &&
        setsApart(l.value) &&
        ((nested && l.path[l.path.length - 1] === holder) ||
          names(l.value, key) ||
          (used.path.includes(l.path[l.path.length - 1]) && names(l.value, holderKey))),
    );
    if (note) return note.value.slice(0, 160);
  }
  return undefined;
}
