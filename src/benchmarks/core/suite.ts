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

export interface BenchmarkSuite {
  info: BenchmarkInfo;
  instances: SuiteInstance[];
  score(task: Task, output: PipelineOutput, ctx: ScoreContext): Promise<Verdict>;
  /** Agentic suites: the full task (tool specs with their sink labels) and its simulated tools, served over MCP. */
  tools?(task: Task): { task: AgenticTask; handlers: Record<string, ToolHandler> };
  /** Stops what scoring keeps running between instances (HumanEval's warm sandboxes); called once when the run ends. */
  close?(): Promise<void>;
}
