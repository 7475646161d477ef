/**
 * The user's later turns. In a conversation every user message after the first is the user's too:
 * a customer who answers "yes, exchange it for the 1000 ml one" or gives the order number asks for
 * what the first message did not (docs/taint-policy.md, "What a request asks for"). Only the
 * conversation the request opened counts (an LLM call whose first user message is the request): a
 * user message in another agent's conversation is the pipeline's own (a planner briefing a
 * worker). A user message that carries a tool's result (frameworks that feed results back as user
 * turns, "Observation: …") is data, not the user.
 */
import { normalizeText } from '../content-links.js';
import type { Item } from './items.js';

export interface UserTurn {
  text: string;
  /** The start of the first LLM call that carried it: a call issued after then may do what it asks. */
  at: number;
}

/** The longest later turn read (characters): a user types, a pasted document is data. */
const MAX_TURN = 4_000;
/** Tool results shorter than this are not looked for in a turn ("ok", "done"). */
const MIN_RESULT = 24;

export function userTurns(items: readonly Item[], root: string): UserTurn[] {
  const first = normalizeText(root);
  if (!first) return [];
  // Read only when a conversation has a later user message: most traces have none.
  let normalised: string[] | undefined;
  const results = () =>
    (normalised ??= items
      .filter((it) => (it.kind === 'tool' || it.kind === 'sink') && it.output.length >= MIN_RESULT)
      .map((it) => normalizeText(it.output))
      .filter((r) => r.length >= MIN_RESULT));
  const seen = new Map<string, number>();
  const refused = new Set<string>();
  for (const it of items) {
    const users = userMessagesOf(it);
    if (users.length < 2 || !opensWith(users[0], root, first)) continue;
    for (const text of users.slice(1)) {
      // Each text is judged once: a conversation repeats its history in every call.
      if (refused.has(text)) continue;
      if (seen.has(text)) {
        if (it.start < seen.get(text)!) seen.set(text, it.start);
        continue;
      }
      const n = text.length > MAX_TURN ? '' : normalizeText(text);
      const data = !n || n === first || /^\s*(?:observation|tool|result|function)\b/i.test(text);
      if (data || results().some((r) => n.includes(r) || (n.length >= MIN_RESULT && r.includes(n)))) refused.add(text);
      else seen.set(text, it.start);
    }
  }
  return [...seen].map(([text, at]) => ({ text, at })).sort((a, b) => a.at - b.at);
}

/** Whether a conversation's first user message is the request (normalised only when it could be: its length is near the request's). */
function opensWith(message: string, root: string, first: string): boolean {
  return message === root || (message.length <= 2 * root.length + 64 && normalizeText(message) === first);
}

/** The user messages an LLM call carried, in order. */
function userMessagesOf(it: Item): string[] {
  if (it.src.type === 'call') return (it.src.call.request.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content);
  if (it.src.type === 'span' && it.src.view.op === 'chat') return it.src.view.input.filter((m) => m.role === 'user').map((m) => m.text);
  return [];
}
