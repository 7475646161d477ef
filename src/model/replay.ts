/**
 * The replay server: an OpenAI-compatible endpoint that answers from a cassette (see cassette.ts),
 * streaming or not, tool calls included (a tool loop is scripted with one `turn` entry per step),
 * so pipelines built on any OpenAI client run offline.
 */
import type { Log } from '../util/log.js';
import { findEntry, loadCassette, missMessage, type CassetteEntry } from './cassette.js';
import { startAnswerServer, type ModelServerHandle } from './answer-server.js';

export type { ModelServerHandle } from './answer-server.js';

export const REPLAY_DEFAULT_MODEL = 'saboteur-replay';

export interface ReplayOptions {
  cassette: string;
  log: Log;
  /** Extra model names /v1/models lists (the configured `model.model`). */
  models?: string[];
  /** The key calls must carry; `model.kind: replay` always draws one (newServerKey). Without it, no key is asked for. */
  apiKey?: string;
  /** Largest request body accepted (default: the proxy's, 32 MiB); larger ones get a 413. */
  maxBodyBytes?: number;
}

export function modelNames(entries: readonly CassetteEntry[], extra: readonly string[] = []): string[] {
  const names = new Set<string>(extra);
  for (const e of entries) if (e.response.model) names.add(e.response.model);
  if (names.size === 0) names.add(REPLAY_DEFAULT_MODEL);
  return [...names];
}

export async function startReplayServer(options: ReplayOptions): Promise<ModelServerHandle> {
  const entries = loadCassette(options.cassette);
  const server = await startAnswerServer({
    name: 'the replay server',
    label: 'replay',
    log: options.log,
    models: modelNames(entries, options.models),
    defaultModel: REPLAY_DEFAULT_MODEL,
    apiKey: options.apiKey,
    maxBodyBytes: options.maxBodyBytes,
    answer: (facts) => {
      const entry = findEntry(entries, facts);
      if (!entry) return { miss: missMessage(facts, options.cassette), code: 'cassette_miss' };
      return { response: entry.response, note: `${options.cassette}:${entry.line}`, latencyMs: entry.latencyMs };
    },
  });
  options.log.info(`replay model server on ${server.baseUrl} (${entries.length} entries from ${options.cassette})`);
  return server;
}
