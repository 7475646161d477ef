/**
 * The embedded kind's engine in a process of its own. llama.cpp work (tokenising, evaluating,
 * sampling) never runs on saboteur's thread: a huge prompt or a stuck generation cannot freeze
 * the proxy, the other runs or the SIGTERM handler, and a generation that ignores its stop is
 * ended by killing the process (README "Security": bounded in-process servers).
 *
 * The engine's program is `engineProgram` below, written to a private temporary file and run by
 * node: it uses only globals and the node-llama-cpp module it is pointed at, so its own source is
 * the whole program, bundled or not. (Not `node -e`: node-llama-cpp checks its binary by running
 * node with the parent's exec arguments, and an `-e` there would make it build llama.cpp.) The
 * file is removed as soon as node has read it. Messages go over the IPC channel; the engine exits
 * as soon as the channel closes, so it never outlives saboteur.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Log } from '../../util/log.js';
import { trackGroup, untrackGroup } from '../../pipeline/process-group.js';
import type { ChatMessage, GenerateParams } from './chat-server.js';
import type { ProcessLedger } from './types.js';

/** What the engine is told to load. */
export interface EngineSpec {
  /** The node-llama-cpp module to import: a file URL, or the bare package name. */
  specifier: string;
  local?: string;
  remote?: string;
  modelsDir?: string;
  threads?: number;
  contextSize?: number;
}

/** Messages from the engine. */
export type EngineMessage =
  | { type: 'log'; level: string; line: string }
  | { type: 'ready'; modelPath: string; backend: string; contextSize: number }
  | { type: 'failed'; message: string; said?: string; modelPath?: string; stage: 'import' | 'load' | 'context' }
  | { type: 'done'; id: number; text: string; stopReason?: string; promptTokens: number; completionTokens: number; aborted: boolean }
  | { type: 'error'; id: number; message: string; tooLong: boolean };

/** Messages to the engine. */
export type EngineRequest =
  { type: 'generate'; id: number; messages: ChatMessage[]; options: GenerateParams } | { type: 'abort'; id: number };

/**
 * The engine's program. Runs in its own node process; everything it needs is in this function
 * (it is started from its source text).
 */
// eslint-disable-next-line max-lines-per-function -- split pending
export async function engineProgram(): Promise<void> {
  type Msg = { type: string; id?: number; messages?: { role: string; content: string }[]; options?: Record<string, number | undefined> };
  const send = (m: unknown) => {
    if (process.connected) process.send!(m);
  };
  process.on('disconnect', () => process.exit(0));
  const spec = JSON.parse(process.argv[2]) as {
    specifier: string;
    local?: string;
    remote?: string;
    modelsDir?: string;
    threads?: number;
    contextSize?: number;
  };
  const recent: string[] = [];
  const logger = (level: string, message: string) => {
    const line = String(message).trim();
    if (!line) return;
    send({ type: 'log', level, line: line.slice(0, 2000) });
    if (level !== 'warn' && level !== 'error' && level !== 'fatal') return;
    recent.push(line.slice(0, 500));
    if (recent.length > 4) recent.shift();
  };
  const fail = (stage: string, err: unknown, modelPath?: string) => {
    send({ type: 'failed', stage, message: (err as Error)?.message ?? String(err), said: recent.join(' | '), modelPath });
    setTimeout(() => process.exit(1), 100);
  };
  // The module's own types are not at hand at build time (an optional package): any, on purpose.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let mod: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let model: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let context: any;
  let modelPath = spec.local;
  try {
    mod = await import(spec.specifier);
    if (spec.remote) modelPath = await mod.resolveModelFile(spec.remote, spec.modelsDir ? { directory: spec.modelsDir } : undefined);
  } catch (err) {
    return fail('import', err);
  }
  const llama = await mod.getLlama({ logLevel: 'warn', logger });
  try {
    model = await llama.loadModel({ modelPath });
  } catch (err) {
    // llama.cpp logs from its loader thread: its last lines arrive a moment after the failure.
    await new Promise((resolve) => setTimeout(resolve, 250));
    return fail('load', err, modelPath);
  }
  try {
    context = await model.createContext({
      ...(spec.threads ? { threads: spec.threads } : {}),
      ...(spec.contextSize ? { contextSize: spec.contextSize } : {}),
    });
  } catch (err) {
    return fail('context', err, modelPath);
  }
  const session = new mod.LlamaChatSession({ contextSequence: context.getSequence() });
  const contextSize = Number(context.contextSize);
  let current: { id: number; controller: AbortController } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const run = async (m: Msg) => {
    const id = m.id!;
    const messages = m.messages!;
    const controller = new AbortController();
    current = { id, controller };
    try {
      // Counted before anything is evaluated: a prompt the context cannot hold is refused, never shifted through.
      const promptTokens = messages.reduce((n, x) => n + model.tokenize(x.content).length, 0);
      if (promptTokens > contextSize) {
        send({
          type: 'error',
          id,
          tooLong: true,
          message: `the prompt is ${promptTokens} tokens, more than the model's context of ${contextSize} tokens`,
        });
        return;
      }
      const history = messages
        .slice(0, -1)
        .map((x) => (x.role === 'assistant' ? { type: 'model', response: [x.content] } : { type: x.role, text: x.content }));
      session.setChatHistory(history);
      const o = m.options ?? {};
      const maxTokens = Math.max(1, Math.min(o.maxTokens ?? contextSize, contextSize - promptTokens));
      const r = await session.promptWithMeta(messages[messages.length - 1].content, {
        temperature: o.temperature,
        topP: o.topP,
        maxTokens,
        seed: o.seed,
        signal: controller.signal,
        stopOnAbortSignal: true,
      });
      send({
        type: 'done',
        id,
        text: r.responseText,
        stopReason: r.stopReason,
        promptTokens,
        completionTokens: model.tokenize(r.responseText).length,
        aborted: controller.signal.aborted,
      });
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      send({ type: 'error', id, tooLong: /context/i.test(message) && /(size|long|exceed|fit)/i.test(message), message });
    } finally {
      current = undefined;
    }
  };
  process.on('message', (m: Msg) => {
    if (m?.type === 'abort' && current?.id === m.id) current?.controller.abort();
    else if (m?.type === 'generate') queue = queue.then(() => run(m));
  });
  send({ type: 'ready', modelPath, backend: llama.gpu ? String(llama.gpu) : 'cpu', contextSize });
}

