/**
 * A bare trace (`{"root", "calls", "tools", "toolDefinitions"}`, what `saboteur validate` reads) of
 * one agent: each step is one LLM call that issues its tool calls; the MCP server's events carry
 * their results, which the next LLM call reads. A `{ user }` step is a later turn of the user.
 */
import { chatCall } from './chat-call.js';

export interface Step {
  name: string;
  args: Record<string, unknown>;
  result: string;
}

/** A later turn of the user in the same conversation, after what the assistant said (`assistant`): the next LLM call carries it. */
export interface UserSays {
  user: string;
  assistant?: string;
}

export function bareTrace(root: string, steps: readonly (Step[] | UserSays)[], toolDefinitions?: readonly Record<string, unknown>[]) {
  const T0 = Date.parse('2026-05-09T10:00:00.000Z');
  let t = 0;
  const at = () => new Date(T0 + (t += 100)).toISOString();
  const messages = [
    { role: 'system', content: 'You are worker.' },
    { role: 'user', content: root },
  ];
  const calls = [];
  const tools = [];
  for (const [i, step] of steps.entries()) {
    if (!Array.isArray(step)) {
      const said = step as UserSays;
      if (said.assistant !== undefined) messages.push({ role: 'assistant', content: said.assistant });
      messages.push({ role: 'user', content: said.user });
      continue;
    }
    const id = `c${i + 1}`;
    const tc = step.map((s) => ({ name: s.name, args: s.args }));
    calls.push(chatCall({ id, agent: 'worker', model: 'm', messages: [...messages], tools: tc, startedAt: at(), durationMs: 10 }));
    for (const [k, s] of step.entries()) {
      tools.push({
        id: `${id}-${k}`,
        tool: s.name,
        agent: 'worker',
        arguments: s.args,
        result: s.result,
        isError: false,
        startedAt: at(),
        durationMs: 3,
      });
      messages.push({ role: 'tool', content: s.result });
    }
  }
  return { root, calls, tools, ...(toolDefinitions ? { toolDefinitions } : {}) };
}
