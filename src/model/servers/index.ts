/**
 * Starts a model server saboteur runs itself (vllm, sglang, llamacpp, ollama, tgi, command) or
 * reuses one already listening, waits until it serves, warms it up, and hands back the endpoint
 * with the facts the run log keeps (server version, log file, GPUs). `embedded` runs in-process.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ModelSettings } from '../settings.js';
import type { Log } from '../../util/log.js';
import type { ModelEndpoint } from '../index.js';
import { newServerKey } from '../http-util.js';
import { startEmbedded } from './embedded.js';
import { ModelStartError } from './errors.js';
import { describeGpus, queryGpus } from './gpu.js';
import {
  connectHost,
  formatDuration,
  hostForUrl,
  isListening,
  listModels,
  probeVersion,
  pullModel,
  reservePort,
  serverEnv,
  spawnServer,
  waitReady,
  warmUp,
  type ServerProcess,
} from './lifecycle.js';
import type { GpuInfo, LaunchPlan, ProcessLedger, ProcessServerDefinition } from './types.js';
import type { ReferenceAnswer } from '../../benchmarks/core/suite.js';

/** How long a run that lost its model server waits for the server's exit, to say how it ended. */
const EXIT_REPORT_WAIT_MS = 30_000;

export { ModelStartError } from './errors.js';
export type { GpuInfo, ProcessLedger, TrackedProcess, LaunchPlan, ProcessServerDefinition } from './types.js';
export { parseNvidiaSmi, queryGpus, describeGpus } from './gpu.js';

export interface StartModelOptions {
  /** Told about every process left running (the action saves them for its post step). */
  ledger?: ProcessLedger;
  /** Folder of the server log `model-server.log` (the run's out dir: the log becomes an artifact). */
  logDir?: string;
  /** Relative model.binary and GGUF paths resolve against it (the config file's folder). */
  configDir?: string;
  /** SIGTERM → SIGKILL grace when stopping the server (default 10 s). */
  killGraceMs?: number;
  /** The nvidia-smi to query (default: the one on PATH). */
  nvidiaSmi?: string;
  /** The environment the server inherits (default: saboteur's, minus the job's credentials). */
  hostEnv?: NodeJS.ProcessEnv;
  /** embedded: the package to load instead of node-llama-cpp (tests). */
  embeddedPackage?: string;
  /** embedded: a generation running longer is stopped (the run passes the pipeline's timeout). */
  generationTimeoutMs?: number;
  /** reference: the benchmarks' own answers to the run's tasks. */
  references?: ReferenceAnswer[];
}

/** The name to request: the configured one when the server lists it (or lists nothing), else the first it lists. */
export function pickModelName(configured: string | undefined, listed: readonly string[]): string {
  if (configured && (listed.length === 0 || listed.includes(configured))) return configured;
  return listed[0] ?? configured ?? 'default';
}

