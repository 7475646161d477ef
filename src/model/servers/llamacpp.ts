/**
 * llama.cpp's server: `llama-server -m FILE --host H --port P [args]`, `-hf USER/REPO[:QUANT]` for
 * a model written `hf:USER/REPO[:QUANT]`, `-mu URL` for a URL. /health answers 503 while the model loads.
 */
import { existsSync } from 'node:fs';
import type { ModelSettings } from '../settings.js';
import { ModelStartError } from './errors.js';
import { needsModel, setsOwnKey, type LaunchPlan, type ListenAddress, type ProcessServerDefinition } from './types.js';

/** `model` is the GGUF path already resolved against the config folder (or an hf: URI). */
export function llamacppPlan(model: ModelSettings, at: ListenAddress): LaunchPlan {
  const m = model.model!;
  const source = m.startsWith('hf:') ? ['-hf', m.slice(3)] : /^https?:\/\//.test(m) ? ['-mu', m] : ['-m', m];
  // The key goes in through LLAMA_API_KEY (llama-server reads it for --api-key), not argv.
  const keyed = at.apiKey !== undefined && !setsOwnKey(model.args) && model.env.LLAMA_API_KEY === undefined;
  return {
    kind: 'llamacpp',
    file: model.binary ?? LLAMACPP_SERVER.binary,
    args: [...source, '--host', at.host, '--port', String(at.port), ...model.args],
    env: keyed ? { LLAMA_API_KEY: at.apiKey! } : {},
    requiresKey: keyed,
    ready: ['/health'],
    version: [{ path: '/props', field: 'build_info' }],
  };
}

export const LLAMACPP_SERVER: ProcessServerDefinition = {
  id: 'llamacpp',
  description: 'llama.cpp (`llama-server`) on a GGUF file',
  requires: needsModel('llamacpp'),
  binary: 'llama-server',
  defaultPort: 8080,
  modelIsFile: true,
  check(model) {
    if (!/^(hf:|https?:\/\/)/.test(model.model!) && !existsSync(model.model!)) {
      throw new ModelStartError(
        `model.model: the GGUF file ${model.model} does not exist (model.kind llamacpp takes a GGUF path relative to the config file, or hf:USER/REPO[:QUANT])`,
      );
    }
  },
  plan: llamacppPlan,
};
