/** vLLM: `vllm serve MODEL --host H --port P [args]`; ready when /health and /v1/models answer. */
import type { ModelSettings } from '../settings.js';
import { needsModel, setsOwnKey, type LaunchPlan, type ListenAddress, type ProcessServerDefinition } from './types.js';

export function vllmPlan(model: ModelSettings, at: ListenAddress): LaunchPlan {
  // The key goes in through VLLM_API_KEY, not argv, which other users of the machine can read.
  const keyed = at.apiKey !== undefined && !setsOwnKey(model.args);
  return {
    kind: 'vllm',
    file: model.binary ?? VLLM_SERVER.binary,
    args: ['serve', model.model!, '--host', at.host, '--port', String(at.port), ...model.args],
    env: keyed ? { VLLM_API_KEY: at.apiKey! } : {},
    requiresKey: keyed,
    // /health answers once the engine is up; /v1/models once the API routes are mounted.
    ready: ['/health', '/v1/models'],
    version: [{ path: '/version', field: 'version' }],
  };
}

export const VLLM_SERVER: ProcessServerDefinition = {
  id: 'vllm',
  description: 'vLLM (`vllm serve`)',
  requires: needsModel('vllm'),
  binary: 'vllm',
  defaultPort: 8000,
  plan: vllmPlan,
};
