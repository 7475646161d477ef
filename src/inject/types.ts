/**
 * What the proxy needs from an injection method: a decision made before the call is forwarded
 * (so untouched calls stream straight through) and the corruption of a hit response's text.
 */
import type { Corruption } from '../runlog/schema.js';
import type { Variant } from '../benchmarks/types.js';

export interface InjectionContext {
  instanceId: string;
  variant: Variant;
  /** The agent the proxy identified for this call. */
  agent: string;
  /** 0-based index of this call among the same agent's calls in this invocation. */
  agentCallIndex: number;
}

export interface Injector {
  /** Whether this call's response is corrupted: a pure function of the seed and the context. */
  decide(ctx: InjectionContext): boolean;
  /** The corrupted text, or undefined when nothing in it was changed. */
  corrupt(content: string, ctx: InjectionContext): Promise<Corruption | undefined>;
}
