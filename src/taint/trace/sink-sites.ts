/**
 * What the adjudicator needs to know about one sink call: its targets and whether each is
 * authorised (by the policy, the request, a directory entry the request names), the provenance
 * of every argument (injected or not), the arguments that tie it to the request (anchors), and the
 * links and injected instructions its message body would carry onward.
 */
import { normalizeText, type ContentIndex } from '../content-links.js';
import {
  ANY_ORDER,
  namedInRequest,
  numberNamedFor,
  partyAddressNamedIn,
  personAddressNamedIn,
  phoneDigitForms,
  requestPointsAt,
  siteNamedIn,
  valueSource,
  within,
  type ProducedText,
  type ValueSource,
  type ProvenanceContext,
} from '../provenance.js';
import { authorisedByPolicy, hostOf, isDirectory, namesCall, type Target } from '../classify.js';
import { argumentRole, EMAIL, IBAN, ID_VALUE, TARGET_ROLES } from '../argument-roles.js';
import { maskOf, SINK_MASK, sinksOf } from '../labels.js';
import type { Policy, TargetKind } from '../policy.js';
import type { ArgumentTrace, InjectedText, Producers } from './content-edges.js';
import { itemReading, type Item } from './items.js';
import { defersValues } from '../intent.js';
import { domainOf, domainsIn, imitated } from '../lookalike.js';
import { carriedToItsField } from './field-carry.js';
import { isProse, phoneKey, phoneLike } from './others-data.js';

export interface TargetCheck extends Target {
  ok: boolean;
  why: string;
  /** What authorises it, when it is authorised: the policy's list, the request, a directory tool, the intent annotation. */
  authority?: 'policy' | 'request' | 'tool-data' | 'annotation';
  /** The node where the target first appears, when that is what makes it untrusted. */
  origin?: number;
  /** An instruction in data chose it (its passage, the block beside its order, or a call made on its word). */
  instructed?: true;
  /** It first appears in a read an instruction in data steered (one of the read's arguments came from it). */
  steered?: true;
  /** It stands in an order of a read the request leaves the value to ("whatever address they gave"): the request's, not an injection's. */
  handed?: true;
  /** The read whose structured field it was selected from. */
  from?: number;
}

/** A link or an injected instruction that a message body carries from untrusted content to its recipient. */
export interface OnwardFinding {
  kind: 'link' | 'instruction';
  argument: string;
  value: string;
  origin: number;
  why: string;
  /** A link an instruction in data asked to pass on (in its passage or beside its order). */
  ordered?: true;
}

export interface SiteContext {
  policy: Policy;
  p: Producers;
  root: number;
  rootText: string;
  /** The hard sinks the request asks for. */
  needs: number;
  annotationTargets?: readonly string[];
  injections: ReadonlyMap<number, InjectedText>;
  /** The injected passages alone, indexed: a body that quotes one carries the instruction onward. */
  injectedIndex: ContentIndex;
  /**
   * Earlier calls whose targets an instruction in data chose (filled in time order as sinks are
   * read): what they returned is the instruction's too ("delete the email you have just sent").
   */
  madeOnInstruction?: Set<number>;
  /** Reads opened from an entry of a listing that carries a name the request gives (trace-graph.ts, openedFromEntry): the request points at them. */
  openedEntries?: ReadonlySet<number>;
}

/**
 * A value that names something (a proper name, a code), not a date, a number, a plain word or
 * prose: whatever its argument is called, it is an object ("Riverside Hotel", "INV-22", "a.b@c").
 * A proper name capitalises each of its longer words; a phrase in sentence case ("Feedback
 * scores") is prose the model wrote, as a subject or a title is.
 */
