/**
 * Ollama: `ollama serve` listens where OLLAMA_HOST says (it has no port flag); once it answers,
 * the model is pulled through POST /api/pull (a no-op when the runner already has it).
 */
import type { ModelSettings } from '../settings.js';
import type { LaunchPlan, ListenAddress } from './types.js';

export const OLLAMA_DEFAULT_PORT = 11434;

export function ollamaPlan(model: ModelSettings, at: ListenAddress): LaunchPlan {
  return {
    kind: 'ollama',
    file: model.binary ?? 'ollama',
    args: ['serve', ...model.args],
    env: { OLLAMA_HOST: `${at.host.includes(':') ? `[${at.host}]` : at.host}:${at.port}` },
    ready: ['/api/version'],
    version: [{ path: '/api/version', field: 'version' }],
    pull: model.model,
  };
}
