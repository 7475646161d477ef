/**
 * The policy applied to what a trace shows: labels of a tool call (by name, argument, target),
 * labels of a text (content rules), the targets a call names, the sinks a request asks for, and
 * whether the policy itself authorises a target. Pure functions over a compiled Policy.
 */
import type { SinkLabel, SourceLabel } from './labels.js';
import { SINK_MASK, SOURCE_MASK, maskOf } from './labels.js';
import type { ContentSite, Matcher, Policy, TargetKind } from './policy.js';
import { profileTool, readByShape, type ToolDefinition, type ToolProfile } from './tool-profile.js';
import { argumentRole, schemaProperty, type ArgumentRole } from './argument-roles.js';
import { recogniseIntent, usesToolVerb } from './intent.js';
import { words } from './lexicon.js';

export interface LabelEvidence {
  mask: number;
  why: string;
}

/** Arguments as (name, text) pairs: nested objects by their last key, lists item by item, scalars as text. */
export function flattenArguments(args: unknown, name = ''): { name: string; value: string }[] {
  if (args === null || args === undefined) return [];
  if (typeof args === 'string') return [{ name, value: args }];
  if (typeof args === 'number' || typeof args === 'boolean') return [{ name, value: String(args) }];
  if (Array.isArray(args)) return args.flatMap((v) => flattenArguments(v, name));
  if (typeof args === 'object') return Object.entries(args as Record<string, unknown>).flatMap(([k, v]) => flattenArguments(v, k));
  return [];
}

export interface Target {
  /** A target kind, or the object a call acts on (an id, a name). */
  kind: TargetKind | 'object';
  require: 'authorised' | 'trusted';
  argument: string;
  value: string;
  rule: string;
}

/** The targets a tool call names: recipients, URLs, payees, paths and commands, by the policy's target rules. */
export function targetsOf(policy: Policy, tool: string, args: Record<string, unknown>): Target[] {
  const out: Target[] = [];
  for (const { name, value } of flattenArguments(args)) {
    if (value.trim() === '') continue;
    const rule = policy.targets.find((r) => r.tool.test(tool) && r.argument.test(name));
    if (!rule) continue;
    // A recipient list written as one string ("a@x.org, b@y.org") names each recipient.
    const values =
      rule.kind === 'recipient' || rule.kind === 'payee'
        ? value
            .split(/[,;]\s*/)
            .map((v) => v.trim())
            .filter(Boolean)
        : [value];
    for (const v of values) out.push({ kind: rule.kind, require: rule.require, argument: name, value: v, rule: rule.at });
  }
  return out;
}

