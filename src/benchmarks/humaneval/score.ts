/** Scores HumanEval completions in the sandbox, with the official harness's verdicts. */
import { runSandboxed, type Isolation } from '../../sandbox/index.js';
import { runPool } from '../../run/pool.js';
import { checkProgram, HARNESS_FILE, HARNESS_PY, parseHarnessOutput, PROGRAM_FILE } from './harness.js';
import type { HumanEvalProblem, HumanEvalResult, HumanEvalSample } from './types.js';

/** The official default per-sample limit (`--timeout 3.0`). */
export const DEFAULT_TIMEOUT_MS = 3000;
/** Times the sandbox may fail to start a program before scoring gives up (e.g. a short burst of EAGAIN). */
const SANDBOX_ATTEMPTS = 3;

export class SandboxStartError extends Error {}

export interface ScoreOptions {
  timeoutMs?: number;
  isolation: Isolation;
}

export async function scoreCompletion(
  problem: HumanEvalProblem,
  completion: string,
  opts: ScoreOptions,
): Promise<{ passed: boolean; result: string; reason?: string }> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const files = { [HARNESS_FILE]: HARNESS_PY, [PROGRAM_FILE]: checkProgram(problem, completion) };
  let lastError = '';
  for (let attempt = 1; attempt <= SANDBOX_ATTEMPTS; attempt++) {
    const run = await runSandboxed({
      files,
      argv: [opts.isolation.python, HARNESS_FILE, String(timeoutMs / 1000)],
      // The harness stops the program itself at timeoutMs; like the official parent process,
      // the sandbox kills it one second later if that did not work.
      timeoutMs: timeoutMs + 1000,
      isolation: opts.isolation,
    });
    const outcome = parseHarnessOutput(run.stdout);
    if (outcome.result !== undefined) return { passed: outcome.result === 'passed', result: outcome.result, ...(outcome.detail ? { reason: outcome.detail } : {}) };
    if (outcome.started || run.timedOut) {
      // The program ran and died without a verdict (killed, os._exit, crash): the official harness says "timed out".
      return { passed: false, result: 'timed out' };
    }
    lastError = run.sandboxError ?? (run.stderr.trim().split('\n').slice(-3).join(' | ') || `exit ${run.exitCode ?? run.signal}`);
    await new Promise((r) => setTimeout(r, 100 * attempt));
  }
  throw new SandboxStartError(`HumanEval ${problem.task_id}: the sandbox could not start the test program (${SANDBOX_ATTEMPTS} tries): ${lastError}`);
}

export interface ScoreSamplesOptions extends ScoreOptions {
  concurrency: number;
  onProgress?: (done: number, total: number) => void;
}

/** Scores every sample with at most `concurrency` sandboxes at once; results keep the input order. */
export async function scoreSamples(
  samples: HumanEvalSample[],
  problems: HumanEvalProblem[] | Map<string, HumanEvalProblem>,
  opts: ScoreSamplesOptions,
): Promise<HumanEvalResult[]> {
  const byId = problems instanceof Map ? problems : new Map(problems.map((p) => [p.task_id, p]));
  samples.forEach((s, i) => {
    if (!byId.has(s.task_id)) throw new Error(`sample ${i + 1}: task_id ${JSON.stringify(s.task_id)} is not among the problems`);
  });
  const results = new Array<HumanEvalResult>(samples.length);
  let done = 0;
  let failed = false;
  await runPool(
    samples,
    opts.concurrency,
    async ({ task_id, completion }, index) => {
      // A sandbox that cannot start programs stops the batch: its other lanes take no new samples.
      const verdict = await scoreCompletion(byId.get(task_id)!, completion, opts).catch((e: unknown) => {
        failed = true;
        throw e;
      });
      results[index] = { task_id, completion, result: verdict.result, passed: verdict.passed };
      opts.onProgress?.(++done, samples.length);
    },
    () => failed,
  );
  return results;
}
