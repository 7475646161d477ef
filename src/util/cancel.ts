/**
 * Cancelling a run (docs/security.md, "Security": cancel). SIGINT (Ctrl-C, a cancelled GitHub job) or SIGTERM
 * aborts the run's AbortSignal: no new instance starts, running pipelines are stopped, the run log
 * and the report are written with status `cancelled` and everything that finished, the model
 * server is stopped, and the process exits 130 (SIGINT) or 143 (SIGTERM), all within 5 seconds.
 * A second signal exits at once (the exit handlers still kill every process group saboteur
 * started). Signals are process-wide, so is the state here: the model server's own signal handling
 * reads it to stop with the short grace and leave the exit to the run.
 */

/** How long stopping anything may take once a run is cancelled (pipelines, the model server). */
export const CANCEL_KILL_GRACE_MS = 1000;
/** How long in-flight instances get to finish on their own before they are recorded as cut off. */
export const CANCEL_DRAIN_MS = 1500;
/** Past this after the signal the process exits whatever is still running (the 5 s promise). */
const CANCEL_DEADLINE_MS = 4500;

const EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export class RunCancelled extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RunCancelled';
  }
}

let owner: AbortController | undefined;
let received: NodeJS.Signals | undefined;

/** True once a cancelling signal arrived while a run listens for it. */
export function isCancelling(): boolean {
  return received !== undefined;
}

/** True while a run handles SIGINT/SIGTERM itself (others must then not exit the process). */
export function runHandlesSignals(): boolean {
  return owner !== undefined;
}

export function exitCodeForSignal(signal: NodeJS.Signals): number {
  return EXIT_CODES[signal] ?? 1;
}

export interface SignalCancel {
  signal: AbortSignal;
  /** The signal that cancelled the run, if one did. */
  received(): NodeJS.Signals | undefined;
  /** Removes the handlers (the run is over). */
  dispose(): void;
}

/**
 * Makes SIGINT and SIGTERM cancel the run. `exit` is how the process ends (tests pass their own);
 * it is called at once on a second signal and `CANCEL_DEADLINE_MS` after the first, should the run
 * not have finished by then.
 */
export function cancelOnSignals(opts: { log?: (message: string) => void; exit?: (code: number) => void } = {}): SignalCancel {
  const controller = new AbortController();
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  owner = controller;
  received = undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) {
      opts.log?.(`${signal} again: exiting now`);
      exit(exitCodeForSignal(received));
      return;
    }
    received = signal;
    opts.log?.(`${signal}: cancelling the run: no new instances; stopping the pipelines and the model server; writing what finished`);
    setTimeout(() => exit(exitCodeForSignal(signal)), CANCEL_DEADLINE_MS).unref();
    controller.abort(new RunCancelled(`cancelled by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    received: () => received,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (owner === controller) owner = undefined;
    },
  };
}

/** The reason a cancelled signal carries. */
export function cancelReason(signal: AbortSignal): string {
  const r = signal.reason as unknown;
  return r instanceof RunCancelled ? r.reason : r instanceof Error ? r.message : 'cancelled';
}

/**
 * `promise`, or a RunCancelled rejection as soon as `signal` aborts (the promise itself goes on;
 * whatever it started is stopped by its owner's cleanup).
 */
export function untilCancelled<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(new RunCancelled(cancelReason(signal)));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new RunCancelled(cancelReason(signal)));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** The promise's value, or undefined once `ms` passed or when it rejects; never rejects. */
export function settleWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}
