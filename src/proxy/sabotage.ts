/**
 * What a method that rewrites requests does to a call, for every route of the proxy: the request's
 * system prompt rewritten before the model sees it. Chat calls carry it in system and developer
 * messages, Responses calls in `instructions` and in system or developer input items; both are
 * read and written here, so every route sabotages the same way. (Corrupting the answer on the way
 * out is inject-answer.ts.)
 */
import type { Endpoint } from '../model/openai-wire.js';
import { flattenContent } from '../model/openai-wire.js';
import type { CallRewrite } from '../runlog/schema.js';
import type { Log } from '../util/log.js';
import type { InjectionContext, Injector } from '../inject/types.js';
import { systemTextOf } from './identify.js';

const SYSTEM_ROLES = new Set(['system', 'developer']);

/** The request's system prompt (its system and developer text, joined), or undefined when it has none. */
export function systemPromptOf(body: Record<string, unknown>, endpoint: Endpoint = 'chat.completions'): string | undefined {
  const text = systemTextOf(body, endpoint);
  return text === '' ? undefined : text;
}

/** Chat messages (or Responses input items) with the system prompt replaced, or added to, or inserted. */
function withSystemMessages(
  messages: Record<string, unknown>[],
  action: 'replace' | 'append',
  text: string,
): { messages: Record<string, unknown>[]; action: CallRewrite['action'] } {
  const positions = messages.map((m, i) => (SYSTEM_ROLES.has(m?.role as string) ? i : -1)).filter((i) => i >= 0);
  if (positions.length === 0) return { messages: [{ role: 'system', content: text }, ...messages], action: 'inserted' };
  if (action === 'replace') {
    const first = positions[0];
    return {
      messages: messages.flatMap((m, i) => (i === first ? [{ role: 'system', content: text }] : positions.includes(i) ? [] : [m])),
      action: 'replaced',
    };
  }
  const last = positions[positions.length - 1];
  return {
    messages: messages.map((m, i) => (i === last ? { ...m, content: `${flattenContent(m.content)}\n\n${text}` } : m)),
    action: 'appended',
  };
}

/**
 * The body with its system prompt replaced (every system and developer message becomes one system
 * message where the first one was; for the Responses API, `instructions` becomes the text and the
 * input's system and developer items go) or added to (after the last one); a request without one
 * gets a system message at the top (Responses: `instructions`).
 */
export function withSystemPrompt(
  body: Record<string, unknown>,
  action: 'replace' | 'append',
  text: string,
  endpoint: Endpoint = 'chat.completions',
): { body: Record<string, unknown>; action: CallRewrite['action'] } {
  if (endpoint !== 'responses') {
    const messages = Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
    const next = withSystemMessages(messages, action, text);
    return { body: { ...body, messages: next.messages }, action: next.action };
  }
  const instructions = typeof body.instructions === 'string' && body.instructions !== '' ? body.instructions : undefined;
  const input = Array.isArray(body.input) ? (body.input as Record<string, unknown>[]) : undefined;
  const inInput = input?.some((m) => SYSTEM_ROLES.has(m?.role as string)) ?? false;
  if (action === 'replace') {
    const rest = input ? input.filter((m) => !SYSTEM_ROLES.has(m?.role as string)) : body.input;
    return {
      body: { ...body, instructions: text, ...(input ? { input: rest } : {}) },
      action: instructions || inInput ? 'replaced' : 'inserted',
    };
  }
  return {
    body: { ...body, instructions: instructions ? `${instructions}\n\n${text}` : text },
    action: instructions || inInput ? 'appended' : 'inserted',
  };
}

/**
 * The request as it goes to the model, and what was done to it. Undefined when the method leaves
 * this call alone. A rewrite that cannot be made sends the request unchanged and says why.
 */
export async function rewriteRequest(
  body: Record<string, unknown>,
  endpoint: Endpoint,
  injector: Injector | undefined,
  ctx: InjectionContext,
  log: Log,
): Promise<{ body: Record<string, unknown>; record: CallRewrite } | undefined> {
  if (!injector?.rewrites?.(ctx) || !injector.rewriteSystem) return undefined;
  const method = injector.method as CallRewrite['method'];
  if (endpoint === 'completions') {
    return {
      body,
      record: { method, action: 'none', note: 'a /v1/completions call has no system prompt; the prompt went to the model unchanged' },
    };
  }
  let planned: Awaited<ReturnType<NonNullable<Injector['rewriteSystem']>>>;
  try {
    planned = await injector.rewriteSystem(systemPromptOf(body, endpoint), ctx);
  } catch (err) {
    planned = { record: { method, action: 'none', error: (err as Error).message } };
  }
  if (!('text' in planned)) {
    if (planned.record.error)
      log.warn(
        `proxy: ${method} could not rewrite ${ctx.agent} call ${ctx.agentCallIndex} of ${ctx.instanceId}, sent unchanged: ${planned.record.error}`,
      );
    return { body, record: planned.record };
  }
  const rewritten = withSystemPrompt(body, planned.action, planned.text, endpoint);
  return { body: rewritten.body, record: { ...planned.record, action: rewritten.action } };
}