function snippet(text: string, re: RegExp): string {
  const m = re.exec(text);
  const s = (m?.[0] ?? '').replace(/\s+/g, ' ').trim();
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/**
 * Labels of one tool call. The spec's declared labels come first; then every matching tool rule
 * in policy order adds its sources and sinks and takes off its `not-sinks`, so a later rule can
 * put back what an earlier one removed; the built-in policy's rules, which read names, do not
 * make a sink of a tool whose structure or name says it only returns data. A tool that neither a
 * spec nor any rule labels is profiled (tool-profile.ts): structure first (annotations, HTTP
 * method, argument roles), its name and description last, as a guess; a tool nothing places that
 * takes something a sink needs is staged (fail-closed).
 */
export function classifyTool(
  policy: Policy,
  tool: string,
  args: Record<string, unknown>,
  declared: { sinks?: readonly SinkLabel[]; sources?: readonly SourceLabel[] } = {},
  definition?: ToolDefinition,
): { sources: number; sinks: number; evidence: LabelEvidence[]; profile?: ToolProfile; fetch?: boolean; verb?: string; words?: string[] } {
  const labelled = classifyByName(policy, tool, args, declared, definition);
  return asFetch(policy, tool, args, definition, labelled);
}

const SEND = maskOf(['EXTERNAL_SEND']);

/**
 * Every tool with an external effect is a sink, fetches included: a call that points at a URL
 * sends a request there (what the URL or its query carries leaves with it), so a read with a URL
 * argument is staged as EXTERNAL_SEND, its URL a target like any other (docs/taint-policy.md, "Principles").
 */
function asFetch(
  policy: Policy,
  tool: string,
  args: Record<string, unknown>,
  definition: ToolDefinition | undefined,
  c: ReturnType<typeof classifyByName>,
): ReturnType<typeof classifyByName> & { fetch?: boolean } {
  if (c.sinks !== 0) return c;
  const url = argumentRolesOf(policy, tool, args, definition).find((a) => a.role === 'url' && a.value.trim() !== '');
  if (!url) return c;
  return {
    ...c,
    sinks: SEND,
    fetch: true,
    evidence: [
      ...c.evidence,
      { mask: SEND, why: `a fetch: argument ${url.name} points the call at ${url.value.slice(0, 80)}, so the request leaves the machine` },
    ],
  };
}

function classifyByName(
  policy: Policy,
  tool: string,
  args: Record<string, unknown>,
  declared: { sinks?: readonly SinkLabel[]; sources?: readonly SourceLabel[] },
  definition: ToolDefinition | undefined,
): { sources: number; sinks: number; evidence: LabelEvidence[]; profile?: ToolProfile; verb?: string; words?: string[] } {
  let sources = maskOf(declared.sources ?? []);
  let sinks = maskOf(declared.sinks ?? []);
  const evidence: LabelEvidence[] = [];
  if (sources | sinks) evidence.push({ mask: sources | sinks, why: `declared by the spec of tool ${tool}` });
  const flat = flattenArguments(args);
  let targets: Target[] | undefined;
  let ruled = false;
  // Asked only when a built-in rule would make the tool a sink.
  const readOnly = lazy(() => readByShape(policy, definition ?? { name: tool }, flat, { verbOf: policy.verbOf }));
  // The verb a rule names stands in for the one the profile would read (a pinned tool is never profiled).
  let verb: string | undefined;
  let words: string[] | undefined;
  for (let rule of rulesFor(policy, tool)) {
    if (rule.description && !rule.description.test(definition?.description ?? '')) continue;
    let detail = '';
    if (rule.argument || rule.matches) {
      const hit = flat.find((a) => (!rule.argument || rule.argument.test(a.name)) && (!rule.matches || rule.matches.test(a.value)));
      if (!hit) continue;
      if (rule.matches) detail = ` (argument ${hit.name}: "${snippet(hit.value, rule.matches)}")`;
    }
    if (rule.target) {
      targets ??= targetsOf(policy, tool, args);
      const t = targets.find((x) => targetMatches(rule.target!, x.value));
      if (!t) continue;
      detail += ` (target ${t.value})`;
    }
    // The built-in rules read names: a tool whose structure or name says it only returns data outranks them (docs/validator.md).
    if (rule.sinks && rule.at.startsWith('default ') && readOnly()) {
      evidence.push({
        mask: 0,
        why: `not taken: policy ${rule.at}${rule.why ? ` (${rule.why})` : ''}, a rule on its name, as ${readOnly()}`,
      });
      if (!rule.sources) continue;
      rule = { ...rule, sinks: 0 };
    }
    // Argument-level rules (what a piece of code touches) add to whatever the tool is; a rule on the name alone places it.
    if (!rule.argument && !rule.matches) ruled = true;
    if (rule.verb) verb = rule.verb;
    if (rule.words) words = rule.words;
    const why = `policy ${rule.at}${rule.why ? `: ${rule.why}` : ''}${detail}`;
    if (rule.sources | rule.sinks) {
      sources |= rule.sources;
      sinks |= rule.sinks;
      evidence.push({ mask: rule.sources | rule.sinks, why });
    }
    if (rule.notSinks & sinks) {
      evidence.push({ mask: rule.notSinks & sinks, why: `taken off by ${why}` });
      sinks &= ~rule.notSinks;
    }
    if (rule.notSinks) ruled = true;
  }
  const labelled = (declared.sinks?.length ?? 0) + (declared.sources?.length ?? 0) > 0;
  const named = { ...(verb ? { verb } : {}), ...(words ? { words } : {}) };
  if (labelled || ruled) return { sources: sources & SOURCE_MASK, sinks: sinks & SINK_MASK, evidence, ...named };
  const profile = profileTool(policy, definition ?? { name: tool }, flat, { verbOf: policy.verbOf });
  sources |= profile.sources;
  sinks |= profile.sinks;
  evidence.push(...profile.evidence.filter((e) => e.mask !== 0 || profile.unknown));
  return { sources: sources & SOURCE_MASK, sinks: sinks & SINK_MASK, evidence, profile, ...named };
}

/** `f`, called at most once. */
function lazy<T>(f: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) [done, value] = [true, f()];
    return value;
  };
}

const RULES = new WeakMap<Policy, Map<string, Policy['tools']>>();

/** The policy's tool rules whose name pattern covers `tool`, in policy order (cached per policy and tool). */
function rulesFor(policy: Policy, tool: string): Policy['tools'] {
  let byTool = RULES.get(policy);
  if (!byTool) RULES.set(policy, (byTool = new Map()));
  let rules = byTool.get(tool);
  if (!rules) {
    rules = policy.tools.filter((r) => r.name.test(tool));
    if (byTool.size < 10_000) byTool.set(tool, rules);
  }
  return rules;
}

/** Every argument of a call with its role (argument-roles.ts), in the order flattenArguments gives. */
export function argumentRolesOf(
  policy: Policy,
  tool: string,
  args: Record<string, unknown>,
  definition?: ToolDefinition,
): { name: string; value: string; role: ArgumentRole }[] {
  const flat = flattenArguments(args);
  const siblings = [...flat.map((a) => a.name), ...schemaNames(definition)];
  return flat.map((a) => ({
    ...a,
    role: argumentRole(policy, tool, a.name, a.value, schemaProperty(definition?.inputSchema, a.name), siblings),
  }));
}

