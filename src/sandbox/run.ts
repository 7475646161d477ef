/**
 * Runs one untrusted program in the sandbox (docs/security.md, "Sandbox"): a fresh temp dir, resource limits,
 * an unprivileged uid, namespaces where the machine allows, its own process group killed whole on
 * timeout, capped output, and the temp dir removed afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { cachedPythonRoot, systemRoot } from './root.js';
import { buildSandboxCommand, SANDBOX_DEVICES, wrapperFailure, type SandboxCommand, type SandboxLimits } from './wrap-command.js';
import { SANDBOX_DEFAULTS, type Isolation, type RootPlan, type SandboxOptions, type SandboxResult } from './types.js';
import { acquireSandboxUid, countTasksOfUid, isRoot } from './uid.js';

/** How long to wait for output pipes after the main process exited before giving up on them. */
const PIPE_GRACE_MS = 1000;
/** How long bwrap may take to report the sandbox's pid to a beforeStart hook. */
const START_INFO_TIMEOUT_MS = 15_000;

export async function runSandboxed(opts: SandboxOptions): Promise<SandboxResult> {
  if (opts.argv.length === 0) throw new Error('sandbox: argv is empty');
  if (!(opts.timeoutMs > 0)) throw new Error(`sandbox: timeoutMs must be positive, got ${opts.timeoutMs}`);
  if (opts.beforeStart && opts.isolation.kind !== 'bwrap')
    throw new Error(`sandbox: beforeStart needs the bwrap sandbox, this machine offers "${opts.isolation.kind}"`);
  const fileNames = Object.keys(opts.files).map(checkFileName);
  const limits: SandboxLimits = {
    memoryMb: opts.memoryMb ?? SANDBOX_DEFAULTS.memoryMb,
    cpuSeconds: opts.cpuSeconds ?? Math.ceil(opts.timeoutMs / 1000) + 1,
    maxProcesses: opts.maxProcesses ?? SANDBOX_DEFAULTS.maxProcesses,
    maxFileMb: opts.maxFileMb ?? SANDBOX_DEFAULTS.maxFileMb,
    openFiles: SANDBOX_DEFAULTS.openFiles,
    tmpfsMb: SANDBOX_DEFAULTS.tmpfsMb,
  };
  const rootKind = opts.root ?? 'python';
  const root = opts.isolation.kind === 'bwrap' ? await sandboxRoot(opts.isolation, rootKind) : undefined;
  const lease = isRoot() ? acquireSandboxUid() : null;
  const dir = await mkdtemp(join(tmpdir(), 'saboteur-sbx-'));
  try {
    // The sandbox user must be able to read the files (and, outside bwrap, write next to them).
    await chmod(dir, 0o755);
    for (const name of fileNames) {
      const path = join(dir, name);
      await mkdir(dirname(path), { recursive: true, mode: 0o755 });
      await writeFile(path, opts.files[name], { mode: 0o644 });
    }
    if (lease && opts.isolation.kind !== 'bwrap') await chown(dir, lease.uid, lease.uid);
    const readOnlyBinds = [...(opts.readOnlyBinds ?? [])];
    if (root && rootKind === 'system') {
      // Name resolution of localhost without the host's own /etc/hosts.
      await writeFile(join(dir, '.hosts'), '127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n', { mode: 0o644 });
      readOnlyBinds.unshift({ host: join(dir, '.hosts'), sandbox: '/etc/hosts' });
    }
    const nprocLimit = lease ? limits.maxProcesses : (await countTasksOfUid(process.getuid!())) + limits.maxProcesses;
    const command = buildSandboxCommand(opts.isolation, {
      hostDir: dir,
      fileNames,
      argv: opts.argv,
      limits,
      runAsUid: lease?.uid ?? null,
      nprocLimit,
      root,
      devices: SANDBOX_DEVICES[rootKind],
      readOnlyBinds,
      allowNestedUserns: opts.allowNestedUserns,
      ...(opts.beforeStart ? { startFds: { info: 3, block: 4 } } : {}),
    });
    return await spawnAndWait(command, opts.timeoutMs, opts.maxOutputBytes ?? SANDBOX_DEFAULTS.maxOutputBytes, opts.beforeStart);
  } finally {
    lease?.release();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The root a bwrap sandbox gets: the probe's Python root, or the system root for shell tools. */
export async function sandboxRoot(isolation: Isolation, kind: 'python' | 'system'): Promise<RootPlan> {
  if (kind === 'system') return systemRoot();
  // Computed once per interpreter and process (the isolation probe already asked for it).
  return cachedPythonRoot(isolation.python);
}

function checkFileName(name: string): string {
  const n = normalize(name);
  if (name === '' || isAbsolute(name) || n.startsWith('..') || n.includes('\0') || n !== name) {
    throw new Error(`sandbox: file name ${JSON.stringify(name)} must be a plain relative path inside the working directory`);
  }
  return name;
}

/** The only environment the program gets: no secrets of the host process leak in. */
export function sandboxEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, TMPDIR: '/tmp', LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1' };
}

/** Output kept up to `cap` bytes; the rest is read (so the program never blocks on a full pipe) and dropped. */
export class CappedBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Reads bwrap's --info-fd report, runs the hook with the sandbox's pid, then lets the program start. */
async function releaseWhenReady(child: ChildProcess, hook: NonNullable<SandboxOptions['beforeStart']>): Promise<void> {
  const info = child.stdio[3] as Readable;
  const block = child.stdio[4] as Writable;
  const pid = await new Promise<number>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('bwrap did not report the sandbox pid')), START_INFO_TIMEOUT_MS);
    const done = (err?: Error, value?: number) => {
      clearTimeout(timer);
      info.removeAllListeners('data');
      if (err) reject(err);
      else resolve(value!);
    };
    info.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      try {
        const parsed = JSON.parse(text) as { 'child-pid'?: unknown };
        if (typeof parsed['child-pid'] === 'number') done(undefined, parsed['child-pid']);
        else done(new Error('bwrap reported no child-pid'));
      } catch {
        // Not complete yet.
      }
    });
    info.once('end', () => done(new Error('bwrap closed its info fd without a pid')));
  });
  info.destroy();
  await hook({ pid });
  block.end('go');
}

