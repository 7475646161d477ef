/**
 * Classification of a tool that neither a spec nor a policy rule labels (those come first,
 * classify.ts). Structure decides before words (docs/validator.md, "How the validator reads
 * tools, requests and traces"):
 *
 *   0. The operation a call chooses, where a tool named for a resource takes it as an argument
 *      its schema (or description) offers as a list of operations (operation.ts): `list` reads,
 *      `cancel` deletes, per call.
 *   1. MCP annotations. `readOnlyHint` makes a read of a tool none of whose arguments points out
 *      (a recipient, payee, amount, command or free text; a URL makes it a fetch, which classify.ts
 *      stages by its URL), and of one that also says `openWorldHint: false` and takes no payee,
 *      amount or command (an address there is a filter); a read-only tool that does take one is
 *      judged by what follows, as if it had no annotation. `destructiveHint`, or
 *      `readOnlyHint: false`, says it acts.
 *   2. The HTTP method its definition states: GET, HEAD and OPTIONS read, DELETE destroys, POST,
 *      PUT and PATCH act.
 *   3. The argument schema: the roles of its arguments (argument-roles.ts) say which sink a tool
 *      that acts is (a payee or amount: FINANCIAL_TRANSFER; a command: CODE_EXEC; a recipient or
 *      URL, unless `openWorldHint: false`: EXTERNAL_SEND; with `openWorldHint: true`, reaching
 *      others is a send too, unless the tool only destroys; else DESTRUCTIVE_WRITE), and whether it
 *      takes anything a sink needs at all.
 *   4. Last, the words of its name and description, and the evidence says they are a guess: the
 *      verb leading the name (`amend_standing_order`: change + money → FINANCIAL_TRANSFER), else
 *      the description's first verb ("Give a person access to a document" → share). Where
 *      structure says the tool acts, words only say which sink. A tool whose name says what it
 *      returns (`town_hotels`, `guest_feedback_list`) and that takes nothing a sink needs is a read,
 *      whatever verb its description happens to use ("Posts matching a query").
 *
 * A tool nothing places is staged fail-closed by what its arguments point at, unless it takes
 * nothing a sink needs: then it is read as a read, a guess the model's classification
 * (`taint-annotate`) may replace, as it may replace the fail-closed one.
 */
import {
  TIME_FORMATS,
  argumentRole,
  isFreeText,
  namesDestination,
  schemaProperty,
  structuralRole,
  type ArgumentRole,
} from './argument-roles.js';
import {
  isDataNoun,
  isReadNoun,
  objectKinds,
  sinksOfAction,
  sourcesOfRead,
  stem,
  words,
  type Category,
  type ObjectKind,
} from './lexicon.js';
import { bitOf, maskOf, type SinkLabel } from './labels.js';
import type { LabelEvidence } from './classify.js';
import type { Policy } from './policy.js';
import { SPANISH, toolLanguage, type Language } from './languages.js';
import { httpOperationOf, operationOf, type Operation } from './operation.js';
import { selectOnly } from './sql-query.js';

/** MCP tool annotations (hints a server gives about a tool). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  title?: string;
}

/** What a trace or a task says about a tool: its MCP / function definition. */
export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /** The HTTP method the tool calls with, where its definition states one (tools made from an OpenAPI operation). */
  method?: string;
}

export interface ToolProfile {
  sinks: number;
  sources: number;
  evidence: LabelEvidence[];
  /** The tool only reads. */
  read: boolean;
  /** A read of a directory (contacts, members, payees, tenants): its entries can name the request's targets. */
  directory: boolean;
  /** Nothing placed it: a fail-closed guess (or released by `unknown-tools: release`), which the model's classification may replace. */
  unknown: boolean;
  /** The verb the action was read from, for "the request uses the tool's own verb". */
  verb?: string;
  /** The verb of the operation the call chose (operation.ts): its kind of action, never "the tool's own verb". */
  operation?: string;
  /** The other words a request may use for the tool: the verbs its description offers ("Accept, counter or decline a rate", "Roll a container"), its name's words. */
  alsoVerbs?: string[];
  /** Its words say it sends something that carries money (a purchase order sent to a supplier): an order the request pays for. */
  paid?: true;
}

export interface ProfileOptions {
  verbOf: (word: string) => Category | undefined;
  /** The language the tool is written in (inItsLanguage), if another than English: its name's verb is its infinitive. */
  language?: Language;
}

/** The profile of `def` as called with `args` (flattened (name, value) pairs). */
export function profileTool(
  policy: Policy,
  def: ToolDefinition,
  args: readonly { name: string; value: string }[],
  opts: ProfileOptions,
): ToolProfile {
  opts = inItsLanguage(def, opts);
  const facts = argumentFacts(policy, def, args);
  const w = readWords(def, facts, opts);
  const stated = statedRead(def, facts);
  if (stated) return readProfile(w, stated);
  // A generic HTTP client's method decides whatever its name says; a resource tool's operation where its name says no action.
  const http = httpOperationOf(def, args, opts.verbOf);
  if (http) return operationProfile(http, facts, w);
  const op = operationOf(def, args, opts.verbOf);
  if (op && namesNoAction(w)) return operationProfile(op, facts, w);
  const effect = effectOf(def);
  const query = effect?.kind === 'read' || effect === undefined ? readingQuery(policy, def, args, facts) : undefined;
  if (query) return readProfile(w, query);
  const closed = closedRead(def, facts);
  const outward = closed ? undefined : pointsOut(facts, facts.roles);
  if (effect?.kind === 'read' && !outward) {
    const overruled = w.action.category ? `; ${w.where} reads like ${w.action.category}, a guess not taken over the structure` : '';
    return readProfile(w, `${effect.why}${closed ? CLOSED : NO_ARGUMENT_OUT}${overruled}`);
  }
  const outvoted = effect?.kind === 'acts' ? defaultHintOutvoted(def, facts, w) : undefined;
  if (outvoted) return readProfile(w, outvoted);
  if (effect && effect.kind !== 'read') return actingProfile(def, facts, w, effect);
  const trusted = effect ? `its readOnlyHint annotation is not taken, as ${outward}; ` : '';
  const reads = readByItsWords(def, facts, w, opts);
  if (reads) return readProfile(w, `${trusted}a guess: ${reads}`);
  if (w.action.category) {
    if (namesOnlyData(facts, w, opts))
      return readProfile(w, `${trusted}a guess from its name: it names data, and takes nothing a sink needs (${w.where} is not taken)`);
    return wordedSink(w, trusted, facts);
  }
  // A name and a description that both read, given an account or a card and no sum (`get_gift_card`
  // "Check a gift card by its number"): the account is what it looks up, not where money goes.
  if (w.byName.read && w.opensWithRead && looksUpAccount(facts.given))
    return readProfile(
      w,
      `${trusted}a guess from its name and its description, which both read: the account or card it is given is what it looks up`,
    );
  // A guess that it reads is not taken over an argument given that moves money or runs code (a
  // refund's IBAN and amount, whatever "Issue a refund for an order or return" seems to say).
  if (!movesSomething(facts.given)) {
    if (w.action.read) return readProfile(w, `${trusted}a guess from ${w.byName.read ? 'its name' : 'its description'}: it reads`);
    if (w.name.length > 0 && w.name.every((x) => isReadNoun(x) || /^\d+$/.test(x) || x === 'api' || x === 'tool'))
      return readProfile(w, `${trusted}a guess from its name: it is made of read nouns`);
    // A name that ends with a verb of reading (`ME2L_PO_LIST`, `claims_lookup`) says what the tool returns,
    // as readByShape reads it; a bare plural (`hermes`) may be a name, and leaves the tool unplaced.
    const last = w.name[w.name.length - 1] ?? '';
    if (opts.verbOf(last) === 'read' && namesOnlyData(facts, w, opts))
      return readProfile(w, `${trusted}a guess from its name: it names data, and takes nothing a sink needs (its last word reads)`);
  }
  return unplaced(policy, def, facts, w, trusted, opts);
}

