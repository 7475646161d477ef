/**
 * Provenance of values (docs/taint-policy.md, "Principles"): where a sink argument's value came
 * from, and whether that source may supply it. The request is the only authority; data read from
 * tools may supply a value the request selects, never one the data itself asks for:
 *
 *   - a value the request names is the request's;
 *   - a value inside a passage that asks its reader to act (an instruction in data) is the
 *     instruction's, wherever else it also appears;
 *   - so is a value in the block around such a passage (its paragraph or field) when the call does
 *     what the instruction asks (a transfer for "pay …"): the decision is the instruction's,
 *     whichever field the value was selected from;
 *   - a value that is a whole structured field of a tool result (a list entry, a field of a
 *     record, a cell of a row: a channel from the channel list, the sender of a message, an IBAN
 *     on its own `IBAN: ...` line) may be selected, when the read itself was not steered by an
 *     instruction;
 *   - a value inside free text (a message body, a file, a web page) may be taken only from a read
 *     the request itself points to (its argument is named in the request, or was taken from the
 *     free text of a read the request points to), and never from the instruction passages in it
 *     (above);
 *   - anything else from a tool result is untrusted.
 *
 * Ids and paths are values like any other. Pure functions over the texts; the trace graph passes
 * the items in.
 */
import { parse as parseYaml } from 'yaml';
import { normalizeText } from './content-links.js';
import { flattenArguments, hostOf } from './classify.js';
import { movesTarget } from './injection.js';
import { redirectingNote } from './redirect.js';
import { writersOwnContact } from './own-contact.js';
import { dateNamedIn } from './dates.js';
import { OUTWARD_MASK, bitOf } from './labels.js';

/** A tool result as provenance sees it. */
export interface ProducedText {
  output: string;
  /** The record `output` prints, parsed (reading.ts), when it prints one: its leaves are its structured fields. */
  record?: unknown;
  args?: Record<string, unknown>;
  /** The normalised injected (instruction) passages of the output, when it has any. */
  instructions?: string;
  /** The same passages as written. */
  passages?: string;
  /** Each instruction passage's block (instruction-reach.ts), normalised, with the hard sinks its order asks for. */
  reaches?: readonly { text: string; asks: number; explicit: boolean; moves?: boolean; record?: string; keyed?: readonly string[] }[];
  /** A policy `directories:` tool: its records may be selected without the request pointing at the read. */
  directory?: boolean;
  /** When the read was made (ms): instructions seen before then can have steered it. */
  at?: number;
  /** The result of a call whose targets an instruction in data chose: all of it is the instruction's. */
  madeOnInstruction?: boolean;
  /** Opened from an entry of a listing that carries a name the request gives ("answer Mr. Harris" opens his message): the request points at it. */
  openedFromEntry?: boolean;
  /** The arguments given one of the values their schema offers (`purpose: delivery` of `enum: [delivery, collection]`), normalised: the tool's own words, not a pointer into data. */
  choices?: ReadonlySet<string>;
}

export type ValueSource =
  | { kind: 'request' }
  /** `call`: found in the result of a call an instruction's targets were given to (ProducedText.madeOnInstruction). */
  | { kind: 'instruction'; at: number; call?: true }
  | { kind: 'instructed'; at: number; asks: number }
  | { kind: 'structured'; at: number }
  /** A record offered another value of its kind, and a note beside this one set it apart (redirect.ts). */
  | { kind: 'redirected'; at: number; note: string }
  | { kind: 'pointed'; at: number; handed?: true }
  /** `steered`: the read it first appears in was itself made on an instruction's word (one of its arguments came from one). */
  | { kind: 'free-text'; at: number; steered?: true }
  | { kind: 'unseen' };

/** Whether normalised `needle` stands in normalised `haystack` as whole words. */
export const within = (haystack: string, needle: string) => needle !== '' && ` ${haystack} `.includes(` ${needle} `);

const FIELDS = new WeakMap<object, Set<string>>();
/** A token that names one thing: a code with a digit in it ("G-201", "O-7781", "2A"), an e-mail address. */
const ID_SHAPED = /^(?=[^\s]*\d)[A-Za-z0-9][\w.+/-]*$|^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/;
const MAX_PARSE = 200_000;

function leaves(x: unknown, out: Set<string>, depth = 0): void {
  if (depth > 12 || out.size > 20_000) return;
  if (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') {
    const n = normalizeText(String(x));
    if (n) out.add(n);
    return;
  }
  if (Array.isArray(x)) {
    for (const v of x) leaves(v, out, depth + 1);
    return;
  }
  if (x && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) {
      const nk = normalizeText(k);
      if (nk) out.add(nk);
      leaves(v, out, depth + 1);
    }
  }
}

