/**
 * Starts a model server saboteur runs itself (vllm, sglang, llamacpp, ollama, tgi, command) or
 * reuses one already listening, waits until it serves, warms it up, and hands back the endpoint
 * with the facts the run log keeps (server version, log file, GPUs). `embedded` runs in-process.
 */
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ModelSettings } from '../settings.js';
import type { Log } from '../../util/log.js';
import type { ModelEndpoint } from '../index.js';
import { newServerKey } from '../http-util.js';
import { placeholdersIn } from './shell-words.js';
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
import type { GpuInfo, LaunchPlan, ListenAddress, ProcessLedger, ProcessServerKind } from './types.js';

export { ModelStartError } from './errors.js';
export type { GpuInfo, ProcessLedger, TrackedProcess, LaunchPlan } from './types.js';
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
}

/** How saboteur starts one process kind: its launch plan and where it listens by default. From the model registry. */
export interface ProcessServerSpec {
  kind: ProcessServerKind;
  plan(m: ModelSettings, at: ListenAddress): LaunchPlan;
  /** The port `reuse: true` looks at when model.port is not set. */
  defaultPort?: number;
}

/** The name to request: the configured one when the server lists it (or lists nothing), else the first it lists. */
export function pickModelName(configured: string | undefined, listed: readonly string[]): string {
  if (configured && (listed.length === 0 || listed.includes(configured))) return configured;
  return listed[0] ?? configured ?? 'default';
}

