/**
 * One scoring lane: a judge sandbox (trusted: the official tests, the verdicts) and a candidate
 * worker sandbox (the model's code, one forked child per problem), each with its own uid, pid
 * namespace and filesystem, joined by one socket that Node hands from the first to the second and
 * then closes. Node talks only to the judge: one JSON line per job in, one verdict line out.
 */
import type { Socket } from 'node:net';
import { startSandboxedProcess, type Isolation, type SandboxProcess } from '../../sandbox/index.js';
import { CappedBuffer } from '../../sandbox/run.js';
import { isRoot } from '../../sandbox/uid.js';
import { JUDGE_PY } from './py/judge.js';
import { WORKER_PY } from './py/worker.js';

/** How long a lane may take to start (two sandboxes, two interpreters importing their modules). */
const START_TIMEOUT_MS = 60_000;
/** Beyond the problem's own limit: the judge's slack, the worker's clean-up answer, scheduling. */
const BACKSTOP_EXTRA_MS = 20_000;
const MAX_LINE = 1 << 20;
/** How long a closing lane may take to exit on its own before it is killed. */
const CLOSE_GRACE_MS = 2000;

export interface LaneJob {
  prompt: string;
  completion: string;
  test: string;
  entry_point: string;
  /** Seconds, as the official `--timeout`. */
  timeout: number;
}

/** A verdict (with whether the worker is still clean), or why the lane could not give one. */
export type LaneOutcome = { result: string; reason?: string; clean: boolean } | { error: string };

export interface LaneOptions {
  isolation: Isolation;
  /** Address space of each candidate child (RLIMIT_AS). */
  memoryMb: number;
  /** CPU seconds of each candidate child (RLIMIT_CPU). */
  cpuSeconds: number;
}

/** How the worker finds what a problem left: its own pid namespace, its own uid, or only the child's process group. */
function sweepMode(isolation: Isolation): 'namespace' | 'uid' | 'group' {
  if (isolation.kind !== 'rlimit-only') return 'namespace';
  return isRoot() ? 'uid' : 'group';
}

export class Lane {
  /** Whether the worker has the seccomp filter for its children (x86_64 and aarch64). */
  guard = false;
  private seq = 0;
  private pending?: { id: number; resolve: (o: LaneOutcome) => void; timer: NodeJS.Timeout };
  private exited = false;
  private workerGone = false;
  private buffer = '';
  private readonly stderr = { judge: new CappedBuffer(4096), worker: new CappedBuffer(4096) };
  private ready?: { resolve: () => void; reject: (e: Error) => void };

  private constructor(
    private readonly judge: SandboxProcess,
    private readonly worker: SandboxProcess,
  ) {}

  static async start(opts: LaneOptions): Promise<Lane> {
    const { isolation } = opts;
    const judge = await startSandboxedProcess({
      isolation,
      maxProcesses: 16,
      argv: () => [isolation.python, '-I', '-c', JUDGE_PY],
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    const link = judge.child.stdio[3] as Socket;
    let worker: SandboxProcess;
    try {
      worker = await startSandboxedProcess({
        isolation,
        memoryMb: opts.memoryMb,
        argv: (scratch) => [
          isolation.python,
          '-I',
          '-c',
          WORKER_PY,
          JSON.stringify({ scratch, sweep: sweepMode(isolation), memory_mb: opts.memoryMb, cpu_s: opts.cpuSeconds, require_guard: false }),
        ],
        stdio: ['ignore', 'ignore', 'pipe', link],
      });
    } catch (e) {
      judge.kill();
      throw e;
    } finally {
      // Node's end of the socket now lives only in the worker: judge and worker talk directly.
      link.destroy();
    }
    const lane = new Lane(judge, worker);
    await lane.waitReady();
    return lane;
  }

  private waitReady(): Promise<void> {
    const { judge, worker } = this;
    // Idle lanes do not keep Node running; a job in flight does (its backstop timer).
    for (const p of [judge, worker]) {
      p.child.unref();
      for (const s of p.child.stdio) {
        (s as Socket | null)?.unref?.();
        // A sandbox that dies resets its pipes: that is reported through its exit, not as an error.
        s?.on('error', () => undefined);
      }
      void p.exited.then(() => this.onExit(p === judge ? 'judge' : 'worker'));
    }
    judge.child.stderr!.on('data', (c: Buffer) => this.stderr.judge.push(c));
    worker.child.stderr!.on('data', (c: Buffer) => this.stderr.worker.push(c));
    judge.child.stdout!.on('data', (c: Buffer) => this.onData(c));
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the scoring sandboxes did not start within ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
      this.ready = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
    }).catch((e: Error) => {
      this.kill();
      throw e;
    });
  }

