/**
 * A keep-alive client for one OpenAI-compatible base URL (http or https). The proxy and the
 * recorder send every call through one of these: reusing sockets is what keeps the proxy's
 * overhead well under a millisecond.
 */
import http from 'node:http';
import https from 'node:https';

export interface UpstreamRequest {
  method: string;
  /** The path after the base URL's /v1, with its query: `/chat/completions`. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

export interface Upstream {
  readonly baseUrl: string;
  /** Resolves when the response headers arrive; rejects (with the base URL in the message) when the server cannot be reached. */
  request(r: UpstreamRequest): Promise<http.IncomingMessage>;
  /** Sends a request and reads the whole body. */
  fetchBody(r: UpstreamRequest): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>;
  close(): void;
}

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export function createUpstream(options: { baseUrl: string; apiKey?: string }): Upstream {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new UpstreamError(`"${options.baseUrl}" is not a URL (expected something like http://127.0.0.1:8000/v1)`);
  }
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') throw new UpstreamError(`${options.baseUrl}: only http and https model endpoints are supported`);
  const agentOptions = { keepAlive: true, keepAliveMsecs: 1000, scheduling: 'lifo' as const, noDelay: true };
  const agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const prefix = url.pathname.replace(/\/+$/, '');
  const auth: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  const baseUrl = options.baseUrl.replace(/\/+$/, '');

  /**
   * One try. `fresh` sends it on a new connection: a kept-alive connection the server closed while
   * it sat idle resets the next request sent on it, before the server read a byte of it (Node's
   * `request.reusedSocket`); that request is sent once more on a new connection.
   */
  function attempt(r: UpstreamRequest, fresh: boolean): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...r.headers, ...auth };
      if (r.body) headers['content-length'] = r.body.length;
      let answered = false;
      const req = (secure ? https : http).request(
        {
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port || (secure ? 443 : 80),
          method: r.method,
          path: prefix + r.path,
          headers,
          agent: fresh ? false : agent,
        },
        (res) => {
          answered = true;
          resolve(res);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (!answered && !fresh && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
          attempt(r, true).then(resolve, reject);
          return;
        }
        reject(new UpstreamError(`the model server at ${baseUrl} did not answer (${err.code ?? err.message})`, err.code));
      });
      req.end(r.body);
    });
  }

  function request(r: UpstreamRequest): Promise<http.IncomingMessage> {
    return attempt(r, false);
  }

  async function fetchBody(r: UpstreamRequest) {
    const res = await request(r);
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    return { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) };
  }

  return { baseUrl, request, fetchBody, close: () => agent.destroy() };
}
