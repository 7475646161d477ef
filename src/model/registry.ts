/**
 * Every `model.kind`: how saboteur gets an OpenAI-compatible endpoint for the run, and which
 * keys of `model:` the kind cannot start without (checked when the config is read, so a missing
 * key stops the run before anything starts). The config schema and its example, the action's
 * `model-kind` input and `startModel` read this table. A kind saboteur starts as a process is one
 * `ProcessServerDefinition` in its own module plus one line in PROCESS_SERVERS; any other kind is
 * one `ModelServerDefinition` in its own module plus one line in MODEL_SERVERS; docs/models.md's
 * table and action.yml's `model-kind` description must name it (test/docs/model-kinds.test.ts).
 */
import { checkRegistry } from '../util/registry.js';
import { recordIfAsked } from './endpoints.js';
import { EMBEDDED_KIND } from './servers/embedded-kind.js';
import { EXTERNAL_KIND } from './servers/external-kind.js';
import { REFERENCE_KIND } from './servers/reference-kind.js';
import { REPLAY_KIND } from './servers/replay-kind.js';
import { COMMAND_SERVER } from './servers/command-kind.js';
import { startProcessServer } from './servers/index.js';
import { LLAMACPP_SERVER } from './servers/llamacpp.js';
import { OLLAMA_SERVER } from './servers/ollama.js';
import { SGLANG_SERVER } from './servers/sglang.js';
import { TGI_SERVER } from './servers/tgi.js';
import type { ModelServerDefinition, ProcessServerDefinition } from './servers/types.js';
import { VLLM_SERVER } from './servers/vllm.js';

export type { ModelServerDefinition, RequiredKey } from './servers/types.js';

/** The kinds saboteur starts as a process group of its own (and stops, with everything it started). */
export const PROCESS_SERVERS = checkRegistry('process server', {
  vllm: VLLM_SERVER,
  sglang: SGLANG_SERVER,
  llamacpp: LLAMACPP_SERVER,
  ollama: OLLAMA_SERVER,
  tgi: TGI_SERVER,
  command: COMMAND_SERVER,
} satisfies Record<string, ProcessServerDefinition>);

export type ProcessServerKind = keyof typeof PROCESS_SERVERS;

/** The `model.kind` entry of a kind saboteur starts as a process. */
export function processKind(definition: ProcessServerDefinition): ModelServerDefinition {
  const { id, description, requires } = definition;
  return {
    id,
    description,
    requires,
    start: async (model, log, options) => recordIfAsked(model, log, await startProcessServer(definition, model, log, options)),
  };
}

/** The `model.kind` entries of a table of process kinds, under the same keys. */
export function processKinds<R extends Record<string, ProcessServerDefinition>>(table: R): { [K in keyof R]: ModelServerDefinition } {
  const entries = Object.entries(table).map(([key, definition]) => [key, processKind(definition)]);
  return Object.fromEntries(entries) as { [K in keyof R]: ModelServerDefinition };
}

export const MODEL_SERVERS = checkRegistry('model kind', {
  ...processKinds(PROCESS_SERVERS),
  external: EXTERNAL_KIND,
  embedded: EMBEDDED_KIND,
  replay: REPLAY_KIND,
  reference: REFERENCE_KIND,
} satisfies Record<string, ModelServerDefinition>);

export type ModelKind = keyof typeof MODEL_SERVERS;
export const MODEL_KIND_IDS = Object.keys(MODEL_SERVERS) as ModelKind[];