const NAME_SHAPED = /^(?!\d{4}-\d{2}-\d{2})(?![\d.,]+$)(?=.{2,60}$)(?=.*[\p{Lu}\d._@-])[\p{L}\p{N}][\p{L}\p{N} ._'@-]*$/u;
function nameLike(value: string): boolean {
  if (!NAME_SHAPED.test(value)) return false;
  if (/[\d._@]/.test(value)) return true;
  return value
    .split(/\s+/)
    .filter((w) => w.length > 3)
    .every((w) => /^\p{Lu}/u.test(w));
}

function target(policy: Policy, it: Item, a: ArgumentTrace): Target[] {
  const kind = (a.role === 'other' ? 'object' : a.role) as TargetKind | 'object';
  const rule = policy.targets.find((r) => r.tool.test(it.tool!) && r.argument.test(a.name));
  const byKind = kind === 'path' || kind === 'command' || kind === 'object' ? 'trusted' : 'authorised';
  // A built-in rule's kind gives way to what the value shows (argument-roles.ts: an `account_id` "acc_9" names a record), and so does what it requires.
  const require = rule && (!rule.at.startsWith('default ') || rule.kind === kind) ? rule.require : byKind;
  // A recipient list written as one string ("a@x.org, b@y.org") names each recipient.
  const values =
    kind === 'recipient' || kind === 'payee'
      ? a.value
          .split(/[,;]\s*/)
          .map((v) => v.trim())
          .filter(Boolean)
      : [a.value];
  return values.map((value) => ({ kind, require, argument: a.name, value, rule: rule?.at ?? `argument role (${a.role})` }));
}

/** Targets, and the objects a call acts on (ids, names, paths): each value's provenance is checked (provenance.ts). */
export function checkTargets(
  ctx: SiteContext,
  it: Item,
  traces: readonly ArgumentTrace[],
  callSinks = (it.classified?.sinks ?? 0) & SINK_MASK,
): TargetCheck[] {
  const out: TargetCheck[] = [];
  const prov = provenanceContext(ctx, it.start);
  // The paid party's record is looked up once, and only for a target a message's text gives (strangerFrom).
  let known: PartyOnFile | undefined;
  const party = callSinks & PAYS ? () => (known ??= partyAddresses(ctx, it, traces)) : undefined;
  for (const a of traces) {
    if ((!TARGET_ROLES.has(a.role) && a.role !== 'object' && !(a.role === 'other' && nameLike(a.value.trim()))) || a.value.trim() === '')
      continue;
    // A link beside any order is its object ("visit the link below"): a fetch of it is the order's.
    const sinks = a.role === 'url' ? ANY_ORDER : callSinks;
    for (const t of target(ctx.policy, it, a)) out.push(checkTarget(ctx, prov, t, sinks, { before: it.start, party }));
  }
  return out;
}

/**
 * The evidence that stages a call nothing places (no definition, annotation, rule or known word
 * says what it does, and it takes nothing a sink needs, so it was read as a read): an instruction
 * in data chose what it acts on, its target inside the order's passage or beside an order for any
 * effect, or it first appears in a read the order steered. Its action is unknown, so it may be
 * the action that order asks for: staged fail-closed as a write (docs/taint-policy.md,
 * "unknown-tools"). Undefined when none of its targets was so chosen.
 */
export function stagedOnInstruction(
  ctx: SiteContext,
  it: Item,
  traces: ArgumentTrace[],
): { why: string; traces: ArgumentTrace[]; targets: TargetCheck[] } | undefined {
  const profile = it.classified?.profile;
  if (!profile?.unknown || !profile.read || ctx.policy.unknownTools === 'release' || ctx.injections.size === 0) return undefined;
  // Digits passed as a JSON string name something ("13", a file's id), as a schema typing them a string says (argument-roles.ts).
  const named = traces.map((a) =>
    a.role === 'other' && typeof it.args?.[a.name] === 'string' && ID_VALUE.test(a.value) ? { ...a, role: 'object' as const } : a,
  );
  // The call's own check (trace-graph.ts, sinkSite) reads a tool nothing places with every sink too: these are its targets.
  const targets = checkTargets(ctx, it, named, SINK_MASK);
  const chosen =
    targets.find((t) => t.instructed || t.steered)?.argument ??
    named.find((a) => a.injected && a.role !== 'choice')?.name ??
    onwardFindings(ctx, it, named).find((f) => f.ordered || f.kind === 'instruction')?.argument;
  if (chosen === undefined) return undefined;
  return {
    why: `nothing says what ${it.tool} does, and an instruction in data chose what it acts on or passes on (argument ${chosen}), so it is staged (fail-closed) as that order's call`,
    traces: named,
    targets,
  };
}

/** Why a target taken from data is an imitation (lookalike.ts), or undefined: its domain imitates one the request names or a read before the call returned. */
function imitation(ctx: SiteContext, value: string, before: number): string | undefined {
  const domain = domainOf(value);
  const why = domain ? domainImitation(ctx, domain, before) : undefined;
  return why ? `its domain ${domain} ${why}` : undefined;
}

/** What a domain imitates ("imitates X, which the request names"), of those the request names or a read before `before` returned. */
function domainImitation(ctx: SiteContext, domain: string, before: number): string | undefined {
  const { request, reads } = knownDomains(ctx);
  const of = imitated(domain, request);
  if (of) return `imitates ${of}, which the request names`;
  const domains = new Set<string>();
  for (const r of reads) if (r.end <= before) for (const d of r.domains) domains.add(d);
  const read = imitated(domain, domains);
  return read ? `imitates ${read}, which the data read before names` : undefined;
}

const PAYS = maskOf(['FINANCIAL_TRANSFER']);

/**
 * Why a target taken from data is an imitator's: an address or a link whose domain imitates one the
 * trace knows, wherever it sits; any other target a message gives whose writer's address does (an
 * account "in the new details"); an identifier only where a payment takes it out of a message's text.
 */
function imitationFrom(ctx: SiteContext, src: ValueSource, t: Target, sinks: number, before: number): string | undefined {
  if (!fromData(src)) return undefined;
  // A phone number or a postal address is judged by who wrote it, as an account is.
  if (t.kind === 'recipient' || t.kind === 'url')
    return domainOf(t.value) !== undefined || EMAIL.test(t.value.trim())
      ? imitation(ctx, t.value, before)
      : writerImitation(ctx, src.at, t.value, before, false);
  if (t.kind === 'object' && (sinks & PAYS) === 0) return undefined;
  return writerImitation(ctx, src.at, t.value, before, t.kind === 'object');
}

/**
 * Why a value a read gave is an imitator's: the record that holds it (the entry of a list, or the
 * whole record, with the objects inside it down to the field that holds the value) names an address
 * whose domain imitates one the trace knows, its writer's.
 */
function writerImitation(ctx: SiteContext, at: number, value: string, before: number, inText: boolean): string | undefined {
  const it = ctx.p.itemOf.get(at);
  const v = value.trim();
  if (!it || v.length < 4) return undefined;
  const { record, text } = itemReading(it);
  const domains = new Set<string>();
  if (record === undefined) {
    // A message as text: its writer is its header's ("From: …"), where the text holds the value.
    const writer = text.includes(v) ? writerOf(text) : undefined;
    if (writer) domainsIn(writer, domains, 8);
  } else
    for (const holder of holdersOf(record, v, inText))
      for (const f of Object.values(holder)) if (typeof f === 'string' && f.length <= 400) domainsIn(f, domains, 8);
  for (const d of domains) {
    const why = domainImitation(ctx, d, before);
    if (why) return `the record that gives it is written from an address whose domain ${why}`;
  }
  return undefined;
}

/**
 * Why money's destination taken from a message is a stranger's: the message is written from an
 * address the paid party's own record does not hold, nor its domain ("new bank for payouts" from
 * a free mailbox, where the walker's record on file gives another). The party's record is the
 * one read by an identifier the call gives (payeesOfParty's); a party with no address on file is
 * not judged so.
 */
function strangerFrom(
  ctx: SiteContext,
  src: ValueSource,
  t: Target,
  sinks: number,
  party: (() => PartyOnFile) | undefined,
): string | undefined {
  if (!party || !(sinks & PAYS) || t.kind === 'url' || !fromData(src)) return undefined;
  const it = ctx.p.itemOf.get(src.at);
  const v = t.value.trim();
  if (!it || v.length < 4) return undefined;
  const { record, text } = itemReading(it);
  if (record !== undefined || !text.includes(v)) return undefined;
  const writer = writerOf(text)
    ?.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/)?.[0]
    .toLowerCase();
  const { addresses, ids } = party();
  if (!writer || addresses.size === 0 || ids.has(v.toUpperCase()) || addresses.has(writer)) return undefined;
  const domain = writer.split('@')[1];
  if ([...addresses].some((x) => x.split('@')[1] === domain)) return undefined;
  return `that message is written from ${writer}, an address the paid party's record does not hold (${[...addresses].slice(0, 2).join(', ')})`;
}

