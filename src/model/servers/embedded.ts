/**
 * `embedded`: llama.cpp through node-llama-cpp, on a GGUF file or an `hf:` URI, served by saboteur
 * itself over the same OpenAI-compatible HTTP as every other kind (chat-server.ts). The engine runs
 * in a process of its own (engine-process.ts), so nothing it does can hold up saboteur's thread.
 * node-llama-cpp is an optional dependency (native binaries, hundreds of MB): it is never bundled
 * and is loaded only for this kind, from saboteur's own node_modules or the workspace's.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ModelSettings } from '../settings.js';
import type { Log } from '../../util/log.js';
import { GenerationTimedOut, PromptTooLong, startChatServer, type Generate, type GenerateParams, type Generation } from './chat-server.js';
import { EngineError, MAX_CHARS_PER_TOKEN, startEngineProcess, type EngineHandle, type EngineStartOptions } from './engine-process.js';
import { newServerKey } from '../http-util.js';
import { ModelStartError } from './errors.js';
import { formatDuration, serverEnv } from './lifecycle.js';
import type { ProcessLedger } from './types.js';

export const NODE_LLAMA_CPP = 'node-llama-cpp';
/** The version checked with saboteur (TOOLCHAIN.md); others of major 3 should work. */
export const NODE_LLAMA_CPP_VERSION = '3.21.1';
const INSTALL_HINT = `npm install --no-save ${NODE_LLAMA_CPP}@${NODE_LLAMA_CPP_VERSION} (in the workspace or next to saboteur)`;

// The slice of node-llama-cpp's API used here (it ships its own types, but it is not installed at build time).
type HistoryItem = { type: 'system'; text: string } | { type: 'user'; text: string } | { type: 'model'; response: string[] };
interface ChatSessionLike {
  setChatHistory(history: HistoryItem[]): void;
  prompt(text: string, options: Record<string, unknown>): Promise<string>;
  promptWithMeta?(text: string, options: Record<string, unknown>): Promise<{ responseText: string; stopReason?: string }>;
  dispose?(): void;
}
interface ContextLike {
  getSequence(): unknown;
  dispose(): Promise<void>;
}
interface ModelLike {
  createContext(options?: Record<string, unknown>): Promise<ContextLike>;
  tokenize(text: string): unknown[];
  dispose(): Promise<void>;
}
interface LlamaLike {
  gpu?: string | false;
  loadModel(options: { modelPath: string }): Promise<ModelLike>;
  dispose(): Promise<void>;
}
export interface NodeLlamaCppModule {
  getLlama(options?: Record<string, unknown>): Promise<LlamaLike>;
  resolveModelFile?(uri: string, options?: { directory?: string }): Promise<string>;
  LlamaChatSession: new (options: { contextSequence: unknown }) => ChatSessionLike;
}

/** True for model strings node-llama-cpp downloads: hf: URIs and http(s) URLs. */
export function isRemoteModel(model: string): boolean {
  return /^hf:/.test(model) || /^https?:\/\//.test(model);
}