/**
 * Why this call is a read whatever a name rule says, or undefined: the definition's structure says
 * it only reads (readOnlyHint, a GET) and no argument points out, or nothing says it acts and its
 * name says what it returns while it takes nothing a sink needs. What outranks the built-in
 * policy's rules on names (classify.ts).
 */
export function readByShape(
  policy: Policy,
  def: ToolDefinition,
  args: readonly { name: string; value: string }[],
  opts: ProfileOptions,
): string | undefined {
  opts = inItsLanguage(def, opts);
  // A description says no change only now and then: the arguments are read for it only when it does.
  const stated = NO_EFFECT.test((def.description ?? '').slice(0, 2_000)) ? statedRead(def, argumentFacts(policy, def, args)) : undefined;
  if (stated) return stated;
  // The operation is looked for first: most tools offer none, and then their words are read only where the structure leaves it open.
  const http = httpOperationOf(def, args, opts.verbOf);
  if (http) return http.read && !movesSomething(argumentFacts(policy, def, args).given) ? operationWhy(http) : undefined;
  const op = operationOf(def, args, opts.verbOf);
  let facts: ArgumentFacts | undefined;
  let w: Words | undefined;
  if (op) {
    facts = argumentFacts(policy, def, args);
    w = readWords(def, facts, opts);
    if (namesNoAction(w)) return op.read && !movesSomething(facts.given) ? operationWhy(op) : undefined;
  }
  const effect = effectOf(def);
  if (effect?.kind === 'acts') {
    facts ??= argumentFacts(policy, def, args);
    return defaultHintOutvoted(def, facts, (w ??= readWords(def, facts, opts)));
  }
  if (effect && effect.kind !== 'read') return undefined;
  facts ??= argumentFacts(policy, def, args);
  const query = readingQuery(policy, def, args, facts);
  if (query) return query;
  if (effect && closedRead(def, facts)) return `${effect.why}${CLOSED}`;
  if (effect) return pointsOut(facts, facts.roles) ? undefined : `${effect.why}${NO_ARGUMENT_OUT}`;
  w ??= readWords(def, facts, opts);
  const reads = readByItsWords(def, facts, w, opts);
  if (reads) return reads;
  return namesOnlyData(facts, w, opts) ? 'its name says what it returns and it takes nothing a sink needs' : undefined;
}

/**
 * A tool described in another language the validator reads, or named with one's infinitive
 * (`enviar_oferta`, `envoyer_courriel`, `gerarCobrancaPix`), is read with that language's verbs too
 * (languages.ts): only there, so that an English name that happens to spell a verb form of another
 * language keeps its English reading.
 */
function inItsLanguage(def: ToolDefinition, opts: ProfileOptions): ProfileOptions {
  const language = toolLanguage(words(withoutApp(def.name)), def.description ?? '');
  const tools = language?.tools;
  return tools ? { ...opts, verbOf: (w) => opts.verbOf(w) ?? tools.category(w), language } : opts;
}

/**
 * A name without the application it is offered for, in brackets after it, as automation platforms
 * show their actions ("Find Bill (Xero)", "Send Email (Gmail)"): what the action does is before it.
 */
function withoutApp(name: string): string {
  return name.slice(0, name.length - appOf(name).length);
}
/** The "(Xero)" of "Find Bill (Xero)", or '': it names what the action works in (a calendar, a mailbox), not what it does. */
function appOf(name: string): string {
  const at = name.lastIndexOf('(');
  return at > 0 && /^\([^()]{1,60}\)\s*$/.test(name.slice(at)) && name.slice(0, at).trim() !== '' ? name.slice(at) : '';
}

/**
 * Such a name's verb is its infinitive, wherever it stands (`turnos_agendar`, `agenda_consultar`:
 * "agenda" is the noun there); the name is read with it first.
 */
function nameWords(def: ToolDefinition, opts: ProfileOptions): string[] {
  const name = words(withoutApp(def.name));
  const at = opts.language?.tools?.infinitive(name) ?? -1;
  return at > 0 ? [name[at], ...name.slice(0, at), ...name.slice(at + 1)] : name;
}

/** What the call's arguments are, as far as the tool's effect goes. */
interface ArgumentFacts {
  names: Set<string>;
  roles: Set<ArgumentRole>;
  /** Roles shown by more than a name: the team's policy, the schema's format, the value's shape. */
  shown: Set<ArgumentRole>;
  /** An argument of free text (a body, a message): what a sink could carry out, where a query only selects. */
  freeText: boolean;
  /** A value that is prose (words in a sentence, not a name), whatever its argument is called: for a tool that acts, a message. */
  prose: boolean;
  /** An argument that says where the call sends to (`forward_to`, `cc`), holding an address: whatever else the call does, it sends. */
  sendsTo?: string;
  /** The roles of the arguments this call gives a value (the schema's others are only offered). */
  given: Set<ArgumentRole>;
  /**
   * Arguments whose names say nothing of what the call works on: a date or a time by their schema's
   * format or their value (`dueAt`: when, not what), and a money word over a value that is no sum.
   */
  timed: Set<string>;
  /** The names of the arguments this call gives a value. */
  givenNames: Set<string>;
}

function argumentFacts(policy: Policy, def: ToolDefinition, args: readonly { name: string; value: string }[]): ArgumentFacts {
  const names = new Set<string>(args.map((a) => a.name));
  for (const n of Object.keys(((def.inputSchema as { properties?: object } | undefined)?.properties ?? {}) as object)) names.add(n);
  const f: ArgumentFacts = {
    names,
    roles: new Set(),
    shown: new Set(),
    freeText: false,
    prose: false,
    given: new Set(),
    timed: new Set(),
    givenNames: new Set(),
  };
  for (const n of names) {
    const value = args.find((a) => a.name === n)?.value ?? '';
    const prop = schemaProperty(def.inputSchema, n);
    const role = argumentRole(policy, def.name, n, value, prop, [...names]);
    f.roles.add(role);
    if (value.trim() !== '') {
      f.given.add(role);
      f.givenNames.add(n);
    }
    const shown = structuralRole(policy, def.name, n, value, prop);
    if (shown) f.shown.add(shown);
    if ((role === 'content' || role === 'other') && isFreeText(n)) f.freeText = true;
    if ((role === 'content' || role === 'other') && PROSE.test(value)) f.prose = true;
    if (role === 'recipient' && /[@+\d]/.test(value) && namesDestination(n)) f.sendsTo ??= n;
    if (TIME_FORMATS.has((prop?.format ?? '').toLowerCase()) || ISO_DATE.test(value)) f.timed.add(n);
    // A money word over a value that is no sum (`fee_waiver` "INVOL-SKCHG") picks a kind: the call moves no money by it.
    else if (role === 'choice' && value.trim() !== '' && objectKinds(words(n)).has('money')) f.timed.add(n);
  }
  // A value given inside a list or an object (`guests: [{name}]`) gives the argument that holds it:
  // the one whose schema declares it, or any list or object that declares nothing inside.
  const top = ((def.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}) as Record<string, SchemaLike>;
  for (const n of [...f.givenNames].filter((x) => !(x in top)))
    for (const [t, p] of Object.entries(top)) if (p && typeof p === 'object' && holds(p, n)) f.givenNames.add(t);
  return f;
}