/** A value taken from a read (a structured field, a read the request points to, free text): who wrote that read may be judged. */
const fromData = (src: ValueSource): src is Extract<ValueSource, { at: number }> =>
  src.kind === 'structured' || src.kind === 'pointed' || src.kind === 'free-text';

/** A message's writer as its header gives it ("From: …", "Od: …"), where the text is a message. */
const writerOf = (text: string) => WRITER_LINE.exec(text.slice(0, 2_000))?.[1];

/** The paid party's own record: the e-mail addresses it holds, and the identifiers it was read by (the call's objects, no destination). */
interface PartyOnFile {
  addresses: Set<string>;
  ids: Set<string>;
}

/** The records read, before the call, by an identifier the call gives: the paid party's own (payeesOfParty). */
function partyAddresses(ctx: SiteContext, it: Item, traces: readonly ArgumentTrace[]): PartyOnFile {
  const out = new Set<string>();
  const used = new Set<string>();
  for (const { read, by } of readsByIdentifier(ctx, it, traces)) {
    if (out.size >= 16) break;
    for (const v of by) used.add(v.trim().toUpperCase());
    const { record } = itemReading(read);
    if (record === null || typeof record !== 'object' || Array.isArray(record)) continue;
    // The record's own fields and those of the objects in it (its contact, its owner), not a list's entries.
    const fields = Object.values(record).slice(0, 200);
    for (const f of [
      ...fields,
      ...fields.flatMap((x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.values(x).slice(0, 50) : [])),
    ])
      if (typeof f === 'string' && EMAIL.test(f.trim())) out.add(f.trim().toLowerCase());
  }
  return { addresses: out, ids: used };
}

/** A message's writer in its header, in the languages read: "From:", "De :", "Von:", "Feladó:", "Od:". */
const WRITER_LINE =
  /^[ \t]*(?:from|sender|de|de la|von|van|da|od|fra|från|kimden|lähettäjä|remitente|expéditeur|expediteur|mittente|remetente|feladó|felado|pošiljatelj|posiljatelj|pošiljalac|posiljalac)[ \t]*:[ \t]*(.{1,300})$/im;

/**
 * The objects of a record's entry that hold `value`: from the entry (a list's element, or the
 * record) down to the object with a string field that holds it (`inText`: within more text, not as
 * the field's whole value). The walk is bounded.
 */
