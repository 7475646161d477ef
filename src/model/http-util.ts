/**
 * The OpenAI side of saboteur's local servers (the replay server, the recorder, the proxy): the
 * error body clients understand, bodies over the limit or not JSON refused that way, the keys of the
 * servers saboteur starts, Responses answers. The plain node:http helpers are util/http.ts.
 */
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { DEFAULT_BODY_LIMIT, readBodyWithin, tooLargeMessage } from '../util/body-limit.js';
import { discardBody, MAX_BODY_DEPTH, nestsDeeperThan, sendJson } from '../util/http.js';
import { SSE_HEADERS, type ResponseSpec } from './openai-wire.js';
import { responseEvents, responseJson, responseObject } from './responses-wire.js';

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