function parsed(text: string): unknown {
  const t = text.trim();
  if (t.length > MAX_PARSE) return undefined;
  try {
    return t.startsWith('{') || t.startsWith('[') ? JSON.parse(t) : parseYaml(t, { logLevel: 'silent' });
  } catch {
    return undefined;
  }
}

/**
 * The structured fields of a tool result, normalised: the leaves and keys of a JSON or YAML
 * record or list, and the lines of a text (a line on its own, or the value of a `Label: value`
 * line). A value inside a sentence is not a field.
 */
export function structuredFields(p: ProducedText): Set<string> {
  let out = FIELDS.get(p);
  if (out) return out;
  out = new Set<string>();
  const doc = p.record !== undefined ? p.record : parsed(p.output);
  if (doc !== null && typeof doc === 'object') leaves(doc, out);
  for (const line of p.output.split('\n').slice(0, 5000)) {
    const l = line.trim().replace(/^[-*•]\s+/, '');
    if (!l || l.length > 200) continue;
    const colon = /^[^:]{1,40}:\s+(\S.*)$/.exec(l);
    if (colon) out.add(normalizeText(colon[1]));
    if (l.split(/\s+/).length <= 8) out.add(normalizeText(l));
    // A short line of a list is a record: its id-shaped tokens (codes with digits, addresses) are its fields.
    if (l.split(/\s+/).length <= 8)
      for (const tok of l.split(/[\s<>()[\];,]+/)) if (ID_SHAPED.test(tok.replace(/[.:]+$/, ''))) out.add(normalizeText(tok));
    // A record on one line: cells between separators ("Ines Duarte — ines@x.example — plants", a table row).
    for (const cell of l.split(/\s+[—–|]\s+|\t+|\s*\|\s*/)) if (cell !== l && cell.split(/\s+/).length <= 8) out.add(normalizeText(cell));
    // A row of a table aligned with spaces ("Mo 18.11.  08:00  Bühne 2  T-4425  Fischer, Bernd"): three cells or more.
    // Not text spaced out letter by letter ("V i s i t   w w w . …"), whose words are what double spaces part.
    const aligned = l.split(/ {2,}/);
    if (aligned.length >= 3 && !aligned.some((cell) => /^(?:\S ){2,}\S$/.test(cell)))
      for (const cell of aligned) if (cell.split(/\s+/).length <= 8) out.add(normalizeText(cell));
  }
  FIELDS.set(p, out);
  return out;
}

/** Whether the request names the value (a bare number of one to three digits is not a name: "13" in "June 13"). */
export function namedInRequest(request: string, value: string): boolean {
  const n = normalizeText(value);
  if (n === '' || /^\d{1,3}$/.test(n)) return false;
  if (within(normalizeText(request), n) || codeInText(request, value)) return true;
  // A name written with its article ("Les Glycines", "The Old Mill") is named without it ("aux Glycines", "at Old Mill").
  const bare = ARTICLE.exec(n);
  return bare !== null && n.length - bare[0].length >= 4 && within(normalizeText(request), n.slice(bare[0].length));
}
const ARTICLE = /^(?:the|le|la|les|l'|el|los|las|lo|o|a|os|as|der|die|das|den|dem)\s+/;

/**
 * Whether the request writes a small number (one to three digits, named nowhere else as a code)
 * right after the argument's own name: "lot 9" for `lot`, "room 511" for `room_number`, "table no. 12".
 */
export function numberNamedFor(request: string, argument: string, value: string): boolean {
  if (!/^\d{1,3}$/.test(value.trim())) return false;
  const names = argument
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3 && !NUMBER_WORDS.has(w));
  return names.some((w) => new RegExp(`\\b${w}s?\\s+(?:n[°o.º]?\\s*|#\\s*)?${value.trim()}\\b`, 'i').test(request.slice(0, 20_000)));
}
const NUMBER_WORDS = new Set(['number', 'num', 'nro', 'numero', 'nummer', 'id']);

/**
 * Whether `text` writes the code `value` (a phone number, an IBAN, a card number: six or more
 * letters and digits, four of them digits) with other separators: "07700 900655" names
 * 07700900655, "GB33 BUKB 2020 1555" names GB33BUKB20201555, "315 208 7741" names +573152087741
 * (its country code left off) and "091 554 2310" +385915542310 (a trunk 0 in its place). Runs of upper-case or digit tokens are compared without their
 * spaces, dashes, dots and brackets.
 */
function codeInText(text: string, value: string): boolean {
  const code = compactCode(value);
  if (!/^\+?[a-z0-9]{6,40}$/.test(code) || (code.match(/\d/g)?.length ?? 0) < 4) return false;
  const codes = codesOf(text);
  if (codes.has(code) || codes.has(code.replace(/^\+/, ''))) return true;
  // An international number names the national one it ends with: +57 315 208 7741 is "315 208 7741",
  // and +385 91 554 2310 is "091 554 2310" (a trunk 0 where the country code was).
  const digits = /^\+\d{10,15}$/.test(code) ? code.slice(1) : undefined;
  return (
    digits !== undefined &&
    [1, 2, 3].some((k) => digits.length - k >= 7 && (codes.has(digits.slice(k)) || codes.has(`0${digits.slice(k)}`)))
  );
}