/** model.binary and a model file (llama.cpp's GGUF), resolved against the config folder like every path in the file. */
export function resolveModelPaths(
  model: ModelSettings,
  configDir: string,
  definition?: Pick<ProcessServerDefinition, 'modelIsFile'>,
): ModelSettings {
  const binary = model.binary && model.binary.includes('/') ? path.resolve(configDir, model.binary) : model.binary;
  let name = model.model;
  if (definition?.modelIsFile && name && !name.startsWith('hf:') && !/^https?:\/\//.test(name)) name = path.resolve(configDir, name);
  return { ...model, binary, model: name };
}

async function gpuFacts(model: ModelSettings, log: Log, opts: StartModelOptions): Promise<GpuInfo[]> {
  const env = opts.hostEnv ?? process.env;
  const facts = await queryGpus({ binary: opts.nvidiaSmi, visible: model.gpus ?? env.CUDA_VISIBLE_DEVICES, env });
  for (const line of describeGpus(facts.gpus)) log.info(line);
  if (facts.note) log.info(facts.note);
  if (model.gpus !== undefined) log.info(`CUDA_VISIBLE_DEVICES=${model.gpus} (model.gpus)`);
  return facts.gpus;
}

function remaining(deadline: number, floor: number): number {
  return Math.max(floor, deadline - Date.now());
}

/** The settings with their paths resolved, refused before anything starts when the kind cannot run on them. */
function checkedSettings(definition: ProcessServerDefinition, raw: ModelSettings, configDir: string): ModelSettings {
  const kind = definition.id;
  if (raw.kind !== kind) throw new ModelStartError(`model.kind ${raw.kind} is not started as ${kind}`);
  const model = resolveModelPaths(raw, configDir, definition);
  if (definition.requires.some((r) => r.key === 'model') && !model.model)
    throw new ModelStartError(`model.kind ${kind} needs model.model, the model to serve (for example Qwen/Qwen2.5-Coder-7B-Instruct)`);
  definition.check?.(model);
  return model;
}

/** Where the server listens, and whether it is one already there (`model.reuse`). */
interface Listener {
  bindHost: string;
  /** The address saboteur connects to. */
  host: string;
  port: number;
  reused: boolean;
}

async function chooseListener(definition: ProcessServerDefinition, model: ModelSettings): Promise<Listener> {
  const bindHost = model.host ?? '127.0.0.1';
  const host = connectHost(bindHost);
  const fixedPort = model.port ?? (model.reuse ? definition.defaultPort : undefined);
  let reused = false;
  if (fixedPort !== undefined && (await isListening(host, fixedPort))) {
    if (!model.reuse) {
      throw new ModelStartError(
        `model.port ${fixedPort}: something already listens on ${host}:${fixedPort}; set model.reuse: true to use that server, or choose another model.port (or leave it out: saboteur then picks a free one)`,
      );
    }
    reused = true;
  }
  return { bindHost, host, port: fixedPort ?? (await reservePort(bindHost)), reused };
}

/** The launch plan, and the key saboteur's requests carry (if any). */
function planWithKey(
  definition: ProcessServerDefinition,
  model: ModelSettings,
  at: Listener,
  opts: StartModelOptions,
): { plan: LaunchPlan; serverKey?: string } {
  // A server saboteur starts requires a key of its own, where its kind can: the proxy is then the
  // only road to the model (a pipeline that finds the port gets 401). A reused server keeps its own.
  const offeredKey = at.reused ? undefined : newServerKey();
  const plan = definition.plan(model, { host: at.bindHost, port: at.port, ...(offeredKey ? { apiKey: offeredKey } : {}) });
  // A reused server that wants a key of its own gets it from model.api-key-env.
  const ownKey = at.reused && model.apiKeyEnv ? (opts.hostEnv ?? process.env)[model.apiKeyEnv] || undefined : undefined;
  const serverKey = plan.requiresKey ? offeredKey : ownKey;
  return { plan, ...(serverKey ? { serverKey } : {}) };
}

/** Spawns the server (nothing when a running one is reused) with its output in the server log. */
async function launch(
  plan: LaunchPlan,
  model: ModelSettings,
  at: Listener,
  log: Log,
  opts: StartModelOptions & { configDir: string },
): Promise<{ server?: ServerProcess; logPath?: string }> {
  if (at.reused) {
    log.info(`model.reuse: a server already listens on ${at.host}:${at.port}; using it (saboteur will not stop it)`);
    return {};
  }
  const logPath = path.join(opts.logDir ?? (await mkdtemp(path.join(os.tmpdir(), 'saboteur-model-'))), 'model-server.log');
  const env = serverEnv(opts.hostEnv ?? process.env, {
    ...model.env,
    ...(model.gpus !== undefined ? { CUDA_VISIBLE_DEVICES: model.gpus } : {}),
    ...plan.env,
  });
  const server = await spawnServer(plan, { logPath, env, cwd: opts.configDir, ledger: opts.ledger, killGraceMs: opts.killGraceMs });
  log.info(`started ${plan.kind} (pid ${server.pid}): ${server.command}`);
  log.info(
    `server log: ${logPath}; waiting up to ${formatDuration(model.startupTimeoutMs)} (model.startup-timeout) for ${plan.ready.join(' and ')}`,
  );
  return { server, logPath };
}

/** What a ready server is asked for: the name to request and its version. */
interface Serving {
  origin: string;
  auth: Record<string, string>;
  deadline: number;
  server?: ServerProcess;
}

/** Waits until the server answers, pulls the model where the kind does, picks the name and warms it up. */
async function bringUp(plan: LaunchPlan, model: ModelSettings, s: Serving, log: Log): Promise<{ name: string; version?: string }> {
  const { origin, auth, deadline, server } = s;
  const kind = plan.kind;
  await waitReady(origin, plan, deadline, server, auth);
  if (plan.pull) {
    log.info(`${kind}: pulling ${plan.pull} (a no-op when the runner has it)`);
    await pullModel(origin, plan.pull, remaining(deadline, 60_000));
  }
  const listed = await listModels(origin, auth);
  const name = pickModelName(model.model, listed);
  if (model.model && name !== model.model)
    log.info(`the server lists ${listed.slice(0, 5).join(', ')}, not ${model.model}: requesting ${name}`);
  const version = await probeVersion(origin, plan.version, auth);
  try {
    await warmUp(`${origin}/v1`, name, remaining(deadline, 30_000), auth);
  } catch (err) {
    // A server that died on the request closes the socket before its exit is seen here, however busy
    // the machine: wait for the exit then (the limit only bounds a server that hangs). A server that
    // answered with an HTTP error is alive: nothing to wait for.
    const answered = err instanceof Error && err.message.startsWith('HTTP ');
    if (server && !answered)
      await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, EXIT_REPORT_WAIT_MS).unref())]);
    const why = server?.exit()
      ? await server.postmortem()
      : server
        ? `command: ${server.command}; see ${server.logPath}`
        : `server at ${origin}`;
    throw new ModelStartError(
      `model.kind ${kind}: the warm-up request (one chat completion for ${name}) failed: ${(err as Error).message}; ${why}`,
    );
  }
  return { name, version };
}

