/**
 * An OpenAI-compatible endpoint whose answers come from a function of the request, not from a
 * model: chat completions, completions and the Responses API, streaming or not, tool calls
 * included. The replay server (answers from a cassette) and the reference server (the benchmark's
 * own answers) are two such functions.
 */
import http from 'node:http';
import type { Log } from '../util/log.js';
import { requestFacts, type CassetteEntry, type RequestFacts } from './cassette.js';
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

/** What one request gets: an answer (with a note for the debug log and a delay), or why there is none (a 400). */
export type Answer = { response: CassetteEntry['response']; note: string; latencyMs?: number } | { miss: string; code: string };

export interface AnswerServerOptions {
  /** How the server names itself in messages: "the replay server". */
  name: string;
  /** The prefix of its log lines and the owner /v1/models reports: "replay". */
  label: string;
  log: Log;
  /** The model names /v1/models lists (at least one). */
  models: string[];
  /** The model an answer names when neither it nor the request names one. */
  defaultModel: string;
  /** The key calls must carry; without it, no key is asked for. */
  apiKey?: string;
  /** Largest request body accepted (default: the proxy's, 32 MiB); larger ones get a 413. */
  maxBodyBytes?: number;
  answer(facts: RequestFacts, body: Record<string, unknown>): Answer;
}

/**
 * The server keeps no responses: a request that points at a stored one cannot be answered.
 * (Through saboteur's proxy this never happens: the proxy expands `previous_response_id` into the
 * conversation before the request reaches the model.)
 */
function responsesRefusal(name: string, body: Record<string, unknown>): string | undefined {
  if (body.previous_response_id !== undefined && body.previous_response_id !== null) {
    return `${name} keeps no responses, so previous_response_id cannot be resolved here: send the whole conversation in \`input\` (saboteur's proxy does this for the pipeline)`;
  }
  if (body.input === undefined) return 'a Responses request needs `input` (a string or a list of items)';
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function specFor(
  r: CassetteEntry['response'],
  endpoint: Endpoint,
  requestedModel: unknown,
  promptText: string,
  { defaultModel, label }: Pick<AnswerServerOptions, 'defaultModel' | 'label'>,
): ResponseSpec {
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
    model: r.model ?? (typeof requestedModel === 'string' && requestedModel ? requestedModel : defaultModel),
    content: r.content,
    toolCalls: endpoint === 'completions' ? [] : r.toolCalls,
    finishReason: r.finishReason ?? (r.toolCalls.length && endpoint !== 'completions' ? 'tool_calls' : 'stop'),
    usage,
    systemFingerprint: `fp_saboteur_${label}`,
  };
}

function sendAnswer(res: http.ServerResponse, endpoint: Endpoint, spec: ResponseSpec, body: Record<string, unknown>): void {
  if (endpoint === 'responses') return sendResponsesAnswer(res, spec, body);
  if (body.stream === true) {
    const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    res.writeHead(200, SSE_HEADERS);
    const events = endpoint === 'completions' ? completionEvents(spec, includeUsage) : chatCompletionEvents(spec, includeUsage);
    for (const e of events) res.write(e);
    res.end();
    return;
  }
  sendJson(res, 200, endpoint === 'completions' ? completionJson(spec) : chatCompletionJson(spec));
}

export async function startAnswerServer(options: AnswerServerOptions): Promise<ModelServerHandle> {
  const { log, name, label, apiKey } = options;
  let hits = 0;
  let misses = 0;

  const server = http.createServer(async (req, res) => {
    try {
      if (refuseWithoutKey(req, res, apiKey, name)) return;
      const url = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && (url === '/v1/models' || url === '/models')) {
        const created = Math.floor(Date.now() / 1000);
        return sendJson(res, 200, {
          object: 'list',
          data: options.models.map((id) => ({ id, object: 'model', created, owned_by: `saboteur-${label}` })),
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
          `${name} has no route ${req.method} ${url} (it serves POST /v1/chat/completions, POST /v1/completions, POST /v1/responses, GET /v1/models)`,
        );
      }
      const raw = await readBodyOr413(req, res, name, options.maxBodyBytes);
      if (!raw) return;
      const body = parseJsonBody(res, raw);
      if (!body) return;
      if (endpoint === 'responses') {
        const refusal = responsesRefusal(name, body);
        if (refusal) return sendError(res, 400, 'invalid_request_error', refusal);
      }
      const agent = headerValue(req, AGENT_HEADER);
      const facts = requestFacts(body, endpoint, agent);
      const answer = options.answer(facts, body);
      if ('miss' in answer) {
        misses++;
        log.warn(`${label}: ${answer.miss}`);
        return sendError(res, 400, answer.code, answer.miss, answer.code);
      }
      hits++;
      log.debug(`${label}: ${endpoint} agent=${agent ?? '(none)'} turn=${facts.turn} -> ${answer.note}`);
      if (answer.latencyMs) await sleep(answer.latencyMs);
      sendAnswer(res, endpoint, specFor(answer.response, endpoint, body.model, facts.text, options), body);
    } catch (err) {
      log.warn(`${label}: request failed: ${(err as Error).message}`);
      sendError(res, 500, 'server_error', `${name} error: ${(err as Error).message}`);
    }
  });

  const port = await listenLocal(server);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    close: () => closeServer(server),
    stats: () => ({ hits, misses }),
  };
}
