/**
 * Starts (or connects to) the model endpoint a run uses, whatever `model.kind` says, and hands back
 * one `ModelEndpoint` the proxy sits in front of.
 */
import type { Config } from '../config/load.js';
import type { Log } from '../util/log.js';
import { startReplayServer, REPLAY_DEFAULT_MODEL } from './replay.js';
import { startRecorder } from './recorder.js';
import { ModelStartError } from './servers/errors.js';
import { startEmbeddedServer, startProcessServer, type GpuInfo, type StartModelOptions } from './servers/index.js';

export { startReplayServer, REPLAY_DEFAULT_MODEL, type ModelServerHandle, type ReplayOptions } from './replay.js';
export { startRecorder, type RecorderOptions } from './recorder.js';
export { CassetteError, loadCassette, parseCassette, requestHash, canonicalJson } from './cassette.js';
export { ModelStartError } from './servers/errors.js';
export type { StartModelOptions, ProcessLedger, TrackedProcess, GpuInfo } from './servers/index.js';

export interface ModelEndpoint {
  kind: Config['model']['kind'];
  /** OpenAI base URL, ending in /v1. */
  baseUrl: string;
  apiKey?: string;
  /** The model name to request (SABOTEUR_MODEL). */
  model?: string;
  /** What the run log records about the endpoint (never the key). */
  describe(): Record<string, string>;
  /** Servers saboteur starts: the version the server reports, its log file, the GPUs it runs on. */
  serverVersion?: string;
  serverLog?: string;
  gpus?: GpuInfo[];
  /** Once a started server has died: how it ended, its command and its log's last lines. */
  exitReport?(): Promise<string | undefined>;
  close(): Promise<void>;
}

/**
 * Lists the models of an OpenAI-compatible endpoint. Rejects with a message that says what to check
 * when the endpoint is down, slow or refuses the key. An endpoint without /models (404) counts as up.
 */
export async function probeModels(baseUrl: string, options: { apiKey?: string; timeoutMs?: number } = {}): Promise<string[]> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new ModelStartError(`model endpoint ${baseUrl} is not reachable (GET ${url}: ${why}); is the server running, and is model.base-url right?`);
  }
  if (res.status === 404) return [];
  if (res.status === 401 || res.status === 403) {
    throw new ModelStartError(`model endpoint ${baseUrl} refused the API key (HTTP ${res.status}); set model.api-key-env to the variable holding the key`);
  }
  if (!res.ok) throw new ModelStartError(`model endpoint ${baseUrl} answered GET /models with HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const body = (await res.json().catch(() => ({}))) as { data?: { id?: unknown }[] };
  return (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
}

/** `record: true` on a server saboteur started: the recorder sits in front and writes the cassette. */
async function recordIfAsked(model: Config['model'], log: Log, endpoint: ModelEndpoint): Promise<ModelEndpoint> {
  if (!model.record) return endpoint;
  if (!model.cassette) {
    await endpoint.close();
    throw new ModelStartError('model.record: true needs model.cassette (the file to write)');
  }
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  try {
    recorder = await startRecorder({ upstreamBaseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, cassette: model.cassette, log });
  } catch (err) {
    await endpoint.close();
    throw err;
  }
  return {
    ...endpoint,
    baseUrl: recorder.baseUrl,
    describe: () => ({ ...endpoint.describe(), recording: model.cassette! }),
    close: async () => {
      const { hits, misses } = recorder.stats();
      log.info(`recorder: ${hits} responses written to ${model.cassette}, ${misses} not recorded`);
      await recorder.close();
      await endpoint.close();
    },
  };
}

/**
 * `options` matter to the kinds saboteur starts itself: where the server log goes, the ledger of
 * started processes, the folder relative paths resolve against.
 */
export async function startModel(model: Config['model'], log: Log, options: StartModelOptions = {}): Promise<ModelEndpoint> {
  switch (model.kind) {
    case 'replay': {
      if (!model.cassette) throw new ModelStartError('model.kind replay needs model.cassette (the cassette file to serve)');
      const server = await startReplayServer({ cassette: model.cassette, log, models: model.model ? [model.model] : [] });
      return {
        kind: 'replay',
        baseUrl: server.baseUrl,
        model: model.model ?? REPLAY_DEFAULT_MODEL,
        describe: () => ({ kind: 'replay', baseUrl: server.baseUrl, cassette: model.cassette!, model: model.model ?? REPLAY_DEFAULT_MODEL }),
        close: async () => {
          const { hits, misses } = server.stats();
          log.info(`replay: ${hits} answered, ${misses} cassette misses`);
          await server.close();
        },
      };
    }
    case 'external': {
      if (!model.baseUrl) throw new ModelStartError('model.kind external needs model.base-url (for example http://gpu-box:8000/v1)');
      let apiKey: string | undefined;
      if (model.apiKeyEnv) {
        apiKey = process.env[model.apiKeyEnv] || undefined;
        if (!apiKey) log.warn(`model.api-key-env names ${model.apiKeyEnv}, which is not set: calling ${model.baseUrl} without a key`);
      }
      const listed = await probeModels(model.baseUrl, { apiKey });
      const name = model.model ?? listed[0];
      if (model.model && listed.length > 0 && !listed.includes(model.model)) {
        log.warn(`model endpoint ${model.baseUrl} does not list ${model.model} (it lists ${listed.slice(0, 5).join(', ')})`);
      }
      if (model.record) {
        if (!model.cassette) throw new ModelStartError('model.record: true needs model.cassette (the file to write)');
        const recorder = await startRecorder({ upstreamBaseUrl: model.baseUrl, apiKey, cassette: model.cassette, log });
        return {
          kind: 'external',
          baseUrl: recorder.baseUrl,
          model: name,
          describe: () => ({ kind: 'external', baseUrl: model.baseUrl!, recording: model.cassette!, ...(name ? { model: name } : {}) }),
          close: async () => {
            const { hits, misses } = recorder.stats();
            log.info(`recorder: ${hits} responses written to ${model.cassette}, ${misses} not recorded`);
            await recorder.close();
          },
        };
      }
      return {
        kind: 'external',
        baseUrl: model.baseUrl,
        apiKey,
        model: name,
        describe: () => ({ kind: 'external', baseUrl: model.baseUrl!, ...(name ? { model: name } : {}) }),
        close: async () => {},
      };
    }
    case 'vllm':
    case 'sglang':
    case 'llamacpp':
    case 'ollama':
    case 'tgi':
    case 'command':
      return recordIfAsked(model, log, await startProcessServer(model, log, options));
    case 'embedded':
      return recordIfAsked(model, log, await startEmbeddedServer(model, log, options));
    default: {
      const never: never = model.kind;
      throw new ModelStartError(`model.kind ${String(never)} is not known`);
    }
  }
}
