/**
 * The one place a hit answer is corrupted, whatever API it came through (chat completions,
 * completions, the Responses API): the injector corrupts the assembled answer's text and tool-call
 * arguments, and the caller writes the delivered one back in its endpoint's shape (see
 * src/model/wire.ts, which puts tool-call arguments back by call id).
 */
import type { Log } from '../util/log.js';
import type { ProxyCall } from '../runlog/schema.js';
import type { AssembledResponse } from '../model/openai-wire.js';
import type { Injector, InjectionContext } from '../inject/types.js';

export interface InjectedAnswer {
  /** The answer the pipeline gets (the assembled one when nothing changed). */
  delivered: AssembledResponse;
  /** Set when something changed. */
  corruption?: NonNullable<ProxyCall['corruption']>;
  /** What the hit considered, drew and changed, and why not more: recorded on every hit call. */
  hit: NonNullable<ProxyCall['hit']>;
}

/**
 * Corrupts the answer; undefined when the method corrupts no answers. An injector that fails is
 * logged and the call passes through untouched (the hit says why) rather than failing the pipeline.
 */
export async function injectAnswer(
  assembled: AssembledResponse,
  injector: Injector,
  ctx: InjectionContext,
  log: Log,
): Promise<InjectedAnswer | undefined> {
  if (!injector.corrupt) return undefined;
  try {
    const result = await injector.corrupt({ content: assembled.content, toolCalls: assembled.toolCalls }, ctx);
    if (!result.corruption) return { delivered: assembled, hit: result.hit };
    const delivered: AssembledResponse = {
      ...assembled,
      content: result.delivered.content,
      toolCalls: result.delivered.toolCalls.map((t) => ({ ...t })),
    };
    return { delivered, corruption: result.corruption, hit: result.hit };
  } catch (err) {
    const message = (err as Error).message;
    log.warn(`proxy: corrupting ${ctx.agent} call ${ctx.agentCallIndex} of ${ctx.instanceId} failed, passing it through: ${message}`);
    return { delivered: assembled, hit: { mode: 'unknown', units: 0, drawn: 0, changed: 0, why: `the corruption failed: ${message}` } };
  }
}
