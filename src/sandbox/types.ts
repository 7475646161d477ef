/** What the sandbox can offer on this machine, found once per process by `detectIsolation`. */
export interface Isolation {
  /**
   * bwrap: an empty root with only what the program needs bound read-only, no network, own pid namespace (the full recipe).
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
  /**
   * bwrap only: whether the program is kept from making user namespaces of its own (bwrap
   * `--disable-userns`, 0.8 and later). Missing or false: older bwrap, where a program could mount
   * an uncapped tmpfs inside a user namespace of its own.
   */
  disableUserns?: boolean;
}

/** The host paths a bwrap sandbox sees (everything else does not exist in it). */
export interface RootPlan {
  /** Host paths bound read-only at the same place (files or directories). */
  binds: string[];
  /** Symlinks recreated in the sandbox: [path, target]. */
  symlinks: [string, string][];
  /** Empty directories made in the sandbox (read-only, like the rest of the root). */
  dirs?: string[];
}

/** An extra host path bound read-only into the sandbox (e.g. a directory of Python packages). */
export interface ReadOnlyBind {
  host: string;
  /** Where it appears in the sandbox (absolute). Default: the same path. */
  sandbox?: string;
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
  /**
   * bwrap: what the root holds. 'python' (default): the interpreter, its standard library, its
   * site-packages and the shared libraries it loads. 'system': all of /usr and a few /etc entries,
   * for programs that run shell tools (RedCode).
   */
  root?: 'python' | 'system';
  /** bwrap: more host paths bound read-only. */
  readOnlyBinds?: ReadOnlyBind[];
  /**
   * bwrap: let the program make user namespaces of its own (default false). Only for a trusted
   * program that starts a nested bwrap itself (RedCode's driver), which must then keep the code it
   * runs from doing the same.
   */
  allowNestedUserns?: boolean;
  /**
   * bwrap: called once the sandbox's namespaces exist and before the program starts, with the host
   * pid of the sandbox's first process, e.g. to set up its network namespace from outside
   * (`nsenter --target PID --net ...`). The program starts when the returned promise settles; a
   * rejection ends the run with `sandboxError`.
   */
  beforeStart?: (sandbox: { pid: number }) => Promise<void>;
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
