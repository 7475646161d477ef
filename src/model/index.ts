/**
 * Starts (or connects to) the model endpoint a run uses, whatever `model.kind` says, and hands back
 * one `ModelEndpoint` the proxy sits in front of.
 */
import type { ModelSettings } from './settings.js';
import type { Log } from '../util/log.js';
import { ModelStartError } from './servers/errors.js';
import type { GpuInfo, StartModelOptions } from './servers/index.js';
import { MODEL_SERVERS } from './registry.js';

export { startReplayServer, REPLAY_DEFAULT_MODEL, type ModelServerHandle, type ReplayOptions } from './replay.js';
export { startRecorder, type RecorderOptions } from './recorder.js';
export { CassetteError, loadCassette, parseCassette, requestHash, canonicalJson } from './cassette.js';
export { ModelStartError } from './servers/errors.js';
export { probeModels } from './probe.js';
export { MODEL_SERVERS, MODEL_KIND_IDS, type ModelKind, type ModelServerDefinition } from './registry.js';
export type { StartModelOptions, ProcessLedger, TrackedProcess, GpuInfo } from './servers/index.js';

export interface ModelEndpoint {
  kind: ModelSettings['kind'];
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
  /** A server saboteur started whose process has exited: dead whatever answers at its port now. */
  exited?(): boolean;
  close(): Promise<void>;
}

/**
 * `options` matter to the kinds saboteur starts itself: where the server log goes, the ledger of
 * started processes, the folder relative paths resolve against.
 */
export async function startModel(model: ModelSettings, log: Log, options: StartModelOptions = {}): Promise<ModelEndpoint> {
  const kind = MODEL_SERVERS[model.kind];
  if (!kind) throw new ModelStartError(`model.kind ${String(model.kind)} is not known`);
  return kind.start(model, log, options);
}
