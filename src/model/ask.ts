/**
 * Asking a model one prompt (`Ask`): the client behind semantic corruption and the judges, a plain
 * chat call to the model server (not through the proxy, so it is neither attributed to a pipeline
 * nor corrupted itself), marked with its agent (`saboteur-autoinject` by default) so a cassette can
 * answer it.
 */
import { AGENT_HEADER } from './http-util.js';
import { assembleJson } from './openai-wire.js';
import { createUpstream } from './upstream.js';
import type { Ask } from '../util/ask.js';

export type { Ask };

export const AUTOINJECT_AGENT = 'saboteur-autoinject';

export interface SemanticModelOptions {
  baseUrl: string;
  apiKey?: string;
  /** The model to ask; when absent, the first one the server lists. */
  model?: string;
  temperature?: number;
  /** The agent name the call carries (default saboteur-autoinject; the judges use saboteur-judge). */
  agent?: string;
}

export interface SemanticModel extends Ask {
  close(): void;
}

export function createSemanticModel(options: SemanticModelOptions): SemanticModel {
  const upstream = createUpstream({ baseUrl: options.baseUrl, apiKey: options.apiKey });
  let model: Promise<string> | undefined = options.model ? Promise.resolve(options.model) : undefined;
  const modelName = () =>
    (model ??= upstream.fetchBody({ method: 'GET', path: '/models', headers: { accept: 'application/json' } }).then(({ status, body }) => {
      const id = status === 200 ? (JSON.parse(body.toString('utf8')) as { data?: { id?: string }[] }).data?.[0]?.id : undefined;
      if (!id)
        throw new Error(`${options.baseUrl} lists no model to ask for the semantic rewrite (GET /models: HTTP ${status}); set model.model`);
      return id;
    }));
  const ask = async (prompt: string): Promise<string> => {
    const body = Buffer.from(
      JSON.stringify({
        model: await modelName(),
        messages: [{ role: 'user', content: prompt }],
        temperature: options.temperature ?? 0,
        stream: false,
      }),
    );
    const res = await upstream.fetchBody({
      method: 'POST',
      path: '/chat/completions',
      headers: { 'content-type': 'application/json', accept: 'application/json', [AGENT_HEADER]: options.agent ?? AUTOINJECT_AGENT },
      body,
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new Error(`the model server answered the semantic rewrite with HTTP ${res.status} and a body that is not JSON`);
    }
    const a = assembleJson(parsed, 'chat.completions');
    if (res.status !== 200 || a.error)
      throw new Error(`the model server refused the semantic rewrite (HTTP ${res.status}): ${a.error ?? 'no detail'}`);
    return a.content;
  };
  return Object.assign(ask, { close: () => upstream.close() });
}
