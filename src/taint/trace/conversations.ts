/**
 * One conversation from several traces. Where only the LLM calls are traced and nothing opens a
 * span around the agent's loop, every LLM call is a trace of its own: the call that asks for a
 * tool is in one, the call that reads the tool's result in the next. Such traces are one
 * conversation when a later one sends back the result of a tool call an earlier one made (the same
 * tool call id) for the same request (the same first user message); they are then validated
 * together, so that a tool call is judged with the result that led to it. Traces with agent or
 * tool spans are whole already and are never joined.
 */
import type { GenAiSpan, OtlpSpan } from '../../otlp/index.js';
import { isOpaqueText } from './readable.js';
import { pushTo } from '../../util/maps.js';

export interface Conversation {
  /** Trace ids, earliest first. */
  ids: string[];
  spans: OtlpSpan[];
}

interface TraceFacts {
  id: string;
  start: number;
  request?: string;
  made: Set<string>;
  answered: Set<string>;
}

function factsOf(id: string, views: readonly GenAiSpan[]): TraceFacts | undefined {
  if (views.some((v) => v.op === 'execute_tool' || v.op === 'invoke_agent')) return undefined;
  const chats = views.filter((v) => v.op === 'chat').sort((a, b) => a.span.startMs - b.span.startMs);
  if (chats.length === 0) return undefined;
  const request = chats.flatMap((v) => v.input).find((m) => m.role === 'user' && !isOpaqueText(m.text))?.text;
  const made = new Set(chats.flatMap((v) => v.output.flatMap((m) => m.toolCalls.flatMap((c) => (c.id ? [c.id] : [])))));
  const answered = new Set(chats.flatMap((v) => v.input.flatMap((m) => m.responseTo)));
  return { id, start: chats[0].span.startMs, ...(request !== undefined ? { request } : {}), made, answered };
}

/** Traces grouped into conversations; each group keeps its spans in the order given. */
export function joinConversations(byTrace: ReadonlyMap<string, OtlpSpan[]>, viewOf: (s: OtlpSpan) => GenAiSpan): Conversation[] {
  if (byTrace.size === 1) return [...byTrace].map(([id, spans]) => ({ ids: [id], spans }));
  const parent = new Map<string, string>([...byTrace.keys()].map((id) => [id, id]));
  // Union-find with full path compression: a hostile file of many chained traces stays near linear.
  const find = (id: string): string => {
    let r = id;
    while (parent.get(r) !== r) r = parent.get(r)!;
    for (let x = id; x !== r;) {
      const next = parent.get(x)!;
      parent.set(x, r);
      x = next;
    }
    return r;
  };
  const facts: TraceFacts[] = [];
  for (const [id, spans] of byTrace) {
    const f = factsOf(id, spans.map(viewOf));
    if (f) facts.push(f);
  }
  const maker = new Map<string, TraceFacts>();
  for (const f of facts) for (const c of f.made) if (!maker.has(c)) maker.set(c, f);
  for (const f of facts) {
    for (const c of f.answered) {
      const m = maker.get(c);
      if (!m || m === f || m.request === undefined || m.request !== f.request || m.start > f.start) continue;
      parent.set(find(f.id), find(m.id));
    }
  }
  const groups = new Map<string, string[]>();
  for (const id of byTrace.keys()) pushTo(groups, find(id), id);
  const startOf = (id: string) => byTrace.get(id)!.reduce((min, s) => Math.min(min, s.startMs), Infinity);
  return [...groups.values()].map((ids) => {
    const sorted = ids.length > 1 ? [...ids].sort((a, b) => startOf(a) - startOf(b)) : ids;
    return { ids: sorted, spans: sorted.flatMap((id) => byTrace.get(id)!) };
  });
}
