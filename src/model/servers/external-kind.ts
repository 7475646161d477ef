/** `model.kind: external`: a server someone else runs, reached at `model.base-url`. */
import { startExternalEndpoint } from '../endpoints.js';
import type { ModelServerDefinition } from './types.js';

export const EXTERNAL_KIND: ModelServerDefinition = {
  id: 'external',
  description: 'a server someone else runs, at `model.base-url`',
  requires: [{ key: 'base-url', message: 'model.kind external needs base-url' }],
  start: (model, log) => startExternalEndpoint(model, log),
};
