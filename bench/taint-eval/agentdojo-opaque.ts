/**
 * The opaque variant of the AgentDojo replay: every tool and every argument renamed to an
 * identifier that says nothing (`t_` or `a_` and a hash of the name), descriptions and schema
 * titles dropped. What is left is structure: the schema's types, formats and enums, the MCP
 * annotations a server would declare, and a policy that says what AgentDojo's own names say (each
 * tool's labels, each argument's role, the directories), written as a team writes one for tools
 * whose names tell nothing. The validator must then decide every call as it does with
 * AgentDojo's names: names are one way to know a tool, not what decides (docs/validator.md).
 */
import type { Policy, PolicyFile } from '../../src/taint/policy.js';
import { policyFromDocument } from '../../src/taint/policy.js';
import { classifyTool, flattenArguments, isDirectory } from '../../src/taint/classify.js';
import { pinnableWords } from '../../src/taint/suggest.js';
import { argumentRole, schemaProperty } from '../../src/taint/argument-roles.js';
import { maskOf, sinksOf, sourcesOf, SINK_LABELS, SINK_MASK, SOURCE_MASK, type SinkLabel } from '../../src/taint/labels.js';
import { renameCallWith, type AgentDojoCall, type AgentDojoData, type AgentDojoTool } from './agentdojo-data.js';

/** FNV-1a, 32 bits: a stable hash, the same on every machine and run. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const opaque = (prefix: 't' | 'a', name: string) => `${prefix}_${fnv1a(`${prefix}:${name}`).toString(16).padStart(8, '0').slice(0, 6)}`;
export const opaqueTool = (name: string) => opaque('t', name);
export const opaqueArgument = (name: string) => opaque('a', name);

/** A JSON schema with every property renamed, titles and descriptions dropped (they are names too), `$ref`s kept. */
function opaqueSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(opaqueSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if (k === 'title' || k === 'description') continue;
    if (k === 'properties' && v && typeof v === 'object')
      out[k] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, s]) => [opaqueArgument(p), opaqueSchema(s)]));
    else if (k === 'required' && Array.isArray(v)) out[k] = v.map((p) => opaqueArgument(String(p)));
    else out[k] = opaqueSchema(v);
  }
  return out;
}

export function opaqueCall(c: AgentDojoCall): AgentDojoCall {
  return renameCallWith(c, opaqueTool, opaqueArgument);
}

/** The labels `policy` gives a tool (AgentDojo's, or an opaque one with its annotations), as a call with no values gets them. */
function originalLabels(
  policy: Policy,
  t: AgentDojoTool & { annotations?: OpaqueAnnotations },
): { sinks: number; sources: number; fetch: boolean; verb?: string; words?: string[] } {
  const props = Object.keys(((t.parameters as { properties?: object }).properties ?? {}) as object);
  const c = classifyTool(
    policy,
    t.name,
    Object.fromEntries(props.map((p) => [p, ''])),
    {},
    {
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      inputSchema: t.parameters,
      ...(t.annotations ? { annotations: t.annotations } : {}),
    },
  );
  // A fetch is a sink because of its URL argument, which the opaque tool keeps (by its role): the rule gives the read.
  const sinks = c.fetch ? 0 : c.sinks & SINK_MASK;
  // The verb of a sink's name ("update" of update_scheduled_transaction): a request that uses it asks for the tool.
  const verb = sinks ? (c.verb ?? c.profile?.verb) : undefined;
  // And the other words a request may use for it (its name's words, its description's verbs), which the opaque tool has lost.
  const words = sinks ? pinnableWords(c) : [];
  return {
    sinks,
    sources: c.sources & SOURCE_MASK,
    fetch: c.fetch === true,
    ...(verb ? { verb } : {}),
    ...(words.length ? { words } : {}),
  };
}

export type OpaqueAnnotations = Record<'readOnlyHint' | 'destructiveHint' | 'openWorldHint', boolean>;

/** The annotations a server would declare for what the tool does: read-only, destructive, reaching outside. */
export function annotationsOf(policy: Policy, t: AgentDojoTool): OpaqueAnnotations {
  const { sinks, fetch } = originalLabels(policy, t);
  const has = (l: SinkLabel) => (sinks & maskOf([l])) !== 0;
  return {
    readOnlyHint: sinks === 0,
    destructiveHint: has('DESTRUCTIVE_WRITE'),
    openWorldHint: fetch || has('EXTERNAL_SEND') || has('PUBLIC_POST'),
  };
}

