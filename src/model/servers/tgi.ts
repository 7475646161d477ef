/** Text Generation Inference: `text-generation-launcher --model-id MODEL --hostname H --port P [args]`. */
import type { ModelSettings } from '../settings.js';
import type { LaunchPlan, ListenAddress } from './types.js';

export const TGI_DEFAULT_PORT = 3000;

export function tgiPlan(model: ModelSettings, at: ListenAddress): LaunchPlan {
  return {
    kind: 'tgi',
    file: model.binary ?? 'text-generation-launcher',
    args: ['--model-id', model.model!, '--hostname', at.host, '--port', String(at.port), ...model.args],
    env: {},
    // The launcher answers /health only once the shards are loaded and warmed up.
    ready: ['/health'],
    version: [{ path: '/info', field: 'version' }],
  };
}
