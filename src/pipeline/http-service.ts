/**
 * One started pipeline service of http mode (docs/pipeline-contract.md, "Http mode"): `pipeline.serve`
 * launched inside the fence (its own pid namespace: everything it starts dies with it), in its own
 * process group, with its own HOME and temp folder, output to its log file; ready once its URL
 * answers; stopped with its whole group. The runner starts one per variant when `pipeline.serve`
 * takes a `{port}`, so the control and malicious runs cannot reach each other's state.
 */
import { chmodSync, chownSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { privateHomeEnv, sharedContractEnv, type SharedContract } from './env.js';
import { STDERR_TAIL_BYTES } from './output.js';
import { terminateGroup, trackGroup, untrackGroup } from './process-group.js';
import type { Fence, FencedCommand } from './fence.js';
import { collectFenceView, credentialSearchWarning } from './fence-view.js';
import { checkCommandPaths, checkCwdPassable } from './hidden-paths.js';
import { capNote, DEFAULT_LIMITS, type PipelineLimits } from './limits.js';

/** The last `bytes` of a file, read without loading it whole. */
export async function fileTail(file: string, bytes = STDERR_TAIL_BYTES): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, bytes);
      const buf = Buffer.alloc(length);
      await handle.read(buf, 0, length, size - length);
      return buf.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}

/** A port free on 127.0.0.1 now (the service is told to listen there). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** `{port}` in a command or URL of `pipeline.serve` / `pipeline.url` / `pipeline.ready-url`. */
export const PORT_PLACEHOLDER = /\{port\}/g;

export interface ServiceOptions {
  /** The command (`{port}` already filled in). */
  command: string;
  /** What the log calls it: "pipeline.serve" or "pipeline.serve (control)". */
  label: string;
  logPath: string;
  cwd: string;
  /** The allowlisted environment (without HOME, TMPDIR and the run-wide contract). */
  baseEnv: Record<string, string>;
  fence: Fence;
  hostEnv: NodeJS.ProcessEnv;
  /** saboteur's folders the fence hides (the output folder). */
  ownDirs: string[];
  /** Where a warning about the fence goes (the run's log). */
  warn?: (message: string) => void;
  /** The caps on the service (`pipeline.limits`; default DEFAULT_LIMITS): its folders, processes and log file. */
  limits?: PipelineLimits;
}

export class PipelineService {
  private run?: Promise<{ exitCode?: number; signal?: string; shortMessage?: string; message?: string }>;
  private exitInfo?: { code?: number; signal?: string };
  private fenced?: FencedCommand;
  /** The service's own folder (its HOME and TMPDIR) and the sanitized git configs, removed at stop. */
  private root?: string;
  pid?: number;

  constructor(private readonly o: ServiceOptions) {}

  get exited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** Resolves when the service exits (at once when it never started). */
  settled(): Promise<unknown> {
    return this.run ?? Promise.resolve();
  }

  async gone(): Promise<string> {
    const how = this.exitInfo?.signal ? `was killed by ${this.exitInfo.signal}` : `exited with code ${this.exitInfo?.code}`;
    const tail = await fileTail(this.o.logPath);
    const cap =
      this.o.fence.kind === 'bwrap'
        ? capNote(this.o.limits ?? DEFAULT_LIMITS, { exitCode: this.exitInfo?.code, signal: this.exitInfo?.signal }, tail)
        : '';
    return `${this.o.label} ${how}${cap}; the end of ${this.o.logPath}:\n${tail}`;
  }

  /** Starts the command; throws when it cannot start at all. */
  async launch(shared: SharedContract): Promise<void> {
    const { o } = this;
    mkdirSync(path.dirname(o.logPath), { recursive: true });
    this.exitInfo = undefined;
    // The service writes to the log file itself (not through saboteur's event loop). execa's
    // types name only literal fds; any open fd works at runtime.
    const fd = openSync(o.logPath, 'w') as 3;
    this.root = mkdtempSync(path.join(tmpdir(), 'saboteur-serve-'));
    // A service with a uid of its own (the uid fence, bwrap as root) must pass through to its own folder.
    if (o.fence.ownUid) chmodSync(this.root, 0o711);
    const privateDir = path.join(this.root, 'run');
    const own = [privateDir, path.join(privateDir, 'home'), path.join(privateDir, 'tmp')];
    for (const d of own) mkdirSync(d, { mode: 0o700 });
    const view =
      o.fence.kind === 'bwrap'
        ? collectFenceView({
            hostEnv: o.hostEnv,
            cwd: o.cwd,
            ownDirs: [this.root, ...o.ownDirs],
            scratchDir: path.join(this.root, 'git-configs'),
          })
        : undefined;
    if (view?.credentialSearchCut) o.warn?.(credentialSearchWarning(view.credentialSearchCut));
    if (view) {
      try {
        checkCommandPaths(o.label, o.command, o.cwd, view);
        if (o.fence.ownUid) checkCwdPassable('pipeline.cwd', o.cwd, view);
      } catch (err) {
        rmSync(this.root, { recursive: true, force: true });
        this.root = undefined;
        throw err;
      }
    }
    this.fenced = o.fence.enter(o.command, { privateDir, view, limits: o.limits });
    try {
      if (this.fenced.uid !== undefined) for (const d of own) chownSync(d, this.fenced.uid, this.fenced.uid);
      const subprocess = execa(this.fenced.file, this.fenced.args, {
        cwd: o.cwd,
        env: { ...o.baseEnv, ...privateHomeEnv(privateDir), ...sharedContractEnv(shared) },
        extendEnv: false,
        detached: true,
        cleanup: false,
        stdin: 'ignore',
        stdout: fd,
        stderr: fd,
        buffer: false,
        reject: false,
      });
      this.run = subprocess;
      this.pid = subprocess.pid;
    } finally {
      closeSync(fd); // the service has its own copy
    }
    if (this.pid !== undefined) trackGroup(this.pid);
    void this.run.then((result) => {
      this.exitInfo = { code: result.exitCode, signal: result.signal };
    });
    if (this.pid === undefined) {
      const result = await this.run;
      await this.stop(0);
      throw new Error(`${o.label} could not be started: ${result.shortMessage ?? result.message}`);
    }
  }

  /** Kills the group and with it the fence; removes the service's own folder. */
  async stop(graceMs: number): Promise<void> {
    if (this.pid !== undefined) {
      await terminateGroup(this.pid, graceMs);
      await this.run;
      untrackGroup(this.pid);
      this.pid = undefined;
    }
    if (this.fenced) {
      await this.fenced.sweep();
      this.fenced.release();
      this.fenced = undefined;
    }
    if (this.root) rmSync(this.root, { recursive: true, force: true });
    this.root = undefined;
  }
}