/** An installed package found on disk: its folder, ESM entry file and version. */
export function findPackage(name: string, startDirs: readonly string[]): { dir: string; entry: string; version?: string } | undefined {
  for (const start of startDirs) {
    let dir = path.resolve(start);
    for (;;) {
      const pkgDir = path.join(dir, 'node_modules', name);
      const pkgFile = path.join(pkgDir, 'package.json');
      if (existsSync(pkgFile)) {
        try {
          const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version?: string; main?: string; exports?: unknown };
          const exp = pkg.exports as Record<string, unknown> | string | undefined;
          const dot = typeof exp === 'string' ? exp : (exp?.['.'] as Record<string, unknown> | string | undefined);
          const pick = (v: unknown): string | undefined =>
            typeof v === 'string'
              ? v
              : v && typeof v === 'object'
                ? pick(
                    (v as Record<string, unknown>).import ?? (v as Record<string, unknown>).node ?? (v as Record<string, unknown>).default,
                  )
                : undefined;
          const rel = pick(dot) ?? pkg.main ?? 'index.js';
          return { dir: pkgDir, entry: path.join(pkgDir, rel), version: pkg.version };
        } catch {
          // a broken package.json: keep looking further up
        }
      }
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return undefined;
}

function isNotFound(err: unknown, name: string): boolean {
  const e = err as NodeJS.ErrnoException;
  return (
    (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND' || /Cannot find (module|package)/i.test(e?.message ?? '')) &&
    (e?.message ?? '').includes(name)
  );
}

/**
 * Loads node-llama-cpp: from the workspace (`searchDirs`) or saboteur's own node_modules, else by
 * its bare name. The specifier is a variable, so bundlers leave the import alone.
 */
export async function loadNodeLlamaCpp(
  searchDirs: readonly string[],
  name: string = NODE_LLAMA_CPP,
): Promise<{ mod: NodeLlamaCppModule; version?: string; specifier: string }> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const found = findPackage(name, [...searchDirs, here]);
  const specifier = found ? pathToFileURL(found.entry).href : name;
  try {
    const mod = (await import(specifier)) as NodeLlamaCppModule;
    if (typeof mod.getLlama !== 'function' || typeof mod.LlamaChatSession !== 'function') {
      throw new ModelStartError(
        `model.kind embedded: ${found?.dir ?? name} is not node-llama-cpp 3 (no getLlama / LlamaChatSession); ${INSTALL_HINT}`,
      );
    }
    return { mod, version: found?.version, specifier };
  } catch (err) {
    if (err instanceof ModelStartError) throw err;
    if (!found && isNotFound(err, name)) {
      throw new ModelStartError(
        `model.kind embedded needs the optional package ${name}, which is not installed: ${INSTALL_HINT}. It is not bundled with saboteur (it ships native llama.cpp builds); or serve the model with model.kind llamacpp (llama-server) instead`,
      );
    }
    throw new ModelStartError(`model.kind embedded: ${name} failed to load (${(err as Error).message}); reinstall it: ${INSTALL_HINT}`);
  }
}

/** What `model.args` can set for the embedded kind, spelled as llama-server spells it. */
export interface EmbeddedSettings {
  /** CPU threads for generation (default: node-llama-cpp's, one per math core). */
  threads?: number;
  /** Context size in tokens (default: what fits, up to the model's trained context). */
  contextSize?: number;
}

const EMBEDDED_FLAGS: Record<string, keyof EmbeddedSettings> = {
  '--threads': 'threads',
  '-t': 'threads',
  '--ctx-size': 'contextSize',
  '-c': 'contextSize',
};

/**
 * `model.args` for the embedded kind: `--threads N` (`-t`) and `--ctx-size N` (`-c`), also as
 * `--flag=N`, so the args of a `llamacpp` config carry over. Anything else is an error rather than
 * silently ignored (there is no command line to pass it to).
 */
export function embeddedSettings(args: readonly string[]): EmbeddedSettings {
  const settings: EmbeddedSettings = {};
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].includes('=')
      ? [args[i].slice(0, args[i].indexOf('=')), args[i].slice(args[i].indexOf('=') + 1)]
      : [args[i], undefined];
    const key = EMBEDDED_FLAGS[flag];
    if (!key) {
      throw new ModelStartError(
        `model.args: ${JSON.stringify(args[i])} is not an option of model.kind embedded, which takes --threads N and --ctx-size N (other llama.cpp options need model.kind llamacpp)`,
      );
    }
    const raw = inline ?? args[++i];
    const value = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new ModelStartError(
        `model.args: ${flag} needs a positive whole number, got ${raw === undefined ? 'nothing' : JSON.stringify(raw)} (for example ["${flag}", "4"])`,
      );
    settings[key] = value;
  }
  return settings;
}

