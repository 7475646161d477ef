/**
 * The life of a model server process: a free port, a spawn with its output in a log file (a run
 * artifact), readiness polling with short per-request timeouts under one overall deadline, an
 * early exit reported at once with the log's last lines and the exact command, and a stop that
 * takes the whole process tree down (TERM, then KILL after a grace period) — also when saboteur
 * itself is interrupted.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { trackGroup, untrackGroup } from '../../pipeline/process-group.js';
import { displayCommand } from './shell-words.js';
import { ModelStartError } from './errors.js';
import { killTree, processStartTime } from './process-tree.js';
import type { LaunchPlan, ProcessLedger, VersionProbe } from './types.js';
import { CANCEL_KILL_GRACE_MS, isCancelling, runHandlesSignals } from '../../util/cancel.js';

/** Per readiness request: a server that accepts but does not answer is still starting. */
export const POLL_REQUEST_TIMEOUT_MS = 2000;
/** A GPU server needs a moment to free its memory on SIGTERM before SIGKILL. */
export const DEFAULT_SERVER_KILL_GRACE_MS = 10_000;
export const LOG_TAIL_LINES = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The address to connect to for a bind address: a wildcard bind is reached on loopback. */
export function connectHost(bindHost: string): string {
  if (bindHost === '0.0.0.0' || bindHost === '') return '127.0.0.1';
  if (bindHost === '::' || bindHost === '[::]') return '::1';
  return bindHost;
}

export function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** A port nobody listens on right now, picked by the kernel. */
export function reservePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** True when something accepts TCP connections at host:port. */
export function isListening(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (value: boolean) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The last `lines` lines of a log file (read from its end; a server log can be large). */
export async function logTail(file: string, lines = LOG_TAIL_LINES): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, 16 * 1024);
      const buf = Buffer.alloc(length);
      await handle.read(buf, 0, length, size - length);
      // Progress bars redraw with \r: each redraw counts as a line, empty ones do not.
      const all = buf
        .toString('utf8')
        .split(/\r\n|\r|\n/)
        .filter((l) => l.trim() !== '');
      return all.slice(-lines).join('\n');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}