function holdersOf(record: unknown, value: string, inText: boolean): Record<string, unknown>[] {
  let seen = 0;
  const holds = (f: unknown) => typeof f === 'string' && f.includes(value) && (!inText || f.trim() !== value);
  const walk = (x: unknown, depth: number, path: Record<string, unknown>[]): Record<string, unknown>[] | undefined => {
    if (x === null || typeof x !== 'object' || depth > 8 || ++seen > 5_000) return undefined;
    // An entry of a list is a record of its own: the path restarts there.
    const here = Array.isArray(x) ? [] : [...path, x as Record<string, unknown>];
    const fields = Object.values(x as Record<string, unknown>);
    if (!Array.isArray(x) && fields.some(holds)) return here;
    for (const f of fields) {
      const found = typeof f === 'object' ? walk(f, depth + 1, here) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  return walk(record, 0, []) ?? [];
}

/** The domains the request names, and those each read returned (at most 64 each), once per trace. */
const KNOWN_DOMAINS = new WeakMap<Producers, Map<string, { request: Set<string>; reads: { end: number; domains: Set<string> }[] }>>();
function knownDomains(ctx: SiteContext): { request: Set<string>; reads: { end: number; domains: Set<string> }[] } {
  let byRequest = KNOWN_DOMAINS.get(ctx.p);
  if (!byRequest) KNOWN_DOMAINS.set(ctx.p, (byRequest = new Map()));
  let known = byRequest.get(ctx.rootText);
  if (known) return known;
  const request = new Set<string>();
  domainsIn(ctx.rootText, request);
  const reads: { end: number; domains: Set<string> }[] = [];
  for (const it of ctx.p.itemOf.values()) {
    if ((it.kind !== 'tool' && it.kind !== 'sink') || reads.length >= 256) continue;
    const domains = new Set<string>();
    domainsIn(itemReading(it).text, domains);
    if (domains.size) reads.push({ end: it.end, domains });
  }
  known = { request, reads };
  byRequest.set(ctx.rootText, known);
  return known;
}

/** Whether the request leaves values to the data it points at: read once per request, and only where a value sits inside an order. */
const DEFERS = new WeakMap<SiteContext, boolean>();
function defersOf(ctx: SiteContext): boolean {
  let d = DEFERS.get(ctx);
  if (d === undefined) DEFERS.set(ctx, (d = defersValues(ctx.rootText)));
  return d;
}

function provenanceContext(ctx: SiteContext, before: number): ProvenanceContext {
  const { p, policy } = ctx;
  const texts = new Map<number, ProducedText>();
  const textOf = (node: number): ProducedText => {
    let t = texts.get(node);
    if (!t) {
      const it = p.itemOf.get(node)!;
      const inj = ctx.injections.get(node);
      texts.set(
        node,
        (t = {
          output: itemReading(it).text,
          record: itemReading(it).record,
          at: it.start,
          ...(it.args ? { args: it.args } : {}),
          ...(inj ? { instructions: inj.injected, passages: inj.passages, ...(inj.reaches ? { reaches: inj.reaches } : {}) } : {}),
          directory: it.tool !== undefined && isDirectory(policy, it.tool),
          ...(ctx.madeOnInstruction?.has(node) ? { madeOnInstruction: true } : {}),
          ...(ctx.openedEntries?.has(node) ? { openedFromEntry: true } : {}),
          ...choicesOf(it),
        }),
      );
    }
    return t;
  };
  return {
    request: ctx.rootText,
    needs: ctx.needs,
    defers: () => defersOf(ctx),
    containing: (value) =>
      p.index
        .containingText(value, before)
        .filter((n) => ['tool', 'sink'].includes(p.itemOf.get(n)!.kind))
        .map((node) => ({ node, text: textOf(node) })),
    inInstructions: (value, at = before) => ctx.injectedIndex.containingText(value, at).length > 0,
  };
}

/** The arguments of a call given a value their schema's enum offers, normalised (ProducedText.choices). */
function choicesOf(it: Item): { choices?: ReadonlySet<string> } {
  const props = (it.definition?.inputSchema as { properties?: Record<string, { enum?: unknown[] }> } | undefined)?.properties;
  if (!props || !it.args) return {};
  const out = new Set<string>();
  for (const [name, value] of Object.entries(it.args))
    if (typeof value === 'string' && Array.isArray(props[name]?.enum) && props[name].enum!.includes(value)) out.add(normalizeText(value));
  return out.size > 0 ? { choices: out } : {};
}

/** A phone number: eight digits or more, with a leading "+", spaces, dots, dashes or brackets between. */
const PHONE = /^\+?\(?\d[\d\s().-]{6,}\d$/;
/** The same in text, on one line: the number of a list's next item ("+353 86 771 2045\n3. Please …") is not part of it. */
const PHONE_IN_TEXT = /\+?\(?\d[\d \t\u00a0().-]{6,}\d/g;
const digitsOf = (v: string) => v.replace(/\D/g, '');

/** Phone numbers the reads of a trace write, by their digits, each with the end of the first read that writes it so (built once per trace). */
const PHONES = new WeakMap<Producers, Map<string, { written: string; end: number }[]>>();
/** Numbers indexed at the most: what lies past them is looked up as written. */
const MAX_PHONES = 50_000;

function phonesOf(p: Producers): Map<string, { written: string; end: number }[]> {
  let out = PHONES.get(p);
  if (out) return out;
  out = new Map();
  let n = 0;
  reads: for (const it of p.itemOf.values()) {
    if (it.kind !== 'tool' && it.kind !== 'sink') continue;
    for (const m of itemReading(it).text.matchAll(PHONE_IN_TEXT)) {
      // The bound is the whole trace's: once reached, no later read is scanned.
      if (++n > MAX_PHONES) break reads;
      const d = digitsOf(m[0]);
      if (d.length < 8) continue;
      const seen = out.get(d);
      if (seen) seen.push({ written: m[0].trim(), end: it.end });
      else out.set(d, [{ written: m[0].trim(), end: it.end }]);
    }
  }
  PHONES.set(p, out);
  return out;
}

/**
 * An address no one wrote, made of the name of a person the request names on a domain that another
 * address in a structured field of the tool data has (a colleague's, a manager's): the model wrote
 * the new starter's address the way the organisation writes its people's ("set up Lucía Romero's
 * account" → `lucia.romero@brightloop.ie` beside the manager's `declan.hurley@brightloop.ie`). A
 * domain only free text or an instruction gives is not the organisation's.
 */
function colleagueAddress(ctx: SiteContext, prov: ProvenanceContext, value: string, sinks: number): boolean {
  const domain = personAddressNamedIn(ctx.rootText, value);
  if (!domain) return false;
  const escaped = domain.replace(/[.]/g, '\\.');
  // A local part of 64 characters at most (RFC 5321): each start is scanned that far, not to the text's end.
  const onDomain = new RegExp(`(?<![\\w.+-])[\\w.+-]{1,64}@${escaped}(?![\\w.-])`, 'gi');
  const tried = new Set<string>([value.toLowerCase()]);
  for (const { text } of prov.containing(domain).slice(0, 16))
    for (const m of text.output.slice(0, 200_000).matchAll(onDomain)) {
      const address = m[0].toLowerCase();
      if (tried.has(address)) continue;
      // A bounded number of the organisation's addresses is looked up, whatever a hostile read holds.
      if (tried.size > 32) return false;
      tried.add(address);
      if (valueSource(prov, m[0], sinks, 'target').kind === 'structured') return true;
    }
  return false;
}

/**
 * A phone number or an account as a read wrote it, where the call writes it otherwise
 * ("+491756630082" for "+49 175 6630082", "DE03200000000020001530" for "DE03 2000 0000 0020 0015
 * 30"): the same characters, so the value is the one that read holds. Other values, and numbers no
 * read before the call holds, as they are.
 */
function asWritten(ctx: SiteContext, value: string, before: number): string {
  // An account number printed in groups of four ("DE03 2000 0000 …") and passed without the spaces, or the other way round.
  const compact = value.length <= 64 ? value.replace(/\s+/g, '').toUpperCase() : '';
  const iban = IBAN.test(compact);
  if (!iban && (!PHONE.test(value) || digitsOf(value).length < 8)) return value;
  if (ctx.p.index.containingText(value, before).length > 0) return value;
  if (iban) {
    const grouped = compact.replace(/(.{4})(?=.)/g, '$1 ');
    return [compact, grouped].find((x) => x !== value && ctx.p.index.containingText(x, before).length > 0) ?? value;
  }
  const phones = phonesOf(ctx.p);
  // An international number written in the data the national way (provenance.ts, phoneDigitForms).
  for (const digits of phoneDigitForms(value)) {
    const seen = phones.get(digits)?.find((x) => x.end <= before);
    if (seen) return seen.written;
  }
  return value;
}

/** Where the call stands: its start, and the paid party's record when it pays (strangerFrom). */
interface CallPoint {
  before: number;
  party?: () => PartyOnFile;
}

function checkTarget(ctx: SiteContext, prov: ProvenanceContext, t: Target, sinks: number, { before, party }: CallPoint): TargetCheck {
  const { policy, p } = ctx;
  const byPolicy = authorisedByPolicy(policy, t.value);
  if (byPolicy) return { ...t, ok: true, authority: 'policy', why: `authorised by the policy (${byPolicy})` };
  if (ctx.annotationTargets?.some((x) => normalizeText(x) !== '' && normalizeText(x) === normalizeText(t.value)))
    return { ...t, ok: true, authority: 'annotation', why: 'named in the request (intent annotation)' };
  let src = valueSource(
    prov,
    asWritten(ctx, t.value, before),
    sinks,
    t.kind === 'recipient' || t.kind === 'payee' || t.kind === 'url' ? 'target' : 'object',
  );
  const host = t.kind === 'url' ? hostOf(t.value) : undefined;
  if (
    host &&
    src.kind !== 'request' &&
    src.kind !== 'instruction' &&
    src.kind !== 'instructed' &&
    (namedInRequest(ctx.rootText, host) || siteNamedIn(ctx.rootText, t.value))
  )
    src = { kind: 'request' };
  if (t.kind === 'object' && src.kind !== 'instructed' && numberNamedFor(ctx.rootText, t.argument, t.value)) src = { kind: 'request' };
  // An address on the domain of a party the request names is that party's, whichever passage gives it ("email them the proof": the bill's "accounts@…").
  if (t.kind === 'recipient' && src.kind !== 'request' && partyAddressNamedIn(ctx.rootText, t.value))
    return { ...t, ok: true, authority: 'request', handed: true, why: 'on the domain of a party the request names' };
  const fake = imitationFrom(ctx, src, t, sinks, before) ?? strangerFrom(ctx, src, t, sinks, party);
  if (fake && 'at' in src)
    return {
      ...t,
      ok: false,
      origin: src.at,
      instructed: true,
      why: `comes from ${p.describe(src.at)}, and ${fake}`,
    };
  switch (src.kind) {
    case 'request':
      return { ...t, ok: true, authority: 'request', why: 'named in the request' };
    case 'instruction':
      return {
        ...t,
        ok: false,
        origin: src.at,
        instructed: true,
        why: src.call
          ? `comes from ${p.describe(src.at)}, a call whose targets an instruction in data chose`
          : `comes from ${p.describe(src.at)}, in a passage that asks its reader to act (an instruction in data)`,
      };
    case 'instructed':
      return {
        ...t,
        ok: false,
        origin: src.at,
        instructed: true,
        why: `is what an instruction in ${p.describe(src.at)} asks for: it names this ${t.kind} beside its order${src.asks ? ` (an order for ${sinksOf(src.asks).join(', ')})` : ''}`,
      };
    case 'structured':
      return { ...t, ok: true, authority: 'tool-data', from: src.at, why: `selected from a structured field of ${p.describe(src.at)}` };
    case 'redirected':
      return {
        ...t,
        ok: false,
        origin: src.at,
        instructed: true,
        why: `was chosen by a note in ${p.describe(src.at)}: the note beside it sets it apart from another ${t.kind} of this kind, on file or gone ("${src.note.slice(0, 80)}")`,
      };
    case 'pointed':
      return {
        ...t,
        ok: true,
        authority: 'tool-data',
        from: src.at,
        ...(src.handed ? { handed: true as const } : {}),
        why: src.handed
          ? `taken from ${p.describe(src.at)}, a read the request points to and leaves this value to ("whatever … they gave"), in an order that carries no sign of an injection`
          : `taken from ${p.describe(src.at)}, a read the request points to, outside any instruction in it`,
      };
    case 'free-text':
      return {
        ...t,
        ok: false,
        origin: src.at,
        ...(src.steered ? { steered: true as const } : {}),
        why: `first appears in the free text of ${p.describe(src.at)}, a read the request does not point to${src.steered ? ' and an instruction in data steered' : ''}: a ${t.kind} from there is untrusted`,
      };
    case 'unseen':
      if (t.require === 'trusted') return { ...t, ok: true, why: 'written by the model' };
      if (t.kind === 'recipient' && colleagueAddress(ctx, prov, t.value, sinks))
        return {
          ...t,
          ok: true,
          authority: 'request',
          why: "made of the name of a person the request names, on a domain the organisation's own records give its people",
        };
      return { ...t, ok: false, why: 'named neither in the request nor in the policy, nor selected from tool data' };
  }
}

/**
 * Arguments that tie the call to the request or to what the agent read for it: values the request
 * names or a read returned outside any injected passage, and targets the policy or a named
 * directory entry vouches for.
 */
export function anchorsOf(traces: readonly ArgumentTrace[], targets: readonly TargetCheck[]): string[] {
  const out = new Set<string>();
  for (const a of traces) {
    if (
      a.role === 'content' ||
      a.role === 'choice' ||
      normalizeText(a.value).length < 2 ||
      targets.some((t) => t.argument === a.name && !t.ok)
    )
      continue;
    if (a.origin === 'request' || (a.origin === 'tool-result' && !a.injected)) out.add(a.name);
  }
  for (const t of targets) if (t.ok && t.authority !== undefined) out.add(t.argument);
  return [...out];
}

/**
 * A link: with its scheme, from "www.", or a bare host with a path as people type one
 * ("claim-now.org/start"); not an address's domain (after "@"). A bare host alone ("jstor.org")
 * names a service as often as it links to it.
 */
const LINK = /\bhttps?:\/\/[^\s"'<>)\]]+|\bwww\.[^\s"'<>)\]]+|(?<![@\w.-])[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.[a-z]{2,}\/[^\s"'<>)\]]*/gi;
const SHARES_LINKS = /\b(?:links?|urls?|articles?|pages?|websites?|sites?|sources?|videos?|web ?addresses?)\b/i;

/** The first node before `before` whose instruction block (not its passage) names `value` beside an order to move something. */
function besideAnOrder(ctx: SiteContext, value: string, before: number): number | undefined {
  const n = normalizeText(value);
  for (const [node, inj] of ctx.injections)
    if (ctx.p.itemOf.get(node)!.end <= before && inj.reaches?.some((r) => r.asks !== 0 && within(r.text, n))) return node;
  return undefined;
}

const MESSAGE_SINKS = maskOf(['EXTERNAL_SEND', 'PUBLIC_POST']);

/** A record's plain note (no injection's signal in its block) carried to the argument that has its purpose (field-carry.ts). */
function carriedPlain(ctx: SiteContext, node: number, a: ArgumentTrace): boolean {
  if (ctx.injections.get(node)?.reaches?.some((r) => r.explicit) !== false) return false;
  return carriedToItsField(itemReading(ctx.p.itemOf.get(node)!).record, a.name, a.value);
}

/**
 * Whether a call passes on what the user asked it to: the plain orders (no injection's signal in
 * their block) of a read the request points at, in a message the request asks for, or in a write
 * the request names ("create a file with the packing list from the vacation plans"). "Forward
 * Bob's mail about the report to Alice" sends Bob's "please send me your comments" on, as asked.
 * An order addressed to the assistant, one in a read the request never named, and one quoted into
 * a write the request only shares a sink class with (an event titled after the order, in a
 * request to book a hotel) are carried onward.
 */
function passedOnAsAsked(ctx: SiteContext, it: Item, node: number): boolean {
  const inj = ctx.injections.get(node);
  const read = ctx.p.itemOf.get(node)!;
  const sinks = it.classified?.sinks ?? 0;
  const asked =
    (ctx.needs & sinks & MESSAGE_SINKS) !== 0 || namesCall(ctx.rootText, it.tool, it.classified?.verb ?? it.classified?.profile?.verb);
  if (!asked || inj?.reaches === undefined || inj.reaches.some((r) => r.explicit)) return false;
  if (read.args !== undefined && requestPointsAt(ctx.rootText, { args: read.args })) return true;
  // A record's plain note that names no one to reach (no address, account, link or number): how
  // to do a job ("go round via Prince Edward", "loading bay B"), passed to whoever does it.
  // A message's text (a record with a writer: "from", "sender") is its writer's words, not such a note.
  return itemReading(read).record !== undefined && !WRITTEN_BY.test(read.output.slice(0, 4_000)) && !REACHABLE.test(inj.passages);
}
const WRITTEN_BY = /"(?:from|sender|author|sender_?email|from_?address|remitente|expediteur|absender|mittente|remetente)"\s*:/i;
/** What a passage could send its readers to: an address, an account, a link, a phone number. */
const REACHABLE = /[\w.+-]+@[\w-]+\.[\w.-]+|\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}|https?:\/\/|www\.|\+?\d[\d ()/.-]{6,}\d/i;

/** Links from untrusted content, and injected instructions, in the message-like arguments of a send or a post. */
export function onwardFindings(ctx: SiteContext, it: Item, traces: readonly ArgumentTrace[]): OnwardFinding[] {
  const out: OnwardFinding[] = [];
  const sharesLinks = SHARES_LINKS.test(ctx.rootText);
  for (const a of traces) {
    // Message-like: a content argument by its name, or any other argument whose value is prose
    // (words with spaces that name nothing), whatever the tool calls it.
    if (a.role !== 'content' && !(a.role === 'other' && /\p{L}+\s+\p{L}+/u.test(a.value) && !nameLike(a.value.trim()))) continue;
    for (const m of a.value.matchAll(LINK)) {
      const link = m[0].replace(/[.,;:!?]+$/, '');
      if (authorisedByPolicy(ctx.policy, link)) continue;
      // A link an instruction in data asked to pass on is the instruction's, whatever the request shares.
      const ordered = ctx.injectedIndex.containingText(link, it.start)[0] ?? besideAnOrder(ctx, link, it.start);
      if (ordered !== undefined) {
        out.push({
          kind: 'link',
          argument: a.name,
          value: link,
          origin: ordered,
          ordered: true,
          why: `link ${link} in argument ${a.name} comes from an instruction in ${ctx.p.describe(ordered)}`,
        });
        continue;
      }
      if (sharesLinks) continue;
      const cov = ctx.p.index.coverage(link, it.start);
      const first = ctx.p.earliest(cov.firstSeen);
      if (first === undefined || first === ctx.root || !['tool', 'sink'].includes(ctx.p.itemOf.get(first)!.kind)) continue;
      out.push({
        kind: 'link',
        argument: a.name,
        value: link,
        origin: first,
        why: `link ${link} in argument ${a.name} first appears in ${ctx.p.describe(first)}`,
      });
    }
    for (const [node] of ctx.injectedIndex.linked(a.value, it.start)) {
      if (passedOnAsAsked(ctx, it, node) || carriedPlain(ctx, node, a)) continue;
      const passage = ctx.injections.get(node)?.passages ?? '';
      out.push({
        kind: 'instruction',
        argument: a.name,
        value: passage.slice(0, 120),
        origin: node,
        why: `argument ${a.name} carries the injected instructions of ${ctx.p.describe(node)} ("${passage.replace(/\s+/g, ' ').slice(0, 80)}")`,
      });
    }
  }
  return out;
}

/**
 * The accounts the records the request points to hold (a field a payee's name names: `iban`,
 * `account_number`, `bsb`), in reads made before `before`: where the request's own record says the
 * money goes (adjudicate.ts, contradictedTargets). Records only, not free text: a message that
 * gives new bank details is no record of them.
 */
export function payeesOnFile(ctx: SiteContext, before: number, traces: readonly ArgumentTrace[] = []): string[] {
  const reads = pointedPayees(ctx).filter((r) => r.end <= before);
  // Of several records (two invoices to pay), the one read by an identifier the call also gives is the call's.
  const ids = callIdentifiers(traces);
  const own = reads.filter((r) => r.ids.some((id) => ids.has(id)));
  const out = new Set<string>();
  for (const read of own.length > 0 ? own : reads) for (const v of read.payees) out.add(v);
  return [...out];
}

/**
 * The accounts a party's own record holds: a read made, before the call, with an identifier the
 * call also gives to name whom it pays (`fournisseur_id` "FRN-0211" in the payment and in the read
 * of supplier FRN-0211), whose record holds payees and no sum of its own. The party's record is
 * where its account is kept; an invoice or a message that gives another is no record of it
 * (adjudicate.ts, contradictedTargets).
 */
export function payeesOfParty(ctx: SiteContext, it: Item, traces: readonly ArgumentTrace[]): { party: string; payees: string[] }[] {
  const out: { party: string; payees: string[] }[] = [];
  for (const { read, by } of readsByIdentifier(ctx, it, traces)) {
    if (out.length >= 8) break;
    const { record } = itemReading(read);
    // A record that carries a sum (an invoice, an order) is a document that asks for money, not the party's own record.
    if (record === undefined || billsAnAmount(ctx.policy, read.tool ?? '', record)) continue;
    const payees = new Set<string>();
    payeesIn(ctx.policy, read.tool ?? '', record, payees, 0);
    if (payees.size) out.push({ party: by[0], payees: [...payees] });
  }
  return out;
}

/** The reads made before the call with an identifier the call also gives (`by`: those identifiers as the read gave them): the records of whom it acts on. */
function* readsByIdentifier(ctx: SiteContext, it: Item, traces: readonly ArgumentTrace[]): Generator<{ read: Item; by: string[] }> {
  const ids = callIdentifiers(traces);
  if (ids.size === 0) return;
  for (const read of ctx.p.itemOf.values()) {
    if ((read.kind !== 'tool' && read.kind !== 'sink') || read.end > it.start || !read.args) continue;
    const by = Object.values(read.args).filter((v): v is string => typeof v === 'string' && ids.has(v.trim().toUpperCase()));
    if (by.length > 0) yield { read, by };
  }
}
/** Whether a record's own fields (not those of records inside it) hold a sum. */
function billsAnAmount(policy: Policy, tool: string, record: unknown): boolean {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return false;
  return Object.entries(record)
    .slice(0, 200)
    .some(([k, v]) => (typeof v === 'number' || typeof v === 'string') && argumentRole(policy, tool, k, String(v)) === 'amount');
}

/** An identifier that names a party: letters or digits with a digit among them, no space, 3 to 40 characters. */
const PARTY_ID = /^(?=\S*\d)[\w.-]{3,40}$/;
/** The identifiers a call gives for what it acts on, upper case. */
const callIdentifiers = (traces: readonly ArgumentTrace[]) =>
  new Set(traces.filter((a) => a.role === 'object' && PARTY_ID.test(a.value)).map((a) => a.value.trim().toUpperCase()));

/** The reads the request points to with the payees their records hold, once per trace and request text. */
const POINTED_PAYEES = new WeakMap<Producers, Map<string, { end: number; payees: string[]; ids: string[] }[]>>();
function pointedPayees(ctx: SiteContext): { end: number; payees: string[]; ids: string[] }[] {
  let byRequest = POINTED_PAYEES.get(ctx.p);
  if (!byRequest) POINTED_PAYEES.set(ctx.p, (byRequest = new Map()));
  let reads = byRequest.get(ctx.rootText);
  if (reads) return reads;
  reads = [];
  for (const it of ctx.p.itemOf.values()) {
    if ((it.kind !== 'tool' && it.kind !== 'sink') || !it.args || !requestPointsAt(ctx.rootText, it)) continue;
    const { record } = itemReading(it);
    const payees = new Set<string>();
    if (record !== undefined) payeesIn(ctx.policy, it.tool ?? '', record, payees, 0);
    const ids = Object.values(it.args).filter((v): v is string => typeof v === 'string' && PARTY_ID.test(v.trim()));
    if (payees.size) reads.push({ end: it.end, payees: [...payees], ids: ids.map((v) => v.trim().toUpperCase()) });
  }
  byRequest.set(ctx.rootText, reads);
  return reads;
}

/**
 * The e-mail addresses and phone numbers (by their last eight digits) held by the records the
 * request names by a code (booking BK-25-1130, event EV-2025-0933), read before the call: the
 * contacts on file of the parties the request is about.
 */
export function contactsOnFile(ctx: SiteContext, before: number): { emails: Set<string>; phones: Set<string> } {
  const out = { emails: new Set<string>(), phones: new Set<string>() };
  for (const read of namedRecords(ctx))
    if (read.end <= before) {
      for (const e of read.emails) out.emails.add(e);
      for (const d of read.phones) out.phones.add(d);
    }
  return out;
}
const NAMED_RECORDS = new WeakMap<Producers, Map<string, { end: number; emails: string[]; phones: string[] }[]>>();
function namedRecords(ctx: SiteContext): { end: number; emails: string[]; phones: string[] }[] {
  let byRequest = NAMED_RECORDS.get(ctx.p);
  if (!byRequest) NAMED_RECORDS.set(ctx.p, (byRequest = new Map()));
  let reads = byRequest.get(ctx.rootText);
  if (reads) return reads;
  reads = [];
  const request = normalizeText(ctx.rootText);
  for (const it of ctx.p.itemOf.values()) {
    if ((it.kind !== 'tool' && it.kind !== 'sink') || !it.args || reads.length >= 64) continue;
    const named = Object.values(it.args).some(
      (v) => typeof v === 'string' && /\d/.test(v) && PARTY_ID.test(v.trim()) && v.trim().length >= 4 && within(request, normalizeText(v)),
    );
    if (!named) continue;
    const { record } = itemReading(it);
    if (record === undefined) continue;
    const emails: string[] = [];
    const phones: string[] = [];
    contactsIn(record, emails, phones, 0);
    if (emails.length + phones.length > 0) reads.push({ end: it.end, emails, phones });
  }
  byRequest.set(ctx.rootText, reads);
  return reads;
}
function contactsIn(x: unknown, emails: string[], phones: string[], depth: number): void {
  if (depth > 6 || emails.length + phones.length > 50 || x === null || typeof x !== 'object') return;
  const fields = Object.values(x as Record<string, unknown>);
  // A message's writer (a contact beside prose) is what the message says, not what the file holds.
  if (!Array.isArray(x) && fields.some((v) => typeof v === 'string' && isProse(v))) return;
  for (const v of fields) {
    if (typeof v !== 'string') contactsIn(v, emails, phones, depth + 1);
    else if (EMAIL.test(v.trim())) emails.push(v.trim().toLowerCase());
    else if (phoneLike(v)) phones.push(phoneKey(v));
  }
}

function payeesIn(policy: Policy, tool: string, x: unknown, out: Set<string>, depth: number): void {
  if (depth > 8 || out.size > 50 || x === null || typeof x !== 'object') return;
  for (const [k, v] of Array.isArray(x) ? x.map((v) => ['', v] as const) : Object.entries(x)) {
    if ((typeof v === 'string' || typeof v === 'number') && k && argumentRole(policy, tool, k, String(v)) === 'payee') out.add(String(v));
    else payeesIn(policy, tool, v, out, depth + 1);
  }
}
