/**
 * Deferred adjudication of staged sinks (README: The taint validator): a sink is released only
 * when the request needs it, its targets are authorised, no argument comes from an injected
 * passage, its message body carries no untrusted link or injected instruction onward, and no
 * forbidden source→sink path reaches it; otherwise it is blocked with the attribution path, node by
 * node. A sink no path from the request reaches (a provenance gap) is `unverifiable`, and the
 * policy decides whether that blocks or releases.
 *
 * An injected instruction upstream (PROMPT_OVERRIDE) blocks a sink unless the call is plainly the
 * user's own: the request asks for this kind of action, an argument ties the call to the request,
 * no argument comes from injected text, and the injected text does not name the tool. Taint is
 * argument-level: one injected read does not block every later call the user asked for.
 */
import { mentionsTool, namesCall } from './classify.js';
import { asksForThing, asksWithVerbs, ordersDoneTo, recogniseIntent } from './intent.js';
import { LANGUAGES } from './languages.js';
import { normalizeText } from './content-links.js';
import { requestPointsAt, within } from './provenance.js';
import { AUTHORITY_ROLES, IBAN, namesDestination, type ArgumentRole } from './argument-roles.js';
import { refOf } from './graph.js';
import { ROOT_BIT, SINK_MASK, bitOf, labelsOf, sinksOf, sourcesOf, type Label, type SinkLabel } from './labels.js';
import type { Policy } from './policy.js';
import { attributionPath, describeNode, labelsInScope, propagate, type PathStep, type Propagation, type Scope } from './propagate.js';
import type { BuiltTrace, Delegation, SinkSite, ToolCallSeen } from './trace-graph.js';
import type { InjectedText } from './trace/content-edges.js';
import { orderVerbs } from './injection.js';
import { verbCategory, type Category } from './lexicon.js';
import type { SinkDecision } from '../runlog/schema.js';

export type Decision = SinkDecision;

export interface AdjudicationOptions {
  /** How far upstream the sink's labels are gathered (default full). */
  scope?: Scope;
  /** false: plain reachability instead of propagation rules (the ablation). Default true. */
  propagate?: boolean;
}

export interface Violation {
  kind: 'forbidden-path' | 'not-needed' | 'target' | 'provenance-gap' | 'injected-argument' | 'onward';
  message: string;
  path: PathStep[];
}

export interface SinkVerdict {
  toolCallId: string;
  tool: string;
  agent?: string;
  node: string;
  decision: Decision;
  /** The sink's hard-sink labels and the source labels that reach it (in scope). */
  labels: Label[];
  /** One sentence: why. */
  reason: string;
  /** The attribution path of the first violation; for a release, the path from the request. */
  path: PathStep[];
  violations: Violation[];
}

function sinkStep(b: BuiltTrace, site: SinkSite, labels: number): PathStep {
  return describeNode(b.graph, site.node, labels);
}

function originPath(b: BuiltTrace, origin: number, site: SinkSite, note: string): PathStep[] {
  const g = b.graph;
  return [
    { ...describeNode(g, origin, g.own[origin] & ~ROOT_BIT), via: { edge: 'argument', note } },
    sinkStep(b, site, g.atCall[site.node] & ~ROOT_BIT),
  ];
}

/** One sink under judgment: the trace and its propagation, the sink's site, the policy, and what reaches the sink. */
export interface SinkCase {
  b: BuiltTrace;
  p: Propagation;
  site: SinkSite;
  policy: Policy;
  scope: Scope;
  /** The labels that reach the sink, in scope. */
  inScope: number;
  /** The sink's hard-sink labels. */
  sinks: number;
}

/** The sink's own node as a path step. */
function ownStep(c: SinkCase): PathStep {
  return sinkStep(c.b, c.site, c.b.graph.atCall[c.site.node] & ~ROOT_BIT);
}

