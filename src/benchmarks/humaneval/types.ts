/** One HumanEval problem, with the field names of the official `HumanEval.jsonl.gz`. */
export interface HumanEvalProblem {
  task_id: string;
  prompt: string;
  entry_point: string;
  canonical_solution: string;
  test: string;
}

/** A line of the official samples file. */
export interface HumanEvalSample {
  task_id: string;
  completion: string;
}

/** A line of the official results file (`<samples>_results.jsonl`). */
export interface HumanEvalResult extends HumanEvalSample {
  result: string;
  passed: boolean;
}
