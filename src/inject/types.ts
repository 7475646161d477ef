/**
 * What the proxy needs from an injection method. AutoInject decides before the call is forwarded
 * whether the response is hit (so untouched calls stream straight through) and then corrupts the
 * hit response's text and tool-call arguments. AutoTransform and the insider act on the request
 * instead: they give the target agent's call a new system prompt before it reaches the model.
 */
import type { CallRewrite, Corruption, Hit, InstanceResult, ProxyCall, SabotageProfile } from '../runlog/schema.js';
import type { ToolEvent, ToolSpec } from '../benchmarks/agentic/agentic.js';
import type { Variant } from '../benchmarks/core/types.js';
import type { ToolCall } from '../model/openai-wire.js';

/** A method's id (src/inject/registry.ts) as `Injector.method` reports it. */
export type InjectionMethod = string;

export interface InjectionContext {
  instanceId: string;
  variant: Variant;
  /** The agent the proxy identified for this call. */
  agent: string;
  /** 0-based index of this call among the same agent's calls in this invocation. */
  agentCallIndex: number;
  /** The method's plan for this instance run (`MethodRun.plan`), when its method makes one. */
  plan?: unknown;
}

/**
 * Whether a saboteur aimed at `target` (an agent's name, or `all`) acts on this call: calls of the
 * malicious variant that the proxy could attribute to an agent, never the control's.
 */
export function targetsCall(target: string, ctx: InjectionContext): boolean {
  return ctx.variant === 'malicious' && ctx.agentCallIndex >= 0 && (target === 'all' || ctx.agent === target);
}

/** A response as AutoInject sees it: its text and its tool calls. */
export interface ResponseView {
  content: string;
  toolCalls: readonly ToolCall[];
}

export interface InjectionResult {
  /** Always set for a hit call: what was considered, drawn and changed, and why nothing was if so. */
  hit: Hit;
  /** Set when at least one unit changed. */
  corruption?: Corruption;
  /** The response as delivered (equal to the input when nothing changed). */
  delivered: ResponseView;
}

/** How a call's system prompt is changed: replaced (AutoTransform) or added to (the insider). */
export interface SystemRewrite {
  action: 'replace' | 'append';
  text: string;
  record: CallRewrite;
}

export interface Injector {
  readonly method: InjectionMethod;
  /** Whether this call's response is corrupted: a pure function of the seed and the context. */
  decide(ctx: InjectionContext): boolean;
  /** Corrupts a hit response (methods that corrupt responses only). */
  corrupt?(response: ResponseView, ctx: InjectionContext): Promise<InjectionResult>;
  /** Whether this call's request is rewritten (methods that rewrite requests only). */
  rewrites?(ctx: InjectionContext): boolean;
  /**
   * The new system prompt of a call `rewrites` accepted; `system` is undefined when the request has
   * none. Returns a record with `error` set (and no text) when the rewrite could not be made.
   */
  rewriteSystem?(system: string | undefined, ctx: InjectionContext): Promise<SystemRewrite | { record: CallRewrite }>;
  /** The profiles AutoTransform wrote (original and rewrite), for the run log. */
  profiles?(): SabotageProfile[];
}

/** The instance a malicious run is about to run, as a method's per-instance hook sees it. */
export interface MethodInstance {
  benchmark: string;
  instanceId: string;
  /** The tools the instance offers (agentic tasks); undefined for code tasks. */
  toolSpecs?: readonly ToolSpec[];
}

/** What a malicious run left for its method to grade. */
export interface EndedRun {
  /** The agent the method aimed at (`variants.malicious.target`). */
  target: string;
  tools: readonly ToolEvent[];
  output: { completion?: string; answer?: string } | undefined;
  calls: readonly ProxyCall[];
}

/** A method's part in one malicious instance run. */
export interface MethodRun {
  /** Handed to the injector with every call of the run (`InjectionContext.plan`). */
  plan?: unknown;
  /** Why the method has no plan for this run, for the instance's notes. */
  note?: string;
  /** The method's fields of the instance's record, once the run ended. */
  grade?(ended: EndedRun): Partial<InstanceResult>;
}

/** The per-instance hook of the run's method: called before each malicious instance run. */
export type MethodInstanceHook = (instance: MethodInstance) => MethodRun;