/** The job's own credentials never reach the model server; everything else it may need (HF_TOKEN) does. */
export function serverEnv(host: NodeJS.ProcessEnv, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(host)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if (
      upper.startsWith('INPUT_') ||
      upper.startsWith('ACTIONS_') ||
      upper === 'GITHUB_TOKEN' ||
      upper === 'GH_TOKEN' ||
      upper === 'RUNNER_TOKEN'
    )
      continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export function describeExit(e: ExitInfo): string {
  return e.signal ? `was killed by ${e.signal}` : `exited with code ${e.code}`;
}

export interface ServerProcess {
  pid: number;
  /** The command line as shown to the user (secrets masked). */
  command: string;
  logPath: string;
  /** Set once the process has exited. */
  exit(): ExitInfo | undefined;
  /** Resolves when it exits. */
  exited: Promise<ExitInfo>;
  /** What happened, for errors: how it ended, the command, the log's last lines. */
  postmortem(): Promise<string>;
  /** The same on one line with the last few log lines, for the run log's notes. */
  brief(): Promise<string>;
  /** Stops the whole tree; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Signal handling: a server runs in its own process group, so Ctrl-C on a terminal or the
 * runner cancelling the job does not reach it. While servers run, SIGINT/SIGTERM/SIGHUP stop them
 * first, then saboteur exits (exit handlers run, so pipeline process groups go too).
 */
const running = new Set<ServerProcess>();
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
let stopping = false;

function onSignal(signal: NodeJS.Signals): void {
  const code = 128 + (SIGNAL_NUMBERS[signal] ?? 0);
  if (runHandlesSignals() && signal !== 'SIGHUP') {
    // A run that handles the signal writes its run log first and exits itself; the servers stop
    // now, with the short grace, so one still starting gives up its wait at once.
    void Promise.allSettled([...running].map((s) => s.stop()));
    return;
  }
  if (stopping) {
    // A second Ctrl-C: no more grace. The exit handlers SIGKILL every tracked group.
    process.exit(code);
  }
  stopping = true;
  void Promise.allSettled([...running].map((s) => s.stop())).then(() => process.exit(code));
  // Whatever happens, do not outlive the grace period by much.
  setTimeout(() => process.exit(code), DEFAULT_SERVER_KILL_GRACE_MS + 3000).unref();
}

function watch(server: ServerProcess): void {
  if (running.size === 0) for (const s of SIGNALS) process.on(s, onSignal);
  running.add(server);
}

function unwatch(server: ServerProcess): void {
  if (!running.delete(server)) return;
  if (running.size === 0) for (const s of SIGNALS) process.off(s, onSignal);
}

export interface SpawnOptions {
  logPath: string;
  env: Record<string, string>;
  cwd?: string;
  ledger?: ProcessLedger;
  killGraceMs?: number;
}

/**
 * Starts the plan's command as the leader of its own process group, stdout and stderr appended to
 * the log file by the process itself. Rejects (with the command) when the executable cannot start.
 */
export async function spawnServer(plan: LaunchPlan, opts: SpawnOptions): Promise<ServerProcess> {
  mkdirSync(path.dirname(opts.logPath), { recursive: true });
  const command = displayCommand(plan.file, plan.args);
  const fd = openSync(opts.logPath, 'w');
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(plan.file, plan.args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd); // the server has its own copy
  }
  let exitInfo: ExitInfo | undefined;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
  });
  const started = await new Promise<number>((resolve, reject) => {
    child.once('spawn', () => resolve(child.pid!));
    child.once('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'ENOENT'
          ? `${plan.file} was not found${plan.file.includes('/') ? '' : ' on PATH'}; install the ${plan.kind} server on the runner or set model.binary to its path`
          : err.code === 'EACCES'
            ? `${plan.file} is not executable (chmod +x it, or set model.binary to the right file)`
            : err.message;
      reject(new ModelStartError(`model.kind ${plan.kind}: cannot start the server: ${why}\n  command: ${command}`));
    });
  });
  const pid = started;
  child.on('error', () => {}); // a later signalling error must not crash saboteur; stop() checks by pid
  const ledger = opts.ledger;
  trackGroup(pid);
  ledger?.started({ pid, name: plan.kind, startTime: processStartTime(pid) });
  let stopPromise: Promise<void> | undefined;

  const server: ServerProcess = {
    pid,
    command,
    logPath: opts.logPath,
    exit: () => exitInfo,
    exited,
    async postmortem() {
      const tail = await logTail(opts.logPath);
      const how = exitInfo ? `the server (pid ${pid}) ${describeExit(exitInfo)}` : `the server (pid ${pid}) is running`;
      return `${how}\n  command: ${command}\n  last lines of ${opts.logPath}:\n${
        tail
          ? tail
              .split('\n')
              .map((l) => `    ${l}`)
              .join('\n')
          : '    (empty)'
      }`;
    },
    async brief() {
      const last = (await logTail(opts.logPath, 3))
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      const how = exitInfo ? describeExit(exitInfo) : 'is running';
      return `the ${plan.kind} server (pid ${pid}) ${how}; the end of its log ${path.basename(opts.logPath)}: ${last.length ? last.join(' | ') : '(empty)'}`;
    },
    stop() {
      stopPromise ??= (async () => {
        // The group outlives its leader when workers survive it: always take the tree down.
        const grace = opts.killGraceMs ?? DEFAULT_SERVER_KILL_GRACE_MS;
        await killTree(pid, isCancelling() ? Math.min(grace, CANCEL_KILL_GRACE_MS) : grace);
        untrackGroup(pid);
        unwatch(server);
        ledger?.stopped(pid);
      })();
      return stopPromise;
    },
  };
  watch(server);
  return server;
}

