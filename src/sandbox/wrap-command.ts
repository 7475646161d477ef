/**
 * The command line that wraps a program in the sandbox: prlimit (resource limits), setpriv (drop to
 * an unprivileged uid) and bwrap or unshare (namespaces). Pure, so the exact recipe is unit tested.
 */
import type { Isolation } from './types.js';

/** Where the working directory appears inside bwrap; elsewhere the program runs in the host temp dir. */
export const SANDBOX_WORKDIR = '/tmp/sbx';

export interface SandboxLimits {
  memoryMb: number;
  cpuSeconds: number;
  maxProcesses: number;
  maxFileMb: number;
  openFiles: number;
  tmpfsMb: number;
}

export interface CommandPlan {
  /** Host directory holding the run's files. */
  hostDir: string;
  /** Names of the files in it (relative), bound one by one under bwrap. */
  fileNames: string[];
  argv: string[];
  limits: SandboxLimits;
  /**
   * Run as this uid/gid (needs root: each run gets a uid of its own, so one run's processes never
   * count against another's process limit). Null: run as the invoking user.
   */
  runAsUid: number | null;
  /** RLIMIT_NPROC value: for the invoking user it must also cover that user's other processes. */
  nprocLimit: number;
}

export interface SandboxCommand {
  file: string;
  args: string[];
  /** Host directory to spawn in. */
  cwd: string;
  /** Working directory as the program sees it. */
  innerCwd: string;
}

const MIB = 1024 * 1024;

export function prlimitArgs(limits: SandboxLimits, nprocLimit: number): string[] {
  return [
    `--nproc=${nprocLimit}`,
    `--as=${limits.memoryMb * MIB}`,
    `--cpu=${limits.cpuSeconds}`,
    `--fsize=${limits.maxFileMb * MIB}`,
    `--nofile=${limits.openFiles}`,
    '--core=0',
  ];
}

function setprivArgs(uid: number, noNewPrivs: boolean): string[] {
  return ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', ...(noNewPrivs ? ['--no-new-privs'] : [])];
}

export function buildSandboxCommand(isolation: Isolation, plan: CommandPlan): SandboxCommand {
  const prefix = ['prlimit', ...prlimitArgs(plan.limits, plan.nprocLimit), '--'];
  const asRoot = plan.runAsUid !== null;
  let wrapped: string[];
  let innerCwd = plan.hostDir;
  switch (isolation.kind) {
    case 'bwrap': {
      innerCwd = SANDBOX_WORKDIR;
      const tmpfs = isolation.tmpfsSizeCap === false ? ['--tmpfs', '/tmp'] : ['--size', String(plan.limits.tmpfsMb * MIB), '--tmpfs', '/tmp'];
      // The working directory lives on the private, size-capped /tmp, so the program may write
      // there; the files it was given are bound read-only one by one.
      const binds = plan.fileNames.flatMap((name) => ['--ro-bind', `${plan.hostDir}/${name}`, `${SANDBOX_WORKDIR}/${name}`]);
      wrapped = [
        // bwrap itself is not setuid here: setpriv runs first and bwrap uses an unprivileged user namespace.
        ...(asRoot ? setprivArgs(plan.runAsUid!, false) : []),
        'bwrap',
        '--ro-bind', '/', '/',
        '--dev', '/dev',
        '--proc', '/proc',
        ...tmpfs,
        '--dir', SANDBOX_WORKDIR,
        ...binds,
        '--chdir', SANDBOX_WORKDIR,
        '--unshare-all',
        '--die-with-parent',
        '--new-session',
        '--',
        ...plan.argv,
      ];
      break;
    }
    case 'unshare':
      // --kill-child: when unshare is killed (timeout), the namespace's init dies and takes every process with it.
      wrapped = asRoot
        ? ['unshare', '--net', '--pid', '--fork', '--kill-child', '--', ...setprivArgs(plan.runAsUid!, true), '--', ...plan.argv]
        : ['unshare', '--map-root-user', '--net', '--pid', '--fork', '--kill-child', '--', ...plan.argv];
      break;
    case 'rlimit-only':
      wrapped = asRoot ? [...setprivArgs(plan.runAsUid!, true), '--', ...plan.argv] : [...plan.argv];
      break;
  }
  const all = [...prefix, ...wrapped];
  return { file: all[0], args: all.slice(1), cwd: plan.hostDir, innerCwd };
}

/** True when stderr shows the wrapper (not the program) failing to start. */
export function wrapperFailure(stderr: string): string | undefined {
  const first = stderr.split('\n').find((l) => l.trim() !== '') ?? '';
  return /^(bwrap|setpriv|prlimit|unshare): /.test(first) ? first.trim() : undefined;
}