/** The GGUF path (resolved against the config folder), checked before anything heavy is loaded. */
export function resolveGguf(model: string | undefined, configDir: string): { local?: string; remote?: string } {
  if (!model)
    throw new ModelStartError(
      'model.kind embedded needs model.model: a GGUF file (relative to the config file) or an hf: URI such as hf:Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF:Q4_K_M',
    );
  if (isRemoteModel(model)) return { remote: model };
  const file = path.resolve(configDir, model);
  if (!existsSync(file))
    throw new ModelStartError(
      `model.model: the GGUF file ${file} does not exist (model.kind embedded takes a GGUF path relative to the config file, or an hf: URI)`,
    );
  if (!statSync(file).isFile()) throw new ModelStartError(`model.model: ${file} is not a file (model.kind embedded needs one GGUF file)`);
  return { local: file };
}

async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ModelStartError(`model.kind embedded: ${what} took longer than the model.startup-timeout (${formatDuration(ms)})`)),
      ms,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface EmbeddedOptions {
  configDir: string;
  /** Where hf: models are downloaded to (default: node-llama-cpp's own models folder). */
  modelsDir?: string;
  /** The package to load (tests name one that is not installed). */
  packageName?: string;
  /** Told about the engine process (the action's post step stops what a crash left). */
  ledger?: ProcessLedger;
  /** The environment the engine inherits (default: saboteur's, minus the job's credentials). */
  hostEnv?: NodeJS.ProcessEnv;
  /** A generation running longer is stopped and answered 504 (the run passes the pipeline's timeout). */
  generationTimeoutMs?: number;
}

export interface EmbeddedServer {
  baseUrl: string;
  /** The key the server wants: the proxy's and saboteur's judges', never a pipeline's. */
  apiKey: string;
  model: string;
  version: string;
  /** The backend node-llama-cpp chose: cuda, metal, vulkan or cpu. */
  backend: string;
  /** The engine process serving now (a new one replaces an engine killed for not stopping). */
  enginePid(): number;
  close(): Promise<void>;
}

/** How long an aborted generation may take to stop before its engine process is killed (and replaced). */
const ABORT_GRACE_MS = 2000;

/** Starts an engine process and waits for its model within the start-up deadline; a failure names the file and llama.cpp's last words. */
async function loadEngine(o: EngineStartOptions, deadlineMs: number, version: string | undefined, what: string): Promise<EngineHandle> {
  const started = startEngineProcess(o);
  try {
    return await withDeadline(started.ready, deadlineMs, `loading ${what}`);
  } catch (err) {
    started.kill();
    await started.exited;
    if (err instanceof ModelStartError) throw err;
    const e = err as EngineError & { said?: string; stage?: string; modelPath?: string };
    if (e.stage === 'load') {
      throw new ModelStartError(
        `model.kind embedded: llama.cpp could not load ${e.modelPath}: ${e.message}${e.said ? `; llama.cpp said: ${e.said}` : ''} (is it a complete GGUF file of an architecture node-llama-cpp${version ? ` ${version}` : ''} supports?)`,
      );
    }
    throw new ModelStartError(
      `model.kind embedded: ${e.stage === 'context' ? 'the context could not be created' : 'the engine did not start'} for ${what}: ${e.message}${e.said ? `; llama.cpp said: ${e.said}` : ''}`,
    );
  }
}

/**
 * The generate function over the engine's one context: requests take turns (the proxy and the
 * pipelines queue behind it). A prompt longer than the context can hold is refused before it is
 * tokenised; a turn past the time limit, or whose client left, is stopped; an engine that does not
 * stop is killed and the next turn starts a new one. `closing` stops the turn in flight at its
 * next token and any queued turn before it starts.
 */
