/** Asks an OpenAI-compatible endpoint which models it serves: how a run tells a live server from a dead one. */
import { ModelStartError } from './servers/errors.js';

/**
 * Lists the models of an OpenAI-compatible endpoint. Rejects with a message that says what to check
 * when the endpoint is down, slow or refuses the key. An endpoint without /models (404) counts as up.
 */
export async function probeModels(baseUrl: string, options: { apiKey?: string; timeoutMs?: number } = {}): Promise<string[]> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new ModelStartError(
      `model endpoint ${baseUrl} is not reachable (GET ${url}: ${why}); is the server running, and is model.base-url right?`,
    );
  }
  if (res.status === 404) return [];
  if (res.status === 401 || res.status === 403) {
    throw new ModelStartError(
      `model endpoint ${baseUrl} refused the API key (HTTP ${res.status}); set model.api-key-env to the variable holding the key`,
    );
  }
  if (!res.ok)
    throw new ModelStartError(
      `model endpoint ${baseUrl} answered GET /models with HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`,
    );
  const body = (await res.json().catch(() => ({}))) as { data?: { id?: unknown }[] };
  return (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
}