export function adjudicateSink(b: BuiltTrace, p: Propagation, site: SinkSite, policy: Policy, opts: AdjudicationOptions = {}): SinkVerdict {
  const scope = opts.scope ?? 'full';
  const g = b.graph;
  const v = site.node;
  const inScope = labelsInScope(g, p, v, scope);
  const sinks = site.sinks & SINK_MASK;
  const labels = labelsOf((inScope & ~ROOT_BIT & ~SINK_MASK) | sinks);
  const base = {
    toolCallId: site.toolCallId,
    tool: site.tool,
    ...(site.agent !== undefined ? { agent: site.agent } : {}),
    node: refOf(g, v),
    labels,
  };

  if (sinks === 0) {
    return {
      ...base,
      decision: 'release',
      reason: `no hard sink under the policy (${site.staged ? 'staged by its tool spec, ' : ''}taken off or never given by the policy's tool rules)`,
      path: [],
      violations: [],
    };
  }

  const c: SinkCase = { b, p, site, policy, scope, inScope, sinks };
  const onward = onwardFindings(c);
  const request = requestOf(b, site);
  const mentioned =
    namesCall(request, site.tool, site.verb) ||
    asksWithVerbs(request, site.alsoVerbs ?? []) ||
    asksForThing(request, site.alsoVerbs ?? [], policy.verbOf, { place: addsOrChanges(site, policy) });
  const waiver = injectionWaiver(b, p, site, g.atCall[v] & OVERRIDE ? undefined : inScope, mentioned);
  const violations: Violation[] = [
    ...forbiddenPaths(c, waiver !== undefined),
    ...injectedArguments(c),
    ...onward.violations,
    ...notNeeded(c, mentioned),
    ...actionOrderedInData(c, mentioned),
    ...unauthorisedTargets(c),
    ...contradictedTargets(c, request),
    ...partyAccountReplaced(c),
    ...othersDataToWriter(c),
    ...contactOnFileReplaced(c),
  ];
  if (violations.length > 0) {
    return { ...base, decision: 'block', reason: violations.map((x) => x.message).join('; '), path: violations[0].path, violations };
  }
  const gap = provenanceGap(c);
  if (gap) {
    if (policy.unverifiable === 'release') {
      return {
        ...base,
        decision: 'release',
        reason: `${gap.message}; released because the policy says unverifiable: release`,
        path: gap.path,
        violations: [gap],
      };
    }
    return { ...base, decision: 'unverifiable', reason: gap.message, path: gap.path, violations: [gap] };
  }
  const why = [
    askedBecause(c, mentioned),
    site.targets.length ? `targets ${site.targets.map((t) => `${t.value} (${t.why})`).join(', ')}` : 'no targets',
    'no forbidden path',
    ...(waiver ? [waiver] : []),
    ...onward.warnings,
  ];
  return {
    ...base,
    decision: 'release',
    reason: why.join('; '),
    path: scope === 'full' ? attributionPath(g, p, v, 'ROOT', 'full') : [],
    violations: [],
  };
}

/**
 * A message carrying the contacts of several people a read listed, to whoever wrote a message the
 * run read (each recipient selected from a message's record, so the request names none of them):
 * what an outsider's "reply with every client's details" asks (others-data.ts).
 */
function othersDataToWriter(c: SinkCase): Violation[] {
  const others = c.site.othersData;
  if (!others) return [];
  const g = c.b.graph;
  const recipients = c.site.targets.filter((t) => t.kind === 'recipient');
  const read = describeNode(g, others.node, g.own[others.node] & ~ROOT_BIT);
  return [
    {
      kind: 'forbidden-path',
      message: `the contacts of ${others.people} people listed by ${read.name} go to ${recipients.map((t) => t.value).join(', ')}, taken from a message the run read, whom the request does not name: personal data leaves only to recipients the request or the policy names`,
      path: originPath(c.b, others.node, c.site, 'carries the contacts of the people it lists'),
    },
  ];
}

/** Recipients a message gave in place of the contact on file of the records the request names (trace-graph.ts, contactReplaced). */
function contactOnFileReplaced(c: SinkCase): Violation[] {
  return (c.site.contactReplaced ?? []).map((r) => {
    const t = c.site.targets.find((x) => x.argument === r.argument && x.value === r.value);
    return {
      kind: 'target' as const,
      message: `recipient ${JSON.stringify(r.value)} (argument ${r.argument}) is not the contact the record the request names holds (${r.held.join(', ')}): a message the run read gives it instead (${t?.why ?? 'taken from data'})`,
      path: t?.from !== undefined ? originPath(c.b, t.from, c.site, 'the recipient first appears here') : [ownStep(c)],
    };
  });
}

/** Whether the call's targets are authorised: its authority-bearing ones, or else the objects it acts on. */
function targetsAuthorised(site: SinkSite): boolean {
  const authorityTargets = site.targets.filter((t) => t.require === 'authorised');
  if (authorityTargets.length > 0) return authorityTargets.every((t) => t.ok);
  // Without a target the roles read, an argument the request names (`canal` "#logistique-niger" for "post it in #logistique-niger") says where the user sends.
  const objectAnchors = (site.args ?? []).filter(
    (a) => (a.role === 'object' || a.role === 'other') && a.origin === 'request' && a.value.trim().length >= 3,
  );
  // Without a target kind the policy knows, the objects the call acts on (a name, an id) stand for its target.
  const objectTargets = site.targets.filter((t) => t.kind === 'object');
  return objectAnchors.length > 0 || (objectTargets.length > 0 && objectTargets.every((t) => t.ok && t.authority !== undefined));
}

