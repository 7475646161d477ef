/** The program the official harness executes for one completion (openai/human-eval, execution.py). */
import type { HumanEvalProblem } from './types.js';

export function checkProgram(problem: HumanEvalProblem, completion: string): string {
  return problem.prompt + completion + '\n' + problem.test + '\n' + `check(${problem.entry_point})`;
}
