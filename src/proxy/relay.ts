/**
 * How an upstream answer reaches the pipeline: streamed straight through (chunk by chunk, assembled
 * on the side for the trace), or, for a hit call, collected whole, corrupted and written again in
 * the same format.
 */
import type http from 'node:http';
import type { Log } from '../util/log.js';
import type { ProxyCall } from '../runlog/schema.js';
import type { Injector, InjectionContext } from '../inject/types.js';
import { sendJson } from '../util/http.js';
import { SSE_HEADERS, sseData, type AssembledResponse, type Endpoint } from '../model/openai-wire.js';
import { responsesEvent } from '../model/responses-wire.js';
import type { EndpointWire } from '../model/wire.js';
import { injectAnswer } from './inject-answer.js';

/** What became of one forwarded call: its status, the assembled answer, and what the saboteur did. */
export interface Outcome {
  status: number;
  assembled?: AssembledResponse;
  error?: string;
  corruption?: ProxyCall['corruption'];
  hit?: ProxyCall['hit'];
}

/**
 * Writes the upstream response to the client as it arrives (headers at once, each chunk as soon as
 * it comes) and assembles it on the side. Resolves when the upstream response is over.
 */
export function streamThrough(up: http.IncomingMessage, res: http.ServerResponse, wire: EndpointWire | undefined): Promise<Outcome> {
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
export async function corruptThrough(
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