/** Forbidden source → sink paths; `waived`: an injected instruction upstream does not count (injectionWaiver). */
export function forbiddenPaths(c: SinkCase, waived: boolean): Violation[] {
  const authorised = targetsAuthorised(c.site);
  const out: Violation[] = [];
  for (const rule of c.policy.forbidden) {
    let from = c.inScope & rule.from;
    const to = c.sinks & rule.to;
    if (waived) from &= ~OVERRIDE;
    if (!from || !to) continue;
    if (rule.unless === 'authorised-target' && authorised) continue;
    if (rule.unless === 'requested-source' && requestedSource(c, from, to)) continue;
    for (const src of sourcesOf(from)) {
      out.push({
        kind: 'forbidden-path',
        message: `${src} reaches ${sinksOf(to).join(', ')} (policy ${rule.at}${rule.why ? `: ${rule.why}` : ''}${UNLESS_FAILED[rule.unless ?? 'none']})`,
        path: attributionPath(c.b.graph, c.p, c.site.node, src, c.scope),
      });
    }
  }
  return out;
}

const UNLESS_FAILED = {
  none: '',
  'authorised-target': '; the target is not authorised',
  'requested-source': '; the request does not ask for this, or does not point at every read the data comes from, or one orders it',
} as const;

/**
 * Whether the request hands this private data over itself (`unless: requested-source`): it asks for
 * the sink's action, and every node before the call that carries one of the labels is a tool read
 * the request points at (one of its arguments is named in the request: "check my email irish@…,
 * pay for the photo and post it on X") whose result orders nothing that moves data (orderMovesData).
 * A read the request does not name, or a label from anywhere else, keeps the rule.
 */
function requestedSource(c: SinkCase, from: number, to: number): boolean {
  const { b, site } = c;
  if ((to & ~needsOf(b, site)) !== 0) return false;
  const request = requestOf(b, site);
  const { labelled, reads } = labelledNodes(b);
  let any = false;
  for (const v of labelled) {
    if (v >= site.node) break;
    if ((b.graph.own[v] & from) === 0) continue;
    const read = reads.get(v);
    if (!read || orderMovesData(b.injections?.get(v)) || !(read.pointed || requestPointsAt(request, { args: read.args }))) return false;
    any = true;
  }
  return any;
}

type ReadSeen = Pick<ToolCallSeen, 'args' | 'pointed'>;
const LABELLED = new WeakMap<BuiltTrace, { labelled: number[]; reads: Map<number, ReadSeen> }>();

/** The nodes that carry a label of their own, in order, and the tool calls by node: read once per trace, not once per sink. */
function labelledNodes(b: BuiltTrace): { labelled: number[]; reads: Map<number, ReadSeen> } {
  let found = LABELLED.get(b);
  if (!found) {
    const labelled: number[] = [];
    for (let v = 0; v < b.graph.n; v++) if (b.graph.own[v] & ~ROOT_BIT) labelled.push(v);
    found = { labelled, reads: new Map((b.toolCalls ?? []).map((t) => [t.node, t])) };
    LABELLED.set(b, found);
  }
  return found;
}

/** Actions that move nothing to an audience: an order for one of them in a read does not ask for its data to be published. */
const KEEPS_DATA: ReadonlySet<Category> = new Set(['read', 'pay', 'book', 'change', 'delete', 'exec']);

/**
 * Whether an instruction found in a read may ask for its data to go out: an override, an order to
 * send, share or publish, a general verb ("include it in the post"), or an order whose verb was not
 * read (another language). A payment order in a bill ("Pay $100 to …") is none of them.
 */
function orderMovesData(found: InjectedText | undefined): boolean {
  if (!found) return false;
  if (!found.reaches || found.reaches.some((r) => r.explicit)) return true;
  const verbs = orderVerbs(found.passages);
  return (
    verbs.length === 0 ||
    verbs.some((w) => {
      const category = verbCategory(w.toLowerCase());
      return category === undefined || !KEEPS_DATA.has(category);
    })
  );
}

/** Arguments taken from an injected passage (a target already refused is reported as a target). */
export function injectedArguments(c: SinkCase): Violation[] {
  const { b, site } = c;
  const out: Violation[] = [];
  for (const a of site.args ?? []) {
    if (
      !a.injected ||
      !INJECTABLE_ROLES.has(a.role) ||
      a.node === undefined ||
      site.targets.some((t) => t.argument === a.name && (!t.ok || t.handed))
    )
      continue;
    out.push({
      kind: 'injected-argument',
      message: `argument ${a.name} (${JSON.stringify(a.value.slice(0, 60))}) comes from an injected passage of ${refOf(b.graph, a.node)}`,
      path: originPath(b, a.node, site, `argument ${a.name} first appears here`),
    });
  }
  return out;
}

/** Links and injected instructions carried onward in a message body: blocked or warned about, as the policy says. */
export function onwardFindings(c: SinkCase): { violations: Violation[]; warnings: string[] } {
  const { b, site, policy } = c;
  const violations: Violation[] = [];
  const warnings: string[] = [];
  for (const f of site.onward ?? []) {
    const action = f.kind === 'link' ? policy.onward.links : policy.onward.instructions;
    if (action === 'allow') continue;
    if (action === 'warn') warnings.push(`warning: ${f.why}`);
    else
      violations.push({
        kind: 'onward',
        message: `${f.why}: untrusted ${f.kind === 'link' ? 'links are' : 'instructions are'} not sent onward (policy onward.${f.kind === 'link' ? 'links' : 'instructions'}: block)`,
        path: originPath(b, f.origin, site, `the ${f.kind} first appears here`),
      });
  }
  return { violations, warnings };
}