/** The names of a tool's schema's properties (its arguments the call may leave out). */
const schemaNames = (definition?: ToolDefinition) =>
  Object.keys((definition?.inputSchema as { properties?: object } | undefined)?.properties ?? {});

/** Labels the content rules give a text found at `site`. */
export function contentLabels(policy: Policy, text: string, site: ContentSite): { mask: number; evidence: LabelEvidence[] } {
  let mask = 0;
  const evidence: LabelEvidence[] = [];
  if (!text) return { mask, evidence };
  for (const rule of policy.content) {
    if (!rule.on.has(site)) continue;
    rule.re.lastIndex = 0;
    if (!rule.re.test(text)) continue;
    mask |= rule.labels;
    evidence.push({ mask: rule.labels, why: `policy ${rule.at}: ${rule.why} ("${snippet(text, rule.re)}")` });
  }
  return { mask, evidence };
}

/**
 * The request's own words: fenced code blocks and paths/URLs are dropped, so that code the user
 * pasted ("execute this") does not ask for everything its identifiers happen to spell. The
 * punctuation that ends a path's sentence stays ("… at /home/v.mp4. Post this video …" is two
 * sentences, and the second opens with its verb).
 */
export function requestProse(text: string): string {
  return text.replace(/```[\s\S]*?(```|$)/g, ' ').replace(/\S*[/\\]\S*?([.,;:!?]*)(?=\s|$)/g, ' $1');
}

/**
 * Hard sinks the request asks for: the action it asks for, read by the action lexicon (intent.ts)
 * and covered by the relation between actions and sinks (lexicon.ts, COVERS), plus a policy's own
 * intent rules when it has any (the built-in policy has none: a noun alone asks for nothing).
 */
export function requestNeeds(policy: Policy, request: string): { mask: number; evidence: LabelEvidence[] } {
  const prose = requestProse(request);
  const lexical = recogniseIntent(prose, { verbOf: policy.verbOf });
  let mask = lexical.mask;
  const evidence: LabelEvidence[] = [...lexical.evidence];
  for (const rule of policy.intents) {
    if (!rule.re.test(prose)) continue;
    mask |= rule.needs;
    evidence.push({ mask: rule.needs, why: `policy ${rule.at}: ${rule.why} ("${snippet(prose, rule.re)}")` });
  }
  return { mask: mask & SINK_MASK, evidence };
}

/** Whether the request names the tool (`post_on_x`, "post on x"). */
export function mentionsTool(request: string, tool: string): boolean {
  // A tool named with one word (`email`, `messages`, `bookings`) is named for what it works on: the
  // noun in a request asks for nothing (its verb does, usesToolVerb).
  if (words(tool).length < 2) return false;
  const spaced = tool.replace(/[_-]+/g, ' ').toLowerCase().trim();
  const text = request.toLowerCase();
  return text.includes(tool.toLowerCase()) || (spaced.includes(' ') && text.replace(/[_-]+/g, ' ').includes(spaced));
}

/** Whether the request names the call: its tool (`post_on_x`, "post on x") or the tool's own action verb ("archive" for `archive_channel`). */
export function namesCall(request: string, tool: string | undefined, verb: string | undefined): boolean {
  return (tool !== undefined && mentionsTool(request, tool)) || usesToolVerb(request, verb);
}

/** The host of a URL-like target, or undefined. */
export function hostOf(value: string): string | undefined {
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/\s]+@)?([a-z0-9.-]+\.[a-z]{2,})(?::\d+)?(?:[/?#]|$)/i.exec(value.trim());
  return m?.[1]?.toLowerCase();
}

/** Whether a target pattern covers a value: the value itself, an email's domain, a URL's host or host + path. */
export function targetMatches(m: Matcher, value: string): boolean {
  const v = value.trim();
  if (m.test(v)) return true;
  const at = v.lastIndexOf('@');
  if (at > 0 && m.test(v.slice(at + 1))) return true;
  const host = hostOf(v);
  if (host && (m.test(host) || m.test(v.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')))) return true;
  return false;
}

/** The policy's authorised-target pattern that covers `value`, if any. */
export function authorisedByPolicy(policy: Policy, value: string): string | undefined {
  return policy.authorised.find((m) => targetMatches(m, value))?.raw;
}

export function isDirectory(policy: Policy, tool: string): boolean {
  return policy.directories.some((m) => m.test(tool));
}

/** Labels a node with this tool or agent does not pass on, and why. */
export function releaseAt(policy: Policy, node: { tool?: string; agent?: string }): LabelEvidence | undefined {
  let mask = 0;
  const why: string[] = [];
  for (const r of policy.release) {
    const byTool = r.tool && node.tool !== undefined && r.tool.test(node.tool);
    const byAgent = r.agent && node.agent !== undefined && r.agent.test(node.agent);
    if ((r.tool && !byTool) || (r.agent && !byAgent)) continue;
    mask |= r.labels;
    why.push(`policy ${r.at}${r.why ? `: ${r.why}` : ''}`);
  }
  return mask ? { mask, why: why.join('; ') } : undefined;
}
