/** `model:` settings as the config gives them, for tests that start a model kind directly. */
import type { ModelSettings } from '../../src/model/settings.js';

export function modelSettings(over: Partial<ModelSettings>): ModelSettings {
  return {
    kind: 'vllm',
    model: 'Qwen/Qwen2.5-Coder-7B-Instruct',
    args: [],
    env: {},
    startupTimeoutMs: 30_000,
    reuse: false,
    record: false,
    sampling: {},
    ...over,
  };
}