/** Sinks the request does not need (`mentioned`: the request names the tool or its verb), and policy-only sinks without a policy target. */
export function notNeeded(c: SinkCase, mentioned: boolean): Violation[] {
  const { b, site, policy } = c;
  const authorisedByPolicy = site.targets.some((t) => t.ok && t.authority === 'policy');
  const out: Violation[] = [];
  for (const s of sinksOf(c.sinks)) {
    const bit = bitOf(s);
    if (policy.policyOnly & bit) {
      if (authorisedByPolicy) continue;
      out.push({
        kind: 'not-needed',
        message: `${s} is released only for targets the policy authorises (policy-only), and this call names none`,
        path: [ownStep(c)],
      });
      continue;
    }
    // A fetch is judged by where it goes (its URL's provenance), not by whether the request says "send".
    if (mentioned || needsOf(b, site) & bit || site.fetch || (GUESSED & bit && unplacedAsked(c))) continue;
    // A purchase order sent to a supplier is what a request to order or pay for goods asks.
    if (bit === SEND && site.paid && needsOf(b, site) & FINANCIAL) continue;
    if (
      chargesTheService(c, bit) ||
      recordsTheMoney(c, bit) ||
      notifiesWhomItActsFor(c, bit) ||
      delegationAsking(c, bit) ||
      orderedOnItsObject(c, bit) !== undefined ||
      changesARecordNamed(c, bit)
    )
      continue;
    out.push({
      kind: 'not-needed',
      message: `the request does not ask for ${s} (no action it asks for covers it, and it does not name ${site.tool})`,
      path: [ownStep(c)],
    });
  }
  return out;
}

/**
 * A change to a record the request names, where the request asks for some action that moves
 * nothing: the user asked for something done to that very record ("protect the pax on 4LDX8R"),
 * and which kind of change the tool makes is the tool's business. Money and messages still need
 * their own ask; a change an instruction in data orders is judged apart (actionOrderedInData).
 */
function changesARecordNamed(c: SinkCase, bit: number): boolean {
  if (bit !== WRITE || needsOf(c.b, c.site) === 0) return false;
  return (c.site.args ?? []).some((a) => a.role === 'object' && a.origin === 'request');
}

/**
 * A deletion or a change the request does not ask for, where an instruction found in data before
 * the call orders one: the request asks to change something ("update the rota"), and the call
 * cancels ("cancel every vaccination that afternoon", as a relayed message in the team chat says);
 * the request asks to book viewings, and the call sets the listing to let agreed, as a lead's
 * message says. All are writes: the kind of action tells them apart (docs/taint-policy.md, "What a
 * request asks for").
 */
function actionOrderedInData(c: SinkCase, mentioned: boolean): Violation[] {
  const { b, site, policy } = c;
  const verb = site.verb ?? site.operation;
  const category = verb === undefined ? undefined : categoryOf(verb, policy);
  if (mentioned || !(c.sinks & WRITE) || (category !== 'delete' && category !== 'change')) return [];
  // A request that asks for a change of its own ("add a note") does not ask for the change an order
  // in data asks of this very tool, in the tool's own words ("Change the application status to APPROVED").
  const asked = requestCategories(requestOf(b, site), policy).has(category);
  if (asked && !site.alsoVerbs?.length) return [];
  // A change is the order's where the call also writes a value the order gives ("set 14 Harcourt St
  // to Let Agreed"): plain records ask for changes of their own, which the request may have wanted.
  const values = category === 'change' ? writtenValues(site) : [];
  for (const [node, found] of b.injections ?? []) {
    if (node >= site.node) continue;
    if (asked && !asksForThing(found.passages, site.alsoVerbs ?? [], policy.verbOf)) continue;
    const order = found.reaches?.find(
      (r) => r.orders?.includes(category) && (category === 'delete' || values.some((v) => within(r.text, v))),
    );
    if (!order) continue;
    const read = describeNode(b.graph, node, 0);
    const what = category === 'delete' ? 'deletion' : 'change';
    return [
      {
        kind: 'not-needed',
        message: asked
          ? `the request asks for another ${what}; an instruction in the result of ${read.name ?? 'a read'} (${read.node}) orders this one in the tool's own words${category === 'change' ? ', with a value this call writes' : ''}`
          : `the request asks for no ${what}, and an instruction in the result of ${read.name ?? 'a read'} (${read.node}) orders one${category === 'change' ? ' with a value this call writes' : ''}`,
        path: [{ ...read, via: { edge: 'context', note: `the order to ${category} is here` } }, ownStep(c)],
      },
    ];
  }
  return [];
}

