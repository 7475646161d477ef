/**
 * saboteur's proxy: the OpenAI endpoint the pipeline talks to. It attributes every call to its
 * invocation (by the per-invocation key) and agent, forwards it to the model server with the
 * model's own key, streams the answer straight back (chunk by chunk, nothing buffered) while
 * assembling it for the trace, and, for calls the injector hits, corrupts the answer on the way.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Log } from '../util/log.js';
import type { ProxyCall } from '../runlog/schema.js';
import type { Injector, InjectionContext } from '../inject/types.js';
import { AGENT_HEADER, closeServer, headerValue, listenLocal, readBody, sendError, sendJson } from '../model/http-util.js';
import {
  SSE_HEADERS,
  SseAssembler,
  assembleJson,
  chatCompletionEvents,
  completionEvents,
  sseData,
  specFromAssembled,
  type AssembledResponse,
  type Endpoint,
} from '../model/openai-wire.js';
import { createUpstream, UpstreamError, type Upstream } from '../model/upstream.js';
import { clientKey, identifyAgent, parseRoute, summarizeRequest, systemTextOf, type AgentRule } from './identify.js';
import type { Invocation, InvocationRegistry } from './registry.js';

export interface ProxyOptions {
  upstream: { baseUrl: string; apiKey?: string };
  agents: readonly AgentRule[];
  registry: InvocationRegistry;
  injector?: Injector;
  log: Log;
}

export interface ProxyHandle {
  /** http://127.0.0.1:PORT/v1: the pipeline's OPENAI_BASE_URL. */
  baseUrl: string;
  close(): Promise<void>;
}

/** `agentCallIndex` of calls that generate nothing (GET /v1/models): they take no part in injection. */
export const NO_AGENT_CALL_INDEX = -1;

const UNKNOWN_KEY_MESSAGE =
  'saboteur proxy: the API key is not a live saboteur invocation key. Each pipeline run gets its own OPENAI_API_KEY from saboteur and the key stops working when that run ends; use the key from the environment, not a model key.';

interface Outcome {
  status: number;
  assembled?: AssembledResponse;
  error?: string;
  corruption?: ProxyCall['corruption'];
}

function usageOf(a: AssembledResponse | undefined): NonNullable<ProxyCall['response']>['usage'] {
  return a?.usage ? { promptTokens: a.usage.prompt_tokens, completionTokens: a.usage.completion_tokens } : undefined;
}

function responseOf(a: AssembledResponse | undefined, status: number): ProxyCall['response'] {
  if (!a || status < 200 || status >= 300) return undefined;
  return {
    content: a.content,
    ...(a.toolCalls.length ? { toolCalls: a.toolCalls.map((t) => ({ ...t })) } : {}),
    ...(a.finishReason ? { finishReason: a.finishReason } : {}),
    ...(a.usage ? { usage: usageOf(a) } : {}),
  };
}

/**
 * Writes the upstream response to the client as it arrives (headers at once, each chunk as soon as
 * it comes) and assembles it on the side. Resolves when the upstream response is over.
 */
function streamThrough(up: http.IncomingMessage, res: http.ServerResponse, endpoint: Endpoint | undefined): Promise<Outcome> {
  return new Promise((resolve) => {
    const status = up.statusCode ?? 502;
    const contentType = String(up.headers['content-type'] ?? 'application/json');
    const isSse = contentType.includes('text/event-stream');
    const headers: Record<string, string> = { 'content-type': contentType };
    if (isSse) headers['cache-control'] = 'no-cache';
    else if (up.headers['content-length']) headers['content-length'] = String(up.headers['content-length']);
    res.writeHead(status, headers);
    if (isSse) res.flushHeaders();
    const sse = isSse && endpoint ? new SseAssembler(endpoint) : undefined;
    const chunks: Buffer[] = [];
    let settled = false;
    const done = (error?: string) => {
      if (settled) return;
      settled = true;
      let assembled: AssembledResponse | undefined;
      if (sse) assembled = sse.end();
      else if (endpoint) {
        try {
          assembled = assembleJson(JSON.parse(Buffer.concat(chunks).toString('utf8')), endpoint);
        } catch {
          assembled = undefined;
        }
      }
      const err = error ?? assembled?.error ?? (status >= 400 ? `HTTP ${status} from the model server` : undefined);
      resolve({ status, assembled, error: err });
    };
    up.on('data', (chunk: Buffer) => {
      if (!res.write(chunk)) {
        up.pause();
        res.once('drain', () => up.resume());
      }
      if (sse) sse.feed(chunk);
      else chunks.push(chunk);
    });
    up.on('end', () => {
      res.end();
      done();
    });
    up.on('error', () => undefined);
    up.on('close', () => {
      if (settled) return;
      const message = 'the model server closed the connection in the middle of the response';
      if (isSse && !res.writableEnded) res.end(sseData({ error: { type: 'upstream_error', message: `saboteur proxy: ${message}` } }));
      else res.destroy();
      done(message);
    });
    // The client hung up: stop the generation upstream too.
    res.on('close', () => {
      if (!res.writableFinished) {
        up.destroy();
        done('the client closed the connection before the response ended');
      }
    });
  });
}

