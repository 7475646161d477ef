/**
 * The tool definitions a trace carries, by tool name: the task's tool specs, the definitions a
 * bare trace lists (`toolDefinitions`, MCP `tools/list` shape), and those its spans carry in any
 * dialect (src/otlp/tool-definitions.ts: `gen_ai.tool.definitions`, OpenInference's `llm.tools`,
 * OpenLLMetry's `llm.request.functions`, the AI SDK's `ai.prompt.tools`, a tool span's own
 * description), in OpenAI function, AI SDK or MCP shape. What one source leaves out, another may
 * fill in (a description from a tool span, a schema from a chat span). What the trace carries is
 * untrusted: read for its shape only, and bounded (`boundedDefinition`, MAX_TRACE_DEFINITIONS). A definition keeps its MCP
 * annotations and the HTTP method it states, which the tool profile reads before any name.
 */
import type { GenAiSpan } from '../../otlp/index.js';
import type { ToolAnnotations, ToolDefinition } from '../tool-profile.js';

import { asJsonObject } from '../../util/json-object.js';

/** One definition in any of the shapes exporters write, or undefined when it has no name. */
export function definitionOf(raw: unknown): ToolDefinition | undefined {
  const o = asJsonObject(raw);
  if (!o) return undefined;
  const fn = asJsonObject(o.function) ?? o;
  const name = typeof fn.name === 'string' ? fn.name : undefined;
  if (!name) return undefined;
  const schema = asJsonObject(fn.inputSchema) ?? asJsonObject(fn.input_schema) ?? asJsonObject(fn.parameters);
  const ann = asJsonObject(o.annotations) ?? asJsonObject(fn.annotations);
  const annotations: ToolAnnotations = {};
  for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
    if (typeof ann?.[k] === 'boolean') annotations[k] = ann[k] as boolean;
  const method = methodOf(o) ?? methodOf(fn) ?? methodOf(ann);
  return {
    name,
    ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
    ...(schema ? { inputSchema: schema } : {}),
    ...(Object.keys(annotations).length ? { annotations } : {}),
    ...(method ? { method } : {}),
  };
}

const METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** The HTTP method a definition states (tools made from an OpenAPI operation): `method`, `httpMethod`, `http_method`, `x-http-method`. */
function methodOf(o: Record<string, unknown> | undefined): string | undefined {
  for (const k of ['method', 'httpMethod', 'http_method', 'x-http-method']) {
    const v = o?.[k];
    if (typeof v === 'string' && METHODS.has(v.trim().toUpperCase())) return v.trim().toUpperCase();
  }
  return undefined;
}

/** Merges `d` into the map: fields already known are kept, missing ones filled in. */
function merge(into: Map<string, ToolDefinition>, d: ToolDefinition): void {
  const old = into.get(d.name);
  if (!old) {
    into.set(d.name, d);
    return;
  }
  into.set(d.name, {
    name: d.name,
    ...((old.description ?? d.description) !== undefined ? { description: old.description ?? d.description } : {}),
    ...((old.inputSchema ?? d.inputSchema) !== undefined ? { inputSchema: old.inputSchema ?? d.inputSchema } : {}),
    ...((old.annotations ?? d.annotations) !== undefined ? { annotations: old.annotations ?? d.annotations } : {}),
    ...((old.method ?? d.method) !== undefined ? { method: old.method ?? d.method } : {}),
  });
}

/** Names a trace's own definitions (a bare trace's list, its spans') may add at most, beyond the task's specs. */
export const MAX_TRACE_DEFINITIONS = 1024;
/** The longest tool name a trace's definition may give; a longer one is no tool's name and is skipped. */
const NAME_CAP = 256;
/** A trace's definition's description is kept to this many characters (the profile reads its first clause). */
const DESCRIPTION_CAP = 4096;
/** Properties of a trace's definition's argument schema kept at most, in their order. */
const PROPERTIES_CAP = 256;

/**
 * A definition a trace carries, held to what a tool could need: a name of at most NAME_CAP
 * characters (else undefined), the description cut, the schema's properties capped.
 */
export function boundedDefinition(d: ToolDefinition): ToolDefinition | undefined {
  if (d.name.length > NAME_CAP) return undefined;
  const out: ToolDefinition = { ...d };
  if (d.description !== undefined && d.description.length > DESCRIPTION_CAP) out.description = d.description.slice(0, DESCRIPTION_CAP);
  const props = asJsonObject(d.inputSchema?.properties);
  if (d.inputSchema && props) {
    const keys = Object.keys(props);
    if (keys.length > PROPERTIES_CAP)
      out.inputSchema = { ...d.inputSchema, properties: Object.fromEntries(keys.slice(0, PROPERTIES_CAP).map((k) => [k, props[k]])) };
  }
  return out;
}

export function collectDefinitions(sources: {
  specs?: readonly unknown[];
  /** The team's tool list (`--tools`), already read and bounded (tool-list.ts): no cap on new names. */
  listed?: readonly ToolDefinition[];
  definitions?: readonly unknown[];
  views?: readonly GenAiSpan[];
}): Map<string, ToolDefinition> {
  const out = new Map<string, ToolDefinition>();
  for (const raw of sources.specs ?? []) {
    const d = definitionOf(raw);
    if (d) merge(out, d);
  }
  for (const d of sources.listed ?? []) merge(out, d);
  // What the trace itself carries is untrusted: bounded, and no more than MAX_TRACE_DEFINITIONS new names.
  let added = 0;
  const take = (raw: unknown) => {
    const parsed = definitionOf(raw);
    const d = parsed && boundedDefinition(parsed);
    if (!d) return;
    if (!out.has(d.name)) {
      if (added >= MAX_TRACE_DEFINITIONS) return;
      added++;
    }
    merge(out, d);
  };
  for (const raw of sources.definitions ?? []) take(raw);
  for (const v of sources.views ?? []) for (const raw of v.toolDefinitions ?? []) take(raw);
  return out;
}