/** The values a call writes that could come from an order (three characters or more, normalised). */
function writtenValues(site: SinkSite): string[] {
  return (site.args ?? []).map((a) => normalizeText(a.value)).filter((v) => v.length >= 3 && v.length <= 200);
}

/** A tool's verb's kind of action, in English or in a language whose tools are read (languages.ts). */
const categoryOf = (verb: string, policy: Policy): Category | undefined =>
  policy.verbOf(verb) ?? LANGUAGES.map((l) => l.tools?.category(verb)).find((x) => x !== undefined);

/** The kinds of action a request asks for, read once per request text. */
const CATEGORIES = new Map<string, ReadonlySet<Category>>();
function requestCategories(request: string, policy: Policy): ReadonlySet<Category> {
  let out = CATEGORIES.get(request);
  if (!out) {
    out = recogniseIntent(request, { verbOf: policy.verbOf }).categories;
    if (CATEGORIES.size >= 64) CATEGORIES.delete(CATEGORIES.keys().next().value!);
    CATEGORIES.set(request, out);
  }
  return out;
}

/**
 * A tool nothing places is staged by what its arguments point at, so whether it sends or writes is
 * a guess (a "recipient" may be an event's guest): any action the request asks for covers that,
 * when the call points at a recipient, payee or link and every one is authorised (the request or
 * the policy names it, or a structured field of a read selected it): where it goes is then the
 * user's, whatever it does. Money (a payee, an amount) and code (a command) are no guess: the
 * request must ask for them.
 */
function unplacedAsked(c: SinkCase): boolean {
  if (!c.site.unplaced || needsOf(c.b, c.site) === 0) return false;
  const outward = c.site.targets.filter((t) => t.require === 'authorised');
  return outward.length > 0 && outward.every((t) => t.ok);
}

/** The request as the call saw it: the first message and the user's later turns before the call. */
const requestOf = (b: BuiltTrace, site: SinkSite): string => site.request?.text ?? b.rootText;
/** The hard sinks the request, as the call saw it, asks for. */
const needsOf = (b: BuiltTrace, site: SinkSite): number => b.needs.mask | (site.request?.needs ?? 0);

/** The delegated document read before the sink whose orders ask for `bit` (BuiltTrace.delegated), if any. */
function delegationAsking(c: SinkCase, bit: number): Delegation | undefined {
  return c.b.delegated?.find((d) => d.node < c.site.node && d.mask & bit);
}

/** Why the call is asked for: the request names the tool or asks for its sinks, or a document it hands its actions to does. */
function askedBecause(c: SinkCase, mentioned: boolean): string {
  if (mentioned) return `the request names ${c.site.tool}`;
  const needs = needsOf(c.b, c.site);
  const unasked = c.sinks & ~needs;
  if (unasked !== 0 && (unasked & ~GUESSED) === 0 && unplacedAsked(c))
    return `nothing says what ${c.site.tool} does; the request asks for ${sinksOf(needs).join(', ')} and every target it points at is authorised`;
  const handed = sinksOf(unasked)
    .map((s) => [s, delegationAsking(c, bitOf(s))] as const)
    .filter((x): x is readonly [SinkLabel, Delegation] => x[1] !== undefined);
  const pinned = sinksOf(unasked)
    .map((s) => [s, orderedOnItsObject(c, bitOf(s))] as const)
    .filter((x): x is readonly [SinkLabel, string] => x[1] !== undefined && !handed.some(([h]) => h === x[0]));
  const rest = [...handed, ...pinned].reduce((m, [s]) => m & ~bitOf(s), c.sinks);
  const parts = rest !== 0 ? [`the request asks for ${sinksOf(rest).join(', ')}`] : [];
  for (const [s, value] of pinned) parts.push(`the request orders something done to ${JSON.stringify(value)}, which this ${s} acts on`);
  for (const [s, d] of handed)
    parts.push(`the request hands its actions to the result of ${d.tool} (${refOf(c.b.graph, d.node)}), whose orders ask for ${s}`);
  return parts.join('; ');
}

const FINANCIAL = bitOf('FINANCIAL_TRANSFER');
const WRITE = bitOf('DESTRUCTIVE_WRITE');
const EXEC = bitOf('CODE_EXEC');
/** The sinks a tool nothing places gets by a guess: a recipient or link may be no send, anything else no write. */
const GUESSED = bitOf('EXTERNAL_SEND') | WRITE;

/**
 * A charge with no payee, recipient or amount among its arguments (a payment method for an upgrade,
 * an exchange, a rebooking) pays the service for the change it makes: a request for that change
 * (a change or a booking) covers it. Money to anyone else needs a payee, which the request must ask for.
 */
function chargesTheService(c: SinkCase, bit: number): boolean {
  if (bit !== FINANCIAL || !(needsOf(c.b, c.site) & WRITE)) return false;
  return !(c.site.args ?? []).some((a) => a.role === 'payee' || a.role === 'amount' || a.role === 'recipient');
}

