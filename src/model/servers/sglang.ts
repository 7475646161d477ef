/**
 * SGLang: `python -m sglang.launch_server --model-path MODEL --host H --port P [args]`.
 * `model.binary` names the Python interpreter (the one whose environment has sglang installed).
 */
import type { ModelSettings } from '../settings.js';
import { needsModel, setsOwnKey, type LaunchPlan, type ListenAddress, type ProcessServerDefinition } from './types.js';

export function sglangPlan(model: ModelSettings, at: ListenAddress): LaunchPlan {
  // SGLang takes the key only as a flag: argv, which the fence's own pid namespace hides from the pipeline.
  const keyed = at.apiKey !== undefined && !setsOwnKey(model.args);
  const key = keyed ? ['--api-key', at.apiKey!] : [];
  return {
    kind: 'sglang',
    file: model.binary ?? SGLANG_SERVER.binary,
    args: ['-m', 'sglang.launch_server', '--model-path', model.model!, '--host', at.host, '--port', String(at.port), ...key, ...model.args],
    env: {},
    requiresKey: keyed,
    ready: ['/health', '/v1/models'],
    version: [
      { path: '/version', field: 'version' },
      { path: '/get_server_info', field: 'version' },
    ],
  };
}

export const SGLANG_SERVER: ProcessServerDefinition = {
  id: 'sglang',
  description: 'SGLang (`python -m sglang.launch_server`)',
  requires: needsModel('sglang'),
  binary: 'python3',
  defaultPort: 30000,
  plan: sglangPlan,
};
