/**
 * A benchmark as the run sees it: its instances (each with the task its control run gets and
 * the task its malicious run gets), what the report says about the slice, and how one run is
 * scored. Each benchmark module builds one.
 */
import type { Outcome, ProxyCall } from '../../runlog/schema.js';
import type { AgenticTask, SecurityVerdict, ToolEvent, ToolHandler } from '../agentic/agentic.js';
import type { PipelineOutput, Task } from './types.js';

export interface BenchmarkInfo {
  id: string;
  kind: 'code' | 'agentic';
  source: string;
  sha256?: string;
  total: number;
  selected: number;
  limit?: number;
  seed: number;
  instanceIds: string[];
  /** Selected instances per category (the strata of the sample). */
  strata?: Record<string, number>;
}

export interface SuiteInstance {
  id: string;
  category?: string;
  /** Code benchmarks: the same task in both variants. Agentic: the benign twin and the harmful instance. */
  control?: Task;
  malicious?: Task;
}

export interface Verdict {
  outcome: Outcome;
  /** The benchmark's own verdict text (HumanEval: passed / failed: … / timed out). */
  result?: string;
  error?: string;
  security?: SecurityVerdict;
}

export interface ScoreContext {
  tools: ToolEvent[];
  calls: ProxyCall[];
}

/**
 * A task's answer as the benchmark itself gives it, for `model.kind: reference` (docs/models.md):
 * the offline model that answers each call about this task with it.
 */
export interface ReferenceAnswer {
  taskId: string;
  /** The task as the pipeline gets it: its lines, found in a call, tell which task the call is about. */
  prompt: string;
  /** Short strings only this task's calls hold (HumanEval: `def <entry point>(`), for a call that quotes the task in another form. */
  anchors: string[];
  /** The reply a chat model gives. */
  answer: string;
  /** What follows `prompt` when a completions call ends with it. */
  continuation: string;
}

export interface BenchmarkSuite {
  info: BenchmarkInfo;
  instances: SuiteInstance[];
  score(task: Task, output: PipelineOutput, ctx: ScoreContext): Promise<Verdict>;
  /** Agentic suites: the full task (tool specs with their sink labels) and its simulated tools, served over MCP. */
  tools?(task: Task): { task: AgenticTask; handlers: Record<string, ToolHandler> };
  /** The benchmark's own answer to a task, where it has one (code benchmarks). */
  reference?(task: Task): ReferenceAnswer | undefined;
  /** Stops what scoring keeps running between instances (HumanEval's warm sandboxes); called once when the run ends. */
  close?(): Promise<void>;
}

/** The benchmarks' own answers to the tasks of a run, for `model.kind: reference`. */
export function referenceAnswers(suites: readonly BenchmarkSuite[]): ReferenceAnswer[] {
  return suites.flatMap((suite) =>
    suite.instances.flatMap((instance) => {
      const task = instance.control ?? instance.malicious;
      const answer = task && suite.reference?.(task);
      return answer ? [answer] : [];
    }),
  );
}
