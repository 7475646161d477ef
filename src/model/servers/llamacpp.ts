/**
 * llama.cpp's server: `llama-server -m FILE --host H --port P [args]`, `-hf USER/REPO[:QUANT]` for
 * a model written `hf:USER/REPO[:QUANT]`, `-mu URL` for a URL. /health answers 503 while the model loads.
 */
import type { ModelSettings } from '../settings.js';
import { setsOwnKey, type LaunchPlan, type ListenAddress } from './types.js';

export const LLAMACPP_DEFAULT_PORT = 8080;

/** `model` is the GGUF path already resolved against the config folder (or an hf: URI). */
export function llamacppPlan(model: ModelSettings, at: ListenAddress): LaunchPlan {
  const m = model.model!;
  const source = m.startsWith('hf:') ? ['-hf', m.slice(3)] : /^https?:\/\//.test(m) ? ['-mu', m] : ['-m', m];
  // The key goes in through LLAMA_API_KEY (llama-server reads it for --api-key), not argv.
  const keyed = at.apiKey !== undefined && !setsOwnKey(model.args) && model.env.LLAMA_API_KEY === undefined;
  return {
    kind: 'llamacpp',
    file: model.binary ?? 'llama-server',
    args: [...source, '--host', at.host, '--port', String(at.port), ...model.args],
    env: keyed ? { LLAMA_API_KEY: at.apiKey! } : {},
    requiresKey: keyed,
    ready: ['/health'],
    version: [{ path: '/props', field: 'build_info' }],
  };
}
