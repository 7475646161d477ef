/**
 * Small node:http helpers shared by the replay server, the recorder and the proxy: listen on
 * 127.0.0.1 port 0, read a body, answer JSON or an OpenAI-style error, close for good.
 */
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { DEFAULT_BODY_LIMIT, readBodyWithin, tooLargeMessage } from '../util/body-limit.js';
import { SSE_HEADERS, type ResponseSpec } from './openai-wire.js';
import { responseEvents, responseJson, responseObject } from './responses-wire.js';

/** Starts `server` on 127.0.0.1 on a free port and returns that port. */
export function listenLocal(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops accepting, drops idle keep-alive sockets (else close() waits for clients to hang up) and waits. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeIdleConnections();
    // Connections still busy (a stream the client abandoned) are cut after a short grace.
    setTimeout(() => server.closeAllConnections(), 200).unref();
  });
}

/** The whole body, unbounded: for test servers and fakes only; saboteur's own servers use readBodyOr413. */
export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A request body read within the limit every server of saboteur's keeps (util/body-limit.ts), or
 * undefined once a 413 naming `who` and the limit has been sent.
 */
export async function readBodyOr413(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  who: string,
  limit = DEFAULT_BODY_LIMIT,
): Promise<Buffer | undefined> {
  const read = await readBodyWithin(req, limit);
  if (read.ok) return read.body;
  sendError(res, 413, 'invalid_request_error', tooLargeMessage(`${who} refused the call`, read.limit), 'request_too_large');
  return undefined;
}

/** A body nobody will read (a refused call): dropped as it arrives, never held. */
export function discardBody(req: http.IncomingMessage): void {
  req.resume();
}

/**
 * The key of a model server saboteur starts in its own process (replay, embedded, the recorder):
 * drawn per start, handed to the proxy and saboteur's judges only, never to a pipeline, so the
 * proxy is the one road to the model (README "Security").
 */
export function newServerKey(): string {
  return `sabm-${randomBytes(24).toString('base64url')}`;
}

/** The key a request carries: `Authorization: Bearer KEY`, or `api-key` / `x-api-key`. */
function presentedKey(req: http.IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (auth) return /^Bearer\s+(.+)$/i.exec(auth.trim())?.[1].trim() ?? auth.trim();
  const alt = req.headers['api-key'] ?? req.headers['x-api-key'];
  return Array.isArray(alt) ? alt[0] : alt;
}

export function keyMatches(req: http.IncomingMessage, key: string): boolean {
  const given = Buffer.from(presentedKey(req) ?? '');
  const wanted = Buffer.from(key);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Answers 401 (and drops the body) unless the request carries `key`; true when it was refused.
 * Only /health answers without the key: it says nothing but "up".
 */
export function refuseWithoutKey(req: http.IncomingMessage, res: http.ServerResponse, key: string | undefined, who: string): boolean {
  if (key === undefined || keyMatches(req, key)) return false;
  if (req.method === 'GET' && (req.url ?? '').split('?')[0] === '/health') return false;
  discardBody(req);
  sendError(
    res,
    401,
    'invalid_api_key',
    `${who} answers saboteur's proxy only: pipelines reach the model through OPENAI_BASE_URL with their own OPENAI_API_KEY`,
    'invalid_api_key',
  );
  return true;
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...extraHeaders });
  res.end(text);
}

/** A Responses-API answer written from a spec: one JSON object, or its SSE events when the request streams. */
export function sendResponsesAnswer(res: http.ServerResponse, spec: ResponseSpec, body: Record<string, unknown>): void {
  const response = responseObject(spec, body);
  if (body.stream !== true) return sendJson(res, 200, responseJson(response));
  res.writeHead(200, SSE_HEADERS);
  for (const e of responseEvents(response)) res.write(e);
  res.end();
}

/** The error body OpenAI clients understand: they surface `error.message` to the user. */
export function openaiErrorBody(type: string, message: string, code: string | null = null) {
  return { error: { type, message, code, param: null } };
}

export function sendError(res: http.ServerResponse, status: number, type: string, message: string, code: string | null = null): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, status, openaiErrorBody(type, message, code));
}

/** Parses a JSON request body, or answers 400 and returns undefined. */
/**
 * How deep a request body may nest. Far beyond any chat request or tool schema, far below the
 * depth at which JSON.stringify overflows the stack (about 8,000 levels): a body that passes can be
 * written again, summarized and traced.
 */
export const MAX_BODY_DEPTH = 256;

/** Whether `value` nests arrays and objects deeper than `max` levels (no recursion: any depth is safe). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push({ v: child, depth: depth + 1 });
  }
  return false;
}

export function parseJsonBody(res: http.ServerResponse, raw: Buffer): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    sendError(res, 400, 'invalid_request_error', `the request body is not JSON: ${(err as Error).message}`);
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    sendError(res, 400, 'invalid_request_error', 'the request body must be a JSON object');
  else if (nestsDeeperThan(value, MAX_BODY_DEPTH))
    sendError(res, 400, 'invalid_request_error', `the request body is nested deeper than ${MAX_BODY_DEPTH} levels`);
  else return value as Record<string, unknown>;
  return undefined;
}

/** The one header saboteur uses to name the calling agent (the proxy sets it towards the model). */
export const AGENT_HEADER = 'x-saboteur-agent';

export function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}
