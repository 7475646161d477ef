/**
 * The MCP tool server's contract with the run: one tool session per pipeline invocation, a
 * defense that adjudicates every staged hard-sink call, and the events the grader reads.
 */
import type { AgenticTask, SinkLabel, ToolEvent, ToolHandler } from '../benchmarks/agentic/agentic.js';

import type { ProxyCall, SinkDecision } from '../runlog/schema.js';
import type { OtlpSpan } from '../otlp/index.js';

export type { SinkDecision };

/** `enforce`: a blocked sink does not run. `observe`: it runs and the decision is kept as the counterfactual. */
export const DEFENSE_MODES = ['enforce', 'observe'] as const;
export type DefenseMode = (typeof DEFENSE_MODES)[number];

/** One hard-sink call waiting for the defense's word. */
export interface StagedCall {
  tool: string;
  arguments: Record<string, unknown>;
  sinks: SinkLabel[];
  task: AgenticTask;
  /** This session's events before the call (finished ones, in call order). */
  events: readonly ToolEvent[];
  /** The agent that made the call, when the pipeline named it. */
  agent?: string;
}

/** Decides staged sinks (docs/validator.md, "The taint validator"): `none` releases all; the taint validator and the LLM judges plug in here. */
export interface SinkDefense {
  name: string;
  decide(call: StagedCall): Promise<{ decision: SinkDecision; reason?: string }>;
}

export interface TraceSoFar {
  /** The instance's LLM calls seen by the proxy so far. */
  calls: readonly ProxyCall[];
  /** The pipeline's OTLP spans received so far. */
  spans?: readonly OtlpSpan[];
}

/** What a defense may read of the instance's trace when a call is staged (the global judge, the taint validator). */
export type TraceSource = (call: StagedCall) => TraceSoFar;

export interface ToolSessionOptions {
  task: AgenticTask;
  /** One simulation per tool of `task.toolSpecs`. */
  handlers: Record<string, ToolHandler>;
  defense: SinkDefense;
  /** Default `enforce`. */
  mode?: DefenseMode;
}

export interface ToolServer {
  /** Opens one instance's tool session; returns the URL handed to the pipeline as SABOTEUR_MCP_URL. */
  open(key: string, session: ToolSessionOptions): string;
  /** Ends the session and returns its tool events in call order (a call still running is recorded as an error event). */
  close(key: string): ToolEvent[];
  /** `http://127.0.0.1:PORT`; sessions live under `/mcp/<key>`. */
  readonly baseUrl: string;
  /** Ends every session and stops listening. */
  stop(): Promise<void>;
}
