/**
 * A long-lived program in the sandbox (a warm worker): the same recipe as runSandboxed, started
 * once and talked to over pipes, with no CPU-time limit on the whole (the program sets one on each
 * child it forks). Its scratch directory is the private /tmp under bwrap, a host temp dir of its
 * own elsewhere; both disappear with it.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killGroup, sandboxEnv, sandboxRoot } from './run.js';
import { buildSandboxCommand, SANDBOX_DEVICES } from './wrap-command.js';
import { SANDBOX_DEFAULTS, type Isolation } from './types.js';
import { acquireSandboxUid, countTasksOfUid, isRoot } from './uid.js';

export interface SandboxProcessOptions {
  /** The command, given the scratch directory as the program sees it. */
  argv: (scratchDir: string) => string[];
  isolation: Isolation;
  memoryMb?: number;
  maxProcesses?: number;
  maxFileMb?: number;
  root?: 'python' | 'system';
  /** stdio of the program: fds 0, 1, 2 and any more (a 'pipe', or another child's pipe to share a socket with it). */
  stdio: StdioOptions;
}

export interface SandboxProcess {
  child: ChildProcess;
  /** The host uid it runs as (root only), or null for the invoking user. */
  uid: number | null;
  /** Resolves when the sandbox has exited and its scratch directory is gone. */
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** SIGKILL to the whole process group (the pid namespace goes with its first process). */
  kill(): void;
}

export async function startSandboxedProcess(opts: SandboxProcessOptions): Promise<SandboxProcess> {
  const rootKind = opts.root ?? 'python';
  const root = opts.isolation.kind === 'bwrap' ? await sandboxRoot(opts.isolation, rootKind) : undefined;
  const lease = isRoot() ? acquireSandboxUid() : null;
  let hostDir: string | undefined;
  try {
    hostDir = await mkdtemp(join(tmpdir(), 'saboteur-worker-'));
    await chmod(hostDir, 0o700);
    if (lease) await chown(hostDir, lease.uid, lease.uid);
    const maxProcesses = opts.maxProcesses ?? SANDBOX_DEFAULTS.maxProcesses;
    const scratch = opts.isolation.kind === 'bwrap' ? '/tmp' : hostDir;
    const command = buildSandboxCommand(opts.isolation, {
      hostDir,
      fileNames: [],
      argv: opts.argv(scratch),
      limits: {
        memoryMb: opts.memoryMb ?? SANDBOX_DEFAULTS.memoryMb,
        cpuSeconds: null,
        maxProcesses,
        maxFileMb: opts.maxFileMb ?? SANDBOX_DEFAULTS.maxFileMb,
        openFiles: SANDBOX_DEFAULTS.openFiles,
        tmpfsMb: SANDBOX_DEFAULTS.tmpfsMb,
      },
      runAsUid: lease?.uid ?? null,
      nprocLimit: lease ? maxProcesses : (await countTasksOfUid(process.getuid!())) + maxProcesses,
      root,
      devices: SANDBOX_DEVICES[rootKind],
      innerCwd: '/tmp',
    });
    const child = spawn(command.file, command.args, { cwd: hostDir, env: sandboxEnv(scratch), detached: true, stdio: opts.stdio });
    const dir = hostDir;
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      let settled = false;
      const settle = async (code: number | null, signal: string | null) => {
        if (settled) return;
        settled = true;
        killGroup(child.pid);
        lease?.release();
        await rm(dir, { recursive: true, force: true }).catch(() => undefined);
        resolve({ code, signal });
      };
      child.once('exit', (code, signal) => void settle(code, signal));
      child.once('error', () => void settle(null, null));
    });
    return { child, uid: lease?.uid ?? null, exited, kill: () => killGroup(child.pid) };
  } catch (e) {
    lease?.release();
    if (hostDir) await rm(hostDir, { recursive: true, force: true });
    throw e;
  }
}
