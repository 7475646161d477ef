/**
 * The tool definitions a trace carries, by tool name: the task's tool specs, the definitions a
 * bare trace lists (`toolDefinitions`, MCP `tools/list` shape), the `gen_ai.tool.definitions`
 * attribute of chat and agent spans (OpenAI function or MCP shape, as a JSON string or a list),
 * and the `gen_ai.tool.description` of execute_tool spans. What one source leaves out, another may
 * fill in (a description from a tool span, a schema from a chat span). A definition keeps its MCP
 * annotations and the HTTP method it states, which the tool profile reads before any name.
 */
import type { GenAiSpan } from '../../otlp/index.js';
import { parseJsonBounded } from '../../otlp/genai.js';
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

function parseList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string') return [];
  try {
    const parsed = parseJsonBounded(v);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [];
  }
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

export function collectDefinitions(sources: {
  specs?: readonly unknown[];
  definitions?: readonly unknown[];
  views?: readonly GenAiSpan[];
}): Map<string, ToolDefinition> {
  const out = new Map<string, ToolDefinition>();
  for (const raw of [...(sources.specs ?? []), ...(sources.definitions ?? [])]) {
    const d = definitionOf(raw);
    if (d) merge(out, d);
  }
  for (const v of sources.views ?? []) {
    const attrs = v.span.attributes;
    for (const raw of parseList(attrs['gen_ai.tool.definitions'])) {
      const d = definitionOf(raw);
      if (d) merge(out, d);
    }
    const description = attrs['gen_ai.tool.description'];
    if (v.op === 'execute_tool' && v.tool && typeof description === 'string') merge(out, { name: v.tool, description });
  }
  return out;
}