/** model.binary and a llama.cpp GGUF path, resolved against the config folder like every path in the file. */
export function resolveModelPaths(model: ModelSettings, configDir: string): ModelSettings {
  const binary = model.binary && model.binary.includes('/') ? path.resolve(configDir, model.binary) : model.binary;
  let name = model.model;
  if (model.kind === 'llamacpp' && name && !name.startsWith('hf:') && !/^https?:\/\//.test(name)) name = path.resolve(configDir, name);
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

// eslint-disable-next-line max-lines-per-function -- split pending
export async function startProcessServer(
  spec: ProcessServerSpec,
  raw: ModelSettings,
  log: Log,
  opts: StartModelOptions = {},
): Promise<ModelEndpoint> {
  if (raw.kind !== spec.kind) throw new ModelStartError(`model.kind ${raw.kind} is not started as ${spec.kind}`);
  const kind = spec.kind;
  const configDir = opts.configDir ?? process.cwd();
  const model = resolveModelPaths(raw, configDir);
  if (kind !== 'command' && !model.model)
    throw new ModelStartError(`model.kind ${kind} needs model.model, the model to serve (for example Qwen/Qwen2.5-Coder-7B-Instruct)`);
  if (kind === 'llamacpp' && !/^(hf:|https?:\/\/)/.test(model.model!) && !existsSync(model.model!)) {
    throw new ModelStartError(
      `model.model: the GGUF file ${model.model} does not exist (model.kind llamacpp takes a GGUF path relative to the config file, or hf:USER/REPO[:QUANT])`,
    );
  }
  if (kind === 'command' && model.run && !placeholdersIn(model.run).includes('port') && model.port === undefined) {
    throw new ModelStartError(
      'model.run has no {port} placeholder: add one (… --port {port}) or set model.port to the port the command listens on',
    );
  }
  const gpus = await gpuFacts(model, log, opts);

  const bindHost = model.host ?? '127.0.0.1';
  const host = connectHost(bindHost);
  const fixedPort = model.port ?? (model.reuse ? spec.defaultPort : undefined);
  let reused = false;
  if (fixedPort !== undefined && (await isListening(host, fixedPort))) {
    if (!model.reuse) {
      throw new ModelStartError(
        `model.port ${fixedPort}: something already listens on ${host}:${fixedPort}; set model.reuse: true to use that server, or choose another model.port (or leave it out: saboteur then picks a free one)`,
      );
    }
    reused = true;
  }
  const port = fixedPort ?? (await reservePort(bindHost));
  // A server saboteur starts requires a key of its own, where its kind can: the proxy is then the
  // only road to the model (a pipeline that finds the port gets 401). A reused server keeps its own.
  const offeredKey = reused ? undefined : newServerKey();
  const plan = spec.plan(model, { host: bindHost, port, ...(offeredKey ? { apiKey: offeredKey } : {}) });
  // A reused server that wants a key of its own gets it from model.api-key-env.
  const ownKey = reused && model.apiKeyEnv ? (opts.hostEnv ?? process.env)[model.apiKeyEnv] || undefined : undefined;
  const serverKey = plan.requiresKey ? offeredKey : ownKey;
  const auth: Record<string, string> = serverKey ? { authorization: `Bearer ${serverKey}` } : {};
  const origin = `http://${hostForUrl(host)}:${port}`;
  const baseUrl = `${origin}/v1`;
  const startedAt = Date.now();
  const deadline = startedAt + model.startupTimeoutMs;

  let server: ServerProcess | undefined;
  let logPath: string | undefined;
  if (reused) {
    log.info(`model.reuse: a server already listens on ${host}:${port}; using it (saboteur will not stop it)`);
  } else {
    logPath = path.join(opts.logDir ?? (await mkdtemp(path.join(os.tmpdir(), 'saboteur-model-'))), 'model-server.log');
    const env = serverEnv(opts.hostEnv ?? process.env, {
      ...model.env,
      ...(model.gpus !== undefined ? { CUDA_VISIBLE_DEVICES: model.gpus } : {}),
      ...plan.env,
    });
    server = await spawnServer(plan, { logPath, env, cwd: configDir, ledger: opts.ledger, killGraceMs: opts.killGraceMs });
    log.info(`started ${kind} (pid ${server.pid}): ${server.command}`);
    log.info(
      `server log: ${logPath}; waiting up to ${formatDuration(model.startupTimeoutMs)} (model.startup-timeout) for ${plan.ready.join(' and ')}`,
    );
  }

  let name: string;
  let version: string | undefined;
  try {
    await waitReady(origin, plan, deadline, server, auth);
    if (plan.pull) {
      log.info(`${kind}: pulling ${plan.pull} (a no-op when the runner has it)`);
      await pullModel(origin, plan.pull, remaining(deadline, 60_000));
    }
    const listed = await listModels(origin, auth);
    name = pickModelName(model.model, listed);
    if (model.model && name !== model.model)
      log.info(`the server lists ${listed.slice(0, 5).join(', ')}, not ${model.model}: requesting ${name}`);
    version = await probeVersion(origin, plan.version, auth);
    try {
      await warmUp(baseUrl, name, remaining(deadline, 30_000), auth);
    } catch (err) {
      // A server that died on the request closes the socket a moment before its exit is seen here.
      if (server) await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      const why = server?.exit()
        ? await server.postmortem()
        : server
          ? `command: ${server.command}; see ${server.logPath}`
          : `server at ${origin}`;
      throw new ModelStartError(
        `model.kind ${kind}: the warm-up request (one chat completion for ${name}) failed: ${(err as Error).message}; ${why}`,
      );
    }
  } catch (err) {
    await server?.stop();
    throw err;
  }
  log.info(
    `${kind}${version ? ` ${version}` : ''} serves ${name} at ${baseUrl} (ready and warmed up after ${formatDuration(Date.now() - startedAt)})`,
  );

  if (plan.requiresKey) log.info(`${kind} requires a key of saboteur's: only the proxy reaches it`);
  else if (!reused && kind !== 'command')
    log.info(`${kind} cannot be made to require a key: a pipeline that finds its port reaches the model without the proxy`);
  return {
    kind,
    baseUrl,
    ...(serverKey ? { apiKey: serverKey } : {}),
    model: name,
    serverVersion: version,
    serverLog: logPath,
    gpus,
    describe: () => ({
      kind,
      baseUrl,
      model: name,
      ...(version ? { serverVersion: version } : {}),
      ...(server ? { pid: String(server.pid), command: server.command, serverLog: logPath! } : { reused: 'true' }),
    }),
    exitReport: async () => {
      if (!server) return undefined;
      // The proxy sees the connection drop a moment before the exit is reported here.
      await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      return server.exit() ? `model server: ${await server.brief()}` : undefined;
    },
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
