/**
 * What the adjudicator needs to know about one sink call: its targets and whether each is
 * authorised (by the policy, the request, a directory entry the request names), the provenance
 * of every argument (injected or not), the arguments that tie it to the request (anchors), and the
 * links and injected instructions its message body would carry onward.
 */
import { normalizeText, normalizeTokens, type ContentIndex } from '../content-links.js';
import { authorisedByPolicy, hostOf, isDirectory, type Target } from '../classify.js';
import { TARGET_ROLES } from '../argument-roles.js';
import type { Policy, TargetKind } from '../policy.js';
import type { ArgumentTrace, InjectedText, Producers } from './content-edges.js';
import type { Item } from './items.js';

export interface TargetCheck extends Target {
  ok: boolean;
  why: string;
  /** What authorises it, when it is authorised: the policy's list, the request, a directory tool, the intent annotation. */
  authority?: 'policy' | 'request' | 'directory' | 'annotation';
  /** The node where the target first appears, when that is what makes it untrusted. */
  origin?: number;
}

/** A link or an injected instruction that a message body carries from untrusted content to its recipient. */
export interface OnwardFinding {
  kind: 'link' | 'instruction';
  argument: string;
  value: string;
  origin: number;
  why: string;
}

export interface SiteContext {
  policy: Policy;
  p: Producers;
  root: number;
  rootText: string;
  annotationTargets?: readonly string[];
  injections: ReadonlyMap<number, InjectedText>;
  /** The injected passages alone, indexed: a body that quotes one carries the instruction onward. */
  injectedIndex: ContentIndex;
}

/** Words too common to tie a directory entry to the request. */
const COMMON = new Set(['the', 'and', 'for', 'with', 'from', 'member', 'members', 'owner', 'admin', 'email', 'mail', 'com', 'org', 'net', 'www', 'http', 'https', 'user', 'account', 'team', 'my', 'our', 'your', 'to', 'of', 'in', 'on', 'at', 'a', 'an', 'is', 'it', 'de', 'io', 'co']);

/**
 * Whether a target found in a directory's result is the one the request asks for: the entry (the
 * line that holds it) names something the request names ("Make Jonas an admin" and the entry
 * "Jonas Weber <jonas.weber@...>"; "the nurse line" and "Nurse Line — nurses@...").
 */
function directoryEntryNamed(output: string, value: string, rootWords: ReadonlySet<string>): boolean {
  const line = output.split('\n').find((l) => l.includes(value));
  if (!line) return false;
  return normalizeTokens(line.replace(value, ' ')).some((w) => !COMMON.has(w) && (w.length >= 3 || /\d/.test(w)) && rootWords.has(w));
}

function target(policy: Policy, it: Item, a: ArgumentTrace): Target[] {
  const kind = a.role as TargetKind;
  const rule = policy.targets.find((r) => r.tool.test(it.tool!) && r.argument.test(a.name));
  const require = rule?.require ?? (kind === 'path' || kind === 'command' ? 'trusted' : 'authorised');
  // A recipient list written as one string ("a@x.org, b@y.org") names each recipient.
  const values = kind === 'recipient' || kind === 'payee' ? a.value.split(/[,;]\s*/).map((v) => v.trim()).filter(Boolean) : [a.value];
  return values.map((value) => ({ kind, require, argument: a.name, value, rule: rule?.at ?? `argument role (${a.role})` }));
}

export function checkTargets(ctx: SiteContext, it: Item, traces: readonly ArgumentTrace[]): TargetCheck[] {
  const rootWords = new Set(normalizeTokens(ctx.rootText));
  const out: TargetCheck[] = [];
  for (const a of traces) {
    if (!TARGET_ROLES.has(a.role) || a.value.trim() === '') continue;
    for (const t of target(ctx.policy, it, a)) out.push(checkTarget(ctx, t, it.start, rootWords));
  }
  return out;
}

