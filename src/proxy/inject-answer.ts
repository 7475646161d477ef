/**
 * The one place a hit answer is corrupted, whatever API it came through (chat completions,
 * completions, the Responses API): the injector rewrites the assembled answer and the caller writes
 * the delivered one back in its endpoint's shape (see src/model/wire.ts).
 */
import type { Log } from '../util/log.js';
import type { ProxyCall } from '../runlog/schema.js';
import type { AssembledResponse } from '../model/openai-wire.js';
import type { Injector, InjectionContext } from '../inject/types.js';

export interface InjectedAnswer {
  /** The answer the pipeline gets. */
  delivered: AssembledResponse;
  corruption: NonNullable<ProxyCall['corruption']>;
}

/**
 * Corrupts the answer's text; undefined when nothing changed (or the injector failed, which is
 * logged: the call then passes through untouched rather than failing the pipeline).
 */
export async function injectAnswer(assembled: AssembledResponse, injector: Injector, ctx: InjectionContext, log: Log): Promise<InjectedAnswer | undefined> {
  let corruption: ProxyCall['corruption'];
  try {
    corruption = await injector.corrupt(assembled.content, ctx);
  } catch (err) {
    log.warn(`proxy: corrupting ${ctx.agent} call ${ctx.agentCallIndex} of ${ctx.instanceId} failed, passing it through: ${(err as Error).message}`);
  }
  if (!corruption) return undefined;
  return { delivered: { ...assembled, content: corruption.after }, corruption };
}