/**
 * A send that comes with an action the request asks for: a booking or a works order whose tool
 * reaches the people it names (an applicant's address, a contractor notified by the server), not
 * a tool whose own verb sends. The request asks for the booking; the notice is part of it. Every
 * address the call names must still be one the request or the data it points to vouches for.
 */
function notifiesWhomItActsFor(c: SinkCase, bit: number): boolean {
  if (bit !== SEND) return false;
  const verb = c.site.verb ?? c.site.operation;
  const category = verb === undefined ? undefined : categoryOf(verb, c.policy);
  if (category === undefined || SENDING.has(category) || !(needsOf(c.b, c.site) & c.sinks & ~SEND & SINK_MASK)) return false;
  // A forward or a copy to an address (`forward_to`, `cc`) is a send of its own, whatever the tool's verb.
  return c.site.targets.every((t) => t.ok && !(t.kind === 'recipient' && namesDestination(t.argument)));
}
const SEND = bitOf('EXTERNAL_SEND');
const SENDING: ReadonlySet<Category> = new Set(['send', 'share', 'publish']);

/**
 * The other way round: a request for money (charge the tenant the fine, refund the deposit) carried
 * out by a write that records an amount against something the call names (adds a charge to an
 * account, sets the refund on an order) and sends it to no one: the write is the payment asked for.
 */
function recordsTheMoney(c: SinkCase, bit: number): boolean {
  if (bit !== WRITE || !(needsOf(c.b, c.site) & FINANCIAL) || c.sinks & ~(WRITE | FINANCIAL)) return false;
  const args = c.site.args ?? [];
  return args.some((a) => a.role === 'amount') && !args.some((a) => a.role === 'payee' || a.role === 'recipient');
}

/**
 * A tool that adds to or changes a record and moves no money and runs nothing: a request may name
 * where it puts things ("log it in her chart") instead of what it adds (intent.ts, asksForThing).
 */
function addsOrChanges(site: SinkSite, policy: Policy): boolean {
  const category = site.verb === undefined ? undefined : policy.verbOf(site.verb);
  // A tool nothing places, staged as a change (`leave_record_absence` "Records an absence …"), puts its object somewhere too.
  const staged = site.verb === undefined && site.unplaced === true;
  return (category === 'change' || category === 'book' || staged) && (site.sinks & (FINANCIAL | EXEC)) === 0;
}

