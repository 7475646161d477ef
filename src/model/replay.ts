/**
 * The replay server: an OpenAI-compatible endpoint that answers from a cassette (see cassette.ts),
 * streaming or not, tool calls included (a tool loop is scripted with one `turn` entry per step),
 * so pipelines built on any OpenAI client run offline.
 */
import http from 'node:http';
import type { Log } from '../util/log.js';
import { findEntry, loadCassette, missMessage, requestFacts, type CassetteEntry } from './cassette.js';
import { AGENT_HEADER, parseJsonBody, readBodyOr413, refuseWithoutKey, sendError, sendResponsesAnswer } from './http-util.js';
import { closeServer, discardBody, headerValue, listenLocal, sendJson } from '../util/http.js';
import { GENERATION_ROUTES } from './wire.js';
import {
  SSE_HEADERS,
  chatCompletionEvents,
  chatCompletionJson,
  completionEvents,
  completionJson,
  estimateTokens,
  newId,
  type Endpoint,
  type ResponseSpec,
} from './openai-wire.js';

export interface ModelServerHandle {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  /** The key every call must carry (README "Security": only saboteur's proxy and judges get it). */
  apiKey?: string;
  close(): Promise<void>;
  stats(): { hits: number; misses: number };
}

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

/**
 * The replay server keeps no responses: a request that points at a stored one cannot be answered
 * from the cassette. (Through saboteur's proxy this never happens: the proxy expands
 * `previous_response_id` into the conversation before the request reaches the model.)
 */
function responsesRefusal(body: Record<string, unknown>): string | undefined {
  if (body.previous_response_id !== undefined && body.previous_response_id !== null) {
    return "the replay server keeps no responses, so previous_response_id cannot be resolved here: send the whole conversation in `input` (saboteur's proxy does this for the pipeline)";
  }
  if (body.input === undefined) return 'a Responses request needs `input` (a string or a list of items)';
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function modelNames(entries: readonly CassetteEntry[], extra: readonly string[] = []): string[] {
  const names = new Set<string>(extra);
  for (const e of entries) if (e.response.model) names.add(e.response.model);
  if (names.size === 0) names.add(REPLAY_DEFAULT_MODEL);
  return [...names];
}

function specFor(entry: CassetteEntry, endpoint: Endpoint, requestedModel: unknown, promptText: string): ResponseSpec {
  const r = entry.response;
  const completionTokens = estimateTokens(r.content + r.toolCalls.map((t) => t.name + t.arguments).join(''));
  const promptTokens = estimateTokens(promptText);
  const usage = r.usage
    ? {
        prompt_tokens: r.usage.prompt_tokens,
        completion_tokens: r.usage.completion_tokens,
        total_tokens: r.usage.total_tokens ?? r.usage.prompt_tokens + r.usage.completion_tokens,
      }
    : { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  return {
    id: newId(endpoint === 'completions' ? 'cmpl-' : endpoint === 'responses' ? 'resp_' : 'chatcmpl-'),
    created: Math.floor(Date.now() / 1000),
    model: r.model ?? (typeof requestedModel === 'string' && requestedModel ? requestedModel : REPLAY_DEFAULT_MODEL),
    content: r.content,
    toolCalls: endpoint === 'completions' ? [] : r.toolCalls,
    finishReason: r.finishReason ?? (r.toolCalls.length && endpoint !== 'completions' ? 'tool_calls' : 'stop'),
    usage,
    systemFingerprint: 'fp_saboteur_replay',
  };
}

export async function startReplayServer(options: ReplayOptions): Promise<ModelServerHandle> {
  const entries = loadCassette(options.cassette);
  const models = modelNames(entries, options.models);
  const { log } = options;
  const apiKey = options.apiKey;
  let hits = 0;
  let misses = 0;

  const server = http.createServer(async (req, res) => {
    try {
      if (refuseWithoutKey(req, res, apiKey, 'the replay server')) return;
      const url = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && (url === '/v1/models' || url === '/models')) {
        const created = Math.floor(Date.now() / 1000);
        return sendJson(res, 200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created, owned_by: 'saboteur-replay' })),
        });
      }
      if (req.method === 'GET' && url === '/health') return sendJson(res, 200, { status: 'ok' });
      const endpoint = GENERATION_ROUTES.get(url);
      if (!endpoint || req.method !== 'POST') {
        discardBody(req);
        return sendError(
          res,
          404,
          'not_found',
          `the replay server has no route ${req.method} ${url} (it serves POST /v1/chat/completions, POST /v1/completions, POST /v1/responses, GET /v1/models)`,
        );
      }
      const raw = await readBodyOr413(req, res, 'the replay server', options.maxBodyBytes);
      if (!raw) return;
      const body = parseJsonBody(res, raw);
      if (!body) return;
      if (endpoint === 'responses') {
        const refusal = responsesRefusal(body);
        if (refusal) return sendError(res, 400, 'invalid_request_error', refusal);
      }
      const agent = headerValue(req, AGENT_HEADER);
      const facts = requestFacts(body, endpoint, agent);
      const entry = findEntry(entries, facts);
      if (!entry) {
        misses++;
        const message = missMessage(facts, options.cassette);
        log.warn(`replay: ${message}`);
        return sendError(res, 400, 'cassette_miss', message, 'cassette_miss');
      }
      hits++;
      log.debug(`replay: ${endpoint} agent=${agent ?? '(none)'} turn=${facts.turn} -> ${options.cassette}:${entry.line}`);
      if (entry.latencyMs) await sleep(entry.latencyMs);
      const spec = specFor(entry, endpoint, body.model, facts.text);
      if (endpoint === 'responses') {
        return sendResponsesAnswer(res, spec, body);
      }
      if (body.stream === true) {
        const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
        res.writeHead(200, SSE_HEADERS);
        const events = endpoint === 'completions' ? completionEvents(spec, includeUsage) : chatCompletionEvents(spec, includeUsage);
        for (const e of events) res.write(e);
        res.end();
        return;
      }
      sendJson(res, 200, endpoint === 'completions' ? completionJson(spec) : chatCompletionJson(spec));
    } catch (err) {
      log.warn(`replay: request failed: ${(err as Error).message}`);
      sendError(res, 500, 'server_error', `replay server error: ${(err as Error).message}`);
    }
  });

  const port = await listenLocal(server);
  log.info(`replay model server on http://127.0.0.1:${port}/v1 (${entries.length} entries from ${options.cassette})`);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    close: () => closeServer(server),
    stats: () => ({ hits, misses }),
  };
}