  /** Why the sandboxes stopped, from their stderr (bwrap's own errors come first there). */
  private why(): string {
    const tail = (s: string) => s.trim().split('\n').slice(-3).join(' | ');
    return [tail(this.stderr.worker.text()), tail(this.stderr.judge.text())].filter(Boolean).join(' / ') || 'no message';
  }

  private onData(chunk: Buffer): void {
    this.buffer += chunk.toString('utf8');
    if (this.buffer.length > MAX_LINE && !this.buffer.includes('\n')) {
      this.kill();
      return;
    }
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      this.onLine(line);
    }
  }

  private onLine(line: string): void {
    let msg: { ready?: boolean; guard?: boolean; id?: number; result?: unknown; reason?: unknown; clean?: unknown; error?: unknown };
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (msg.ready) {
      this.guard = msg.guard === true;
      this.ready?.resolve();
      return;
    }
    if (typeof msg.error === 'string' && msg.id === undefined) {
      this.ready?.reject(new Error(`${msg.error}: ${this.why()}`));
      return;
    }
    const p = this.pending;
    if (!p || msg.id !== p.id) return;
    if (typeof msg.result === 'string') {
      this.settle({ result: msg.result, clean: msg.clean === true, ...(typeof msg.reason === 'string' ? { reason: msg.reason } : {}) });
    } else {
      this.settle({ error: typeof msg.error === 'string' ? msg.error : 'an unreadable answer from the judge' });
    }
  }

  private settle(outcome: LaneOutcome): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    clearTimeout(p.timer);
    p.resolve(outcome);
  }

  /**
   * The judge gone: no verdict can come, the job is tried again elsewhere. The worker gone (killed
   * by its problem where no seccomp filter stops that, or from outside): the judge still answers,
   * "timed out" as officially for a process that died, and not clean, so the lane is replaced.
   */
  private onExit(which: 'judge' | 'worker'): void {
    if (which === 'worker' && this.pending) {
      this.workerGone = true;
      return;
    }
    if (this.exited) return;
    this.exited = true;
    this.kill();
    this.ready?.reject(new Error(`the scoring sandboxes exited before they were ready: ${this.why()}`));
    this.settle({ error: `the scoring sandboxes exited: ${this.why()}` });
  }

  get alive(): boolean {
    return !this.exited && !this.workerGone;
  }

  /** Scores one job; never rejects. */
  run(job: LaneJob): Promise<LaneOutcome> {
    if (this.exited) return Promise.resolve({ error: `the scoring sandboxes exited: ${this.why()}` });
    const id = ++this.seq;
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          // The judge enforces the limit itself; past this something is stuck: end the lane, as the
          // official parent ends a child that overran.
          this.settle({ result: 'timed out', clean: false });
          this.kill();
        },
        job.timeout * 1000 + BACKSTOP_EXTRA_MS,
      );
      this.pending = { id, resolve, timer };
      this.judge.child.stdin!.write(JSON.stringify({ id, ...job }) + '\n');
    });
  }

  kill(): void {
    this.judge.kill();
    this.worker.kill();
  }

  /** Ends the lane: the judge's stdin closes, so both sandboxes exit by themselves; killed if they have not after a grace period. */
  async close(): Promise<void> {
    // Waiting for the exits must keep Node running (idle lanes are unref'd).
    this.judge.child.ref();
    this.worker.child.ref();
    if (this.pending || this.exited || this.workerGone) this.kill();
    else this.judge.child.stdin?.end();
    const grace = setTimeout(() => this.kill(), CLOSE_GRACE_MS);
    await Promise.all([this.judge.exited, this.worker.exited]);
    clearTimeout(grace);
  }
}