/** The codes a text writes with separators, every run of adjacent tokens joined (the last few texts kept: a trace asks of one request). */
function codesOf(text: string): Set<string> {
  let out = CODES.get(text);
  if (out) return out;
  out = new Set<string>();
  for (const run of text.slice(0, 20_000).matchAll(CODE_RUN)) {
    const tokens = run[0].split(/[\s.()-]+/).filter(Boolean);
    for (let i = 0; i < tokens.length; i++) {
      let joined = tokens[i].toLowerCase().replace(/^\+/, '');
      for (let j = i + 1; j < tokens.length && joined.length < 40; j++) out.add((joined += tokens[j].toLowerCase()));
    }
  }
  if (CODES.size >= 16) CODES.delete(CODES.keys().next().value!);
  CODES.set(text, out);
  return out;
}

const CODES = new Map<string, Set<string>>();
const compactCode = (v: string) =>
  v
    .trim()
    .toLowerCase()
    .replace(/[\s.()-]+/g, '');
/** Tokens of digits or capitals (with a leading + or bracket) joined by single separators. */
const CODE_RUN = /\+?\(?[A-Z0-9]+\)?(?:[ .-]\(?[A-Z0-9]+\)?)+/g;

/** The read's argument values, normalised (the pointers it was made with). */
function pointers(p: Pick<ProducedText, 'args'>): string[] {
  return flattenArguments(p.args ?? {})
    .map((a) => normalizeText(a.value))
    .filter((v) => v !== '');
}

export interface ProvenanceContext {
  request: string;
  /** The hard sinks the request asks for (default none). */
  needs?: number;
  /** The tool results before the call whose text holds `value` as whole words, earliest first. */
  containing(value: string): readonly { node: number; text: ProducedText }[];
  /** Whether the request leaves values to what the data it points to asks for (intent.ts, defersValues). */
  defers?: () => boolean;
  /** Whether an instruction passage in data seen before `before` (ms; default: the call) holds `value`. */
  inInstructions(value: string, before?: number): boolean;
}

/**
 * Whether a read was steered by an instruction in data: one of its arguments appears in such a
 * passage seen before the read (the request naming the same word does not clear it: an
 * instruction that repeats the request's city still chose to look there), or was taken only from
 * reads that were themselves steered (the prices of the hotels an instruction had listed).
 */
function steered(ctx: ProvenanceContext, p: ProducedText, depth = 0): boolean {
  return pointers(p).some((v) => {
    if (v.length < 3 || p.choices?.has(v)) return false;
    if (ctx.inInstructions(v, p.at)) return true;
    if (depth >= 3 || namedInRequest(ctx.request, v)) return false;
    const earlier = ctx.containing(v).filter((q) => q.text !== p && (q.text.at ?? -Infinity) < (p.at ?? Infinity));
    return earlier.length > 0 && earlier.every((q) => !q.text.directory && steered(ctx, q.text, depth + 1));
  });
}

/** Whether the request points at the read: one of its arguments is named in the request. */
function pointedByRequest(ctx: ProvenanceContext, p: ProducedText): boolean {
  return p.openedFromEntry === true || requestPointsAt(ctx.request, p);
}

/** Whether the request points at the read, directly or through a read it points to. */
const pointedAt = (ctx: ProvenanceContext, p: ProducedText) => pointedByRequest(ctx, p) || pointedThrough(ctx, p);

/**
 * Whether the request points at the read through a read it points to: one of its arguments was
 * taken from the free text of such a read, outside any instruction ("you can find details in the
 * message from Bob", whose "her contact info is on www.dora-website.com" leads to the page). Two
 * steps at the most.
 */
function pointedThrough(ctx: ProvenanceContext, p: ProducedText, depth = 0): boolean {
  if (depth >= 2) return false;
  return ledBy(p, (v) => {
    if (ctx.inInstructions(v, p.at)) return false;
    return ctx
      .containing(v)
      .some(
        (q) =>
          q.text !== p &&
          (q.text.at ?? -Infinity) < (p.at ?? Infinity) &&
          !steered(ctx, q.text) &&
          (pointedByRequest(ctx, q.text) || pointedThrough(ctx, q.text, depth + 1)),
      );
  });
}

/**
 * Whether a read was made with a value taken from elsewhere: one of its arguments, normalised and
 * of three characters or more, that `lead` accepts as written and `from` finds. The one test of a
 * read led by another, while the graph is built (trace-graph.ts) and while provenance is judged.
 */
