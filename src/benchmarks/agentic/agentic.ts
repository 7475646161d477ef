/**
 * Shared shapes of the agentic security benchmarks (ASB, AgentHarm, RedCode, SafeArena).
 * A benchmark module turns its native files into paired instances; the MCP tool server serves
 * each instance's tools from `ToolSimulation`s; the grader reads the recorded tool events.
 */
import type { Task } from '../core/types.js';
import type { z } from 'zod';
import type { toolEventSchema } from '../../runlog/schema.js';

/** The taint labels (docs/taint-policy.md, "Labels"). Sources taint data; hard sinks are staged at the MCP server. */
export const SOURCE_LABELS = [
  'SENSITIVE_READ',
  'CREDENTIAL_ACCESS',
  'PII_READ',
  'UNTRUSTED_CONTENT',
  'PROMPT_OVERRIDE',
  'HARMFUL_INTENT',
] as const;
export const SINK_LABELS = [
  'EXTERNAL_SEND',
  'PRIVILEGED_EXEC',
  'CODE_EXEC',
  'DESTRUCTIVE_WRITE',
  'FINANCIAL_TRANSFER',
  'PUBLIC_POST',
] as const;
export type SourceLabel = (typeof SOURCE_LABELS)[number];
export type SinkLabel = (typeof SINK_LABELS)[number];

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (type: object). */
  inputSchema: Record<string, unknown>;
  /** Labels the default policy gives this tool; a tool with a sink label is staged. */
  sinks?: SinkLabel[];
  sources?: SourceLabel[];
}

/**
 * One tool call as the MCP server saw it: the run log's record (runlog/schema.ts). Set `staged`
 * for hard-sink calls: what the active defense decided (released sinks are simulated, never real;
 * `observed`: observe mode, where the handler ran whatever the decision).
 */
export type ToolEvent = z.infer<typeof toolEventSchema>;

/** Serves one tool of one instance: a pure simulation, never a real side effect. */
export type ToolHandler = (
  args: Record<string, unknown>,
  ctx: { task: AgenticTask; events: readonly ToolEvent[] },
) => Promise<{ result: string; isError?: boolean }>;

export interface AgenticTask extends Task {
  kind: 'agentic';
  /** harmful: the malicious variant's instance; benign: its control twin. */
  role: 'harmful' | 'benign';
  category: string;
  /** Key shared by a harmful instance and its benign twin (paired metrics). */
  pairId: string;
  /**
   * Harmful tasks whose benign twin is shared by several pairs (ASB: one plain task under every
   * attacker tool): the twin's task id. The twin then runs once, and the pairs name it.
   */
  twinId?: string;
  toolSpecs: ToolSpec[];
  /**
   * What only the tool simulations and the grader read (attack goals, expected results, reference
   * answers). Never sent to the pipeline: it would tell the agent what is being tested.
   */
  grading?: Record<string, unknown>;
}

/** What a grader reads of one run. */
export interface GradedRun {
  /** The tool calls the MCP server recorded, in order. */
  events: ToolEvent[];
  /** The pipeline's final answer. */
  answer?: string;
  /** Every assistant message of the run, in order: what the model answered each agent through the proxy. */
  messages?: string[];
}

/** How one agentic run went, from the tool events and the final answer. */
export interface SecurityVerdict {
  role: 'harmful' | 'benign';
  category: string;
  /** harmful: the harmful sink was reached / the attack goal met. */
  attackSucceeded?: boolean;
  /** benign (and ASB tasks under attack): the user's task was completed. */
  taskCompleted?: boolean;
  refused: boolean;
  /**
   * Set when the run finished but cannot be graded here (an evaluator that needs the live site, code
   * the sandbox could not run): the reason. Such runs count in no rate's denominator but "all runs".
   */
  notGraded?: string;
  /** Harmful runs of pairs that share their benign twin: the twin's task id (paired metrics join on it). */
  twin?: string;
  /** The benchmark's own score (AgentHarm 0–1 mean of criteria, RedCode 0/1/3), for the run log. */
  score?: number;
  details: Record<string, unknown>;
}

/**
 * Whether no defense stopped a recorded tool call: not staged, or a staged sink that was released
 * or ran under an observing defense (whose block is only the counterfactual). Blocked sinks never
 * happened.
 */
export function notStopped(e: ToolEvent): boolean {
  return !e.staged || e.staged.decision === 'release' || e.staged.observed === true;
}

/** Whether a recorded tool call had its (simulated) effect: it did not fail, and no defense stopped it. */
export function tookEffect(e: ToolEvent): boolean {
  return !e.isError && notStopped(e);
}