/** How many characters one token stands for at most, on average over a whole prompt: no real text comes near. */
export const MAX_CHARS_PER_TOKEN = 16;

export interface EngineHandle {
  pid: number;
  modelPath: string;
  backend: string;
  contextSize: number;
  /** One generation; rejects with the engine's message, `tooLong` set when the context cannot hold the prompt. */
  generate(messages: ChatMessage[], params: GenerateParams, signal: AbortSignal): Promise<Extract<EngineMessage, { type: 'done' }>>;
  /** Resolves when the engine process has exited. */
  exited: Promise<void>;
  /** Stops the engine at once (SIGKILL to its group): nothing of it survives. */
  kill(): void;
}

export class EngineError extends Error {
  constructor(
    message: string,
    readonly tooLong = false,
  ) {
    super(message);
  }
}

export interface EngineStartOptions {
  spec: EngineSpec;
  env: Record<string, string>;
  cwd: string;
  log: Log;
  ledger?: ProcessLedger;
  /** How long an aborted generation may take to stop before the engine is killed. */
  abortGraceMs: number;
}

function launch(o: EngineStartOptions): { child: ChildProcess; forget(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'saboteur-engine-'));
  const file = path.join(dir, 'engine.mjs');
  writeFileSync(file, `(${engineProgram.toString()})().catch((e) => { console.error(e); process.exit(1); });\n`, { mode: 0o600 });
  const forget = () => rmSync(dir, { recursive: true, force: true });
  try {
    const child = spawn(process.execPath, [file, JSON.stringify(o.spec)], {
      cwd: o.cwd,
      env: o.env,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    return { child, forget };
  } catch (err) {
    forget();
    throw err;
  }
}

export interface EngineStart {
  pid: number;
  /** The engine once its model and context are loaded; rejects with what went wrong. */
  ready: Promise<EngineHandle>;
  exited: Promise<void>;
  kill(): void;
}

/** Starts the engine process; `ready` resolves once its model and context are loaded. */
export function startEngineProcess(o: EngineStartOptions): EngineStart {
  const { child, forget } = launch(o);
  const pid = child.pid!;
  trackGroup(pid);
  o.ledger?.started({ pid, name: 'embedded engine' });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const lastWords = () => (stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : '');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = () => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const waiting = new Map<number, { resolve(m: Extract<EngineMessage, { type: 'done' }>): void; reject(e: Error): void }>();
  void exited.then(() => {
    forget();
    untrackGroup(pid);
    o.ledger?.stopped(pid);
    for (const w of waiting.values()) w.reject(new EngineError(`the engine process ended${lastWords()}`));
    waiting.clear();
  });
  let nextId = 1;
  // A message to an engine that has just exited fails on its own; the exit rejects what waits.
  child.on('error', () => undefined);
  const tell = (m: EngineRequest) => {
    if (child.connected) child.send(m, () => undefined);
  };
  const generate: EngineHandle['generate'] = (messages, params, signal) => {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      tell({ type: 'generate', id, messages, options: params });
      const onAbort = () => {
        if (!waiting.has(id)) return;
        tell({ type: 'abort', id });
        // An engine that does not stop (a native call that never looks at the signal) goes.
        setTimeout(() => waiting.has(id) && kill(), o.abortGraceMs).unref();
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  };
  const ready = new Promise<EngineHandle>((resolve, reject) => {
    child.on('message', (m: EngineMessage) => {
      forget(); // node has read the program by the time it speaks
      if (m.type === 'log') o.log.debug(`llama.cpp (${m.level}): ${m.line}`);
      else if (m.type === 'failed')
        reject(Object.assign(new EngineError(m.message), { said: m.said, stage: m.stage, modelPath: m.modelPath }));
      else if (m.type === 'ready')
        resolve({ pid, modelPath: m.modelPath, backend: m.backend, contextSize: m.contextSize, exited, kill, generate });
      else if (m.type === 'done' || m.type === 'error') {
        const w = waiting.get(m.id);
        waiting.delete(m.id);
        if (m.type === 'done') w?.resolve(m);
        else w?.reject(new EngineError(m.message, m.tooLong));
      }
    });
    void exited.then(() => reject(new EngineError(`the engine process exited before it was ready${lastWords()}`)));
  });
  return { pid, ready, exited, kill };
}