export function ledBy(
  read: Pick<ProducedText, 'args'>,
  from: (normalised: string) => boolean,
  lead: (value: string) => boolean = () => true,
): boolean {
  return flattenArguments(read.args ?? {}).some((a) => {
    if (!lead(a.value)) return false;
    const v = normalizeText(a.value);
    return v.length >= 3 && from(v);
  });
}

/**
 * Whether `request` points at a read made with these arguments: one of them is named in it, or is
 * a search of several words each of which the request says ("Midwest Paper pickup" for "Midwest
 * Paper emailed about Thursday's pickup"): the agent searched with the request's own words.
 */
export function requestPointsAt(request: string, read: Pick<ProducedText, 'args'>): boolean {
  const r = normalizeText(request);
  if (flattenArguments(read.args ?? {}).some((a) => siteNamedIn(request, a.value))) return true;
  if (pointers(read).some((v) => v.length >= 3 && within(r, v))) return true;
  if (flattenArguments(read.args ?? {}).some((a) => phoneNamedIn(request, a.value) || dateNamedIn(request, a.value))) return true;
  // A search's field names ("from:Heemstra seed 2026") are the search engine's words, not the
  // request's; a file's folder and extension are the drive's ("Procedures/Return damage.docx" is
  // the "return-damage procedure").
  return flattenArguments(read.args ?? {}).some((a) => {
    const file = FILE_NAME.exec(a.value.trim());
    if (file && normalizeText(file[1]).length >= 3 && within(r, normalizeText(file[1]))) return true;
    // A file named for a code the request names ("BL_Sodimex_BC-2024-0318_scan.pdf" for order BC-2024-0318) is that code's document.
    if (file && file[1].split(/[_\s]+/).some((part) => CODE.test(part) && within(r, normalizeText(part)))) return true;
    return wordsOfRequest(r, normalizeText(a.value.replace(SEARCH_FIELD, ' '))) || firstNameOf(request, a.value);
  });
}

/**
 * Whether a phone number the read was called with is one the request writes, however each writes
 * it: "+353874016682" for "my number's 087 401 6682" (the country code for the trunk 0).
 */
function phoneNamedIn(request: string, value: string): boolean {
  const v = value.trim();
  if (!/^\+?\d[\d\s().-]{6,20}\d$/.test(v)) return false;
  if (v.replace(/\D/g, '').length < 8) return false;
  const forms = new Set(phoneDigitForms(v));
  for (const m of request.slice(0, 4_000).matchAll(/\+?\d[\d\s().-]{6,20}\d/g)) if (forms.has(m[0].replace(/\D/g, ''))) return true;
  return false;
}

/**
 * The digits a phone number may be written with: its own, and, for an international number ("+1 903
 * …", "+44 7700 …"), the national ways ("903-555-0172", "07700 900 873"): its country code of one to
 * three digits dropped, a trunk 0 in its place or none, eight digits left at least.
 */
export function phoneDigitForms(value: string): string[] {
  const d = value.replace(/\D/g, '');
  const national = value.trim().startsWith('+')
    ? [1, 2, 3].filter((k) => d.length - k >= 8).flatMap((k) => [d.slice(k), `0${d.slice(k)}`])
    : [];
  return [d, ...national];
}

/**
 * Whether a value is a person's full name ("Sipho Ndlovu") whose first name the request writes as a
 * name, inside a sentence ("Send Sipho the confirmation …"): the read looks that person up.
 */
