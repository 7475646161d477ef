/**
 * The caps on one pipeline run (`pipeline.limits`; docs/security.md, "Caps"): how much its
 * writable folders may hold and how many processes and threads it may have at once. Under bwrap
 * HOME, TMPDIR and /tmp live in a memory folder (tmpfs) of `diskMb` of its own, so a write past
 * it fails with ENOSPC and the host's disk never grows; a file bound from the host (the output
 * file, the http service's log) is held to the same size by RLIMIT_FSIZE; RLIMIT_NPROC counts the
 * run's own processes (its own uid as root, its own user namespace otherwise).
 */
import type { PipelineResult } from './types.js';

export interface PipelineLimits {
  /** MiB the run's writable folders (HOME, TMPDIR, /tmp) hold at most, together. */
  diskMb: number;
  /** Processes and threads the run has at most at once. */
  processes: number;
}

/**
 * Defaults a CI runner survives with `pipeline.concurrency: 16` in flight: the folders are memory,
 * so 16 hostile runs hold at most 16 × (256 MiB + the 256 MiB /dev/shm) = 8 GiB; 512 tasks each
 * is far more than a pipeline starts (a Node process has about 11 threads) and far less than
 * the kernel's limits.
 */
export const DEFAULT_LIMITS: PipelineLimits = { diskMb: 256, processes: 512 };

/** Bytes of the memory folder of a run. */
export function diskBytes(limits: PipelineLimits): number {
  return limits.diskMb * 1024 * 1024;
}

/**
 * RLIMIT_FSIZE of a run: a file bound from the host may not grow past the cap. One MiB above the
 * folders' own size, so filling a folder fails with ENOSPC (what programs report) rather than
 * SIGXFSZ.
 */
export function fileSizeLimit(limits: PipelineLimits): number {
  return diskBytes(limits) + (1 << 20);
}

const NO_SPACE = /No space left on device|ENOSPC|Disk quota exceeded/i;
const NO_FORK =
  /Cannot fork|can't fork|fork: retry|fork failed|Resource temporarily unavailable|EAGAIN|can't start new thread|pthread_create|unable to create (native )?thread/i;
/** SIGXFSZ, and a shell's report of a child killed by it (128 + 25). */
const FILE_TOO_BIG_CODE = 153;

/**
 * What a failed run's error adds when the run looks like it ran into a cap: its stderr says
 * ENOSPC or that a fork failed, or it was killed by SIGXFSZ. Empty when nothing points there.
 */
export function capNote(
  limits: PipelineLimits,
  end: { exitCode?: number | null; signal?: string },
  stderrTail: string | undefined,
): string {
  const notes: string[] = [];
  if (end.signal === 'SIGXFSZ' || end.exitCode === FILE_TOO_BIG_CODE || (stderrTail !== undefined && NO_SPACE.test(stderrTail)))
    notes.push(`its writable folders (HOME, TMPDIR, /tmp) and files are capped at ${limits.diskMb} MiB (pipeline.limits.disk-mb)`);
  if (stderrTail !== undefined && NO_FORK.test(stderrTail))
    notes.push(`it may have at most ${limits.processes} processes and threads at once (pipeline.limits.processes)`);
  return notes.length ? `; it may have hit a cap: ${notes.join('; ')}` : '';
}

/** The result with the cap note added to its error (failed results only). */
export function withCapNote(result: PipelineResult, limits: PipelineLimits | undefined): PipelineResult {
  if (!limits || result.status === 'ok' || result.error === undefined) return result;
  const signal = /\bSIGXFSZ\b/.test(result.error) ? 'SIGXFSZ' : undefined;
  const note = capNote(limits, { exitCode: result.exitCode, signal }, result.stderrTail);
  return note ? { ...result, error: result.error + note } : result;
}
