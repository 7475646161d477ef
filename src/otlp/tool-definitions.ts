/**
 * The tool definitions a span carries, in each dialect's own attributes (docs/validator.md,
 * "Traces"):
 *
 *   GenAI conventions  `gen_ai.tool.definitions` on the span or on its
 *                      `gen_ai.client.inference.operation.details` event: a list (a JSON string,
 *                      or structured) of `{type: 'function', name, description, parameters}` or
 *                      the source system's own format (OpenAI's `{type, function: {…}}`); and the
 *                      `gen_ai.tool.description` of an `execute_tool` span.
 *   OpenInference      `llm.tools.N.tool.json_schema` of LLM spans (each a JSON string of the tool
 *                      as the request sent it), or `llm.tools.N.tool.{name,description,parameters}`;
 *                      `tool.description` / `tool.parameters` of TOOL spans.
 *   OpenLLMetry        the GenAI attribute (current releases), or the older indexed
 *                      `llm.request.functions.N.{name,description,parameters}`.
 *   Vercel AI SDK      `ai.prompt.tools` of LLM-call spans: a list of JSON strings, each
 *                      `{type: 'function', name, description, inputSchema | parameters}`.
 *
 * What comes out is only parsed objects, in whatever shape the exporter wrote (the trace graph
 * reads the shape, src/taint/trace/tool-definitions.ts). The input is hostile: malformed JSON, a
 * value that is not an object, and a text longer than a definition could need are skipped, never
 * an error; at most MAX_DEFINITIONS_PER_SPAN per span and MAX_DEFINITION_CHARS of JSON each are
 * read; what is parsed is cut to the depth cap before anything walks it.
 */
import type { OtlpSpan } from './schema.js';
import { depthCut, indexedEntries, parseJsonBounded, type GenAiSpan } from './genai.js';
import { isJsonObject, type JsonObject } from '../util/json-object.js';

/** Definitions read from one span at most (a model offered more tools than this is not a model request). */
export const MAX_DEFINITIONS_PER_SPAN = 256;
/** The longest JSON text of one definition, or of one attribute's list of them, that is parsed; longer ones are skipped. */
export const MAX_DEFINITION_CHARS = 256 * 1024;
/** The JSON text parsed for one span at most, all its definitions together. */
const SPAN_BUDGET_CHARS = 4 * 1024 * 1024;

/** Reads one span's definitions within the caps. */
class Reader {
  readonly out: JsonObject[] = [];
  private budget = SPAN_BUDGET_CHARS;

  get full(): boolean {
    return this.out.length >= MAX_DEFINITIONS_PER_SPAN;
  }

  /** A JSON text parsed within the budget, or undefined (too long, malformed). */
  private parse(text: string): unknown {
    if (text.length > MAX_DEFINITION_CHARS || text.length > this.budget) return undefined;
    this.budget -= text.length;
    try {
      return parseJsonBounded(text);
    } catch {
      return undefined;
    }
  }

  /** One definition: an object, or a JSON text of one. */
  add(v: unknown): void {
    if (this.full) return;
    const o = typeof v === 'string' ? this.parse(v) : v;
    if (isJsonObject(o)) this.out.push(typeof v === 'string' ? o : depthCut(o));
  }

  /** A list of definitions: a list (of objects or JSON texts), or a JSON text of a list or of one definition. */
  addList(v: unknown): void {
    const list = typeof v === 'string' ? this.parse(v) : v;
    if (Array.isArray(list)) for (const d of list.slice(0, MAX_DEFINITIONS_PER_SPAN)) this.add(d);
    else this.add(list);
  }

  /** A JSON schema given as a JSON text or an object; a bare properties map is taken as the properties of an object. */
  schema(v: unknown): JsonObject | undefined {
    const s = typeof v === 'string' ? this.parse(v) : v;
    if (!isJsonObject(s) || Object.keys(s).length === 0) return undefined;
    if ('type' in s || 'properties' in s || '$ref' in s || 'anyOf' in s || 'oneOf' in s) return s;
    // openinference-core's getToolAttributes documents `parameters: {query: {type: "string"}}`.
    return Object.values(s).every(isJsonObject) ? { type: 'object', properties: s } : undefined;
  }

  /** Indexed attributes (`prefix.N.name`, `.description`, `.parameters`) as one definition per index. */
  addIndexed(attrs: Record<string, unknown>, prefix: string, keys: { name: string; description: string; parameters: string }): void {
    for (const e of indexedEntries(attrs, prefix).slice(0, MAX_DEFINITIONS_PER_SPAN)) {
      const name = e[keys.name];
      if (typeof name !== 'string' || name === '') continue;
      const description = e[keys.description];
      const parameters = this.schema(e[keys.parameters]);
      this.add({ name, ...(typeof description === 'string' ? { description } : {}), ...(parameters ? { parameters } : {}) });
    }
  }
}

/**
 * The definitions `span` carries in the attributes of the dialects that read it (view.ts), and
 * the description (and schema) a tool span gives its own tool (`view`: the span's merged reading).
 */
export function spanToolDefinitions(span: OtlpSpan, dialects: readonly string[], view: GenAiSpan): JsonObject[] {
  const a = span.attributes;
  const r = new Reader();
  r.addList(a['gen_ai.tool.definitions']);
  for (const e of span.events ?? [])
    if (e.name === 'gen_ai.client.inference.operation.details') r.addList(e.attributes['gen_ai.tool.definitions']);
  if (dialects.includes('openinference')) {
    for (const e of indexedEntries(a, 'llm.tools').slice(0, MAX_DEFINITIONS_PER_SPAN)) r.add(e['tool.json_schema']);
    r.addIndexed(a, 'llm.tools', { name: 'tool.name', description: 'tool.description', parameters: 'tool.parameters' });
  }
  if (dialects.includes('openllmetry'))
    r.addIndexed(a, 'llm.request.functions', { name: 'name', description: 'description', parameters: 'parameters' });
  if (dialects.includes('vercel')) r.addList(a['ai.prompt.tools']);
  if (view.op === 'execute_tool' && view.tool) {
    const description = a['gen_ai.tool.description'] ?? (dialects.includes('openinference') ? a['tool.description'] : undefined);
    const parameters = dialects.includes('openinference') ? r.schema(a['tool.parameters']) : undefined;
    if (typeof description === 'string' || parameters)
      r.add({ name: view.tool, ...(typeof description === 'string' ? { description } : {}), ...(parameters ? { parameters } : {}) });
  }
  return r.out;
}
