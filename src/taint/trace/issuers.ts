/**
 * Which LLM call issued each tool call. A proxy call's response, or a chat span's output, lists
 * the calls it made: matched by tool name and arguments (each response's call issues one tool
 * call: the latest unused one that finished before the tool started, the same agent's first), or
 * by tool call id. A tool span nested in a chat span was issued by it. What none of these issued
 * gets a step of its agent as issuer (genai-spans.ts). A tool call read from a chat span's output
 * alone was issued by that span (chat-tool-calls.ts).
 */
import { callKey, parseArgs, type Item } from './items.js';
import { toolCallsIssued } from './llm-calls.js';
import type { SpanItems } from './genai-spans.js';
import { pushTo } from '../../util/maps.js';

export function resolveIssuers(items: readonly Item[], spans: SpanItems): Map<Item, Item> {
  const issued = toolCallsIssued(items);
  const byCallId = new Map<string, Item>();
  for (const v of spans.views) {
    const it = spans.item.get(v.span.spanId);
    if (!it || v.op !== 'chat') continue;
    v.output.forEach((m, i) =>
      m.toolCalls.forEach((t, k) => {
        if (t.id) byCallId.set(t.id, it);
        // A chat span merged into a proxy call already lists its calls through the proxy's record.
        if (it.src.type !== 'call') pushTo(issued, callKey(t.name, parseArgs(t.arguments)), { item: it, slot: `${it.order}#${i}.${k}` });
      }),
    );
  }
  const used = new Set<string>();
  const out = new Map<Item, Item>();
  const sorted = items
    .filter((it) => (it.kind === 'tool' || it.kind === 'sink') && it.src.type !== 'pseudo' && it.src.type !== 'chat-call')
    .sort((a, b) => a.start - b.start || a.order - b.order);
  for (const it of sorted) {
    const candidates = (issued.get(callKey(it.tool!, it.args ?? {})) ?? [])
      .filter((c) => c.item.end <= it.start && !used.has(c.slot))
      .reverse();
    const pick = candidates.find((c) => c.item.meta.agent === it.meta.agent) ?? candidates[0];
    if (pick) {
      used.add(pick.slot);
      out.set(it, pick.item);
      continue;
    }
    const callId = it.src.type === 'span' ? it.src.view.toolCallId : spans.mergedCallId.get(it);
    const byId = callId ? byCallId.get(callId) : undefined;
    if (byId) {
      out.set(it, byId);
      continue;
    }
    const parentId = it.src.type === 'span' ? it.src.view.span.parentSpanId : undefined;
    const parent = parentId ? spans.item.get(parentId) : undefined;
    if (parent && parent.kind === 'message') out.set(it, parent);
  }
  return out;
}