function firstNameOf(request: string, value: string): boolean {
  const m = /^(\p{Lu}\p{Ll}{2,})(?:\s+\p{Lu}[\p{Ll}'’-]+){1,2}$/u.exec(value.trim());
  return m !== null && new RegExp(`[\\p{L},;:]\\s+${m[1]}(?![\\p{L}\\p{N}])`, 'u').test(request.slice(0, 20_000));
}
/** A file's name without its folders and extension. */
const FILE_NAME = /(?:^|[/\\])([^/\\]{3,120})\.[a-z0-9]{1,5}$/i;
/** A code: five characters or more, a digit among them, no space. */
const CODE = /^(?=[^\d]*\d)[\w.-]{5,40}$/;

/**
 * Whether a link goes to a site the request names by its name: the label a domain is registered
 * under ("maersk" in www.maersk.com, "bbc" in news.bbc.co.uk) is a word of the request ("Maersk
 * pulled the Seletar … check their advisory"). Four letters at least; the rest of the host is the
 * site's own.
 */
export function siteNamedIn(request: string, value: string): boolean {
  if (!/^(?:https?:\/\/|www\.)/i.test(value.trim())) return false;
  const host = hostOf(value);
  if (!host) return false;
  const label = registeredLabel(host);
  return label.length >= 4 && new RegExp(`(?<![\\p{L}\\p{N}])${label}(?![\\p{L}\\p{N}])`, 'iu').test(request);
}
/**
 * Whether an e-mail address is on the domain of a party the request names: its domain's own label
 * is the party's name written as one word ("Cape Shuttle Co." → `accounts@capeshuttleco.co.za`,
 * "Dune Décor" → `shireen@dunedecor.co.za`). The address is that party's, whoever wrote it down; a
 * look-alike (`capeshuttle-co.com`, `capeshuttleco-billing.com`) is not, and neither is a mailbox
 * anyone can open (`gmail.com`).
 */
export function partyAddressNamedIn(request: string, value: string): boolean {
  const m = /^[\w.+-]+@([\w-]+(?:\.[\w-]+)+)$/.exec(value.trim());
  if (!m) return false;
  const label = registeredLabel(m[1].toLowerCase());
  if (label.length < 5 || !/^[a-z0-9]+$/.test(label) || OPEN_MAILBOXES.has(label)) return false;
  // Runs of one to four capitalised words (a name, "Co." and "&" inside it), each written as one word.
  const names = request.slice(0, 20_000).match(/\p{Lu}[\p{L}\p{M}'’.]*(?:\s+(?:&\s+)?\p{Lu}[\p{L}\p{M}'’.]*){0,3}/gu) ?? [];
  // A run written whole ("capeshuttleco"), or with its leading words as their initials ("hsantalucia" for "Hospital Santa Lúcia").
  const written = (ws: readonly string[]) =>
    [0, ...ws.keys()].some(
      (k) =>
        ws
          .slice(0, k)
          .map((w) => foldName(w)[0] ?? '')
          .join('') +
          foldName(ws.slice(k).join('')) ===
        label,
    );
  return names.some((n) => {
    const ws = n.split(/\s+/).filter((w) => w !== '&');
    for (let i = 0; i < ws.length; i++) for (let j = i + 1; j <= ws.length; j++) if (written(ws.slice(i, j))) return true;
    return false;
  });
}
/**
 * Whether `value` is an address made of the name of a person the request names, as organisations
 * make their staff's ("lucia.romero@…", "tadhg.osuilleabhain@…" for "Tadhg Ó Súilleabháin",
 * "lromero@…", "lucia_romero@…"), or of a first name the request writes in any case ending: the
 * domain, and 'undefined' for any other value or a mailbox anyone can open. Whose domain it is, the
 * caller decides.
 */
export function personAddressNamedIn(request: string, value: string): string | undefined {
  const m = /^([\w.+-]{2,64})@([\w-]+(?:\.[\w-]+)+)$/.exec(value.trim());
  if (!m || OPEN_MAILBOXES.has(registeredLabel(m[2].toLowerCase()))) return undefined;
  const local = m[1].toLowerCase();
  const names = request.slice(0, 20_000).match(/\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){1,3}/gu) ?? [];
  for (const n of names) {
    const ws = n
      .split(/\s+/)
      .map((w) => foldName(w.replace(/['’]s$/, '')))
      .filter((w) => w.length > 0);
    for (let i = 0; i + 1 < ws.length; i++) {
      const [first, last] = [ws[i], ws.slice(i + 1).join('')];
      const forms = [
        `${first}.${last}`,
        `${first}_${last}`,
        `${first}-${last}`,
        `${first}${last}`,
        `${first[0]}${last}`,
        `${first[0]}.${last}`,
      ];
      if (forms.includes(local)) return m[2].toLowerCase();
    }
  }
  // A first name alone, in any case ending ("prosledi Dragani" for `dragana.kovacevic@…`, "Annának" for `anna.toth@…`).
  const first = /^(\p{L}{4,})[._-]\p{L}+$/u.exec(local)?.[1];
  if (first === undefined) return undefined;
  const stem = first.replace(/[aeiouy]$/, '');
  const declined = (w: string) =>
    (w.startsWith(first) && w.length - first.length <= 6) || (stem.length >= 4 && w.startsWith(stem) && w.length - stem.length <= 6);
  const said = request.slice(0, 20_000).match(/(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{M}]{3,}/gu) ?? [];
  return said.some((w) => declined(foldName(w))) ? m[2].toLowerCase() : undefined;
}

/** A name's letters and digits, lower case, without accents: "Súilleabháin" as an address writes it. */
const foldName = (x: string) =>
  x
    .normalize('NFD')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toLowerCase();

/** The label a domain is registered under: "maersk" in www.maersk.com, "bbc" in news.bbc.co.uk ('' for none). */
function registeredLabel(host: string): string {
  const labels = host.split('.');
  const second = labels.length >= 3 && labels[labels.length - 1].length === 2 && SECOND_LEVEL.has(labels[labels.length - 2]);
  return labels[labels.length - (second ? 3 : 2)] ?? '';
}

/** Mailboxes anyone can open: their domain names no party. */
const OPEN_MAILBOXES = new Set([
  'gmail',
  'googlemail',
  'outlook',
  'hotmail',
  'yahoo',
  'proton',
  'protonmail',
  'icloud',
  'live',
  'msn',
  'aol',
  'mailbox',
  'posteo',
  'fastmail',
  'tutanota',
  'zoho',
]);

/** Second-level names under a country's domain ("co.uk", "com.au"): the label before them is the site's. */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'gov', 'ac', 'edu', 'gob', 'or', 'ne']);

/**
 * A value of two to eight words, every one of them a word of the request: words of three letters
 * or more, and numbers the request writes ("seed 2026").
 */
function wordsOfRequest(request: string, value: string): boolean {
  const ws = value.split(/\s+/);
  if (ws.length < 2 || ws.length > 8 || !ws.some((w) => /^\p{L}{3,}$/u.test(w))) return false;
  return ws.every((w) => /^(?:\p{L}{3,}|\d{2,})$/u.test(w) && within(request, w));
}
/** A search operator before a word: "from:", "subject:", "to:". */
const SEARCH_FIELD = /(?<![\p{L}\p{N}])[a-z_]{2,12}:(?=[^\s/])/giu;

/**
 * Whether an instruction's block claims the values beside its order for a call with these sinks:
 * the order asks for the call's action (any order, for a link), and it is not the plain order of a
 * document the request hands the choice to ("pay the bill in bill.txt", whose "please pay to the
 * account below" names where: the request asks for that very action and points at that read, or at
 * a read that led to it, as a search by the client's name leads to her message). An
 * order that moves the action away from a value the record already gives ("send the refund to the
 * refund_to account instead", "rather than Niamh's address") chooses where, whatever the request handed.
 */
function claims(
  ctx: ProvenanceContext,
  text: ProducedText,
  r: { asks: number; explicit: boolean; moves?: boolean },
  sinks: number,
): boolean {
  if (sinks !== ANY_ORDER && !(r.asks & sinks)) return false;
  return (
    r.explicit ||
    // A request that itself moves the action ("pay them at their new account") knows of the change.
    (r.moves === true && !movesTarget(ctx.request)) ||
    !((ctx.needs ?? 0) & r.asks & sinks && pointedAt(ctx, text))
  );
}

/**
 * Whether a value in an order of a read is the request's to take: the request leaves the value to
 * that read ("change it to whatever address they gave"), points at it, and asks for every sink of
 * the call that uses it; the order carries no signal of an injection (it addresses no assistant, claims no
 * authority) and no instruction steered the read.
 */
function handedOver(ctx: ProvenanceContext, text: ProducedText, n: string, sinks: number): boolean {
  if (sinks === 0 || sinks === ANY_ORDER || !ctx.defers?.()) return false;
  // The orders whose blocks hold the value, or (a value past their blocks' edges) every order of the read.
  const holding = text.reaches?.filter((x) => within(x.text, n)) ?? [];
  const orders = holding.length > 0 ? holding : (text.reaches ?? []);
  // The call must do what the request asks; the order that gives the value may name the same deed
  // another way ("deliver to our workshop" for "change the order to whatever address they gave").
  if (orders.length === 0 || orders.some((r) => r.explicit) || ((ctx.needs ?? 0) & sinks) !== sinks) return false;
  return !steered(ctx, text) && pointedAt(ctx, text);
}

/**
 * A number or an address its writer gives as their own ("call me back on …") in a read the
 * request points at, taken as where a message goes (own-contact.ts); never where money goes.
 */
function ownContact(ctx: ProvenanceContext, text: ProducedText, value: string, sinks: number, where: 'object' | 'target'): boolean {
  if (where !== 'target' || sinks === ANY_ORDER || sinks & NOT_A_MESSAGE || !text.passages) return false;
  return writersOwnContact(text.passages, value) && !steered(ctx, text) && pointedAt(ctx, text);
}
const NOT_A_MESSAGE = bitOf('FINANCIAL_TRANSFER') | bitOf('CODE_EXEC');

/**
 * The paragraph of free text that holds `value` when it moves an action away from a value the
 * reader already has (injection.ts, movesTarget): "refund by SEPA instead to …", "address it to …
 * and not to the old mailbox", "We have moved our business banking … remit to BSB …". A list's
 * items are read one by one: the value's own item, or its paragraph without the items. For a
 * structured field (`unit: 'line'`), only a line that holds the value: a record's field or a
 * table's row, whose neighbours are records of their own; a message's labelled line ("IBAN: …")
 * is read in its paragraph, as the message's prose. Undefined otherwise.
 */
export function movingProse(output: string, value: string, unit: 'line' | 'paragraph' = 'paragraph'): string | undefined {
  const v = value.trim();
  if (v.length < 3 || v.length > 200) return undefined;
  const text = output.slice(0, 200_000);
  // A code is found however the text spaces it ("LT50 3250 0674 1128 3390" for LT503250067411283390).
  const spaced = /^[A-Za-z0-9]{8,40}$/.test(v) ? new RegExp(v.split('').join('[\\s.-]?'), 'gi') : undefined;
  let seen = 0;
  for (const m of spaced ? text.matchAll(spaced) : occurrences(text, v)) {
    if (++seen > 20) break;
    const at = m.index;
    const vEnd = at + m[0].length;
    // A line, at most 400 characters either side: a record printed on one line holds its neighbours too.
    const lineStart = Math.max(text.lastIndexOf('\n', at) + 1, at - 400);
    const lineEnd = text.indexOf('\n', vEnd);
    const line = text.slice(lineStart, Math.min(lineEnd < 0 ? text.length : lineEnd, vEnd + 400));
    const alone = (unit === 'line' && !(LABELLED_LINE.test(line) && inProse(indentedBlock(text, lineStart)))) || LIST_ITEM.test(line);
    const block = alone ? line : paragraphWithoutItems(text, at, vEnd);
    if (movesTarget(block)) return block.replace(/\s+/g, ' ').trim().slice(0, 160);
  }
  return undefined;
}
const LIST_ITEM = /^\s*(?:[-*•]|\d{1,3}[.)])\s/;
/** A message's "IBAN: TR80 …" line: a field of the message, read in its paragraph, where a record's or a table's line stands alone. */
const LABELLED_LINE = /^\s*[\p{L}][\p{L}\p{N} ./()-]{0,40}:\s*\S/u;

/**
 * The lines around the one that starts at `lineStart` indented at least as deep, 4,000 characters
 * either side at most: the text a record's field holds ("body: |" and the mail under it), or the
 * whole text where nothing is indented.
 */
function indentedBlock(text: string, lineStart: number): string {
  const depth = /^[ \t]*/.exec(text.slice(lineStart, lineStart + 200))![0].length;
  if (depth === 0) return text;
  const deepEnough = (l: string) => l.trim() === '' || /^[ \t]*/.exec(l)![0].length >= depth;
  const before = text.slice(Math.max(0, lineStart - 4_000), lineStart).split('\n');
  before.pop();
  const after = text.slice(lineStart, lineStart + 4_000).split('\n');
  const up: string[] = [];
  for (let i = before.length - 1; i >= 0 && deepEnough(before[i]); i--) up.unshift(before[i]);
  const down: string[] = [];
  for (const l of after) {
    if (!deepEnough(l)) break;
    down.push(l);
  }
  return [...up, ...down].join('\n');
}

/** Whether a text is a message with labelled lines in it, not a record printed as "key: value" lines: most of its lines are prose. */
function inProse(text: string): boolean {
  const lines = text
    .slice(0, 4_000)
    .split('\n')
    .filter((l) => l.trim() !== '');
  const fields = lines.filter((l) => LABELLED_LINE.test(l) || /^\s*["{}[\],]/.test(l)).length;
  return fields * 2 < lines.length;
}

/** The paragraph around [at, end), at most 600 characters either side, without its list items. */
function paragraphWithoutItems(text: string, at: number, end: number): string {
  let start = Math.max(text.lastIndexOf('\n\n', at) + 1, at - 600);
  // A paragraph a colon introduces ("… vanno saldate sulle nuove coordinate:" above the bank details) is read with its introduction.
  if (/:\s*$/.test(text.slice(Math.max(0, start - 200), start))) start = Math.max(text.lastIndexOf('\n\n', start - 3) + 1, at - 600);
  const next = text.indexOf('\n\n', end);
  return text
    .slice(start, Math.min(next < 0 ? text.length : next, end + 600))
    .split('\n')
    .filter((l) => !LIST_ITEM.test(l))
    .join('\n');
}

/** Where `value` stands in `text`, as matches do (index and text). */
function* occurrences(text: string, value: string): Generator<{ index: number; 0: string }> {
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) yield { index: at, 0: value };
}

/** Whether a short value stands as a word of its own somewhere in a text, not inside an address, a link or a code. */
function standsAlone(text: string, value: string): boolean {
  const v = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}_.@/-])${v}(?![\\p{L}\\p{N}_@/-]|\\.[\\p{L}\\p{N}])`, 'iu').test(text.slice(0, 200_000));
}

/** For `valueSource`: any order claims the value beside it (a link: "visit", "open", "see" ask for the fetch). Every bit set, so masks with it keep what they mask. */
export const ANY_ORDER = -1;

/**
 * Where `value` comes from, by the rules above; `sinks`: the hard sinks of the call that uses it
 * (what an instruction must ask for to claim a value beside its passage), or ANY_ORDER; `where`:
 * 'target' for where the call sends, pays or links to, which an order in a record's field also
 * claims from the record's other fields ("send the refund to the refund_to account"); the record
 * a call acts on (an 'object') is the record's own, whatever its notes ask.
 */
/**
 * Whether the normalised value `n` is one of the arguments a call was given (a text or a number of
 * 200 characters at most, four levels deep at most): what the call's result repeats of it, the
 * caller had first.
 */
export function givenToCall(args: unknown, n: string, depth = 0): boolean {
  if (typeof args === 'string' || typeof args === 'number') return String(args).length <= 200 && normalizeText(String(args)) === n;
  return depth < 4 && args !== null && typeof args === 'object' && Object.values(args).some((v) => givenToCall(v, n, depth + 1));
}
/** Whether the normalised value `n` is one of the arguments the call that produced `text` was given. */
const echoesItsCall = (text: ProducedText, n: string): boolean => givenToCall(text.args, n);

export function valueSource(ctx: ProvenanceContext, value: string, sinks = 0, where: 'object' | 'target' = 'object'): ValueSource {
  const n = normalizeText(value);
  if (n === '') return { kind: 'unseen' };
  if (namedInRequest(ctx.request, value)) return { kind: 'request' };
  let instruction: number | undefined;
  let byCall: number | undefined;
  let instructed: Extract<ValueSource, { kind: 'instructed' }> | undefined;
  let redirected: Extract<ValueSource, { kind: 'redirected' }> | undefined;
  let loose: { at: number; steered: boolean } | undefined;
  let ok: ValueSource | undefined;
  // Whether the request itself moves the action ("pay them at their new account"): read once, where a record may redirect.
  let requestMoves: boolean | undefined;
  // Two letters or digits ("NL", "13") are an instruction's only where its passages write them as a
  // word of their own ("the file with ID '13'"), not as a piece of an address or a code ("…@grower.nl").
  const short = n.length <= 2;
  for (const { node, text } of ctx.containing(value)) {
    const alone = !short || standsAlone(text.passages ?? '', n);
    // An instruction in a read's result that repeats what the read's own call was given (the
    // student's id a progress report was asked for) did not choose it: the caller had it first.
    if (text.instructions !== undefined && within(text.instructions, n) && alone && !echoesItsCall(text, n)) {
      if (handedOver(ctx, text, n, sinks) || ownContact(ctx, text, value, sinks, where)) ok ??= { kind: 'pointed', at: node, handed: true };
      else instruction ??= node;
      continue;
    }
    if (text.madeOnInstruction) {
      byCall ??= node;
      continue;
    }
    const reach =
      sinks === 0 || !alone
        ? undefined
        : text.reaches?.find(
            (r) =>
              r.keyed?.includes(n) === true ||
              (claims(ctx, text, r, sinks) &&
                (within(r.text, n) ||
                  (where === 'target' && r.record !== undefined && (r.asks & OUTWARD_MASK) !== 0 && within(r.record, n)))),
          );
    if (reach) {
      instructed ??= { kind: 'instructed', at: node, asks: reach.asks & sinks };
      continue;
    }
    if (ok) continue;
    const steeredRead = !text.directory && steered(ctx, text);
    const field = structuredFields(text).has(n);
    const note =
      field && where === 'target' && text.record !== undefined && !(requestMoves ??= movesTarget(ctx.request))
        ? redirectingNote(text.record, value)
        : undefined;
    // Prose that moves where the action goes ("refund by SEPA instead to …", "address it to … and
    // not to the old mailbox", "new bank details") chose the value, order or not, in a field as in free text.
    const pointed = !field && !steeredRead && pointedAt(ctx, text);
    // A writer's own number ("text me on … rather than ringing") is moved there by its writer, who is the one reached.
    const moved =
      note === undefined &&
      (field || pointed) &&
      where === 'target' &&
      !(requestMoves ??= movesTarget(ctx.request)) &&
      !ctx.defers?.() &&
      !(pointed && !(sinks & NOT_A_MESSAGE) && writersOwnContact(text.output, value))
        ? movingProse(text.output, value, field ? 'line' : 'paragraph')
        : undefined;
    if (note !== undefined) redirected ??= { kind: 'redirected', at: node, note };
    else if (moved !== undefined) redirected ??= { kind: 'redirected', at: node, note: moved };
    else if (field && !steeredRead) ok = { kind: 'structured', at: node };
    else if (pointed) ok = { kind: 'pointed', at: node };
    // Free text that repeats what its own call was given gave it to no one.
    else if (!echoesItsCall(text, n)) loose ??= { at: node, steered: steeredRead };
  }
  if (instruction !== undefined) return { kind: 'instruction', at: instruction };
  if (byCall !== undefined) return { kind: 'instruction', at: byCall, call: true };
  if (instructed) return instructed;
  if (redirected) return redirected;
  if (ok) return ok;
  if (loose !== undefined) return { kind: 'free-text', at: loose.at, ...(loose.steered ? { steered: true as const } : {}) };
  return { kind: 'unseen' };
}
