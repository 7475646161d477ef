/**
 * SGLang: `python -m sglang.launch_server --model-path MODEL --host H --port P [args]`.
 * `model.binary` names the Python interpreter (the one whose environment has sglang installed).
 */
import type { ModelSettings } from '../settings.js';
import { setsOwnKey, type LaunchPlan, type ListenAddress } from './types.js';

export const SGLANG_DEFAULT_PORT = 30000;

export function sglangPlan(model: ModelSettings, at: ListenAddress): LaunchPlan {
  // SGLang takes the key only as a flag: argv, which the fence's own pid namespace hides from the pipeline.
  const keyed = at.apiKey !== undefined && !setsOwnKey(model.args);
  const key = keyed ? ['--api-key', at.apiKey!] : [];
  return {
    kind: 'sglang',
    file: model.binary ?? 'python3',
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
