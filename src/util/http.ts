/**
 * Small node:http helpers every local server of saboteur's shares (the proxy, the tool server, the
 * OTLP receiver, the model stand-ins): listen on 127.0.0.1 port 0, read or drop a body, answer
 * JSON, bound a body's nesting, read a header, close for good.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** A body nobody will read (a refused call): dropped as it arrives, never held. */
export function discardBody(req: http.IncomingMessage): void {
  req.resume();
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...extraHeaders });
  res.end(text);
}

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

export function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}