/** One GET with a short timeout: the status, or why there was none. */
export async function probe(
  url: string,
  timeoutMs = POLL_REQUEST_TIMEOUT_MS,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string } | { error: string }> {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, body: (await res.text()).slice(0, 2000) };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return { error: e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message) };
  }
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 6000) / 10} min`;
}

/**
 * Polls the plan's readiness paths until all answer 2xx. Throws at once when the process exits,
 * and at the deadline (the caller stops the server). Without a process (a reused server) only
 * the deadline ends the wait.
 */
export async function waitReady(
  origin: string,
  plan: Pick<LaunchPlan, 'kind' | 'ready'>,
  deadline: number,
  server?: ServerProcess,
  headers: Record<string, string> = {},
): Promise<void> {
  let pause = 100;
  let last = 'no answer yet';
  for (;;) {
    if (server?.exit())
      throw new ModelStartError(`model.kind ${plan.kind}: the server stopped before it was ready: ${await server.postmortem()}`);
    let ready = true;
    for (const p of plan.ready) {
      const timeout = Math.max(1, Math.min(POLL_REQUEST_TIMEOUT_MS, deadline - Date.now()));
      const r = await probe(`${origin}${p}`, timeout, headers);
      if ('error' in r || r.status < 200 || r.status >= 300) {
        last = `GET ${p}: ${'error' in r ? r.error : `HTTP ${r.status}${r.body ? ` ${r.body.replace(/\s+/g, ' ').slice(0, 160)}` : ''}`}`;
        ready = false;
        break;
      }
    }
    if (ready) return;
    if (Date.now() >= deadline) {
      const what = server ? await server.postmortem() : `nothing answered at ${origin}`;
      throw new ModelStartError(
        `model.kind ${plan.kind}: the server was not ready within the model.startup-timeout (last check ${last}); raise model.startup-timeout if loading the model takes longer: ${what}`,
      );
    }
    const wait = Math.min(pause, Math.max(0, deadline - Date.now()));
    await (server ? Promise.race([sleep(wait), server.exited]) : sleep(wait));
    pause = Math.min(1000, pause * 2);
  }
}

/** The server's version from the first probe that answers with the field; undefined otherwise. */
export async function probeVersion(
  origin: string,
  probes: readonly VersionProbe[],
  headers: Record<string, string> = {},
): Promise<string | undefined> {
  for (const p of probes) {
    const r = await probe(`${origin}${p.path}`, POLL_REQUEST_TIMEOUT_MS, headers);
    if ('error' in r || r.status !== 200) continue;
    try {
      const value = (JSON.parse(r.body) as Record<string, unknown>)[p.field];
      if (typeof value === 'string' && value) return value;
      if (typeof value === 'number') return String(value);
    } catch {
      // not JSON: try the next probe
    }
  }
  return undefined;
}

/** The model names /v1/models lists ([] when the server has no such route). */
export async function listModels(origin: string, headers: Record<string, string> = {}): Promise<string[]> {
  const r = await probe(`${origin}/v1/models`, 5000, headers);
  if ('error' in r || r.status !== 200) return [];
  try {
    const body = JSON.parse(r.body) as { data?: { id?: unknown }[] };
    return (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
  } catch {
    return [];
  }
}

/** POST JSON with a timeout; the status and body text, or throws with why there was none. */
export async function postJson(
  url: string,
  body: unknown,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    throw new Error(
      e.name === 'TimeoutError' ? `no answer within ${formatDuration(timeoutMs)}` : (e.cause?.code ?? e.cause?.message ?? e.message),
    );
  }
}

/** ollama: pulls the model (a no-op when it is already on the runner). */
export async function pullModel(origin: string, model: string, timeoutMs: number): Promise<void> {
  const r = await postJson(`${origin}/api/pull`, { model, stream: false }, timeoutMs).catch((err: Error) => ({
    status: 0,
    text: err.message,
  }));
  if (r.status !== 200)
    throw new ModelStartError(
      `model.kind ollama: pulling ${model} failed (${r.status ? `HTTP ${r.status}: ` : ''}${r.text.slice(0, 300)}); check model.model (for example qwen2.5-coder:7b)`,
    );
}

/**
 * One chat completion before the run: the first request of a fresh server pays for compilation
 * and cache allocation, which would otherwise land on the first task's timeout.
 */
export async function warmUp(baseUrl: string, model: string, timeoutMs: number, headers: Record<string, string> = {}): Promise<void> {
  const body = { model, messages: [{ role: 'user', content: 'Reply with the word ready.' }], max_tokens: 8, temperature: 0 };
  const r = await postJson(`${baseUrl}/chat/completions`, body, timeoutMs, headers);
  if (r.status < 200 || r.status >= 300) throw new Error(`HTTP ${r.status}: ${r.text.replace(/\s+/g, ' ').slice(0, 300)}`);
}
