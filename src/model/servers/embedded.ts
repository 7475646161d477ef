/**
 * `embedded`: llama.cpp in saboteur's own process through node-llama-cpp, on a GGUF file or an
 * `hf:` URI, served over the same OpenAI-compatible HTTP as every other kind (chat-server.ts).
 * node-llama-cpp is an optional dependency (native binaries, hundreds of MB): it is never bundled
 * and is loaded only for this kind, from saboteur's own node_modules or the workspace's.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Config } from '../../config/load.js';
import type { Log } from '../../util/log.js';
import { startChatServer, type ChatMessage, type Generate, type GenerateParams, type Generation } from './chat-server.js';
import { ModelStartError } from './errors.js';
import { formatDuration } from './lifecycle.js';

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
          const pick = (v: unknown): string | undefined => (typeof v === 'string' ? v : v && typeof v === 'object' ? pick((v as Record<string, unknown>).import ?? (v as Record<string, unknown>).node ?? (v as Record<string, unknown>).default) : undefined);
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
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND' || /Cannot find (module|package)/i.test(e?.message ?? '')) && (e?.message ?? '').includes(name);
}

/**
 * Loads node-llama-cpp: from the workspace (`searchDirs`) or saboteur's own node_modules, else by
 * its bare name. The specifier is a variable, so bundlers leave the import alone.
 */
export async function loadNodeLlamaCpp(searchDirs: readonly string[], name: string = NODE_LLAMA_CPP): Promise<{ mod: NodeLlamaCppModule; version?: string }> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const found = findPackage(name, [...searchDirs, here]);
  const specifier = found ? pathToFileURL(found.entry).href : name;
  try {
    const mod = (await import(specifier)) as NodeLlamaCppModule;
    if (typeof mod.getLlama !== 'function' || typeof mod.LlamaChatSession !== 'function') {
      throw new ModelStartError(`model.kind embedded: ${found?.dir ?? name} is not node-llama-cpp 3 (no getLlama / LlamaChatSession); ${INSTALL_HINT}`);
    }
    return { mod, version: found?.version };
  } catch (err) {
    if (err instanceof ModelStartError) throw err;
    if (!found && isNotFound(err, name)) {
      throw new ModelStartError(`model.kind embedded needs the optional package ${name}, which is not installed: ${INSTALL_HINT}. It is not bundled with saboteur (it ships native llama.cpp builds); or serve the model with model.kind llamacpp (llama-server) instead`);
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

const EMBEDDED_FLAGS: Record<string, keyof EmbeddedSettings> = { '--threads': 'threads', '-t': 'threads', '--ctx-size': 'contextSize', '-c': 'contextSize' };

/**
 * `model.args` for the embedded kind: `--threads N` (`-t`) and `--ctx-size N` (`-c`), also as
 * `--flag=N`, so the args of a `llamacpp` config carry over. Anything else is an error rather than
 * silently ignored (there is no command line to pass it to).
 */
export function embeddedSettings(args: readonly string[]): EmbeddedSettings {
  const settings: EmbeddedSettings = {};
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].includes('=') ? [args[i].slice(0, args[i].indexOf('=')), args[i].slice(args[i].indexOf('=') + 1)] : [args[i], undefined];
    const key = EMBEDDED_FLAGS[flag];
    if (!key) {
      throw new ModelStartError(`model.args: ${JSON.stringify(args[i])} is not an option of model.kind embedded, which takes --threads N and --ctx-size N (other llama.cpp options need model.kind llamacpp)`);
    }
    const raw = inline ?? args[++i];
    const value = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value) || value < 1) throw new ModelStartError(`model.args: ${flag} needs a positive whole number, got ${raw === undefined ? 'nothing' : JSON.stringify(raw)} (for example ["${flag}", "4"])`);
    settings[key] = value;
  }
  return settings;
}

