/**
 * What the trace graph is built from before it has node numbers: one item per observed thing (the
 * request, an LLM call, a tool call, a span, an agent's step or answer), with its time span, the
 * texts it consumed and the text it produced. The source modules beside this file add items; the
 * builder (../trace-graph.ts) sorts them by start time, numbers them and draws the edges.
 */
import type { ProxyCall } from '../../runlog/schema.js';
import { asJsonObject } from '../../util/json-object.js';
import type { ToolEvent } from '../../benchmarks/agentic/agentic.js';
import { canonicalJson } from '../../model/cassette.js';
import type { NodeKind, NodeMeta } from '../graph.js';
import type { GenAiSpan } from '../../otlp/index.js';
import type { classifyTool } from '../classify.js';
import type { ToolDefinition } from '../tool-profile.js';
import type { SinkLabel, SourceLabel } from '../labels.js';
import { normalizeText } from '../content-links.js';
import { depthCut, parseJsonBounded } from '../../otlp/genai.js';
import { readingOf, type Reading } from '../reading.js';

/** The staged call being decided (the MCP server's pending sink). */
export interface PendingCall {
  tool: string;
  arguments: Record<string, unknown>;
  agent?: string;
  /** The sinks the MCP server staged it for (the tool spec's). */
  sinks?: readonly import('../labels.js').SinkLabel[];
  id?: string;
}

export type Source =
  | { type: 'root' }
  | { type: 'call'; call: ProxyCall }
  | { type: 'tool'; event: ToolEvent }
  | { type: 'pending'; call: PendingCall }
  | { type: 'span'; view: GenAiSpan }
  /** A tool call a chat span's output lists that no tool span or event records (chat-tool-calls.ts). */
  | { type: 'chat-call'; view: GenAiSpan; callId?: string }
  /** An agent deciding to call a tool that no LLM call in the trace issued (tool spans straight under the agent span). */
  | { type: 'step'; agent: Item; tool: Item }
  /** An agent's final answer (the output of its invoke_agent span), produced when the span ends. */
  | { type: 'answer'; agent: Item }
  | { type: 'pseudo' };

export interface Item {
  kind: NodeKind;
  start: number;
  end: number;
  order: number;
  meta: NodeMeta;
  /** Texts it consumed, per message (requests) or per argument (tool calls). */
  input: { text: string; name?: string }[];
  output: string;
  /** How `output` is read (../reading.ts): a record's fields laid out, else `output`. See `itemReading`. */
  reading?: Reading;
  src: Source;
  node: number;
  tool?: string;
  args?: Record<string, unknown>;
  classified?: ReturnType<typeof classifyTool>;
  definition?: ToolDefinition;
  /** The labels its tool spec (and the MCP server's staging) declared: what `classified` was given. */
  declared?: { sinks?: readonly SinkLabel[]; sources?: readonly SourceLabel[] };
}

/** How an item's output is read, worked out once (a record by its fields, whatever format printed it). */
export function itemReading(it: Item): Reading {
  return (it.reading ??= readingOf(it.output));
}

export class ItemList {
  readonly items: Item[] = [];
  private order = 0;

  push(it: Omit<Item, 'order' | 'node'>): Item {
    const full = { ...it, order: this.order++, node: -1 } as Item;
    this.items.push(full);
    return full;
  }
}

/**
 * How deep arguments are compared: each source cuts hostile nesting at the cap counted from its own
 * top (an OpenLLMetry entity's input wraps the arguments one level down), so keys compare below it.
 */
const KEY_DEPTH = 16;

/** The key a tool call is matched by across sources: its name and its arguments in canonical JSON. */
export function callKey(tool: string, args: unknown): string {
  return `${tool}\u0000${canonicalJson(depthCut(args ?? {}, KEY_DEPTH))}`;
}

export function parseArgs(raw: string): Record<string, unknown> {
  try {
    const v = parseJsonBounded(raw === '' ? '{}' : raw);
    return asJsonObject(v) ?? { arguments: v };
  } catch {
    return { arguments: raw };
  }
}

/** Milliseconds of an ISO time, NaN when it is missing or not a time (the caller decides what that means). */
export function timeOf(iso: string | undefined): number {
  return iso ? Date.parse(iso) : NaN;
}

/** Arguments worth tracing by shingles: text with at least two words or eight characters (not flags, counts or languages). */
export function bearing(value: string): boolean {
  const n = normalizeText(value);
  return n.length >= 8 || n.includes(' ');
}

/** Messages that are the pipeline's own instructions, not content anyone sent it. */
export const INPUT_ROLES_SKIPPED = new Set(['system', 'developer']);