function spawnAndWait(
  command: SandboxCommand,
  timeoutMs: number,
  maxOutputBytes: number,
  beforeStart?: SandboxOptions['beforeStart'],
): Promise<SandboxResult> {
  const started = Date.now();
  const stdout = new CappedBuffer(maxOutputBytes);
  const stderr = new CappedBuffer(maxOutputBytes);
  return new Promise((resolve) => {
    // detached: the program leads its own process group, so a timeout kills all of it at once.
    const child = spawn(command.file, command.args, {
      cwd: command.cwd,
      env: sandboxEnv(command.innerCwd),
      detached: true,
      stdio: beforeStart ? ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let exit: { code: number | null; signal: string | null } | undefined;
    let spawnError: Error | undefined;
    let hookError: Error | undefined;
    let done = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);

    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      const err = stderr.text();
      const exitCode = exit?.code ?? null;
      const failure = spawnError
        ? `${command.file}: ${spawnError.message}`
        : hookError
          ? `sandbox start hook: ${hookError.message}`
          : exitCode === 1
            ? wrapperFailure(err)
            : undefined;
      resolve({
        exitCode,
        signal: exit?.signal ?? null,
        stdout: stdout.text(),
        stderr: err,
        timedOut,
        outputTruncated: stdout.truncated || stderr.truncated,
        durationMs: Date.now() - started,
        ...(failure ? { sandboxError: failure } : {}),
      });
    };

    if (beforeStart) {
      // The info and block fds are sockets: a sandbox that dies first resets them.
      for (const s of child.stdio.slice(3)) s?.on('error', () => undefined);
      releaseWhenReady(child, beforeStart).catch((e: unknown) => {
        hookError = e as Error;
        killGroup(child.pid);
      });
    }
    child.stdout!.on('data', (c: Buffer) => stdout.push(c));
    child.stderr!.on('data', (c: Buffer) => stderr.push(c));
    child.on('error', (e) => {
      spawnError = e;
      finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Whatever the program left behind in its group goes with it (in the namespaced modes the
      // pid namespace already took it). A process that escaped the group could still hold the
      // pipes open: stop waiting for them after a grace period.
      killGroup(child.pid);
      graceTimer = setTimeout(() => {
        for (const s of child.stdio) s?.destroy();
        finish();
      }, PIPE_GRACE_MS);
    });
    child.on('close', finish);
  });
}
