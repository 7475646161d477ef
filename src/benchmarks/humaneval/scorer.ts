/**
 * HumanEval scoring on warm lanes (lane.ts): up to `lanes` judge/worker pairs, started when the
 * first problems need them and kept for the next; a lane whose worker could not confirm it was
 * clean after a problem, or that stopped, is replaced. Verdicts keep the official strings.
 */
import type { Log } from '../../util/log.js';
import type { Isolation } from '../../sandbox/index.js';
import { SANDBOX_DEFAULTS } from '../../sandbox/index.js';
import { Lane, type LaneJob } from './lane.js';
import type { HumanEvalProblem } from './types.js';

/** The official default per-sample limit (`--timeout 3.0`). */
export const DEFAULT_TIMEOUT_MS = 3000;
/** Completions longer than this are not run (an honest one is a few KB). */
export const MAX_COMPLETION_BYTES = 1 << 20;
/** Times a problem is tried on a fresh lane when the sandbox (not the program) failed. */
const ATTEMPTS = 3;

export class SandboxStartError extends Error {}

export interface ScorerOptions {
  isolation: Isolation;
  /** Lanes (judge/worker pairs) at most; each scores one problem at a time. */
  lanes: number;
  timeoutMs?: number;
  /** Address space of each scored program (default SANDBOX_DEFAULTS.memoryMb). */
  memoryMb?: number;
  /** Where a missing seccomp filter is reported (once). */
  log?: Log;
}

export interface Verdict {
  passed: boolean;
  /** The official result string: "passed", "failed: <exception>" or "timed out". */
  result: string;
  /** Why a failed program failed: the failing test line, or the exception and where (not part of the official format). */
  reason?: string;
}

export class HumanEvalScorer {
  private readonly idle: Lane[] = [];
  private readonly waiting: { resolve: (l: Lane) => void; reject: (e: Error) => void }[] = [];
  private readonly all = new Set<Lane>();
  /** Replaced lanes still going away: close() waits for them, so nothing of theirs outlives it. */
  private readonly closing = new Set<Promise<void>>();
  private starting = 0;
  private closed = false;
  private warnedGuard = false;
  private started = 0;
  private replaced = 0;
  readonly timeoutMs: number;

  constructor(private readonly opts: ScorerOptions) {
    if (!(opts.lanes >= 1)) throw new Error(`HumanEval scorer: lanes must be at least 1, got ${opts.lanes}`);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(this.timeoutMs > 0)) throw new Error(`HumanEval scorer: timeoutMs must be positive, got ${this.timeoutMs}`);
  }

  async score(problem: HumanEvalProblem, completion: string): Promise<Verdict> {
    if (Buffer.byteLength(completion, 'utf8') > MAX_COMPLETION_BYTES) {
      return { passed: false, result: `failed: the completion is longer than ${MAX_COMPLETION_BYTES} bytes and was not run` };
    }
    const job: LaneJob = {
      prompt: problem.prompt,
      completion,
      test: problem.test,
      entry_point: problem.entry_point,
      timeout: this.timeoutMs / 1000,
    };
    let lastError = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      let lane: Lane;
      try {
        lane = await this.acquire();
      } catch (e) {
        if (this.closed) throw e;
        lastError = (e as Error).message;
        await new Promise((r) => setTimeout(r, 100 * attempt));
        continue;
      }
      const outcome = await lane.run(job);
      if ('result' in outcome) {
        this.release(lane, outcome.clean);
        return { passed: outcome.result === 'passed', result: outcome.result, ...(outcome.reason ? { reason: outcome.reason } : {}) };
      }
      this.release(lane, false);
      lastError = outcome.error;
    }
    throw new SandboxStartError(`HumanEval ${problem.task_id}: the sandbox could not score it (${ATTEMPTS} tries): ${lastError}`);
  }

  private async acquire(): Promise<Lane> {
    if (this.closed) throw new Error('HumanEval scorer: closed');
    const lane = this.idle.pop();
    if (lane) return lane;
    if (this.all.size + this.starting < this.opts.lanes) return this.startLane();
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private async startLane(): Promise<Lane> {
    this.starting++;
    try {
      const lane = await Lane.start({
        isolation: this.opts.isolation,
        memoryMb: this.opts.memoryMb ?? SANDBOX_DEFAULTS.memoryMb,
        cpuSeconds: Math.ceil(this.timeoutMs / 1000) + 1,
      });
      if (!lane.guard && !this.warnedGuard) {
        this.warnedGuard = true;
        this.opts.log?.warn(
          'HumanEval sandbox: no seccomp filter on this architecture; scored programs can signal and trace their worker (it is then replaced) and make namespaces where bwrap allows',
        );
      }
      if (this.closed) {
        await lane.close();
        throw new Error('HumanEval scorer: closed');
      }
      this.all.add(lane);
      this.started++;
      return lane;
    } finally {
      this.starting--;
    }
  }

  /** Back to the pool, or (not clean, or stopped) replaced: a waiting problem then gets a fresh lane. */
  private release(lane: Lane, clean: boolean): void {
    if (clean && lane.alive && !this.closed) {
      const next = this.waiting.shift();
      if (next) next.resolve(lane);
      else this.idle.push(lane);
      return;
    }
    this.all.delete(lane);
    this.replaced++;
    const gone = lane.close().finally(() => this.closing.delete(gone));
    this.closing.add(gone);
    const next = this.waiting.shift();
    if (next) this.startLane().then(next.resolve, next.reject);
  }

  /** Lanes started so far, and lanes ended because a problem left them unclean or they stopped. */
  stats(): { lanesStarted: number; lanesReplaced: number } {
    return { lanesStarted: this.started, lanesReplaced: this.replaced };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error('HumanEval scorer: closed'));
    this.idle.length = 0;
    const lanes = [...this.all];
    this.all.clear();
    await Promise.all([...lanes.map((l) => l.close()), ...this.closing]);
  }
}