async function readAll(up: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of up) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A hit call: the whole upstream answer is collected, its text corrupted, and the result written as
 * the same kind of response (a valid SSE stream for a streamed call). Anything that cannot be
 * corrupted (an error, several choices, no text) goes out unchanged.
 */
async function corruptThrough(
  up: http.IncomingMessage,
  res: http.ServerResponse,
  endpoint: Endpoint,
  body: Record<string, unknown>,
  injector: Injector,
  ctx: InjectionContext,
  log: Log,
): Promise<Outcome> {
  const status = up.statusCode ?? 502;
  const contentType = String(up.headers['content-type'] ?? 'application/json');
  const raw = await readAll(up);
  const isSse = contentType.includes('text/event-stream');
  const original = (assembled?: AssembledResponse, error?: string): Outcome => {
    res.writeHead(status, { 'content-type': contentType, 'content-length': raw.length });
    res.end(raw);
    return { status, assembled, error: error ?? assembled?.error ?? (status >= 400 ? `HTTP ${status} from the model server` : undefined) };
  };
  let assembled: AssembledResponse;
  let json: Record<string, unknown> | undefined;
  if (isSse) {
    const sse = new SseAssembler(endpoint);
    sse.feed(raw);
    assembled = sse.end();
  } else {
    try {
      json = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      return original(undefined, status >= 400 ? undefined : 'the model server answered with a body that is not JSON');
    }
    assembled = assembleJson(json, endpoint);
  }
  if (status < 200 || status >= 300 || assembled.error || assembled.choiceCount !== 1) return original(assembled);
  let corruption: ProxyCall['corruption'];
  try {
    corruption = await injector.corrupt(assembled.content, ctx);
  } catch (err) {
    log.warn(`proxy: corrupting ${ctx.agent} call ${ctx.agentCallIndex} of ${ctx.instanceId} failed, passing it through: ${(err as Error).message}`);
  }
  if (!corruption) return original(assembled);
  const delivered: AssembledResponse = { ...assembled, content: corruption.after };
  if (isSse) {
    const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true || assembled.usage !== undefined;
    const spec = specFromAssembled(delivered, typeof body.model === 'string' ? body.model : 'unknown');
    const events = endpoint === 'completions' ? completionEvents(spec, includeUsage) : chatCompletionEvents(spec, includeUsage);
    res.writeHead(status, SSE_HEADERS);
    for (const e of events) res.write(e);
    res.end();
  } else {
    const choice = (json!.choices as Record<string, unknown>[])[0];
    if (endpoint === 'completions') choice.text = corruption.after;
    else (choice.message as Record<string, unknown>).content = corruption.after;
    sendJson(res, status, json);
  }
  return { status, assembled: delivered, corruption };
}

