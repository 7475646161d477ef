/**
 * pass@k, the unbiased estimator of the Codex paper (Chen et al. 2021) as the official HumanEval
 * harness computes it: per task 1 - C(n-c, k) / C(n, k) with n samples of which c passed, then the
 * mean over tasks, reported for a k only when every task has at least k samples.
 */

/**
 * 1 - C(n-c, k) / C(n, k), in the product form 1 - prod_{i=n-c+1}^{n} (1 - k/i), which never forms
 * the huge binomials (numerically stable for any n).
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k))
    throw new RangeError(`pass@k needs integers, got n=${n} c=${c} k=${k}`);
  if (n < 1 || c < 0 || c > n) throw new RangeError(`pass@k needs 0 <= c <= n and n >= 1, got n=${n} c=${c}`);
  if (k < 1 || k > n) throw new RangeError(`pass@${k} needs 1 <= k <= n (samples per task), got n=${n}`);
  if (n - c < k) return 1;
  let prod = 1;
  for (let i = n - c + 1; i <= n; i++) prod *= 1 - k / i;
  return 1 - prod;
}

export interface TaskCounts {
  task_id: string;
  /** Samples of the task. */
  n: number;
  /** Samples that passed. */
  c: number;
}

/** n and c per task, in order of each task's first sample. */
export function countPerTask(results: readonly { task_id: string; passed: boolean }[]): TaskCounts[] {
  const byTask = new Map<string, TaskCounts>();
  for (const r of results) {
    let t = byTask.get(r.task_id);
    if (!t) byTask.set(r.task_id, (t = { task_id: r.task_id, n: 0, c: 0 }));
    t.n++;
    if (r.passed) t.c++;
  }
  return [...byTask.values()];
}

/** The official `estimate_pass_at_k`: the pass@k estimate of each task (all tasks need n >= k). */
export function passAtKPerTask(results: readonly { task_id: string; passed: boolean }[], k: number): Map<string, number> {
  return new Map(countPerTask(results).map((t) => [t.task_id, passAtK(t.n, t.c, k)]));
}

/**
 * `{"pass@1": …, "pass@10": …}`: the mean over tasks for each k that every task has samples
 * enough for, as `evaluate_functional_correctness` reports it. Empty results give `{}`.
 */
export function passAtKSummary(
  results: readonly { task_id: string; passed: boolean }[],
  ks: readonly number[] = [1, 10, 100],
): Record<string, number> {
  const tasks = countPerTask(results);
  const out: Record<string, number> = {};
  if (tasks.length === 0) return out;
  for (const k of ks) {
    if (!tasks.every((t) => t.n >= k)) continue;
    out[`pass@${k}`] = tasks.reduce((sum, t) => sum + passAtK(t.n, t.c, k), 0) / tasks.length;
  }
  return out;
}
