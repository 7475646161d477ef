/**
 * A chat call as the proxy records it in the trace: the taint tests build their runs from these.
 * Tool calls get the ids `CALLID-0`, `CALLID-1`, … in the order given.
 */
import type { ProxyCall } from '../../src/runlog/schema.js';

export interface ChatCallSpec {
  id: string;
  agent: string;
  messages: { role: string; content: string }[];
  /** The answer's text ('' when it only calls tools). */
  content?: string;
  tools?: { name: string; args: Record<string, unknown> }[];
  startedAt: string;
  durationMs: number;
  agentCallIndex?: number;
  model?: string;
}

export function chatCall(c: ChatCallSpec): ProxyCall {
  return {
    id: c.id,
    agent: c.agent,
    agentSource: 'header',
    endpoint: 'chat.completions',
    agentCallIndex: c.agentCallIndex ?? 0,
    startedAt: c.startedAt,
    durationMs: c.durationMs,
    stream: false,
    status: 200,
    request: { ...(c.model ? { model: c.model } : {}), messages: c.messages },
    response: {
      content: c.content ?? '',
      toolCalls: (c.tools ?? []).map((t, i) => ({ id: `${c.id}-${i}`, name: t.name, arguments: JSON.stringify(t.args) })),
    },
  };
}