export async function startProxy(options: ProxyOptions): Promise<ProxyHandle> {
  const { registry, injector, log } = options;
  const agents = options.agents;
  const upstream: Upstream = createUpstream(options.upstream);

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const t0 = performance.now();
    const startedAt = new Date().toISOString();
    const route = parseRoute(req.method ?? 'GET', req.url ?? '/');
    if (!route) {
      req.resume();
      return sendError(res, 404, 'not_found', `saboteur proxy has no route ${req.method} ${req.url} (it serves /v1/chat/completions, /v1/completions, /v1/models and the same under /agents/NAME/v1)`);
    }
    const invocation = registry.get(clientKey(req.headers));
    if (!invocation) {
      req.resume();
      log.warn(`proxy: refused ${req.method} ${req.url}: not a live invocation key`);
      return sendError(res, 401, 'invalid_api_key', UNKNOWN_KEY_MESSAGE, 'invalid_api_key');
    }
    const header = headerValue(req, AGENT_HEADER);

    if (route.endpoint === 'models') {
      req.resume();
      const { agent, source } = identifyAgent({ header, pathAgent: route.pathAgent }, agents);
      const base: ProxyCall = { id: randomUUID(), agent, agentSource: source, endpoint: 'models', agentCallIndex: NO_AGENT_CALL_INDEX, startedAt, durationMs: 0, stream: false, status: 0, request: {} };
      return forward(invocation, base, t0, res, { method: 'GET', path: route.upstreamPath, headers: { accept: 'application/json', [AGENT_HEADER]: agent } });
    }

    const raw = await readBody(req);
    const endpoint = route.endpoint;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('not a JSON object');
    } catch (err) {
      const message = `the request body is not a JSON object: ${(err as Error).message}`;
      const { agent, source } = identifyAgent({ header, pathAgent: route.pathAgent }, agents);
      const call: ProxyCall = { id: randomUUID(), agent, agentSource: source, endpoint, agentCallIndex: NO_AGENT_CALL_INDEX, startedAt, durationMs: 0, stream: false, status: 400, request: {}, error: message };
      invocation.finish(invocation.begin(call), { ...call, durationMs: performance.now() - t0 });
      return sendError(res, 400, 'invalid_request_error', `saboteur proxy: ${message}`);
    }
    const { agent, source } = identifyAgent({ header, pathAgent: route.pathAgent, system: header || route.pathAgent ? undefined : systemTextOf(body, endpoint) }, agents);
    const agentCallIndex = invocation.nextAgentCallIndex(agent);
    const ctx: InjectionContext = { instanceId: invocation.instanceId, variant: invocation.variant, agent, agentCallIndex };
    let hit = false;
    if (injector) {
      try {
        hit = injector.decide(ctx);
      } catch (err) {
        log.warn(`proxy: injection decision failed for ${agent} call ${agentCallIndex}: ${(err as Error).message}`);
      }
    }
    const base: ProxyCall = { id: randomUUID(), agent, agentSource: source, endpoint, agentCallIndex, startedAt, durationMs: 0, stream: body.stream === true, status: 0, request: {} };
    const headers = { 'content-type': 'application/json', accept: String(req.headers.accept ?? 'application/json'), [AGENT_HEADER]: agent };
    return forward(invocation, base, t0, res, { method: 'POST', path: route.upstreamPath, headers, body: raw }, { body, endpoint, hit, ctx });
  }

  async function forward(
    invocation: Invocation,
    base: ProxyCall,
    t0: number,
    res: http.ServerResponse,
    upstreamRequest: Parameters<Upstream['request']>[0],
    generation?: { body: Record<string, unknown>; endpoint: Endpoint; hit: boolean; ctx: InjectionContext },
  ): Promise<void> {
    const pending = upstream.request(upstreamRequest);
    // The summary is built while the model works, off the response's path.
    if (generation) base.request = summarizeRequest(generation.body, generation.endpoint);
    const slot = invocation.begin(base);
    let outcome: Outcome;
    try {
      const up = await pending;
      outcome =
        generation?.hit && injector
          ? await corruptThrough(up, res, generation.endpoint, generation.body, injector, generation.ctx, log)
          : await streamThrough(up, res, generation?.endpoint);
    } catch (err) {
      const message = err instanceof UpstreamError ? `saboteur proxy: ${err.message}` : `saboteur proxy: forwarding failed: ${(err as Error).message}`;
      log.warn(message);
      sendError(res, 502, 'upstream_unreachable', message, 'upstream_unreachable');
      outcome = { status: 502, error: message };
    }
    const call: ProxyCall = { ...base, durationMs: performance.now() - t0, status: outcome.status };
    const response = generation ? responseOf(outcome.assembled, outcome.status) : undefined;
    if (response) call.response = response;
    if (outcome.error) call.error = outcome.error;
    if (outcome.corruption) call.corruption = outcome.corruption;
    invocation.finish(slot, call);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      log.warn(`proxy: ${req.method} ${req.url} failed: ${err.message}`);
      sendError(res, 500, 'server_error', `saboteur proxy error: ${err.message}`);
    });
  });
  server.keepAliveTimeout = 30_000;
  const port = await listenLocal(server);
  log.info(`proxy on http://127.0.0.1:${port}/v1 -> ${upstream.baseUrl}`);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      await closeServer(server);
      upstream.close();
    },
  };
}
