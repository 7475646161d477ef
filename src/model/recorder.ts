/**
 * The recorder: sits in front of a live OpenAI-compatible endpoint, forwards every call (streams
 * pass through as they arrive) and appends one cassette entry per successful generation, matched by
 * request hash and agent, so the same run can later be replayed offline. Chat completions,
 * completions and the Responses API are recorded alike (an entry holds the answer's text and tool
 * calls; `match.endpoint` says which API asked).
 */
import http from 'node:http';
import { appendFile } from 'node:fs/promises';
import { makeDir } from '../util/make-dir.js';
import path from 'node:path';
import type { Log } from '../util/log.js';
import { requestHash, type CassetteEntryInput } from './cassette.js';
import { AGENT_HEADER, parseJsonBody, readBodyOr413, refuseWithoutKey, sendError } from './http-util.js';
import { closeServer, discardBody, headerValue, listenLocal } from '../util/http.js';
import type { AssembledResponse, Endpoint } from './openai-wire.js';
import { GENERATION_ROUTES, wireFor } from './wire.js';
import type { ModelServerHandle } from './replay.js';
import { createUpstream, UpstreamError } from './upstream.js';

export interface RecorderOptions {
  upstreamBaseUrl: string;
  apiKey?: string;
  /** The cassette file entries are appended to (created with its folder when missing). */
  cassette: string;
  log: Log;
  /** Largest request body accepted (default: the proxy's, 32 MiB); larger ones get a 413. */
  maxBodyBytes?: number;
  /** The key calls to the recorder must carry; `record: true` always draws one. Without it, no key is asked for. */
  ownKey?: string;
}

export function cassetteEntryFor(
  body: Record<string, unknown>,
  endpoint: Endpoint,
  agent: string | undefined,
  a: AssembledResponse,
): CassetteEntryInput {
  const response: CassetteEntryInput['response'] = { content: a.content };
  if (a.toolCalls.length) response.tool_calls = a.toolCalls.map((t) => ({ id: t.id || undefined, name: t.name, arguments: t.arguments }));
  if (a.finishReason) response.finish_reason = a.finishReason;
  if (a.model) response.model = a.model;
  if (a.usage) response.usage = { prompt_tokens: a.usage.prompt_tokens, completion_tokens: a.usage.completion_tokens };
  return {
    match: { hash: requestHash(body, endpoint), ...(agent ? { agent } : {}), ...(endpoint === 'responses' ? { endpoint } : {}) },
    response,
  };
}

export async function startRecorder(options: RecorderOptions): Promise<ModelServerHandle> {
  const { log } = options;
  const upstream = createUpstream({ baseUrl: options.upstreamBaseUrl, apiKey: options.apiKey });
  await makeDir(path.dirname(path.resolve(options.cassette)));
  const apiKey = options.ownKey;
  let recorded = 0;
  let skipped = 0;
  // Appends run one after another so concurrent calls never interleave lines.
  let writes: Promise<void> = Promise.resolve();
  const append = (entry: CassetteEntryInput) => {
    writes = writes
      .then(() => appendFile(options.cassette, `${JSON.stringify(entry)}\n`))
      .catch((err: Error) => log.warn(`recorder: cannot append to ${options.cassette}: ${err.message}`));
  };

  const server = http.createServer(async (req, res) => {
    const url = req.url ?? '/';
    const route = url.split('?')[0];
    try {
      if (refuseWithoutKey(req, res, apiKey, 'the recorder')) return;
      if (req.method === 'GET' && route === '/v1/models') {
        const up = await upstream.fetchBody({ method: 'GET', path: url.slice(3), headers: { accept: 'application/json' } });
        res.writeHead(up.status, { 'content-type': String(up.headers['content-type'] ?? 'application/json') });
        return res.end(up.body);
      }
      const endpoint = GENERATION_ROUTES.get(route);
      if (!endpoint || req.method !== 'POST') {
        discardBody(req);
        return sendError(res, 404, 'not_found', `the recorder has no route ${req.method} ${route}`);
      }
      const raw = await readBodyOr413(req, res, 'the recorder', options.maxBodyBytes);
      if (!raw) return;
      const body = parseJsonBody(res, raw);
      if (!body) return;
      const agent = headerValue(req, AGENT_HEADER);
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: String(req.headers.accept ?? '*/*') };
      if (agent) headers[AGENT_HEADER] = agent;
      const up = await upstream.request({ method: 'POST', path: url.slice(3), headers, body: raw });
      const status = up.statusCode ?? 502;
      const contentType = String(up.headers['content-type'] ?? 'application/json');
      const streaming = contentType.includes('text/event-stream');
      res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-cache' });
      res.flushHeaders();
      const wire = wireFor(endpoint);
      const sse = streaming ? wire.sse() : undefined;
      const chunks: Buffer[] = [];
      for await (const chunk of up) {
        res.write(chunk);
        if (sse) sse.feed(chunk as Buffer);
        else chunks.push(chunk as Buffer);
      }
      res.end();
      let assembled: AssembledResponse | undefined;
      if (sse) assembled = sse.end();
      else {
        try {
          assembled = wire.json(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch {
          assembled = undefined;
        }
      }
      if (status >= 200 && status < 300 && assembled && !assembled.error) {
        recorded++;
        append(cassetteEntryFor(body, endpoint, agent, assembled));
      } else {
        skipped++;
        log.warn(`recorder: not recording ${endpoint} (status ${status}${assembled?.error ? `: ${assembled.error}` : ''})`);
      }
    } catch (err) {
      skipped++;
      const message = err instanceof UpstreamError ? err.message : `recorder error: ${(err as Error).message}`;
      log.warn(`recorder: ${message}`);
      sendError(res, 502, 'upstream_unreachable', message);
    }
  });

  const port = await listenLocal(server);
  log.info(`recording ${options.upstreamBaseUrl} into ${options.cassette} (via http://127.0.0.1:${port}/v1)`);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    stats: () => ({ hits: recorded, misses: skipped }),
    close: async () => {
      await closeServer(server);
      await writes;
      upstream.close();
    },
  };
}