function checkTarget(ctx: SiteContext, t: Target, before: number, rootWords: ReadonlySet<string>): TargetCheck {
  const { policy, p, root } = ctx;
  const byPolicy = authorisedByPolicy(policy, t.value);
  if (byPolicy) return { ...t, ok: true, authority: 'policy', why: `authorised by the policy (${byPolicy})` };
  if (ctx.annotationTargets?.some((x) => normalizeText(x) !== '' && normalizeText(x) === normalizeText(t.value))) return { ...t, ok: true, authority: 'annotation', why: 'named in the request (intent annotation)' };
  const probes = [t.value];
  const host = t.kind === 'url' ? hostOf(t.value) : undefined;
  if (host) probes.push(host);
  let origins: number[] = [];
  for (const probe of probes) {
    const cov = p.index.coverage(probe, before);
    if (cov.covered > 0) {
      origins = [...cov.firstSeen.keys()];
      break;
    }
  }
  if (origins.includes(root) && (t.require === 'trusted' || origins.length === 1)) return { ...t, ok: true, authority: 'request', why: 'named in the request' };
  const injected = origins.find((o) => ctx.injections.has(o) && ` ${ctx.injections.get(o)!.injected} `.includes(` ${normalizeText(t.value)} `));
  if (injected !== undefined) return { ...t, ok: false, origin: injected, why: `first appears in ${p.describe(injected)}, in an injected passage` };
  const trustedDirectory = (o: number) => {
    const it = p.itemOf.get(o)!;
    if (!it.tool || ctx.injections.has(o)) return false;
    return isDirectory(policy, it.tool) || (it.classified?.profile?.directory === true && directoryEntryNamed(it.output, t.value, rootWords));
  };
  const directory = origins.find(trustedDirectory);
  if (directory !== undefined) return { ...t, ok: true, authority: 'directory', why: `from the directory tool ${p.itemOf.get(directory)!.tool}${isDirectory(policy, p.itemOf.get(directory)!.tool!) ? ' (policy directories)' : ', whose entry names what the request names'}` };
  const fromTool = origins.find((o) => ['tool', 'sink'].includes(p.itemOf.get(o)!.kind));
  if (fromTool !== undefined && t.kind !== 'path') return { ...t, ok: false, origin: fromTool, why: `first appears in ${p.describe(fromTool)}: a ${t.kind} from a tool result is untrusted` };
  if (t.require === 'trusted') return { ...t, ok: true, why: origins.length ? `written by ${p.describe(origins[0])}` : 'written by the model' };
  return {
    ...t,
    ok: false,
    ...(origins.length ? { origin: origins[0] } : {}),
    why: origins.length ? `not named in the request: first written by ${p.describe(origins[0])}` : 'named neither in the request nor in the policy',
  };
}

/**
 * Arguments that tie the call to the request or to what the agent read for it: values the request
 * names or a read returned outside any injected passage, and targets the policy or a named
 * directory entry vouches for.
 */
export function anchorsOf(traces: readonly ArgumentTrace[], targets: readonly TargetCheck[]): string[] {
  const out = new Set<string>();
  for (const a of traces) {
    if (a.role === 'content' || a.role === 'choice' || normalizeText(a.value).length < 2 || targets.some((t) => t.argument === a.name && !t.ok)) continue;
    if (a.origin === 'request' || (a.origin === 'tool-result' && !a.injected)) out.add(a.name);
  }
  for (const t of targets) if (t.ok && t.authority !== undefined) out.add(t.argument);
  return [...out];
}

const LINK = /\bhttps?:\/\/[^\s"'<>)\]]+|\bwww\.[^\s"'<>)\]]+/gi;
const SHARES_LINKS = /\b(?:links?|urls?|articles?|pages?|websites?|sites?|sources?|videos?|web ?addresses?)\b/i;

/** Links from untrusted content, and injected instructions, in the message-like arguments of a send or a post. */
export function onwardFindings(ctx: SiteContext, it: Item, traces: readonly ArgumentTrace[]): OnwardFinding[] {
  const out: OnwardFinding[] = [];
  const sharesLinks = SHARES_LINKS.test(ctx.rootText);
  for (const a of traces) {
    if (a.role !== 'content') continue;
    if (!sharesLinks) {
      for (const m of a.value.matchAll(LINK)) {
        const link = m[0].replace(/[.,;:!?]+$/, '');
        if (authorisedByPolicy(ctx.policy, link)) continue;
        const cov = ctx.p.index.coverage(link, it.start);
        const first = ctx.p.earliest(cov.firstSeen);
        if (first === undefined || first === ctx.root || !['tool', 'sink'].includes(ctx.p.itemOf.get(first)!.kind)) continue;
        out.push({ kind: 'link', argument: a.name, value: link, origin: first, why: `link ${link} in argument ${a.name} first appears in ${ctx.p.describe(first)}` });
      }
    }
    for (const [node] of ctx.injectedIndex.linked(a.value, it.start)) {
      const passage = ctx.injections.get(node)?.passages ?? '';
      out.push({ kind: 'instruction', argument: a.name, value: passage.slice(0, 120), origin: node, why: `argument ${a.name} carries the injected instructions of ${ctx.p.describe(node)} ("${passage.replace(/\s+/g, ' ').slice(0, 80)}")` });
    }
  }
  return out;
}
