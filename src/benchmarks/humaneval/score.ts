/**
 * Scores HumanEval completions in the sandbox with the official harness's verdicts: the model's
 * code in one sandbox, the official test in another, verdicts only from the latter (scorer.ts).
 */
import { runPool } from '../../util/pool.js';
import type { Log } from '../../util/log.js';
import type { Isolation } from '../../sandbox/index.js';
import { HumanEvalScorer, type Verdict } from './scorer.js';
import type { HumanEvalProblem, HumanEvalResult, HumanEvalSample } from './types.js';

export {
  DEFAULT_TIMEOUT_MS,
  SandboxStartError,
  HumanEvalScorer,
  MAX_COMPLETION_BYTES,
  type ScorerOptions,
  type Verdict,
} from './scorer.js';

export interface ScoreOptions {
  timeoutMs?: number;
  isolation: Isolation;
  log?: Log;
}

/** One completion on a lane of its own (started and closed here); many completions: scoreSamples or a HumanEvalScorer. */
export async function scoreCompletion(problem: HumanEvalProblem, completion: string, opts: ScoreOptions): Promise<Verdict> {
  const scorer = new HumanEvalScorer({ isolation: opts.isolation, lanes: 1, timeoutMs: opts.timeoutMs, log: opts.log });
  try {
    return await scorer.score(problem, completion);
  } finally {
    await scorer.close();
  }
}

export interface ScoreSamplesOptions extends ScoreOptions {
  /** Lanes: problems scored at once. */
  concurrency: number;
  onProgress?: (done: number, total: number) => void;
}

/** Scores every sample on at most `concurrency` lanes; results keep the input order. */
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
  const scorer = new HumanEvalScorer({
    isolation: opts.isolation,
    lanes: Math.max(1, Math.min(opts.concurrency, samples.length)),
    timeoutMs: opts.timeoutMs,
    log: opts.log,
  });
  let done = 0;
  let failed = false;
  try {
    await runPool(
      samples,
      opts.concurrency,
      async ({ task_id, completion }, index) => {
        // A sandbox that cannot score stops the batch: its other lanes take no new samples.
        const verdict = await scorer.score(byId.get(task_id)!, completion).catch((e: unknown) => {
          failed = true;
          throw e;
        });
        results[index] = { task_id, completion, result: verdict.result, passed: verdict.passed };
        opts.onProgress?.(++done, samples.length);
      },
      () => failed,
    );
  } finally {
    await scorer.close();
  }
  return results;
}
