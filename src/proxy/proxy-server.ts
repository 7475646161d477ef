/**
 * saboteur's proxy: the OpenAI endpoint the pipeline talks to. It attributes every call to its
 * invocation (by the per-invocation key) and agent, forwards it to the model server with the
 * model's own key, streams the answer straight back (chunk by chunk, nothing buffered) while
 * assembling it for the trace, and sabotages the target agent's calls through the run's injector:
 * a rewritten system prompt on the way in (sabotage.ts), a corrupted answer on the way out
 * (inject-answer.ts).
 * Chat completions, completions and the Responses API share all of this; what differs per API is
 * in src/model/wire.ts (reading and writing answers) and responses-route.ts (the Responses state).
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Log } from '../util/log.js';
import type { ProxyCall } from '../runlog/schema.js';
import type { Injector, InjectionContext } from '../inject/types.js';
import {
  AGENT_HEADER,
  closeServer,
  headerValue,
  listenLocal,
  MAX_BODY_DEPTH,
  nestsDeeperThan,
  sendError,
  sendJson,
} from '../model/http-util.js';
import { SSE_HEADERS, sseData, type AssembledResponse, type Endpoint } from '../model/openai-wire.js';
import { responsesEvent } from '../model/responses-wire.js';
import { wireFor, type EndpointWire } from '../model/wire.js';
import { DEFAULT_BODY_LIMIT, readBodyWithin, refusalHeaders, tooLargeMessage } from '../util/body-limit.js';
import { boundProxyCall } from '../runlog/bound.js';
import { createUpstream, UpstreamError, type Upstream } from '../model/upstream.js';
import { clientKey, identifyAgent, parseRoute, SERVED_ROUTES, summarizeRequest, systemTextOf, type AgentRule } from './identify.js';
import { injectAnswer } from './inject-answer.js';
import type { Invocation, InvocationRegistry } from './registry.js';
import { prepareResponses, rememberResponse, type PreparedResponses } from './responses-route.js';
import { rewriteRequest } from './sabotage.js';

export interface ProxyOptions {
  upstream: { baseUrl: string; apiKey?: string };
  agents: readonly AgentRule[];
  /**
   * The model the server serves: a call whose agent was named by a `match.model` rule (an alias such
   * as `coder-fast`) is sent upstream with this model instead.
   */
  model?: string;
  registry: InvocationRegistry;
  injector?: Injector;
  log: Log;
  /** Largest request body accepted (default 32 MiB); larger ones get a 413. */
  maxBodyBytes?: number;
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
  hit?: ProxyCall['hit'];
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
function streamThrough(up: http.IncomingMessage, res: http.ServerResponse, wire: EndpointWire | undefined): Promise<Outcome> {
  return new Promise((resolve) => {
    const status = up.statusCode ?? 502;
    const contentType = String(up.headers['content-type'] ?? 'application/json');
    const isSse = contentType.includes('text/event-stream');
    const headers: Record<string, string> = { 'content-type': contentType };
    if (isSse) headers['cache-control'] = 'no-cache';
    else if (up.headers['content-length']) headers['content-length'] = String(up.headers['content-length']);
    res.writeHead(status, headers);
    if (isSse) res.flushHeaders();
    const sse = isSse && wire ? wire.sse() : undefined;
    const chunks: Buffer[] = [];
    let settled = false;
    const done = (error?: string) => {
      if (settled) return;
      settled = true;
      let assembled: AssembledResponse | undefined;
      if (sse) assembled = sse.end();
      else if (wire) {
        try {
          assembled = wire.json(JSON.parse(Buffer.concat(chunks).toString('utf8')));
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
      if (isSse && !res.writableEnded) res.end(streamError(wire?.endpoint, `saboteur proxy: ${message}`));
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

/** An error written into a stream already under way, in the endpoint's own event format. */
function streamError(endpoint: Endpoint | undefined, message: string): string {
  if (endpoint === 'responses') return responsesEvent('error', { code: 'upstream_error', message, param: null, sequence_number: 0 });
  return sseData({ error: { type: 'upstream_error', code: 'upstream_error', message } });
}

/**
 * A hit call: the whole upstream answer is collected, its text corrupted, and the result written as
 * the same kind of response (a valid SSE stream for a streamed call). Anything that cannot be
 * corrupted (an error, several choices, no text) goes out unchanged. A Responses call whose
 * instructions the saboteur rewrote also comes this way, so that the response echoes the
 * instructions the pipeline sent (`echoed`), never the saboteur's.
 */
async function corruptThrough(
  up: http.IncomingMessage,
  res: http.ServerResponse,
  wire: EndpointWire,
  body: Record<string, unknown>,
  injector: Injector,
  ctx: InjectionContext,
  log: Log,
  hit: boolean,
  echoed?: { instructions: unknown },
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
    const sse = wire.sse();
    sse.feed(raw);
    assembled = sse.end();
  } else {
    try {
      json = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      return original(undefined, status >= 400 ? undefined : 'the model server answered with a body that is not JSON');
    }
    assembled = wire.json(json);
  }
  if (status < 200 || status >= 300 || assembled.error || assembled.choiceCount !== 1) {
    const why =
      status < 200 || status >= 300 || assembled.error
        ? `the model answered with an error (HTTP ${status}): passed through unchanged`
        : `the response has ${assembled.choiceCount} choices: only single-choice responses are corrupted`;
    return { ...original(assembled), ...(hit ? { hit: { mode: 'n/a', units: 0, drawn: 0, changed: 0, why } } : {}) };
  }
  const injected = hit ? await injectAnswer(assembled, injector, ctx, log) : undefined;
  const record = injected ? { hit: injected.hit } : {};
  if (!injected?.corruption && !echoed) return { ...original(assembled), ...record };
  const corruption = injected?.corruption;
  let delivered = injected?.corruption ? injected.delivered : assembled;
  if (echoed) {
    if (json) json.instructions = echoed.instructions;
    if (delivered.raw) delivered = { ...delivered, raw: { ...delivered.raw, instructions: echoed.instructions } };
  }
  if (isSse) {
    const events = wire.deliveredEvents(delivered, body);
    if (!events)
      return {
        ...original(assembled),
        ...(injected
          ? { hit: { ...injected.hit, changed: 0, why: 'the stream could not be written again, so it went out unchanged' } }
          : {}),
      };
    res.writeHead(status, SSE_HEADERS);
    for (const e of events) res.write(e);
    res.end();
  } else {
    sendJson(res, status, wire.deliveredJson(json!, delivered));
  }
  return { status, assembled: delivered, ...(corruption ? { corruption } : {}), ...record };
}

export async function startProxy(options: ProxyOptions): Promise<ProxyHandle> {
  const { registry, injector, log } = options;
  const agents = options.agents;
  const upstream: Upstream = createUpstream(options.upstream);

  const warnedRoutes = new Set<string>();

  /**
   * A route the proxy does not serve: 404, and, when the key is a live one, a call on its instance
   * naming the route, so the run log and the report say what the pipeline asked for.
   */
  function unsupported(req: http.IncomingMessage, res: http.ServerResponse, startedAt: string): void {
    req.resume();
    const where = `${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0]}`.slice(0, 200);
    const message = `saboteur proxy has no route ${where} (it serves ${SERVED_ROUTES})`;
    const invocation = registry.get(clientKey(req.headers));
    if (invocation) {
      const { agent, source } = identifyAgent(
        { header: headerValue(req, AGENT_HEADER), pathAgent: /^\/agents\/([^/]+)\//.exec(req.url ?? '')?.[1] },
        agents,
      );
      const call: ProxyCall = {
        id: randomUUID(),
        agent,
        agentSource: source,
        endpoint: 'unsupported',
        route: where,
        agentCallIndex: NO_AGENT_CALL_INDEX,
        startedAt,
        durationMs: 0,
        stream: false,
        status: 404,
        request: {},
        error: message,
      };
      invocation.finish(invocation.begin(call), call);
    }
    if (!warnedRoutes.has(where) && warnedRoutes.size < 100) {
      warnedRoutes.add(where);
      log.warn(`proxy: ${message}`);
    }
    sendError(res, 404, 'not_found', message);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const t0 = performance.now();
    const startedAt = new Date().toISOString();
    const route = parseRoute(req.method ?? 'GET', req.url ?? '/');
    if (!route) return unsupported(req, res, startedAt);
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
      const base: ProxyCall = {
        id: randomUUID(),
        agent,
        agentSource: source,
        endpoint: 'models',
        agentCallIndex: NO_AGENT_CALL_INDEX,
        startedAt,
        durationMs: 0,
        stream: false,
        status: 0,
        request: {},
      };
      await forward(invocation, base, t0, res, {
        method: 'GET',
        path: route.upstreamPath,
        headers: { accept: 'application/json', [AGENT_HEADER]: agent },
      });
      return;
    }

    const endpoint = route.endpoint;
    const refuse = (
      agent: { agent: string; source: ProxyCall['agentSource'] },
      message: string,
      request: ProxyCall['request'] = {},
      status: 400 | 413 = 400,
    ) => {
      const call = boundProxyCall({
        id: randomUUID(),
        agent: agent.agent,
        agentSource: agent.source,
        endpoint,
        agentCallIndex: NO_AGENT_CALL_INDEX,
        startedAt,
        durationMs: performance.now() - t0,
        stream: false,
        status,
        request,
        error: message,
      });
      invocation.finish(invocation.begin(call), call);
      sendError(res, status, 'invalid_request_error', `saboteur proxy: ${message}`, status === 413 ? 'request_too_large' : null);
    };
    const maxBytes = options.maxBodyBytes ?? DEFAULT_BODY_LIMIT;
    const read = await readBodyWithin(req, maxBytes);
    if (!read.ok) {
      const message = `saboteur proxy: ${tooLargeMessage('the call was refused', read.limit)}`;
      const { agent, source } = identifyAgent({ header, pathAgent: route.pathAgent }, agents);
      const call = boundProxyCall({
        id: randomUUID(),
        agent,
        agentSource: source,
        endpoint,
        agentCallIndex: NO_AGENT_CALL_INDEX,
        startedAt,
        durationMs: performance.now() - t0,
        stream: false,
        status: 413,
        request: {},
        error: message,
      });
      invocation.finish(invocation.begin(call), call);
      log.warn(`proxy: ${message} (${agent} of ${invocation.instanceId})`);
      for (const [name, value] of Object.entries(refusalHeaders(read))) res.setHeader(name, value);
      return sendError(res, 413, 'invalid_request_error', message, 'request_too_large');
    }
    const raw = read.body;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('not a JSON object');
    } catch (err) {
      return refuse(
        identifyAgent({ header, pathAgent: route.pathAgent }, agents),
        `the request body is not a JSON object: ${(err as Error).message}`,
      );
    }
    // Bounded here, once: what passes can be rewritten, re-sent and summarized without overflowing.
    if (nestsDeeperThan(body, MAX_BODY_DEPTH))
      return refuse(
        identifyAgent({ header, pathAgent: route.pathAgent }, agents),
        `the request body is nested deeper than ${MAX_BODY_DEPTH} levels`,
      );
    const requested = typeof body.model === 'string' ? body.model : undefined;
    // The Responses API's state lives here: the request goes upstream with its whole conversation.
    let responses: PreparedResponses | undefined;
    if (endpoint === 'responses') {
      responses = prepareResponses(body, invocation, { requestBytes: raw.length, maxBytes });
      if (!responses.ok)
        return refuse(
          identifyAgent({ header, pathAgent: route.pathAgent, model: requested }, agents),
          responses.message,
          requested ? { model: requested } : {},
          responses.status,
        );
      body = responses.body;
    }
    const sent = body;
    const { agent, source, signals } = identifyAgent(
      { header, pathAgent: route.pathAgent, system: () => systemTextOf(sent, endpoint), model: requested },
      agents,
    );
    const agentCallIndex = invocation.nextAgentCallIndex(agent);
    const ctx: InjectionContext = {
      instanceId: invocation.instanceId,
      variant: invocation.variant,
      agent,
      agentCallIndex,
      ...(invocation.plan !== undefined ? { plan: invocation.plan } : {}),
    };
    let hit = false;
    if (injector) {
      try {
        hit = injector.decide(ctx);
      } catch (err) {
        log.warn(`proxy: injection decision failed for ${agent} call ${agentCallIndex}: ${(err as Error).message}`);
      }
    }
    // The trace keeps the request as the pipeline sent it; the model gets the saboteur's rewrite of its system prompt.
    const rewritten = await rewriteRequest(body, endpoint, injector, ctx, log);
    const modelBody = rewritten?.body ?? body;
    // A model alias that named the agent is not a model the server knows: ask for the served one.
    const upstreamBody =
      source === 'model' && options.model && requested !== options.model ? { ...modelBody, model: options.model } : modelBody;
    const bytes = upstreamBody === body && !responses ? raw : Buffer.from(JSON.stringify(upstreamBody));
    const base: ProxyCall = {
      id: randomUUID(),
      agent,
      agentSource: source,
      ...(signals ? { agentSignals: signals } : {}),
      endpoint,
      agentCallIndex,
      startedAt,
      durationMs: 0,
      stream: body.stream === true,
      status: 0,
      request: {},
      ...(rewritten ? { rewrite: rewritten.record } : {}),
    };
    const headers = { 'content-type': 'application/json', accept: String(req.headers.accept ?? 'application/json'), [AGENT_HEADER]: agent };
    // A Responses object echoes its instructions: the pipeline must get back its own, not the saboteur's.
    const echoed =
      endpoint === 'responses' && rewritten && rewritten.body !== body ? { instructions: body.instructions ?? null } : undefined;
    const outcome = await forward(
      invocation,
      base,
      t0,
      res,
      { method: 'POST', path: route.upstreamPath, headers, body: bytes },
      { body, wire: wireFor(endpoint), hit, ctx, ...(echoed ? { echoed } : {}) },
    );
    if (responses?.ok && outcome.status >= 200 && outcome.status < 300)
      rememberResponse(invocation, responses, outcome.assembled, outcome.corruption !== undefined);
  }

  async function forward(
    invocation: Invocation,
    base: ProxyCall,
    t0: number,
    res: http.ServerResponse,
    upstreamRequest: Parameters<Upstream['request']>[0],
    generation?: {
      body: Record<string, unknown>;
      wire: EndpointWire;
      hit: boolean;
      ctx: InjectionContext;
      echoed?: { instructions: unknown };
    },
  ): Promise<Outcome> {
    const pending = upstream.request(upstreamRequest);
    // The summary is built while the model works, off the response's path.
    if (generation) base.request = summarizeRequest(generation.body, generation.wire.endpoint);
    // What the trace keeps is bounded (docs/security.md, "Security"): the model and the pipeline see it all.
    const bounded = boundProxyCall(base);
    const slot = invocation.begin(bounded);
    let outcome: Outcome;
    try {
      const up = await pending;
      outcome =
        (generation?.hit || generation?.echoed) && injector
          ? await corruptThrough(
              up,
              res,
              generation.wire,
              generation.body,
              injector,
              generation.ctx,
              log,
              generation.hit,
              generation.echoed,
            )
          : await streamThrough(up, res, generation?.wire);
    } catch (err) {
      const message =
        err instanceof UpstreamError ? `saboteur proxy: ${err.message}` : `saboteur proxy: forwarding failed: ${(err as Error).message}`;
      log.warn(message);
      sendError(res, 502, 'upstream_unreachable', message, 'upstream_unreachable');
      outcome = { status: 502, error: message };
    }
    const call: ProxyCall = { ...bounded, durationMs: performance.now() - t0, status: outcome.status };
    const response = generation ? responseOf(outcome.assembled, outcome.status) : undefined;
    if (response) call.response = response;
    if (outcome.error) call.error = outcome.error;
    if (outcome.corruption) call.corruption = outcome.corruption;
    if (outcome.hit) call.hit = outcome.hit;
    invocation.finish(slot, boundProxyCall(call));
    return outcome;
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