export async function startProcessServer(
  definition: ProcessServerDefinition,
  raw: ModelSettings,
  log: Log,
  opts: StartModelOptions = {},
): Promise<ModelEndpoint> {
  const configDir = opts.configDir ?? process.cwd();
  const model = checkedSettings(definition, raw, configDir);
  const gpus = await gpuFacts(model, log, opts);
  const at = await chooseListener(definition, model);
  const { plan, serverKey } = planWithKey(definition, model, at, opts);
  const origin = `http://${hostForUrl(at.host)}:${at.port}`;
  const startedAt = Date.now();
  const { server, logPath } = await launch(plan, model, at, log, { ...opts, configDir });
  let served: { name: string; version?: string };
  try {
    const auth: Record<string, string> = serverKey ? { authorization: `Bearer ${serverKey}` } : {};
    served = await bringUp(plan, model, { origin, auth, deadline: startedAt + model.startupTimeoutMs, server }, log);
  } catch (err) {
    await server?.stop();
    throw err;
  }
  const kind = model.kind;
  const { name, version } = served;
  log.info(
    `${kind}${version ? ` ${version}` : ''} serves ${name} at ${origin}/v1 (ready and warmed up after ${formatDuration(Date.now() - startedAt)})`,
  );
  if (plan.requiresKey) log.info(`${kind} requires a key of saboteur's: only the proxy reaches it`);
  else if (!at.reused && !definition.keyUnknown)
    log.info(`${kind} cannot be made to require a key: a pipeline that finds its port reaches the model without the proxy`);
  return processEndpoint({ kind, baseUrl: `${origin}/v1`, serverKey, name, version, logPath, gpus, server }, log);
}

/** The endpoint of a started (or reused) server: what the run log records of it, and how it stops. */
function processEndpoint(
  e: {
    kind: ModelSettings['kind'];
    baseUrl: string;
    serverKey?: string;
    name: string;
    version?: string;
    logPath?: string;
    gpus: GpuInfo[];
    server?: ServerProcess;
  },
  log: Log,
): ModelEndpoint {
  const { kind, baseUrl, name, version, logPath, server } = e;
  return {
    kind,
    baseUrl,
    ...(e.serverKey ? { apiKey: e.serverKey } : {}),
    model: name,
    serverVersion: version,
    serverLog: logPath,
    gpus: e.gpus,
    describe: () => ({
      kind,
      baseUrl,
      model: name,
      ...(version ? { serverVersion: version } : {}),
      ...(server ? { pid: String(server.pid), command: server.command, serverLog: logPath! } : { reused: 'true' }),
    }),
    exitReport: async () => {
      if (!server) return undefined;
      // Asked once the server stopped answering: the proxy sees the connection drop before the exit
      // reaches this process, however busy the machine. The limit only bounds a server that hangs
      // without exiting (then there is no exit to report).
      await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, EXIT_REPORT_WAIT_MS).unref())]);
      return server.exit() ? `model server: ${await server.brief()}` : undefined;
    },
    exited: () => server?.exit() !== undefined,
    close: async () => {
      if (!server) return;
      const exit = server.exit();
      await server.stop();
      log.info(
        exit
          ? `${kind} had already stopped (${exit.signal ?? `code ${exit.code}`})`
          : `${kind} stopped (pid ${server.pid} and its workers)`,
      );
    },
  };
}

/** embedded: node-llama-cpp in an engine process of saboteur's, behind a local OpenAI-compatible server that wants its own key. */
export async function startEmbeddedServer(model: ModelSettings, log: Log, opts: StartModelOptions = {}): Promise<ModelEndpoint> {
  const gpus = await gpuFacts(model, log, opts);
  const started = Date.now();
  const server = await startEmbedded(model, log, {
    configDir: opts.configDir ?? process.cwd(),
    packageName: opts.embeddedPackage,
    ledger: opts.ledger,
    hostEnv: opts.hostEnv,
    generationTimeoutMs: opts.generationTimeoutMs,
  });
  log.info(
    `embedded ${server.version} (${server.backend}) serves ${server.model} at ${server.baseUrl} after ${formatDuration(Date.now() - started)}`,
  );
  return {
    kind: 'embedded',
    baseUrl: server.baseUrl,
    apiKey: server.apiKey,
    model: server.model,
    serverVersion: server.version,
    gpus,
    describe: () => ({
      kind: 'embedded',
      baseUrl: server.baseUrl,
      model: server.model,
      serverVersion: server.version,
      backend: server.backend,
    }),
    close: () => server.close(),
  };
}
