/**
 * Items for the LLM calls the proxy recorded: what each request carried (its messages; system
 * prompts are the pipeline's own and are skipped) and what the response said. The response's
 * tool calls are not part of its text: they become tool-call items of their own, issued by this
 * call (indexing them here would make every call "explain" its own arguments).
 */
import type { ProxyCall } from '../../runlog/schema.js';
import { INPUT_ROLES_SKIPPED, callKey, parseArgs, timeOf, type Item, type ItemList } from './items.js';
import { pushTo } from '../../util/maps.js';

export interface LlmCallItems {
  /** Tool results the pipeline fed its models, with the first time one was sent. */
  toolMessages: Map<string, number>;
  /** Problems with the input (a call whose start time is not a time). */
  problems: string[];
}

export function addLlmCalls(list: ItemList, calls: readonly ProxyCall[]): LlmCallItems {
  const toolMessages = new Map<string, number>();
  const problems: string[] = [];
  for (const call of calls) {
    if (call.endpoint === 'models' || call.endpoint === 'unsupported') continue;
    const start = timeOf(call.startedAt);
    if (!Number.isFinite(start)) {
      problems.push(`LLM call ${call.id}: startedAt ${JSON.stringify(call.startedAt)} is not a time`);
      continue;
    }
    const ins: Item['input'] = [];
    for (const m of call.request.messages ?? []) {
      if (INPUT_ROLES_SKIPPED.has(m.role) || !m.content) continue;
      ins.push({ text: m.content });
      if (m.role === 'tool' && !toolMessages.has(m.content)) toolMessages.set(m.content, start);
    }
    if (call.request.prompt) ins.push({ text: call.request.prompt });
    list.push({
      kind: 'message',
      start,
      end: start + Math.max(0, call.durationMs),
      meta: { ref: `call:${call.id}`, agent: call.agent, name: 'llm call', time: start },
      input: ins,
      output: call.response?.content ?? '',
      src: { type: 'call', call },
    });
  }
  return { toolMessages, problems };
}

/** Each tool call an LLM response (proxy call) issued, by tool name and arguments; `slot` tells repeated calls apart. */
export function toolCallsIssued(items: readonly Item[]): Map<string, { item: Item; slot: string }[]> {
  const issued = new Map<string, { item: Item; slot: string }[]>();
  for (const it of items) {
    if (it.src.type !== 'call') continue;
    (it.src.call.response?.toolCalls ?? []).forEach((t, k) =>
      pushTo(issued, callKey(t.name, parseArgs(t.arguments)), { item: it, slot: `${it.order}#${k}` }),
    );
  }
  return issued;
}
