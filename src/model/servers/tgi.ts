/** Text Generation Inference: `text-generation-launcher --model-id MODEL --hostname H --port P [args]`. */
import type { ModelSettings } from '../settings.js';
import { needsModel, type LaunchPlan, type ListenAddress, type ProcessServerDefinition } from './types.js';

export function tgiPlan(model: ModelSettings, at: ListenAddress): LaunchPlan {
  return {
    kind: 'tgi',
    file: model.binary ?? TGI_SERVER.binary,
    args: ['--model-id', model.model!, '--hostname', at.host, '--port', String(at.port), ...model.args],
    env: {},
    // The launcher answers /health only once the shards are loaded and warmed up.
    ready: ['/health'],
    version: [{ path: '/info', field: 'version' }],
  };
}

export const TGI_SERVER: ProcessServerDefinition = {
  id: 'tgi',
  description: 'Text Generation Inference (`text-generation-launcher`)',
  requires: needsModel('tgi'),
  binary: 'text-generation-launcher',
  defaultPort: 3000,
  plan: tgiPlan,
};
