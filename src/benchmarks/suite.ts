/**
 * A benchmark as the run sees it: its selected instances, what the report says about the
 * slice, and how one pipeline output is scored. Each benchmark module builds one.
 */
import type { Outcome } from '../runlog/schema.js';
import type { PipelineOutput, Task } from './types.js';

export interface BenchmarkInfo {
  id: string;
  source: string;
  sha256?: string;
  total: number;
  selected: number;
  limit?: number;
  seed: number;
  instanceIds: string[];
}

export interface Verdict {
  outcome: Outcome;
  /** The benchmark's own verdict text (HumanEval: passed / failed: … / timed out). */
  result?: string;
  error?: string;
}

export interface BenchmarkSuite {
  info: BenchmarkInfo;
  tasks: Task[];
  score(task: Task, output: PipelineOutput): Promise<Verdict>;
}
