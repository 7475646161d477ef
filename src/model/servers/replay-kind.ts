/** `model.kind: replay`: the answers of a recorded cassette, no model at all. */
import { startReplayEndpoint } from '../endpoints.js';
import type { ModelServerDefinition } from './types.js';

export const REPLAY_KIND: ModelServerDefinition = {
  id: 'replay',
  description: 'the answers of a recorded cassette, no model at all',
  requires: [{ key: 'cassette', message: 'model.kind replay needs a cassette file' }],
  start: (model, log) => startReplayEndpoint(model, log),
};