function takeTurns(
  engines: { current(): Promise<EngineHandle> },
  sampling: ModelSettings['sampling'],
  contextSize: number,
  closing: AbortSignal,
): { generate: Generate; idle(): Promise<unknown> } {
  let queue: Promise<unknown> = Promise.resolve();
  const generate: Generate = (messages, params: GenerateParams, signal) => {
    const turn = queue.then(async (): Promise<Generation> => {
      if (closing.aborted) throw new Error('the model is shutting down');
      if (signal.aborted) throw new Error('the client went away before its turn');
      const chars = messages.reduce((n, m) => n + m.content.length, 0);
      if (chars > contextSize * MAX_CHARS_PER_TOKEN) {
        throw new PromptTooLong(
          `the prompt is ${chars} characters, more than the model's context of ${contextSize} tokens can hold (${MAX_CHARS_PER_TOKEN} characters a token at most); refused before tokenising`,
        );
      }
      const engine = await engines.current();
      const options = {
        temperature: params.temperature ?? sampling.temperature,
        topP: params.topP ?? sampling.topP,
        maxTokens: params.maxTokens ?? sampling.maxTokens,
        seed: params.seed ?? sampling.seed,
      };
      const timedOut = () => (signal.reason as Error | undefined)?.name === 'TimeoutError';
      let r: Awaited<ReturnType<EngineHandle['generate']>>;
      try {
        r = await engine.generate(messages, options, AbortSignal.any([signal, closing]));
      } catch (err) {
        if (err instanceof EngineError && err.tooLong) throw new PromptTooLong(err.message);
        if (timedOut()) throw new GenerationTimedOut(`the generation ran past its time limit; the engine did not stop and was restarted`);
        throw err;
      }
      if (timedOut()) throw new GenerationTimedOut('the generation ran past its time limit and was stopped');
      return {
        text: r.text,
        finishReason: r.stopReason === 'maxTokens' ? 'length' : 'stop',
        promptTokens: r.promptTokens,
        completionTokens: r.completionTokens,
      };
    });
    queue = turn.catch(() => undefined);
    return turn;
  };
  return { generate, idle: () => queue };
}

export async function startEmbedded(model: ModelSettings, log: Log, opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const source = resolveGguf(model.model, opts.configDir);
  const settings = embeddedSettings(model.args);
  const { specifier, version } = await loadNodeLlamaCpp([opts.configDir, process.cwd()], opts.packageName);
  // CUDA reads these when the backend starts: the engine process gets them, saboteur's own environment stays as it is.
  const env = serverEnv(opts.hostEnv ?? process.env, {
    ...model.env,
    ...(model.gpus !== undefined ? { CUDA_VISIBLE_DEVICES: model.gpus } : {}),
  });
  const what = source.local ?? source.remote!;
  const engineOptions: EngineStartOptions = {
    spec: { specifier, ...source, modelsDir: opts.modelsDir, ...settings },
    env,
    cwd: opts.configDir,
    log,
    ledger: opts.ledger,
    abortGraceMs: ABORT_GRACE_MS,
  };
  let engine = await loadEngine(engineOptions, model.startupTimeoutMs, version, what);
  let gone = false;
  const watch = (e: EngineHandle) => void e.exited.then(() => e === engine && (gone = true));
  watch(engine);
  const engines = {
    async current(): Promise<EngineHandle> {
      if (!gone) return engine;
      log.warn(`embedded: the engine process ${engine.pid} was stopped (a generation did not stop when asked); starting a new one`);
      engine = await loadEngine(engineOptions, model.startupTimeoutMs, version, what);
      gone = false;
      watch(engine);
      return engine;
    },
  };
  const closing = new AbortController();
  const turns = takeTurns(engines, model.sampling, engine.contextSize, closing.signal);
  const name = path.basename(engine.modelPath).replace(/\.gguf$/i, '');
  const stopEngine = async () => {
    engine.kill();
    await engine.exited;
  };
  const owner = 'embedded (node-llama-cpp)';
  const apiKey = newServerKey();
  const server = await startChatServer({
    modelName: name,
    generate: turns.generate,
    log,
    owner,
    apiKey,
    generationTimeoutMs: opts.generationTimeoutMs,
  }).catch(async (err: unknown) => {
    await stopEngine();
    throw err;
  });
  return {
    baseUrl: server.baseUrl,
    apiKey,
    model: name,
    version: `node-llama-cpp ${version ?? ''}`.trim(),
    backend: engine.backend,
    enginePid: () => engine.pid,
    async close() {
      closing.abort();
      await turns.idle();
      await server.close();
      await stopEngine();
    },
  };
}
