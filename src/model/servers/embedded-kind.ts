/** `model.kind: embedded`: node-llama-cpp run by saboteur itself, in a bounded child process. */
import { recordIfAsked } from '../endpoints.js';
import { startEmbeddedServer } from './index.js';
import type { ModelServerDefinition } from './types.js';

export const EMBEDDED_KIND: ModelServerDefinition = {
  id: 'embedded',
  description: 'node-llama-cpp in an engine process saboteur starts',
  requires: [],
  start: async (model, log, options) => recordIfAsked(model, log, await startEmbeddedServer(model, log, options)),
};