/** The GGUF path (resolved against the config folder), checked before anything heavy is loaded. */
export function resolveGguf(model: string | undefined, configDir: string): { local?: string; remote?: string } {
  if (!model) throw new ModelStartError('model.kind embedded needs model.model: a GGUF file (relative to the config file) or an hf: URI such as hf:Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF:Q4_K_M');
  if (isRemoteModel(model)) return { remote: model };
  const file = path.resolve(configDir, model);
  if (!existsSync(file)) throw new ModelStartError(`model.model: the GGUF file ${file} does not exist (model.kind embedded takes a GGUF path relative to the config file, or an hf: URI)`);
  if (!statSync(file).isFile()) throw new ModelStartError(`model.model: ${file} is not a file (model.kind embedded needs one GGUF file)`);
  return { local: file };
}

function toHistory(messages: ChatMessage[]): HistoryItem[] {
  return messages.map((m) => (m.role === 'assistant' ? { type: 'model', response: [m.content] } : { type: m.role, text: m.content }));
}

async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ModelStartError(`model.kind embedded: ${what} took longer than the model.startup-timeout (${formatDuration(ms)})`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * llama.cpp's own log lines go to saboteur's debug log instead of the console; its last warnings
 * and errors are kept for the error message when a model does not load.
 */
function llamaCppLog(log: Log, keep = 4): { logger(level: string, message: string): void; last(): string } {
  const recent: string[] = [];
  return {
    logger(level, message) {
      const line = message.trim();
      if (!line) return;
      log.debug(`llama.cpp (${level}): ${line}`);
      if (level !== 'warn' && level !== 'error' && level !== 'fatal') return;
      recent.push(line);
      if (recent.length > keep) recent.shift();
    },
    last: () => recent.join(' | '),
  };
}

export interface EmbeddedOptions {
  configDir: string;
  /** Where hf: models are downloaded to (default: node-llama-cpp's own models folder). */
  modelsDir?: string;
  /** The package to load (tests name one that is not installed). */
  packageName?: string;
}

export interface EmbeddedServer {
  baseUrl: string;
  model: string;
  version: string;
  /** The backend node-llama-cpp chose: cuda, metal, vulkan or cpu. */
  backend: string;
  close(): Promise<void>;
}

interface Engine {
  llama: LlamaLike;
  loaded: ModelLike;
  context: ContextLike;
  session: ChatSessionLike;
  modelPath: string;
}

interface OpenOptions {
  settings: EmbeddedSettings;
  log: Log;
  version?: string;
  modelsDir?: string;
  deadlineMs: number;
}

/**
 * Loads the model and opens its one context within the start-up deadline. What was created is
 * disposed again (newest first) when a later step fails or the deadline passes first, so a failed
 * start leaves no native threads or memory behind.
 */
async function openEngine(mod: NodeLlamaCppModule, source: { local?: string; remote?: string }, o: OpenOptions): Promise<Engine> {
  const engineLog = llamaCppLog(o.log);
  const created: { dispose(): Promise<void> | void }[] = [];
  let abandoned = false;
  const keep = <T extends { dispose(): Promise<void> | void }>(resource: T): T => {
    created.push(resource);
    if (abandoned) throw new ModelStartError('model.kind embedded: start-up abandoned');
    return resource;
  };
  const load = (async (): Promise<Engine> => {
    let modelPath = source.local;
    if (source.remote) {
      if (typeof mod.resolveModelFile !== 'function') throw new ModelStartError(`model.model: ${source.remote} needs node-llama-cpp 3.6 or later to download; ${INSTALL_HINT}`);
      o.log.info(`embedded: resolving ${source.remote} (downloaded once, then cached)`);
      modelPath = await mod.resolveModelFile(source.remote, o.modelsDir ? { directory: o.modelsDir } : undefined);
    }
    const llama = keep(await mod.getLlama({ logLevel: 'warn', logger: engineLog.logger }));
    const loaded = keep(
      await llama.loadModel({ modelPath: modelPath! }).catch(async (err: Error) => {
        // llama.cpp logs from its loader thread: its last lines reach this thread a moment after the failure.
        await new Promise((resolve) => setTimeout(resolve, 250));
        const said = engineLog.last();
        throw new ModelStartError(
          `model.kind embedded: llama.cpp could not load ${modelPath}: ${err.message}${said ? `; llama.cpp said: ${said}` : ''} (is it a complete GGUF file of an architecture node-llama-cpp${o.version ? ` ${o.version}` : ''} supports?)`,
        );
      }),
    );
    const { threads, contextSize } = o.settings;
    const context = keep(await loaded.createContext({ ...(threads ? { threads } : {}), ...(contextSize ? { contextSize } : {}) }));
    const session = new mod.LlamaChatSession({ contextSequence: context.getSequence() });
    return { llama, loaded, context, session, modelPath: modelPath! };
  })();
  try {
    return await withDeadline(load, o.deadlineMs, `loading ${source.local ?? source.remote}`);
  } catch (err) {
    abandoned = true;
    // A load still running past the deadline is disposed when it gets to its next step.
    void load
      .catch(() => undefined)
      .finally(async () => {
        for (const r of created.reverse()) await Promise.resolve(r.dispose()).catch(() => undefined);
      });
    throw err;
  }
}

/**
 * The generate function over the one context sequence: requests take turns (the proxy and the
 * pipelines queue behind it). `closing` stops the turn in flight at its next token and any queued
 * turn before it starts, so nothing runs on a context that is being disposed.
 */
function takeTurns(engine: Engine, sampling: Config['model']['sampling'], closing: AbortSignal): { generate: Generate; idle(): Promise<unknown> } {
  const { session, loaded } = engine;
  let queue: Promise<unknown> = Promise.resolve();
  const generate: Generate = (messages, params: GenerateParams, signal) => {
    const turn = queue.then(async (): Promise<Generation> => {
      if (closing.aborted) throw new Error('the model is shutting down');
      if (signal.aborted) throw new Error('the client went away before its turn');
      const last = messages[messages.length - 1];
      session.setChatHistory(toHistory(messages.slice(0, -1)));
      const options = {
        temperature: params.temperature ?? sampling.temperature,
        topP: params.topP ?? sampling.topP,
        maxTokens: params.maxTokens ?? sampling.maxTokens,
        seed: params.seed ?? sampling.seed,
        signal: AbortSignal.any([signal, closing]),
        stopOnAbortSignal: true,
      };
      let text: string;
      let stopReason: string | undefined;
      if (session.promptWithMeta) {
        const r = await session.promptWithMeta(last.content, options);
        text = r.responseText;
        stopReason = r.stopReason;
      } else {
        text = await session.prompt(last.content, options);
      }
      const promptTokens = messages.reduce((n, m) => n + loaded.tokenize(m.content).length, 0);
      return { text, finishReason: stopReason === 'maxTokens' ? 'length' : 'stop', promptTokens, completionTokens: loaded.tokenize(text).length };
    });
    queue = turn.catch(() => undefined);
    return turn;
  };
  return { generate, idle: () => queue };
}

export async function startEmbedded(model: Config['model'], log: Log, opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const source = resolveGguf(model.model, opts.configDir);
  const settings = embeddedSettings(model.args);
  const { mod, version } = await loadNodeLlamaCpp([opts.configDir, process.cwd()], opts.packageName);
  // CUDA reads these when the backend starts: set them before getLlama.
  for (const [k, v] of Object.entries(model.env)) process.env[k] = v;
  if (model.gpus !== undefined) process.env.CUDA_VISIBLE_DEVICES = model.gpus;

  const engine = await openEngine(mod, source, { settings, log, version, modelsDir: opts.modelsDir, deadlineMs: model.startupTimeoutMs });
  const closing = new AbortController();
  const turns = takeTurns(engine, model.sampling, closing.signal);
  const name = path.basename(engine.modelPath).replace(/\.gguf$/i, '');
  const dispose = async () => {
    engine.session.dispose?.();
    await engine.context.dispose();
    await engine.loaded.dispose();
    await engine.llama.dispose();
  };
  const server = await startChatServer({ modelName: name, generate: turns.generate, log, owner: 'embedded (node-llama-cpp)' }).catch(async (err: unknown) => {
    await dispose();
    throw err;
  });
  return {
    baseUrl: server.baseUrl,
    model: name,
    version: `node-llama-cpp ${version ?? ''}`.trim(),
    backend: engine.llama.gpu ? String(engine.llama.gpu) : 'cpu',
    async close() {
      closing.abort();
      await turns.idle();
      await server.close();
      await dispose();
    },
  };
}
