/**
 * An OpenAI-compatible HTTP server in front of an in-process generate function: what the
 * `embedded` kind (node-llama-cpp) serves on 127.0.0.1, so the proxy and the pipelines talk to it
 * exactly as to vLLM. Chat completions and the Responses API (text only, no stored responses:
 * saboteur's proxy sends the whole conversation), streaming or not.
 */
import http from 'node:http';
import type { Log } from '../../util/log.js';
import { parseJsonBody, readBodyOr413, refuseWithoutKey, sendError, sendResponsesAnswer } from '../http-util.js';
import { closeServer, discardBody, listenLocal, sendJson } from '../../util/http.js';
import { SSE_HEADERS, chatCompletionEvents, chatCompletionJson, flattenContent, newId, type ResponseSpec } from '../openai-wire.js';
import { responsesMessages } from '../responses-wire.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface GenerateParams {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
}

export interface Generation {
  text: string;
  finishReason: 'stop' | 'length';
  promptTokens: number;
  completionTokens: number;
}

export type Generate = (messages: ChatMessage[], params: GenerateParams, signal: AbortSignal) => Promise<Generation>;

/** A prompt the model's context cannot hold: answered 400 `context_length_exceeded`, as OpenAI does. */
export class PromptTooLong extends Error {}

/** A generation stopped at the server's time limit: answered 504. */
export class GenerationTimedOut extends Error {}

export interface ChatServerOptions {
  modelName: string;
  generate: Generate;
  log: Log;
  /** Who answers, for error messages: "embedded (node-llama-cpp)". */
  owner: string;
  /** The key every call must carry; the embedded kind always draws one. Without it, no key is asked for. */
  apiKey?: string;
  /** Largest request body accepted (default: the proxy's, 32 MiB); larger ones get a 413. */
  maxBodyBytes?: number;
  /** A generation running longer is stopped and answered 504 (default: none). */
  generationTimeoutMs?: number;
}

export interface ChatServerHandle {
  baseUrl: string;
  apiKey?: string;
  close(): Promise<void>;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The request's messages as plain chat turns; tool turns become user text, so nothing is dropped silently. */
export function toChatMessages(raw: unknown): ChatMessage[] | string {
  if (!Array.isArray(raw) || raw.length === 0) return 'messages must be a non-empty array';
  const out: ChatMessage[] = [];
  for (const m of raw as { role?: unknown; content?: unknown }[]) {
    const content = flattenContent(m?.content);
    if (m?.role === 'system' || m?.role === 'developer') out.push({ role: 'system', content });
    else if (m?.role === 'assistant') out.push({ role: 'assistant', content });
    else if (m?.role === 'user') out.push({ role: 'user', content });
    else if (m?.role === 'tool') out.push({ role: 'user', content: `Tool result:\n${content}` });
    else return `unknown message role ${JSON.stringify(m?.role)}`;
  }
  if (out[out.length - 1].role !== 'user') return 'the last message must come from the user (or a tool)';
  return out;
}

const ROUTES: Record<string, 'chat' | 'responses'> = { '/v1/chat/completions': 'chat', '/v1/responses': 'responses' };

/** A Responses request this server cannot answer, and what to send instead. */
function responsesRefusal(body: Record<string, unknown>): string | undefined {
  if (body.previous_response_id !== undefined && body.previous_response_id !== null) {
    return "this server keeps no responses, so previous_response_id cannot be resolved here: send the whole conversation in `input` (saboteur's proxy does this for the pipeline)";
  }
  if (body.background === true) return 'background responses are not supported: leave `background` unset';
  if (typeof body.input !== 'string' && !Array.isArray(body.input)) return '`input` must be a string or a list of input items';
  return undefined;
}

export async function startChatServer(options: ChatServerOptions): Promise<ChatServerHandle> {
  const { log, modelName } = options;
  const apiKey = options.apiKey;
  let warnedTools = false;
  const server = http.createServer(async (req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    try {
      if (refuseWithoutKey(req, res, apiKey, options.owner)) return;
      if (req.method === 'GET' && url === '/health') return sendJson(res, 200, { status: 'ok' });
      if (req.method === 'GET' && (url === '/v1/models' || url === '/models')) {
        return sendJson(res, 200, {
          object: 'list',
          data: [{ id: modelName, object: 'model', created: Math.floor(Date.now() / 1000), owned_by: 'saboteur' }],
        });
      }
      const route = req.method === 'POST' ? ROUTES[url] : undefined;
      if (!route) {
        discardBody(req);
        return sendError(
          res,
          404,
          'not_found',
          `${options.owner} serves POST /v1/chat/completions, POST /v1/responses and GET /v1/models, not ${req.method} ${url}`,
        );
      }
      const raw = await readBodyOr413(req, res, options.owner, options.maxBodyBytes);
      if (!raw) return;
      const body = parseJsonBody(res, raw);
      if (!body) return;
      const refusal = route === 'responses' ? responsesRefusal(body) : undefined;
      if (refusal) return sendError(res, 400, 'invalid_request_error', refusal);
      const messages = toChatMessages(route === 'responses' ? responsesMessages(body) : body.messages);
      if (typeof messages === 'string') return sendError(res, 400, 'invalid_request_error', messages);
      if (Array.isArray(body.tools) && body.tools.length && !warnedTools) {
        warnedTools = true;
        log.warn(`${options.owner}: requests carry tool definitions, which this server ignores (it answers with text only)`);
      }
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      const signal = options.generationTimeoutMs
        ? AbortSignal.any([abort.signal, AbortSignal.timeout(options.generationTimeoutMs)])
        : abort.signal;
      const params: GenerateParams = {
        temperature: num(body.temperature),
        topP: num(body.top_p),
        maxTokens: num(body.max_output_tokens) ?? num(body.max_completion_tokens) ?? num(body.max_tokens),
        seed: num(body.seed),
      };
      const g = await options.generate(messages, params, signal);
      const spec: ResponseSpec = {
        id: newId(route === 'responses' ? 'resp_' : 'chatcmpl-'),
        created: Math.floor(Date.now() / 1000),
        model: modelName,
        content: g.text,
        toolCalls: [],
        finishReason: g.finishReason,
        usage: { prompt_tokens: g.promptTokens, completion_tokens: g.completionTokens, total_tokens: g.promptTokens + g.completionTokens },
      };
      if (route === 'responses') {
        return sendResponsesAnswer(res, spec, body);
      }
      if (body.stream === true) {
        const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
        res.writeHead(200, SSE_HEADERS);
        for (const e of chatCompletionEvents(spec, includeUsage)) res.write(e);
        res.end();
        return;
      }
      sendJson(res, 200, chatCompletionJson(spec));
    } catch (err) {
      const message = `${options.owner}: ${(err as Error).message}`;
      if (err instanceof PromptTooLong) return sendError(res, 400, 'invalid_request_error', message, 'context_length_exceeded');
      if (err instanceof GenerationTimedOut) return sendError(res, 504, 'timeout', message, 'timeout');
      log.warn(`${options.owner}: request failed: ${(err as Error).message}`);
      sendError(res, 500, 'server_error', message);
    }
  });
  const port = await listenLocal(server);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey, close: () => closeServer(server) };
}
