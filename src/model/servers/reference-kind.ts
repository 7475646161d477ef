/** `model.kind: reference`: the benchmarks' own answers, no model and no recording (docs/models.md). */
import { startReferenceEndpoint } from '../endpoints.js';
import type { ModelServerDefinition } from './types.js';

export const REFERENCE_KIND: ModelServerDefinition = {
  id: 'reference',
  description:
    "the benchmark's own answer to each task (HumanEval's reference solutions), no model at all: a first offline run of your own pipeline",
  requires: [],
  start: (model, log, options) => startReferenceEndpoint(model, log, options.references ?? []),
};
