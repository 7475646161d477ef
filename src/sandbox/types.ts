/** What the sandbox can offer on this machine, found once per process by `detectIsolation`. */
export interface Isolation {
  /**
   * bwrap: read-only root, private /tmp, no network, own pid namespace (the full recipe).
   * unshare: no network and its own pid namespace, but the host filesystem stays as writable as it is for the sandbox user.
   * rlimit-only: resource limits and a separate process group, nothing more.
   */
  kind: 'bwrap' | 'unshare' | 'rlimit-only';
  /** True whenever some protection of the full recipe is missing; `note` says which. */
  degraded: boolean;
  /** One human-readable line for the log and the report. */
  note: string;
  /** The Python interpreter the sandboxed programs run with (absolute path). */
  python: string;
  /** bwrap only: whether the private /tmp has a size cap (bwrap `--size`, missing on old versions). */
  tmpfsSizeCap?: boolean;
}

export interface SandboxOptions {
  /** Files written into the run's working directory (relative names; sub-folders allowed). */
  files: Record<string, string>;
  /** The command, run in that directory. argv[0] should be an absolute path (e.g. `isolation.python`). */
  argv: string[];
  /** Wall-clock limit; the whole process group is killed with SIGKILL when it is reached. */
  timeoutMs: number;
  /** Address-space limit per process (RLIMIT_AS). */
  memoryMb?: number;
  /** CPU-time limit per process (RLIMIT_CPU); defaults to the wall-clock limit rounded up, plus one second. */
  cpuSeconds?: number;
  /** Cap on each of stdout and stderr; the rest is read and dropped. */
  maxOutputBytes?: number;
  /** Processes the sandbox user may run at once (RLIMIT_NPROC): what stops a fork bomb. */
  maxProcesses?: number;
  /** Largest file the program may write (RLIMIT_FSIZE). */
  maxFileMb?: number;
  isolation: Isolation;
}

export interface SandboxResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  outputTruncated: boolean;
  durationMs: number;
  /**
   * Set when the sandbox itself could not start the program (bwrap, setpriv, prlimit or unshare
   * reported an error before the program ran): an infrastructure failure, not the program's.
   */
  sandboxError?: string;
}

export const SANDBOX_DEFAULTS = {
  memoryMb: 512,
  maxOutputBytes: 64 * 1024,
  maxProcesses: 32,
  maxFileMb: 16,
  /** Size cap of the private /tmp (which holds the working directory) under bwrap. */
  tmpfsMb: 64,
  openFiles: 256,
} as const;
