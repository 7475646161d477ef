/**
 * Ollama: `ollama serve` listens where OLLAMA_HOST says (it has no port flag); once it answers,
 * the model is pulled through POST /api/pull (a no-op when the runner already has it).
 */
import type { ModelSettings } from '../settings.js';
import { needsModel, type LaunchPlan, type ListenAddress, type ProcessServerDefinition } from './types.js';

export function ollamaPlan(model: ModelSettings, at: ListenAddress): LaunchPlan {
  return {
    kind: 'ollama',
    file: model.binary ?? OLLAMA_SERVER.binary,
    args: ['serve', ...model.args],
    env: { OLLAMA_HOST: `${at.host.includes(':') ? `[${at.host}]` : at.host}:${at.port}` },
    ready: ['/api/version'],
    version: [{ path: '/api/version', field: 'version' }],
    pull: model.model,
  };
}

export const OLLAMA_SERVER: ProcessServerDefinition = {
  id: 'ollama',
  description: 'Ollama (`ollama serve`, the model pulled first)',
  requires: needsModel('ollama'),
  binary: 'ollama',
  defaultPort: 11434,
  plan: ollamaPlan,
};
