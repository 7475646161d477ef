/**
 * Runs one untrusted program in the sandbox (SPEC §9): a fresh temp dir, resource limits, an
 * unprivileged uid, namespaces where the machine allows, its own process group killed whole on
 * timeout, capped output, and the temp dir removed afterwards.
 */
import { spawn } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { buildSandboxCommand, wrapperFailure, type SandboxCommand } from './wrap-command.js';
import { SANDBOX_DEFAULTS, type SandboxOptions, type SandboxResult } from './types.js';
import { acquireSandboxUid, countTasksOfUid, isRoot } from './uid.js';

/** How long to wait for output pipes after the main process exited before giving up on them. */
const PIPE_GRACE_MS = 1000;

export async function runSandboxed(opts: SandboxOptions): Promise<SandboxResult> {
  if (opts.argv.length === 0) throw new Error('sandbox: argv is empty');
  if (!(opts.timeoutMs > 0)) throw new Error(`sandbox: timeoutMs must be positive, got ${opts.timeoutMs}`);
  const fileNames = Object.keys(opts.files).map(checkFileName);
  const limits = {
    memoryMb: opts.memoryMb ?? SANDBOX_DEFAULTS.memoryMb,
    cpuSeconds: opts.cpuSeconds ?? Math.ceil(opts.timeoutMs / 1000) + 1,
    maxProcesses: opts.maxProcesses ?? SANDBOX_DEFAULTS.maxProcesses,
    maxFileMb: opts.maxFileMb ?? SANDBOX_DEFAULTS.maxFileMb,
    openFiles: SANDBOX_DEFAULTS.openFiles,
    tmpfsMb: SANDBOX_DEFAULTS.tmpfsMb,
  };
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
    const nprocLimit = lease ? limits.maxProcesses : (await countTasksOfUid(process.getuid!())) + limits.maxProcesses;
    const command = buildSandboxCommand(opts.isolation, { hostDir: dir, fileNames, argv: opts.argv, limits, runAsUid: lease?.uid ?? null, nprocLimit });
    return await spawnAndWait(command, opts.timeoutMs, opts.maxOutputBytes ?? SANDBOX_DEFAULTS.maxOutputBytes);
  } finally {
    lease?.release();
    await rm(dir, { recursive: true, force: true });
  }
}

function checkFileName(name: string): string {
  const n = normalize(name);
  if (name === '' || isAbsolute(name) || n.startsWith('..') || n.includes('\0') || n !== name) {
    throw new Error(`sandbox: file name ${JSON.stringify(name)} must be a plain relative path inside the working directory`);
  }
  return name;
}

/** The only environment the program gets: no secrets of the host process leak in. */
function sandboxEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, TMPDIR: '/tmp', LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1' };
}

/** Output kept up to `cap` bytes; the rest is read (so the program never blocks on a full pipe) and dropped. */
class CappedBuffer {
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

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
}

function spawnAndWait(command: SandboxCommand, timeoutMs: number, maxOutputBytes: number): Promise<SandboxResult> {
  const started = Date.now();
  const stdout = new CappedBuffer(maxOutputBytes);
  const stderr = new CappedBuffer(maxOutputBytes);
  return new Promise((resolve) => {
    // detached: the program leads its own process group, so a timeout kills all of it at once.
    const child = spawn(command.file, command.args, {
      cwd: command.cwd,
      env: sandboxEnv(command.innerCwd),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let exit: { code: number | null; signal: string | null } | undefined;
    let spawnError: Error | undefined;
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
      const failure = spawnError ? `${command.file}: ${spawnError.message}` : exitCode === 1 ? wrapperFailure(err) : undefined;
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

    child.stdout.on('data', (c: Buffer) => stdout.push(c));
    child.stderr.on('data', (c: Buffer) => stderr.push(c));
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
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, PIPE_GRACE_MS);
    });
    child.on('close', finish);
  });
}