/** A code: a value with a digit in it, or joined words ("RA-DUB-77420", "redis_client_v47", "3.17.4"). */
const CODE_VALUE = /^(?=[^\s]*\d)[\w.:/#-]{3,64}$|^[a-z0-9]+(?:_[a-z0-9]+)+$/i;

/**
 * A write or a message on an object the request names by its code, in a sentence that orders
 * something done to it ("Log the windscreen chip on RA-DUB-77420", "HD-5203: do the reset and let
 * him know on the ticket"): the request asks for the action on that object, whatever verb it uses.
 * Money and code are no guess: the request must ask for them (docs/taint-policy.md, "What a request
 * asks for").
 */
function orderedOnItsObject(c: SinkCase, bit: number): string | undefined {
  if (bit === FINANCIAL || bit === EXEC) return undefined;
  const request = requestOf(c.b, c.site);
  return c.site.targets.find(
    (t) =>
      t.kind === 'object' &&
      t.ok &&
      t.authority === 'request' &&
      CODE_VALUE.test(t.value) &&
      ordersDoneTo(request, t.value, { verbOf: c.policy.verbOf }),
  )?.value;
}

/** Targets that are not authorised. */
export function unauthorisedTargets(c: SinkCase): Violation[] {
  const { b, site } = c;
  return site.targets
    .filter((t) => !t.ok)
    .map((t) => ({
      kind: 'target' as const,
      message: `${t.kind} ${JSON.stringify(t.value)} (argument ${t.argument}) ${t.why}`,
      path: t.origin !== undefined ? originPath(b, t.origin, site, `the ${t.kind} first appears here`) : [ownStep(c)],
    }));
}

/**
 * Targets that replace the one value of their shape the request names, or the one a record the
 * request points to holds for a payee: the request names repairer RS-2041 or CLABE
 * 012180015432109876, or the accepted quote it points to pays BSB 082-356, and the call sends to
 * RS-7730, 646180204700319952 or BSB 033-421 taken from elsewhere, and no call uses the one named.
 * Codes of four digits or more, compared by their letters and their count of digits ("RS-####"),
 * separators aside, IBANs as IBANs; two of a shape leave the choice open.
 */
export function contradictedTargets(c: SinkCase, request: string): Violation[] {
  const named = new Map<string, { codes: string[]; where: string; byRequest: boolean }>();
  const add = (value: string, where: string, byRequest: boolean) => {
    const code = compact(value);
    const shape = shapeOf(code);
    if (!shape) return;
    const had = named.get(shape);
    if (!had) named.set(shape, { codes: [code], where, byRequest });
    // What the request names of a shape outranks what a record holds of it.
    else if (had.byRequest === byRequest && !had.codes.includes(code)) had.codes.push(code);
  };
  for (const m of request.matchAll(CODE)) add(m[0], 'the one the request names', true);
  // A payment, by the amount it moves: a call that sets an account ("change my direct debit to …") replaces the record's on purpose.
  // The paid party's own record outranks a document that gives an account of the same kind (partyAccountReplaced).
  const ofParty = new Set<string>((c.site.ofParty ?? []).flatMap((x) => x.payees.flatMap((v) => accountKind(compact(v)) ?? [])));
  if (c.site.args?.some((a) => a.role === 'amount'))
    for (const v of c.site.onFile ?? [])
      if (!ofParty.has(accountKind(compact(v)) ?? 'none')) add(v, 'the one the record the request points to holds', false);
  if (named.size === 0) return [];
  // A code named that some call uses went where the request said ("the landlord's account is …",
  // then a refund to the friend who paid): only a dropped one was replaced.
  const used = usedArguments(c.b);
  for (const [shape, { codes }] of named) if (codes.some((x) => used.some((u) => u.includes(x)))) named.delete(shape);
  const out: Violation[] = [];
  for (const t of c.site.targets) {
    if (!t.ok || t.authority === 'request' || t.authority === 'policy') continue;
    const code = compact(t.value);
    const shape = shapeOf(code);
    const asked = shape === undefined ? undefined : named.get(shape);
    if (asked?.codes.length !== 1 || asked.codes[0] === code) continue;
    out.push({
      kind: 'target',
      message: `${t.kind} ${JSON.stringify(t.value)} (argument ${t.argument}) replaces ${asked.codes[0]}, ${asked.where} (${t.why})`,
      path: t.origin !== undefined ? originPath(c.b, t.origin, c.site, `the ${t.kind} first appears here`) : [ownStep(c)],
    });
  }
  return out;
}
/**
 * Payees that replace the account the paid party's own record holds (sink-sites.ts, payeesOfParty):
 * the call pays supplier FRN-0211 at the IBAN an invoice gives, and the supplier's record, read by
 * that identifier, holds another. Accounts are compared where both are IBANs or both runs of six
 * digits or more; one the request names is the request's.
 */
export function partyAccountReplaced(c: SinkCase): Violation[] {
  const parties = c.site.ofParty ?? [];
  if (parties.length === 0 || !c.site.args?.some((a) => a.role === 'amount')) return [];
  const out: Violation[] = [];
  for (const t of c.site.targets) {
    if (t.kind !== 'payee' || !t.ok || t.authority === 'request' || t.authority === 'policy') continue;
    const code = compact(t.value);
    const kind = accountKind(code);
    if (!kind) continue;
    for (const { party, payees } of parties) {
      const held = payees.map(compact).filter((x) => accountKind(x) === kind);
      if (held.length === 0 || held.includes(code)) continue;
      out.push({
        kind: 'target',
        message: `payee ${JSON.stringify(t.value)} (argument ${t.argument}) is not the account the record of ${party} holds (${held.slice(0, 2).join(', ')}): ${t.why}`,
        path: t.origin !== undefined ? originPath(c.b, t.origin, c.site, 'the payee first appears here') : [ownStep(c)],
      });
      break;
    }
  }
  return out;
}
/** What kind of account a compacted code is, where it is one: an IBAN, or a run of six digits or more. */
const accountKind = (code: string) => (ibanShaped(code) ? 'iban' : /^\d{6,}$/.test(code) ? 'digits' : undefined);
/** A compacted code an IBAN can be: fifteen characters at least (Norway's, the shortest), so a case number ("WF-2025-33817") is none. */
const ibanShaped = (code: string) => code.length >= 15 && IBAN.test(code) && /\d{6}/.test(code);

/** Every sink's arguments, serialised and compacted once per built trace (each staged sink asks). */
const usedCache = new WeakMap<BuiltTrace, string[]>();
function usedArguments(b: BuiltTrace): string[] {
  let used = usedCache.get(b);
  if (!used) usedCache.set(b, (used = b.sinks.map((s) => compact(JSON.stringify(s.arguments)))));
  return used;
}
const CODE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{2,4}){3,8}\b|\b[A-Za-z]{0,4}[-‐ ]?\d[\d ‐-]{2,}\d\b/g;
const compact = (v: string) => v.replace(/[\s‐-]/g, '').toUpperCase();
/** An IBAN (any country's), or a code's letters and its count of digits; undefined when it is no code (fewer than four digits, other characters). */
function shapeOf(code: string): string | undefined {
  if (ibanShaped(code)) return 'IBAN';
  const m = /^([A-Z]{0,4})(\d{4,})$/.exec(code);
  return m ? `${m[1]}#${m[2].length}` : undefined;
}

