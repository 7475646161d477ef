/** The model's settings as the config gives them (docs/configuration.md, "model"; parsed in config/load.ts). */
import type { ModelKind } from './registry.js';

export interface ModelSettings {
  kind: ModelKind;
  model?: string;
  args: string[];
  env: Record<string, string>;
  startupTimeoutMs: number;
  baseUrl?: string;
  apiKeyEnv?: string;
  run?: string;
  binary?: string;
  port?: number;
  host?: string;
  reuse: boolean;
  gpus?: string;
  cassette?: string;
  record: boolean;
  sampling: { temperature?: number; topP?: number; maxTokens?: number; seed?: number };
}