type SchemaLike = { type?: unknown; properties?: unknown; items?: SchemaLike };
/** Whether a top-level argument's schema holds a nested value of this name (or, declaring nothing inside, may). */
function holds(p: SchemaLike, name: string): boolean {
  if (schemaProperty(p as Record<string, unknown>, name) ?? schemaProperty(p.items as Record<string, unknown> | undefined, name))
    return true;
  const container = p.type === 'array' || p.type === 'object';
  return container && p.properties === undefined && (p.items === undefined || p.items.properties === undefined);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Whether the call moves money by its arguments: a payee or an amount among those it gives, where it
 * gives any (a consolidated tool's schema offers the amounts of its other operations: an `update`
 * with an ETA moves none), else among those its schema offers.
 */
function givesMoney(f: ArgumentFacts): boolean {
  const roles = f.given.size > 0 ? f.given : f.roles;
  return roles.has('payee') || roles.has('amount');
}

/**
 * A change that names where it sends (a mail forward, a copy to): a send as well as whatever its
 * words guessed, since the data it moves leaves to that address; and one that takes a payee and an
 * amount, a payment as well.
 */
function withItsDestination(mask: number, why: string, f: ArgumentFacts): { mask: number; why: string } {
  const sends =
    f.sendsTo === undefined || mask & SEND_BIT
      ? { mask, why }
      : { mask: mask | SEND_BIT, why: `${why}; argument ${f.sendsTo} names where it sends: EXTERNAL_SEND too` };
  // One that takes an account to pay and a sum moves money, whatever its words say ("payout-send").
  if (sends.mask & PAY_BIT || !f.roles.has('payee') || !f.roles.has('amount')) return sends;
  return { mask: sends.mask | PAY_BIT, why: `${sends.why}; it takes a payee and an amount: FINANCIAL_TRANSFER too` };
}
const SEND_BIT = maskOf(['EXTERNAL_SEND']);
const PAY_BIT = maskOf(['FINANCIAL_TRANSFER']);

/** Prose: at least four words in a row with a space between each, one of them lower-case (a sentence, not "Riverside View Hotel"). */
const PROSE = /(?=[^\n]*\b\p{Ll}{2,})\p{L}+(?:[,;:]?\s+\p{L}+){3,}/u;

/** Why a read-only tool is a read: none of its arguments points out, or its server keeps it in its own system (closedRead). */
const NO_ARGUMENT_OUT = ', and no argument points out';
const CLOSED = ', and its openWorldHint: false keeps it inside its own system: an address or text it takes is a filter';

/**
 * A read its server says stays inside its own system (`readOnlyHint` and `openWorldHint: false`)
 * and that moves no money and runs no code: an address or a text it takes is a filter ("mail from
 * ana@…", a search query), since by the server's word nothing leaves and nothing changes.
 */
function closedRead(def: ToolDefinition, f: ArgumentFacts): boolean {
  const a = def.annotations ?? {};
  return a.readOnlyHint === true && a.openWorldHint === false && !movesSomething(f.roles);
}

/** Roles that point a call somewhere or make it move money or run code. */
const OUTWARD: readonly ArgumentRole[] = ['recipient', 'payee', 'amount', 'command'];

/** Which of `roles` (or a free-text argument) points out, said for the evidence; undefined when none does. */
function pointsOut(f: ArgumentFacts, roles: ReadonlySet<ArgumentRole>): string | undefined {
  const out: string[] = OUTWARD.filter((r) => roles.has(r)).map((r) => `a ${r}`);
  if (f.freeText) out.push('free text');
  return out.length ? `it takes ${out.join(', ')}` : undefined;
}

interface Effect {
  kind: 'read' | 'acts' | 'destructive';
  why: string;
}

/**
 * A description that opens with the route the tool calls ("POST /inspections - Schedule an
 * inspection …", "GET /applications/{id}: …"), as tools generated from an OpenAPI document write
 * it: the method is stated there, and the description proper follows.
 */
const ROUTE = /^\s*(GET|HEAD|OPTIONS|POST|PUT|PATCH|DELETE)\s+\/[^\s]{0,300}\s*(?:[-–—:]\s*)?/;

/**
 * Why a tool whose only sign of acting is `readOnlyHint: false` reads, or undefined: that is MCP's
 * default, which servers leave on tools that only read; where its name's verb and its
 * description's opening verb both read ("einsatzplanHolen", "Zeigt geplante Einsätze …") and the
 * call takes nothing a sink needs, the words outvote it. A destructive hint or an HTTP method
 * that acts is never outvoted.
 */
function defaultHintOutvoted(def: ToolDefinition, f: ArgumentFacts, w: Words): string | undefined {
  const a = def.annotations ?? {};
  if (a.readOnlyHint !== false || a.destructiveHint === true || def.method !== undefined || ROUTE.test(def.description ?? ''))
    return undefined;
  if (!w.byName.read || !w.opensWithRead || pointsOut(f, f.roles) || movesSomething(f.given)) return undefined;
  return `its annotations say it is not read-only, MCP's default; its name (${w.name.join(' ')}) and its description ("${w.desc.slice(0, 4).join(' ')}") both read, and it takes nothing a sink needs`;
}

/** The description without a route it opens with (ROUTE). */
const withoutRoute = (description: string | undefined) => description?.replace(ROUTE, '');

/** What the definition's structure says the tool does: its annotations, then its HTTP method (stated, or opening its description). */
/**
 * Why a tool reads by what its description states of it, or undefined: it says it makes no change
 * ("Quote a change, upgrade or refund … No booking is made", "Dry run: nothing is sent") and no
 * annotation says otherwise, and the call gives nothing that moves money or reaches anyone. Its
 * arguments then say what it quotes or previews (an `action: refund` enum), not what it does.
 */
function statedRead(def: ToolDefinition, f: ArgumentFacts): string | undefined {
  const a = def.annotations ?? {};
  if (a.readOnlyHint === false || a.destructiveHint === true) return undefined;
  const m = NO_EFFECT.exec((def.description ?? '').slice(0, 2_000));
  if (!m || movesSomething(f.given) || f.given.has('recipient') || f.given.has('url')) return undefined;
  return `its description says it makes no change ("${m[0]}")`;
}
const NO_EFFECT =
  /\b(?:no (?:booking|reservation|change|charge|payment|order|record|message|email|ticket)s? (?:is|are|will be|gets?) (?:made|created|placed|charged|changed|sent|saved|booked|issued)|nothing is (?:booked|charged|sent|saved|changed|created|submitted)|does not (?:book|charge|change|create|modify|send|save|submit|commit|issue|place)|(?:dry[- ]run|preview) only|read[- ]only)\b/i;

function effectOf(def: ToolDefinition): Effect | undefined {
  const a = def.annotations ?? {};
  if (a.readOnlyHint === true) return { kind: 'read', why: 'its readOnlyHint annotation says it only reads' };
  if (a.destructiveHint === true) return { kind: 'destructive', why: 'its destructiveHint annotation says it destroys or overwrites' };
  if (a.readOnlyHint === false) return { kind: 'acts', why: 'its annotations say it is not read-only' };
  const m = (def.method ?? ROUTE.exec(def.description ?? '')?.[1])?.trim().toUpperCase();
  if (m === 'GET' || m === 'HEAD' || m === 'OPTIONS') return { kind: 'read', why: `its HTTP method ${m} only reads` };
  if (m === 'DELETE') return { kind: 'destructive', why: 'its HTTP method DELETE deletes' };
  if (m === 'POST' || m === 'PUT' || m === 'PATCH') return { kind: 'acts', why: `its HTTP method ${m} changes something` };
  return undefined;
}

interface Words {
  name: string[];
  /** The description's first clause, its route left out. */
  clause: string[];
  desc: string[];
  byName: Action;
  action: Action;
  objects: Set<ObjectKind>;
  money: boolean;
  /** Where the action was read: "its name (send)" or its description's first clause. */
  where: string;
  /** The description's action verb is used as a verb: an article or a pronoun follows it. */
  descVerbUsed: boolean;
  /** The name is a compound noun (`order_sheet`): what the tool returns (compoundNoun). */
  compound: boolean;
  /** The verbs the description's first clause opens with (leadVerbs). */
  lead: string[];
  /** The description names what the tool returns ("The roll-call register of a class …"). */
  nounPhrase: boolean; /** The description opens with a verb of reading ("Returns a client's pay run …", "Calculates the draft …"). */
  opensWithRead: boolean;
  /** The name ends with a verb of reading after the thing it reads (`transferLookup`, `order_status_check`). */
  endsWithRead: boolean;
}

interface Action {
  category?: Category;
  verb?: string;
  read: boolean;
}

/** The methods an HTTP route's generated name opens with. */
const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
/** Of those, the methods that read (a route named for one reads, as its method does). */
const READ_METHODS = new Set(['get', 'head']);
/** The forms of "be" before a participle that tells what was done to a thing. */
const PASSIVE_BE = new Set(['was', 'were', 'been']);

/** The words of the name and the description, and the action they name (a guess: names are chosen by people). */
function readWords(def: ToolDefinition, f: ArgumentFacts, opts: ProfileOptions): Words {
  const name = nameWords(def, opts);
  const clause = words(firstClauseText(withoutRoute(def.description)));
  // The clause without the words that only say "this tool lets you".
  const desc = clause.filter((w) => !FILLER.has(w));
  // "A booking with its crossings …", "The shopper's profile", "Documents uploaded to a claim by …":
  // a description that names what the tool returns.
  const nounPhrase =
    (DETERMINERS.has(clause[0] ?? '') && !FILLER.has(clause[1] ?? '')) ||
    reducedRelative(clause, opts.verbOf) ||
    (opts.language === SPANISH && spanishReducedRelative(clause, opts));
  // A description that names what the tool returns says no action: a verb-like word in it is part of a noun ("the plan and its add-ons").
  const byDesc = nounPhrase ? { read: false } : actionOf(desc, opts.verbOf, false, opts.language === undefined);
  const named = verbLast(name, opts.verbOf, byDesc, nounPhrase, f) ?? serviceLed(name, opts.verbOf) ?? actionOf(name, opts.verbOf, true);
  const compound = compoundNoun(name, named, byDesc, nounPhrase, opts);
  const led = compound || nounLed(name, named, f, opts) ? { read: false } : named;
  const byName = led.category || led.read ? led : (prefixedAction(name, opts.verbOf, byDesc) ?? led);
  // A name's generic "change" (put, set, update) gives way to a description that says what kind of change: sharing, paying, sending.
  // A name generated from an HTTP route (`post_jobs_notes`, `put_users_roles`) leads with the method: POST
  // creates, it does not publish; the description says what the route does ("Create a note on a job").
  // A GET route reads whatever its description's later words seem to say ("… where it was sold").
  const routed =
    HTTP_METHODS.has(name[0] ?? '') && !READ_METHODS.has(name[0]) && name.length >= 2 && (byDesc.category !== undefined || byDesc.read);
  const refined = routed || (byName.category === 'change' && byDesc.category !== undefined && byDesc.category !== 'change');
  const fromName = !refined && (byName.category !== undefined || byName.read);
  const action = addressless(deliveredTo(messageWritten(fromName ? byName : byDesc, fromName ? name : desc), def), def, f);
  // The arguments the call gives speak for it where it gives any (a consolidated tool's schema names
  // the fields of all its operations); a date's name says when, not what.
  const argNames = [...(f.givenNames.size > 0 ? f.givenNames : f.names)].filter((n) => !f.timed.has(n));
  const app = words(appOf(def.name));
  const own = [...name, ...app, ...desc, ...argNames.flatMap((n) => words(n))].filter((x) => x !== action.verb);
  const objects = objectKinds(own);
  if (opts.language) for (const k of opts.language.objects(own)) objects.add(k);
  // Access changes hands only when the call names who gets it (a recipient) or what access (an
  // argument named for it: role, permission, member): changing a member's own details grants nothing.
  if (!f.roles.has('recipient') && ![...f.names].some((n) => objectKinds(words(n)).has('access'))) objects.delete('access');
  const money = givesMoney(f) || objectKinds(desc).has('money');
  const where =
    byName.category && !refined
      ? `its name (${byName.verb})`
      : `its description ("${(withoutRoute(def.description) ?? '').split(/[.;\n]/)[0].slice(0, 60)}")`;
  const at = byDesc.verb === undefined ? -1 : clause.indexOf(byDesc.verb);
  const descVerbUsed = at >= 0 && DETERMINERS.has(clause[at + 1] ?? '');
  const lead = nounPhrase ? [] : leadVerbs(firstClauseText(withoutRoute(def.description)));
  // The words the tool's own name and description use, known to the lexicon or not: the description's
  // opening verb where an object follows ("Roll a container …", "Dockets a deadline …") and the name's
  // words (`cloud_scale_service`, `lodge_pension_submission`, `SupporterNoteAdd`). A request that uses
  // one as its verb, or as the thing its verb acts on, asks for the tool (adjudicate.ts, "mentioned").
  if (
    !nounPhrase &&
    clause.length > 1 &&
    !DETERMINERS.has(clause[0]) &&
    !ARTICLES.has(clause[0]) &&
    (DETERMINERS.has(clause[1]) || ARTICLES.has(clause[1])) &&
    opts.verbOf(clause[0]) !== 'read'
  )
    lead.push(clause[0]);
  for (const x of [...name, ...app])
    if (x.length >= 4 && x !== action.verb && opts.verbOf(x) !== 'read' && !NAME_FILLER.has(x) && !lead.includes(x)) lead.push(x);
  const opensWithRead = !nounPhrase && desc.length >= 3 && opts.verbOf(desc[0]) === 'read';
  const endsWithRead = name.length >= 2 && opts.verbOf(name[name.length - 1]) === 'read';
  return {
    name,
    clause,
    desc,
    byName,
    action,
    objects,
    money,
    where,
    descVerbUsed,
    compound,
    lead,
    nounPhrase,
    opensWithRead,
    endsWithRead,
  };
}

/** Words of a name that name no action or thing: how it is offered (`offer_tool`, `crm_api`). */
const NAME_FILLER = new Set('tool tools api data info item items list with from into'.split(' '));

const PARTICIPLES = new Set('sent made given taken written shown kept held bought sold paid found told left put set'.split(' '));
const AFTER_PARTICIPLE = new Set('to in into by from with on for at under against through about'.split(' '));

/**
 * A noun with a participle and a preposition after it ("Documents uploaded to a claim by …",
 * "Emails received in the mailbox", "Messages sent to a channel"): the description names things
 * by what happened to them, and so says what the tool returns, not what it does; so does a list
 * of nouns before one ("Payments, deposits and refunds recorded against a trip"). A verb followed
 * by a participle takes a noun after it ("Sends queued messages", "Delete selected rows").
 */
function reducedRelative(clause: readonly string[], verbOf: ProfileOptions['verbOf']): boolean {
  // The nouns may be a list: "Payments, deposits and refunds recorded against a trip"; a verb of
  // reading before them makes them its object ("Shows transfers booked for a reservation").
  if (verbOf(clause[0] ?? '') === 'read') return false;
  const at = clause.findIndex(
    (w, i) => i > 0 && i <= 6 && (PARTICIPLES.has(w) || (w.length > 4 && w.endsWith('ed'))) && AFTER_PARTICIPLE.has(clause[i + 1] ?? ''),
  );
  return at > 0 && (at === 1 || clause.slice(0, at).every((w) => w === 'and' || w === 'or' || /[^su]s$/.test(w)));
}

/**
 * The same in Spanish: nouns and a participle with a preposition after it ("Correos y WhatsApp
 * recibidos en la bandeja compartida", "Pagos registrados por propiedad"), no verb before it.
 */
function spanishReducedRelative(clause: readonly string[], opts: ProfileOptions): boolean {
  const at = clause.findIndex(
    (w, i) => i > 0 && i <= 5 && /^[a-z]{3,}[ai]d[oa]s?$/.test(w) && AFTER_PARTICIPLE_ES.has(clause[i + 1] ?? ''),
  );
  return at > 0 && clause.slice(0, at).every((w) => w === 'y' || w === 'o' || opts.verbOf(w) === undefined);
}
const AFTER_PARTICIPLE_ES = new Set('en de del por a al desde con para entre hacia'.split(' '));

/**
 * The verbs a description's first clause opens with when it offers several, joined by commas,
 * "and" or "or" before the object ("Accept, counter or decline a broker's rate confirmation"
 * offers three): a request that asks with any of them asks for what the tool does, a word the
 * lexicon need not know. One verb followed by its object offers nothing more.
 */
function leadVerbs(clause: string): string[] {
  const m = LEAD_VERBS.exec(clause);
  return m ? words(m[1]).filter((x) => x !== 'and' && x !== 'or') : [];
}
const LEAD_VERBS =
  /^\s*([a-z]+(?:\s*,\s*[a-z]+)*\s*,?\s+(?:and|or)\s+[a-z]+)\s+(?:a|an|the|this|that|these|those|one|its|their|your|\w+['’]s)\b/i;

/** The verb a profile was read from and the others its description offers. */
function verbsOf(w: Words): Pick<ToolProfile, 'verb' | 'alsoVerbs'> {
  const also = w.lead.filter((x) => x !== w.action.verb);
  return { ...(w.action.verb ? { verb: w.action.verb } : {}), ...(also.length ? { alsoVerbs: also } : {}) };
}

/**
 * A send needs someone to send to and something to send: a tool whose words say "send"
 * (`dispatchWorkflow`, `notify_build`) but whose schema takes no recipient, no link, no free text
 * and no prose carries nothing of the caller's anywhere; it sets something off in its own system, a change.
 */
function addressless(action: Action, def: ToolDefinition, f: ArgumentFacts): Action {
  // Only a schema shows what the tool takes: a call's values alone may leave a recipient unseen (a list of user names).
  const schema = (def.inputSchema as { properties?: object } | undefined)?.properties;
  // A server that says the tool reaches the outside world (openWorldHint) has it send, whatever it takes.
  if (action.category !== 'send' || schema === undefined || def.annotations?.openWorldHint === true) return action;
  if (f.roles.has('recipient') || f.roles.has('url') || f.freeText || f.prose) return action;
  return { ...action, category: 'change' };
}

/**
 * Whether a name led by a word that is a noun as well as a verb (`order`, `booking`, `post`) is a
 * compound noun (`order_sheet`, `booking_record`: what the tool returns) rather than a verb and
 * its object (`update_autopay_amount`): its description names what the tool returns ("One order
 * with its lines", "A booking with its crossings") or opens with a read, and no word after the
 * first is a verb.
 */
function compoundNoun(name: readonly string[], led: Action, byDesc: Action, nounPhrase: boolean, opts: ProfileOptions): boolean {
  if (!led.category || name.length < 2 || name[0] !== led.verb || !nounToo(led.verb)) return false;
  if (!nounPhrase && !(byDesc.read && byDesc.category === undefined)) return false;
  return name.slice(1).every((x) => opts.verbOf(x) === undefined);
}

/**
 * A name that puts its verb last, after the thing it acts on (`faxGet`, `payment_transaction_list`,
 * `activityBook`): the convention of APIs named resource first. A last word that reads (`get`,
 * `list`) is the verb when the description reads too ("Returns the OCR text of a fax"); a last word
 * of another action when the first word is no verb or a noun as well and the description's own
 * verb says the same action ("Books tickets"), or nothing else speaks (no verb before it, no action
 * in the description). A name led by a verb and nothing else (`send_email`, `dispatch_mail`) keeps
 * it; a description that names what the tool returns ("The loss adjuster's report") leaves none.
 */
function verbLast(
  name: readonly string[],
  verbOf: ProfileOptions['verbOf'],
  byDesc: Action,
  nounPhrase: boolean,
  f: ArgumentFacts,
): Action | undefined {
  if (name.length < 2) return undefined;
  const last = name[name.length - 1];
  const c = verbOf(last);
  if (c === undefined || (last.endsWith('s') && verbOf(last.slice(0, -1)) !== undefined)) return undefined;
  if (nounPhrase && c !== 'read') return undefined;
  if (c === 'read') {
    if (byDesc.category !== undefined) return undefined;
    // Named resource first and verb last (`orderGet`, `messageGet`, `sharedListGet`): the words
    // before the verb name the thing read, a participle ("shared") describes it, where the tool
    // takes nothing a sink needs.
    const thing = (x: string) => verbOf(x) === undefined || verbOf(x) === 'read' || nounToo(x) || /[^e]ed$/.test(x);
    const named = name.slice(0, -1).every(thing) && pointsOut(f, f.roles) === undefined;
    return byDesc.read || named ? { read: true, verb: last } : undefined;
  }
  // A first word in -ing is a noun there (`viewing-book`, `billing_update`): a name's verb is an imperative.
  if (verbOf(name[0]) !== undefined && !nounToo(name[0]) && !/[^aeiou]ing$/.test(name[0])) return undefined;
  const agrees = byDesc.category === c;
  // Where nothing else speaks, a last word that names a thing too (`lista_wiadomosci_email`) is that
  // thing unless the tool takes what the action needs: someone to reach or money to move.
  const silent =
    byDesc.category === undefined &&
    !byDesc.read &&
    name.slice(0, -1).every((x) => verbOf(x) === undefined) &&
    (!nounToo(last) || !MOVES_OUT.has(c) || pointsOut(f, f.roles) !== undefined || f.freeText);
  return agrees || silent ? { category: c, verb: last, read: false } : undefined;
}

/**
 * A name led by a word that names a thing as well as an outward action (`email_lesen`,
 * `message_abrufen`), with only words the lexicon does not know after it, for a tool that takes
 * nothing that action needs (no one to reach, no money, no free text): the word names what the
 * tool works on, in a language whose verbs are not read here. As `lista_wiadomosci_email` keeps
 * its last word (verbLast), such a name says no action and the structure decides.
 */
function nounLed(name: readonly string[], named: Action, f: ArgumentFacts, opts: ProfileOptions): boolean {
  if (name.length < 2 || named.verb !== name[0] || named.category === undefined || !MOVES_OUT.has(named.category)) return false;
  if (!nounToo(name[0]) || pointsOut(f, f.roles) !== undefined) return false;
  return name.slice(1).every((w) => opts.verbOf(w) === undefined && !nounToo(w));
}

/**
 * A name led by its service, a word that names a thing as well as an action (`mail_list_inbox`,
 * `mail_read_message`, `order_cancel_line`), with a verb right after it and a word after that: the
 * verb is the second word, as `hris_update_employee` has it.
 */
function serviceLed(name: readonly string[], verbOf: ProfileOptions['verbOf']): Action | undefined {
  if (name.length < 3 || verbOf(name[0]) === undefined || !nounToo(name[0])) return undefined;
  const c = verbOf(name[1]);
  if (c === undefined || /(?:s|ed|ing)$/.test(name[1])) return undefined;
  return c === 'read' ? { read: true, verb: name[1] } : { category: c, verb: name[1], read: false };
}

/** A word that also names a thing: an object of an action (money, a message, a booking) or data a read returns. */
function nounToo(word: string): boolean {
  return objectKinds([word]).size > 0 || isDataNoun(word);
}

/**
 * Writing a message delivers it: a tool that writes a message, a note or a reply (a channel's
 * "Write a message into a channel") is a send, as the request side reads "write them a message"
 * (intent.ts); editing or updating one stays a change. Only the words the action was read from
 * count (its name, or its description's first clause): an `email` argument is an address.
 */
function messageWritten(action: Action, own: readonly string[]): Action {
  if (action.category !== 'change' || action.verb === undefined || stem(action.verb) !== stem('write')) return action;
  const kinds = objectKinds(own.filter((x) => x !== action.verb));
  return kinds.has('message') && !kinds.has('publication') ? { ...action, category: 'send' } : action;
}

/**
 * A post the description says is e-mailed or sent to someone ("Post a public reply on a ticket
 * (emailed to the customer)") reaches that someone: a send, not a publication.
 */
function deliveredTo(action: Action, def: ToolDefinition): Action {
  if (action.category !== 'publish' || !DELIVERED.test((def.description ?? '').slice(0, 2000))) return action;
  return { ...action, category: 'send' };
}
const DELIVERED =
  /\b(?:e-?mailed|sent|texted|messaged|delivered|forwarded)\s+(?:directly\s+|straight\s+)?to\s+(?:the|a|an|its|their|each)\s+[a-z]+/i;

/** The articles of the other languages whose descriptions open "Verb + article" ("Dépose un rapport", "Crea una cita", "Legt einen Termin an"). */
const ARTICLES = new Set(
  'un une le la les des du el los las una unos unas um uma uns umas os il lo gli der die das den dem des ein eine einen einem een het de'.split(
    ' ',
  ),
);

const DETERMINERS = new Set(
  'the a an this that these those your my our their its his her every all each some any one new given'.split(' '),
);

/**
 * A name that says what the tool returns rather than what it does. Its head (the last word, or the
 * last before a preposition: `orders_by_customer`) is data: a plural (`town_hotels`, `posts`), a
 * read noun or verb (`details`, `list`), or a data noun that is not a thing one sends in the
 * singular (`activity`, `feedback`; not `message`, `post`). Asked only of names no action verb
 * leads.
 */
function namesData(name: readonly string[], opts: ProfileOptions): boolean {
  const cut = name.findIndex((x, i) => i > 0 && PREPOSITIONS.has(x));
  const at = (cut < 0 ? name.length : cut) - 1;
  const head = name[at];
  if (head === undefined) return false;
  if (/[a-z]{2}[^siu]s$/.test(head) || isReadNoun(head) || opts.verbOf(head) === 'read') return true;
  const kinds = objectKinds([head]);
  return isDataNoun(head) && !kinds.has('message') && !kinds.has('publication');
}

const OUTWARD_ACTIONS: ReadonlySet<Category> = new Set(['send', 'share', 'publish', 'pay', 'delete', 'exec']);

/**
 * The action of a name whose verb sits behind a service prefix (`gmail_delete_messages`,
 * `crm_send_invoice`): a word in base form that the lexicon knows as a verb of an outward action,
 * where no verb leads the name. A word that is also a noun for what is sent (`post`, `email`,
 * `transfer`) is the verb only when the description opens with it as its verb ("Transfer funds to
 * another account"): `BankTransferFunds` so described acts, `bank_transfer_fees` reads.
 */
function prefixedAction(name: readonly string[], verbOf: ProfileOptions['verbOf'], byDesc: Action): Action | undefined {
  for (const [i, w] of name.entries()) {
    // After a participle a word is a noun: `exchange_delivered_order_items` orders nothing.
    if (i === 0 || name[i - 1].endsWith('ed')) continue;
    const c = verbOf(w);
    if (!c || !OUTWARD_ACTIONS.has(c) || /(?:s|ed|ing)$/.test(w)) continue;
    if (!nounToo(w) || (byDesc.verb !== undefined && stem(byDesc.verb) === stem(w))) return { category: c, verb: w, read: false };
  }
  return undefined;
}

/**
 * A tool that names data and takes nothing a sink needs: a sink only by its name's own verb, or by
 * a description that uses its verb as one ("Adds the attendees", not "Posts matching a query").
 */
function namesOnlyData(f: ArgumentFacts, w: Words, opts: ProfileOptions): boolean {
  return w.byName.category === undefined && !w.descVerbUsed && (w.compound || namesData(w.name, opts)) && !pointsOut(f, f.shown);
}

/**
 * Why a tool that nothing structural places reads by its words, whatever a built-in rule on its
 * name says (profileTool, readByShape), or undefined: its description opens with a read
 * (describedAsRead), or its name's verb runs no code (runsNoCode).
 */
function readByItsWords(def: ToolDefinition, f: ArgumentFacts, w: Words, opts: ProfileOptions): string | undefined {
  if (describedAsRead(f, w)) return `its description opens with a read ("${w.desc[0]}"), ${nameSays(w)}, and it takes nothing a sink needs`;
  if (runsNoCode(def, f, w, opts))
    return `its name's verb (${w.action.verb}) runs no code here (it takes none) and its description says it returns data`;
  return undefined;
}

/**
 * A tool named for running something that takes no code ("reportRun", "compile_payroll_register",
 * "pull_pension_schedule") and whose description says what it gives back ("… and returns rows as
 * JSON", "Produces the payroll register as CSV"): the verb runs a report or builds a document, and
 * what comes back is data. With a command, a code argument or free text it stays code.
 */
function runsNoCode(def: ToolDefinition, f: ArgumentFacts, w: Words, opts: ProfileOptions): boolean {
  if (w.action.category !== 'exec' || f.roles.has('command') || pointsOut(f, f.roles)) return false;
  return words((def.description ?? '').slice(0, 2000)).some((x) => GIVES_BACK.has(x) || (x.endsWith('s') && opts.verbOf(x) === 'read'));
}
/** Verbs of a description that say a tool hands something back, beside the lexicon's verbs of reading. */
const GIVES_BACK = new Set(['produces', 'generates', 'builds', 'outputs', 'prints', 'returns']);

const nameSays = (w: Words) =>
  w.byName.category === undefined ? 'its name says no action' : `its name ends with a read ("${w.name[w.name.length - 1]}")`;

/**
 * A tool whose description opens with a verb of reading ("Returns …", "Lists …", "Shows …") and
 * whose name names no action (`payrollsummary`, `basdraft`) or ends with a verb of reading after
 * what it reads (`transferLookup`: its first word a noun there, whatever else it spells), taking
 * nothing a sink needs (where the name reads as well, an address is a filter): it reads, whatever
 * a later word of the description or a rule on names says.
 */
function describedAsRead(f: ArgumentFacts, w: Words): boolean {
  // A name whose action moves something out (`wire_lst`: wire is a payment) moves nothing without
  // a payee, an amount, a recipient or content: taking none, the tool reads as its description says.
  const outward = w.byName.category !== undefined && MOVES_OUT.has(w.byName.category);
  if (!w.opensWithRead || (w.byName.category !== undefined && !w.endsWithRead && !outward)) return false;
  // Where the name reads too (`licenses-assignments-list`, `whatsapp_leer`), an address it takes says whose data it reads: a filter.
  const roles = w.endsWithRead || w.byName.read ? new Set([...f.roles].filter((r) => r !== 'recipient')) : f.roles;
  return !pointsOut(f, roles);
}

/**
 * A name that says no action: no verb, a plural noun the lexicon also reads as a verb (`payments`,
 * `messages`, `refunds`: a name's verb is an imperative, which ends in no plural -s), or one word
 * beside an argument that offers operations (`email` with `method: search | read | send`: the
 * resource, its operations chosen per call).
 */
const namesNoAction = (w: Words) =>
  (w.byName.category === undefined && !w.byName.read) ||
  (w.byName.verb !== undefined && /[^s]s$/.test(w.byName.verb)) ||
  w.name.length === 1;

/**
 * Why a call reads by the statement it runs, or undefined: the code it takes is one SELECT that
 * only reads (sql-query.ts), and nothing else it takes reaches anyone or moves money.
 */
function readingQuery(
  policy: Policy,
  def: ToolDefinition,
  args: readonly { name: string; value: string }[],
  f: ArgumentFacts,
): string | undefined {
  if (f.given.has('recipient') || f.given.has('payee') || f.given.has('amount') || f.given.has('url')) return undefined;
  // The code it takes: an argument that runs (a command), or one that holds a query whatever it is called.
  const code = args.filter(
    (a) =>
      SQL_START.test(a.value) ||
      (a.value.trim() !== '' && argumentRole(policy, def.name, a.name, a.value, schemaProperty(def.inputSchema, a.name)) === 'command'),
  );
  if (code.length === 0 || !code.every((a) => selectOnly(a.value))) return undefined;
  return `its argument ${code[0].name} is one SELECT statement that only reads: the call reads, whatever its words say of running code`;
}

const SQL_START = /^\s*\(?\s*(?:select|with)\s/i;

/** Why the call's operation decides (operation.ts). */
const operationWhy = (op: Operation) =>
  `its argument ${op.argument} chooses "${op.value}" (${op.read ? 'a read' : op.category}) among the operations its schema offers (${op.offered.slice(0, 8).join(', ')}${op.offered.length > 8 ? ', …' : ''})`;

/** An account or a card given with nothing that moves money to it or reaches anyone: no sum, no command, no recipient, no link. */
const looksUpAccount = (roles: ReadonlySet<ArgumentRole>) =>
  roles.has('payee') && !(['amount', 'command', 'recipient', 'url'] as const).some((r) => roles.has(r));
/** A payee, an amount or a command: what a reading operation never takes (an address there is a filter). */
const movesSomething = (roles: ReadonlySet<ArgumentRole>) => (['payee', 'amount', 'command'] as const).some((r) => roles.has(r));

/**
 * A call whose operation the schema offers as an argument's value: a reading operation reads
 * (unless it moves money or runs code), whatever the tool's annotations say of the tool as a whole
 * (a server marks a tool by most of its operations); an acting one is the sink its verb is.
 */
function operationProfile(op: Operation, f: ArgumentFacts, w: Words): ToolProfile {
  if (op.read && !movesSomething(f.given)) return readProfile(w, operationWhy(op));
  const action: Action = { category: op.category ?? 'change', verb: op.verb, read: false };
  // Access changes hands where the operation says so (`invite`, `add_member`, `grant_access`), or
  // adds to a resource of access (a guest list's `add`): a resource named for members is not shared
  // by being updated or suspended, nor by an argument that keeps a fob working.
  const grants = objectKinds(words(op.value)).has('access') || op.category === 'share' || (ADDS.has(op.verb) && w.objects.has('access'));
  const objects = new Set([...w.objects].filter((k) => k !== 'access' || grants));
  const sink = wordedSink(
    { ...w, action, objects, where: `its argument ${op.argument} ("${op.value}")` },
    `${operationWhy(op)}; which sink is `,
    f,
  );
  // An operation's verb is a common one ("send", "update"), not a word of the tool's own: the
  // request asks for it through the intent parse ("what did he send?" asks for no send), not by using the word.
  return { ...sink, verb: undefined, operation: op.verb };
}

/** Operations that put someone or something into a resource. */
const ADDS = new Set(['add', 'invite', 'grant', 'include', 'enrol', 'enroll']);

/** Actions that need someone to reach or money to move: a tool that takes neither cannot do them. */
const MOVES_OUT: ReadonlySet<Category> = new Set(['pay', 'send', 'share', 'publish']);

// Not `to` or `into`: `include_member_to_room` says where something goes, not what is returned.
const PREPOSITIONS = new Set('in of for by from on at with per about'.split(' '));

function readProfile(w: Words, why: string, unknown = false): ToolProfile {
  const { sources, directory } = sourcesOfRead([...w.name, ...w.desc]);
  const mask = maskOf(sources);
  return {
    sinks: 0,
    sources: mask,
    evidence: [{ mask, why: `tool profile: ${why}${directory ? ' (a directory)' : ''}` }],
    read: true,
    directory,
    unknown,
  };
}

/** Structure says the tool acts: the words, if they name an action, say which sink (a guess); else its arguments do. */
function actingProfile(def: ToolDefinition, f: ArgumentFacts, w: Words, effect: Effect): ToolProfile {
  if (w.action.category) return wordedSink(w, `${effect.why}; which sink is `, f);
  const mask = maskOf(argumentSinks(f, def.annotations ?? {}, effect.kind === 'destructive'));
  const reads = w.action.read ? `; ${w.byName.read ? 'its name' : 'its description'} reads like a read, a guess not taken over that` : '';
  const why = `tool profile: ${effect.why}; its arguments say which sink${reads}`;
  return { sinks: mask, sources: 0, evidence: [{ mask, why }], read: false, directory: false, unknown: false };
}

/** The sinks a tool that acts has by its arguments alone (and whether it destroys). */
function argumentSinks(f: ArgumentFacts, ann: ToolAnnotations, destroys: boolean): SinkLabel[] {
  const sinks = new Set<SinkLabel>();
  // A recipient or URL is where data leaves to, unless the server says the tool stays inside its own system.
  // An open-world tool that acts reaches others (MCP's openWorldHint): what it carries leaves, unless
  // it only destroys; one that destroys and carries a message (by its argument's name or its value's prose) both.
  // One that moves money reaches its payee, whom the payment's own check judges: its memo goes there too.
  const reaches = ann.openWorldHint === true && !givesMoney(f) && (f.freeText || f.prose || !destroys);
  if ((f.roles.has('recipient') || f.roles.has('url') || reaches) && ann.openWorldHint !== false) sinks.add('EXTERNAL_SEND');
  if (givesMoney(f)) sinks.add('FINANCIAL_TRANSFER');
  if (f.roles.has('command')) sinks.add('CODE_EXEC');
  if (sinks.size === 0 || destroys) sinks.add('DESTRUCTIVE_WRITE');
  return [...sinks];
}

function wordedSink(w: Words, trusted: string, f: ArgumentFacts): ToolProfile {
  const { mask, why } = withItsDestination(
    maskOf(sinksOfAction(w.action.category!, w.objects, w.money)),
    `tool profile: ${trusted}a guess from ${w.where}: ${w.action.category}${w.money ? ' with money' : ''}`,
    f,
  );
  const paid = w.money && w.action.category === 'send' && (mask & bitOf('EXTERNAL_SEND')) !== 0;
  return {
    sinks: mask,
    sources: 0,
    evidence: [{ mask, why }],
    read: false,
    directory: false,
    unknown: false,
    ...verbsOf(w),
    ...(paid ? { paid } : {}),
  };
}

/**
 * Nothing says what the tool does. With an argument that could carry data out or move money it is
 * staged fail-closed as the sink that argument points at; with none it is read as a read. For a
 * name that says what it returns, an argument's name alone (`room`, `max_price`) only selects.
 */
function unplaced(policy: Policy, def: ToolDefinition, f: ArgumentFacts, w: Words, trusted: string, opts: ProfileOptions): ToolProfile {
  // A name or a description that says what the tool returns: an argument's name alone (`student_id`, `teacher`) only selects.
  const roles = w.compound || w.nounPhrase || namesData(w.name, opts) ? f.shown : f.roles;
  const carries = pointsOut(f, roles);
  // A link and nothing else that carries out: a fetch, judged by where it goes (classify.ts, asFetch).
  if (!carries && roles.has('url'))
    return readProfile(
      w,
      `${trusted}a guess: nothing says what ${def.name} does, and a link is all it takes that points out: a fetch`,
      true,
    );
  if (!carries) {
    const acts = actsOnAThing(w, opts);
    if (acts) {
      const mask = maskOf(['DESTRUCTIVE_WRITE']);
      const why = `tool profile: ${trusted}a guess: its description opens with a verb and the thing it acts on ("${acts}"), a verb that reads nothing the validator knows of: a change`;
      return { sinks: mask, sources: 0, evidence: [{ mask, why }], read: false, directory: false, unknown: true, ...verbsOf(w) };
    }
    return readProfile(w, `${trusted}a guess: nothing says what ${def.name} does, and it takes nothing a sink needs`, true);
  }
  if (policy.unknownTools === 'release') {
    const evidence = [{ mask: 0, why: 'tool profile: nothing places this tool, and the policy says unknown-tools: release' }];
    return { sinks: 0, sources: 0, evidence, read: false, directory: false, unknown: true };
  }
  const ann = def.annotations ?? {};
  const mask = maskOf(argumentSinks(f, ann, ann.destructiveHint === true));
  const why = `tool profile: ${trusted}nothing says what ${def.name} does and ${carries}, so it is staged (fail-closed) by what its arguments point at`;
  // Its own words still name it: a request that acts on one ("sort his bereavement leave" for `leave_record_absence`) asks for it.
  return { sinks: mask, sources: 0, evidence: [{ mask, why }], read: false, directory: false, unknown: true, ...verbsOf(w) };
}

/**
 * A description that opens like an order with its object ("Record an admission decision …",
 * "Tender a booking to …", "Finalize an invoice …"), its verb unknown to the lexicon: tools that
 * only return data are described by what they return or by a verb of reading, which the lexicon
 * knows. The opening words, or undefined.
 */
function actsOnAThing(w: Words, opts: ProfileOptions): string | undefined {
  if (w.nounPhrase || opts.language !== undefined) return undefined;
  const [verb, next] = w.clause;
  if (verb === undefined || !/^[a-z]{3,}$/.test(verb) || /ly$/.test(verb) || DETERMINERS.has(verb)) return undefined;
  if (!DETERMINERS.has(next ?? '') || opts.verbOf(verb) !== undefined) return undefined;
  return w.clause.slice(0, 4).join(' ');
}

function firstClauseText(description: string | undefined): string {
  if (!description) return '';
  // "Gives back …", "Hands back …" say what a read returns; a hyphenated word is one word ("add-ons", "check-in": nouns).
  return (description.split(/[.;:(\n]/)[0] ?? '')
    .replace(/\b(?:give|gives|giving|hand|hands)\s+back\b/gi, 'returns')
    .replace(/\b([a-z]+)-(?=[a-z]+\b)/gi, '$1');
}

const FILLER = new Set('this tool use used to will can allows lets you the a an agent user it function that for'.split(' '));

/** A first word that is a noun: no verb the lexicon knows, no verb in the third person or adverb, no digits or determiner. */
function opensWithNoun(ws: readonly string[], verbOf: (w: string) => Category | undefined): boolean {
  const w = ws[0];
  return (
    w !== undefined && ws.length >= 2 && /^[a-z]{3,}$/.test(w) && !/(?:s|ly|ed)$/.test(w) && verbOf(w) === undefined && !DETERMINERS.has(w)
  );
}

/**
 * The action of a tool name or a description: the first verb of each part (a name's parts are
 * joined by "and"/"then": `search_and_book` books; the words after a verb are its objects, so
 * `read_bank_messages` reads and `search_orders` searches). A description has one part, its
 * first clause ("Return the change conditions of a fare" reads).
 */
function actionOf(ws: readonly string[], verbOf: (w: string) => Category | undefined, verbFirst = false, english = false): Action {
  let read = false;
  let decided = false;
  let first = true;
  // An English description that opens with a noun names what the tool returns ("Brewhouse schedule -
  // brews, … packaging runs", "Flight availability and schedule for a city pair"): a verb-like word
  // later in it, or after its "and", is a noun of that list; one of reading still says it reads. A
  // description that opens with a verb in the third person ("Lodges a declaration") or an adverb
  // ("Permanently deletes …") opens with no noun.
  const nounLed = english && !verbFirst && opensWithNoun(ws, verbOf);
  for (const [i, w] of ws.entries()) {
    if (w === 'and' || w === 'then' || w === 'or') {
      decided = false;
      first = !nounLed;
      continue;
    }
    // A name puts its verb first (`send_invoice`): a verb-like word after the first is a noun (`vehicle_hire_firms`, `recent_payments`).
    const leading = first;
    first = false;
    if (nounLed && verbOf(w) !== 'read') continue;
    if (decided || (verbFirst && !leading)) continue;
    // A name's verb is in the imperative: a leading plural (`posts_search`, `messages_in_room`) is what it returns.
    if (verbFirst && /[^su]s$/.test(w) && verbOf(w.slice(0, -1)) !== undefined && verbOf(w.slice(0, -1)) !== 'read') continue;
    // In a description, a word that is a noun too ("order", "charges") is a verb only where it opens
    // the clause or a determiner follows it ("… and order the parts").
    if (!verbFirst && i > 0 && nounToo(w) && !DETERMINERS.has(ws[i + 1] ?? '')) continue;
    // A participle before a noun describes it ("purchasing documents per vendor", "posted payments"):
    // a description's verb is in the third person or the imperative.
    if (!verbFirst && /(?:[^aeiou]ing|[^e]ed)$/.test(w) && ws[i + 1] !== undefined && !DETERMINERS.has(ws[i + 1])) continue;
    // A participle after a form of "be" is a passive that says what was done to the thing ("where it was sold"), not what the tool does.
    if (!verbFirst && i > 0 && PASSIVE_BE.has(ws[i - 1])) continue;
    const c = verbOf(w);
    if (c === undefined) continue;
    decided = true;
    if (c === 'read') read = true;
    else return { category: c, verb: w, read };
  }
  return { read };
}
