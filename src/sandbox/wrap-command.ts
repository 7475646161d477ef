/**
 * The command line that wraps a program in the sandbox: prlimit (resource limits), setpriv (drop to
 * an unprivileged uid) and bwrap or unshare (namespaces). Pure, so the exact recipe is unit tested.
 */
import type { Isolation, ReadOnlyBind, RootPlan } from './types.js';

/** Where the working directory appears inside bwrap; elsewhere the program runs in the host temp dir. */
export const SANDBOX_WORKDIR = '/tmp/sbx';

/** Device nodes a sandbox gets; /dev itself is read-only, so there is no writable place in it. */
export const SANDBOX_DEVICES = { python: ['null', 'zero', 'urandom'], system: ['null', 'zero', 'full', 'random', 'urandom'] } as const;

export interface SandboxLimits {
  memoryMb: number;
  /** Null: no CPU-time limit on the sandbox as a whole (a long-lived worker sets it per child). */
  cpuSeconds: number | null;
  maxProcesses: number;
  maxFileMb: number;
  openFiles: number;
  tmpfsMb: number;
}

export interface CommandPlan {
  /** Host directory holding the run's files (and the working directory outside bwrap). */
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
  /** bwrap: the root's content (see root.ts); `devices` names the nodes of its read-only /dev. */
  root?: RootPlan;
  devices?: readonly string[];
  readOnlyBinds?: ReadOnlyBind[];
  /** bwrap: leave user namespaces usable inside (a trusted nested bwrap); default: disabled where bwrap can. */
  allowNestedUserns?: boolean;
  /** bwrap: working directory inside (default SANDBOX_WORKDIR). */
  innerCwd?: string;
  /** bwrap: fds on which bwrap reports the sandbox's pid (--info-fd) and waits before starting the program (--block-fd). */
  startFds?: { info: number; block: number };
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
    `--cpu=${limits.cpuSeconds ?? 'unlimited'}`,
    `--fsize=${limits.maxFileMb * MIB}`,
    `--nofile=${limits.openFiles}`,
    '--core=0',
  ];
}

function setprivArgs(uid: number, noNewPrivs: boolean): string[] {
  return ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', ...(noNewPrivs ? ['--no-new-privs'] : [])];
}

/** The bwrap arguments that build the sandbox's filesystem from an empty root. */
function bwrapFilesystemArgs(isolation: Isolation, plan: CommandPlan): string[] {
  const root = plan.root ?? { binds: [], symlinks: [] };
  const tmpfs = isolation.tmpfsSizeCap === false ? ['--tmpfs', '/tmp'] : ['--size', String(plan.limits.tmpfsMb * MIB), '--tmpfs', '/tmp'];
  const devices = plan.devices ?? SANDBOX_DEVICES.python;
  return [
    ...root.binds.flatMap((p) => ['--ro-bind', p, p]),
    ...root.symlinks.flatMap(([path, target]) => ['--symlink', target, path]),
    ...(root.dirs ?? []).flatMap((d) => ['--dir', d]),
    ...(plan.readOnlyBinds ?? []).flatMap((b) => ['--ro-bind', b.host, b.sandbox ?? b.host]),
    // The working directory lives on the private, size-capped /tmp, so the program may write
    // there; the files it was given are bound read-only one by one.
    ...tmpfs,
    ...(plan.fileNames.length ? ['--dir', SANDBOX_WORKDIR] : []),
    ...plan.fileNames.flatMap((name) => ['--ro-bind', `${plan.hostDir}/${name}`, `${SANDBOX_WORKDIR}/${name}`]),
    '--proc',
    '/proc',
    // A /dev of its own with a few device nodes, remounted read-only: nothing there to fill.
    '--size',
    String(MIB),
    '--tmpfs',
    '/dev',
    ...devices.flatMap((d) => ['--dev-bind', `/dev/${d}`, `/dev/${d}`]),
    '--symlink',
    '/proc/self/fd',
    '/dev/fd',
    '--symlink',
    '/proc/self/fd/0',
    '/dev/stdin',
    '--symlink',
    '/proc/self/fd/1',
    '/dev/stdout',
    '--symlink',
    '/proc/self/fd/2',
    '/dev/stderr',
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
  ];
}

export function buildSandboxCommand(isolation: Isolation, plan: CommandPlan): SandboxCommand {
  const prefix = ['prlimit', ...prlimitArgs(plan.limits, plan.nprocLimit), '--'];
  const asRoot = plan.runAsUid !== null;
  let wrapped: string[];
  let innerCwd = plan.hostDir;
  switch (isolation.kind) {
    case 'bwrap': {
      innerCwd = plan.innerCwd ?? SANDBOX_WORKDIR;
      const userns = plan.allowNestedUserns || !isolation.disableUserns ? [] : ['--unshare-user', '--disable-userns'];
      wrapped = [
        // bwrap itself is not setuid here: setpriv runs first and bwrap uses an unprivileged user namespace.
        ...(asRoot ? setprivArgs(plan.runAsUid!, false) : []),
        'bwrap',
        '--unshare-all',
        ...userns,
        '--die-with-parent',
        '--new-session',
        ...bwrapFilesystemArgs(isolation, plan),
        '--chdir',
        innerCwd,
        ...(plan.startFds ? ['--info-fd', String(plan.startFds.info), '--block-fd', String(plan.startFds.block)] : []),
        '--',
        ...plan.argv,
      ];
      break;
    }
    case 'unshare':
      // --kill-child: when unshare is killed (timeout), the namespace's init dies and takes every
      // process with it. --mount-proc: /proc shows the namespace's processes only. --ipc: System V
      // shared memory dies with the sandbox, never seen by the host or another sandbox.
      wrapped = asRoot
        ? [
            'unshare',
            '--mount',
            '--mount-proc',
            '--net',
            '--ipc',
            '--pid',
            '--fork',
            '--kill-child',
            '--',
            ...setprivArgs(plan.runAsUid!, true),
            '--',
            ...plan.argv,
          ]
        : [
            'unshare',
            '--map-root-user',
            '--mount',
            '--mount-proc',
            '--net',
            '--ipc',
            '--pid',
            '--fork',
            '--kill-child',
            '--',
            ...plan.argv,
          ];
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