export function opaqueToolDefinition(policy: Policy, t: AgentDojoTool): AgentDojoTool & { annotations: OpaqueAnnotations } {
  return {
    name: opaqueTool(t.name),
    description: null,
    parameters: opaqueSchema(t.parameters) as Record<string, unknown>,
    annotations: annotationsOf(policy, t),
  };
}

/** Every argument name a tool's calls use (nested keys included, as the validator flattens them), from its schema and the data's calls. */
function argumentNames(t: AgentDojoTool, calls: readonly AgentDojoCall[]): Set<string> {
  const names = new Set(Object.keys(((t.parameters as { properties?: object }).properties ?? {}) as object));
  for (const c of calls) if (c.function === t.name) for (const a of flattenArguments(c.args)) if (a.name) names.add(a.name);
  return names;
}

/** The opaque policy, and how many tools it had to name. */
export interface OpaquePolicy {
  document: PolicyFile;
  tools: number;
  /** Tools it names because structure gives another sink than AgentDojo's name, because it gives other sources (what a read returns), and for the verb of a sink's name. */
  forSinks: string[];
  forSources: string[];
  forVerbs: string[];
}

/**
 * The policy a team would write for the opaque tools: each argument's role as `policy` reads it
 * from AgentDojo's names (an argument whose name says nothing is left to its schema and value, as
 * it is under its own name), the directories, and a tool rule with AgentDojo's labels for each tool
 * whose structure (annotations, argument roles) does not give those labels by itself, or the verb
 * its name says (what `policy suggest` pins, `tools[].verb`); with
 * `everyTool`, for every tool (a trace that carries no definitions, such as the sparse shape, shows
 * no structure). It extends the built-in policy, whose rules on names no longer match anything.
 */
export function opaquePolicyDocument(policy: Policy, data: AgentDojoData, opts: { everyTool?: boolean } = {}): OpaquePolicy {
  const calls = data.suites.flatMap((s) => [...s.userTasks, ...s.injectionTasks].flatMap((x) => x.ground_truth_calls));
  const unique = new Map(data.suites.flatMap((s) => s.tools).map((t) => [t.name, t]));
  const args = new Map<string, NonNullable<PolicyFile['arguments']>[number]>();
  const directories = new Set<string>();
  for (const t of unique.values()) {
    const name = opaqueTool(t.name);
    if (isDirectory(policy, t.name)) directories.add(name);
    for (const a of argumentNames(t, calls)) {
      const role = argumentRole(policy, t.name, a, '', schemaProperty(t.parameters, a));
      if (role === 'other' || role === 'choice') continue;
      args.set(`${name} ${a}`, { tool: name, argument: opaqueArgument(a), role });
    }
  }
  const base: PolicyFile = { arguments: [...args.values()], directories: [...directories] };
  const structure = policyFromDocument(base, 'the opaque AgentDojo policy (argument roles)');
  const out: OpaquePolicy = { document: { ...base, tools: [] }, tools: unique.size, forSinks: [], forSources: [], forVerbs: [] };
  for (const t of unique.values()) {
    const want = originalLabels(policy, t);
    const got = originalLabels(structure, opaqueToolDefinition(policy, t));
    if (want.sinks !== got.sinks || want.fetch !== got.fetch) out.forSinks.push(t.name);
    else if (want.sources !== got.sources) out.forSources.push(t.name);
    else if (want.verb !== got.verb || (want.words ?? []).join() !== (got.words ?? []).join()) out.forVerbs.push(t.name);
    else if (!opts.everyTool) continue;
    out.document.tools!.push({
      name: opaqueTool(t.name),
      sinks: sinksOf(want.sinks),
      sources: sourcesOf(want.sources),
      ...(want.verb ? { verb: want.verb } : {}),
      ...(want.words ? { words: want.words } : {}),
      // A read is placed by saying it has no sink.
      ...(want.sinks === 0 && want.sources === 0 ? { 'not-sinks': [...SINK_LABELS] } : {}),
      why: `AgentDojo's ${t.name}`,
    });
  }
  return out;
}

export function opaquePolicy(policy: Policy, data: AgentDojoData, opts: { everyTool?: boolean } = {}): Policy {
  return policyFromDocument(opaquePolicyDocument(policy, data, opts).document, 'the opaque AgentDojo policy');
}
