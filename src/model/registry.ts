/**
 * Every `model.kind`: how saboteur gets an OpenAI-compatible endpoint for the run, and which
 * keys of `model:` the kind cannot start without (checked when the config is read, so a missing
 * key stops the run before anything starts). The config schema and its example, the action's
 * `model-kind` input and `startModel` read this table: a kind is its module plus one line here.
 */
import type { ModelSettings } from './settings.js';
import type { Log } from '../util/log.js';
import { checkRegistry } from '../util/registry.js';
import { recordIfAsked, startExternalEndpoint, startReplayEndpoint } from './endpoints.js';
import type { ModelEndpoint } from './index.js';
import { commandPlan } from './servers/command-kind.js';
import { startEmbeddedServer, startProcessServer, type ProcessServerSpec, type StartModelOptions } from './servers/index.js';
import { LLAMACPP_DEFAULT_PORT, llamacppPlan } from './servers/llamacpp.js';
import { OLLAMA_DEFAULT_PORT, ollamaPlan } from './servers/ollama.js';
import { SGLANG_DEFAULT_PORT, sglangPlan } from './servers/sglang.js';
import { TGI_DEFAULT_PORT, tgiPlan } from './servers/tgi.js';
import { VLLM_DEFAULT_PORT, vllmPlan } from './servers/vllm.js';

/** A key of `model:` a kind needs, and the error when it is missing. */
export interface RequiredKey {
  key: 'model' | 'base-url' | 'run' | 'cassette';
  message: string;
}

export interface ModelServerDefinition {
  /** The value of `model.kind`. */
  id: string;
  /** One line for the docs. */
  description: string;
  requires: RequiredKey[];
  start(model: ModelSettings, log: Log, options: StartModelOptions): Promise<ModelEndpoint>;
}

/** A server saboteur starts as a process group of its own (and stops, with everything it started). */
function processKind(spec: ProcessServerSpec, description: string, requires: RequiredKey[]): ModelServerDefinition {
  return {
    id: spec.kind,
    description,
    requires,
    start: async (model, log, options) => recordIfAsked(model, log, await startProcessServer(spec, model, log, options)),
  };
}

const needsModel = (kind: string): RequiredKey[] => [{ key: 'model', message: `model.kind ${kind} needs the model to serve` }];

export const MODEL_SERVERS = checkRegistry('model kind', {
  vllm: processKind({ kind: 'vllm', plan: vllmPlan, defaultPort: VLLM_DEFAULT_PORT }, 'vLLM (`vllm serve`)', needsModel('vllm')),
  sglang: processKind(
    { kind: 'sglang', plan: sglangPlan, defaultPort: SGLANG_DEFAULT_PORT },
    'SGLang (`python -m sglang.launch_server`)',
    needsModel('sglang'),
  ),
  llamacpp: processKind(
    { kind: 'llamacpp', plan: llamacppPlan, defaultPort: LLAMACPP_DEFAULT_PORT },
    'llama.cpp (`llama-server`) on a GGUF file',
    needsModel('llamacpp'),
  ),
  ollama: processKind(
    { kind: 'ollama', plan: ollamaPlan, defaultPort: OLLAMA_DEFAULT_PORT },
    'Ollama (`ollama serve`, the model pulled first)',
    needsModel('ollama'),
  ),
  tgi: processKind(
    { kind: 'tgi', plan: tgiPlan, defaultPort: TGI_DEFAULT_PORT },
    'Text Generation Inference (`text-generation-launcher`)',
    needsModel('tgi'),
  ),
  command: processKind({ kind: 'command', plan: commandPlan }, 'any OpenAI-compatible server started by `model.run`', [
    { key: 'run', message: 'model.kind command needs run' },
  ]),
  external: {
    id: 'external',
    description: 'a server someone else runs, at `model.base-url`',
    requires: [{ key: 'base-url', message: 'model.kind external needs base-url' }],
    start: (model, log) => startExternalEndpoint(model, log),
  },
  embedded: {
    id: 'embedded',
    description: "node-llama-cpp in saboteur's own process",
    requires: [],
    start: async (model, log, options) => recordIfAsked(model, log, await startEmbeddedServer(model, log, options)),
  },
  replay: {
    id: 'replay',
    description: 'the answers of a recorded cassette, no model at all',
    requires: [{ key: 'cassette', message: 'model.kind replay needs a cassette file' }],
    start: (model, log) => startReplayEndpoint(model, log),
  },
} satisfies Record<string, ModelServerDefinition>);

export type ModelKind = keyof typeof MODEL_SERVERS;
export const MODEL_KIND_IDS = Object.keys(MODEL_SERVERS) as ModelKind[];