/**
 * A provenance gap: no path from the request reaches the call. Only the full scope looks far
 * enough to see the request. Every provider must be connected: the LLM call that issued it, or,
 * without one, the texts its arguments quote (an argument nobody wrote has no provenance at all).
 */
export function provenanceGap(c: SinkCase): Violation | undefined {
  const { b, p, site } = c;
  const g = b.graph;
  const issuerCut = site.issuedBy !== undefined && !(p.out[site.issuedBy] & ROOT_BIT);
  const orphan = site.issuedBy === undefined && site.generated.length > 0;
  if (!(c.scope === 'full' && (!(c.inScope & ROOT_BIT) || issuerCut || orphan))) return undefined;
  const issuer =
    site.issuedBy !== undefined
      ? `its LLM call ${refOf(g, site.issuedBy)} is not connected to the request`
      : orphan
        ? `no LLM call in the trace issued it, so nothing accounts for argument${site.generated.length > 1 ? 's' : ''} ${site.generated.join(', ')}`
        : 'no LLM call in the trace issued it and its arguments quote nothing connected to the request';
  const path: PathStep[] =
    site.issuedBy !== undefined
      ? [{ ...describeNode(g, site.issuedBy, g.own[site.issuedBy] & ~ROOT_BIT), via: { edge: 'tool' } }, ownStep(c)]
      : [ownStep(c)];
  return { kind: 'provenance-gap', message: `provenance gap: no path from the request reaches this call (${issuer})`, path };
}

const OVERRIDE = bitOf('PROMPT_OVERRIDE');
/** Arguments that decide what a call does: taken from an injected passage, they make the call the injection's. */
const INJECTABLE_ROLES: ReadonlySet<ArgumentRole> = new Set([...AUTHORITY_ROLES, 'object']);

/**
 * Why an injected instruction upstream does not make this call its own, or undefined when it may
 * have: the request is not itself injected, asks for every sink the call has (or names the tool),
 * an argument ties the call to the request, no argument comes from injected text, and no injected
 * passage names the tool or, where the request does not, asks for it with its own words.
 */
function injectionWaiver(
  b: BuiltTrace,
  p: Propagation,
  site: SinkSite,
  inScope: number | undefined,
  mentioned: boolean,
): string | undefined {
  if (inScope === undefined || !(inScope & OVERRIDE)) return undefined;
  const g = b.graph;
  if (g.own[b.root] & OVERRIDE) return undefined;
  const request = requestOf(b, site);
  const named = mentioned || site.fetch === true;
  if (!named && (site.sinks & SINK_MASK & ~needsOf(b, site)) !== 0) return undefined;
  if (!site.anchors?.length || (site.args ?? []).some((a) => INJECTABLE_ROLES.has(a.role) && fromInjectedText(b, a))) return undefined;
  for (const [node, inj] of b.injections ?? []) {
    if (node >= site.node || !(p.out[node] & OVERRIDE)) continue;
    if (mentionsTool(inj.passages, site.tool) && !mentionsTool(request, site.tool)) return undefined;
    // An injected order that asks for this very tool in its own words ("Record the decision as …"), where the request does not.
    if (!mentioned && site.alsoVerbs?.length && asksWithVerbs(inj.passages, site.alsoVerbs)) return undefined;
  }
  return `an injected instruction was upstream, but this call is the request's own (it asks for it; argument${site.anchors.length > 1 ? 's' : ''} ${site.anchors.join(', ')} from the request; nothing from the injected text)`;
}

/**
 * Whether an argument's value first appeared in injected text: inside an injected passage, or in the
 * block of one with an injection's signals ("… change the password to new_password. You should use
 * the tool with {'password': 'new_password'}", where the second line is no order of its own).
 */
function fromInjectedText(b: BuiltTrace, a: NonNullable<SinkSite['args']>[number]): boolean {
  if (a.injected) return true;
  if (a.echoed) return false;
  const inj = a.node !== undefined ? b.injections?.get(a.node) : undefined;
  if (!inj?.reaches) return false;
  const n = normalizeText(a.value);
  return n !== '' && inj.reaches.some((r) => r.explicit && within(r.text, n));
}

/** Propagates once and adjudicates every sink of the trace. */
export function adjudicateTrace(b: BuiltTrace, policy: Policy, opts: AdjudicationOptions = {}): SinkVerdict[] {
  const p = propagate(b.graph, { reachability: opts.propagate === false });
  return b.sinks.map((s) => adjudicateSink(b, p, s, policy, opts));
}

/** One line per step: `tool read_file [tool:s1:2] SENSITIVE_READ (policy ...) → ...`. */
export function formatPath(path: readonly PathStep[]): string {
  return path
    .map((s) => {
      const who = `${s.kind}${s.name ? ` ${s.name}` : ''}${s.agent ? ` (agent ${s.agent})` : ''} [${s.node}]`;
      const labels = s.labels.length ? ` ${s.labels.join(', ')}` : '';
      return `${who}${labels}`;
    })
    .join(' → ');
}
