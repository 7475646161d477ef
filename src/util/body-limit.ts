/**
 * Request bodies with a limit, for saboteur's own servers (the proxy, the OTLP receiver): a body
 * over the limit gets a 413 with a message, not a connection reset. The answer goes out as soon as
 * the limit is passed (or at once when Content-Length says so); the rest of the upload is read
 * and dropped, so the client gets to read the answer, up to a bound past which the connection is
 * cut after all.
 */
import type http from 'node:http';

export const DEFAULT_BODY_LIMIT = 32 * 1024 * 1024;
/** How much of a refused upload is read and dropped before the connection is cut. */
const DRAIN_LIMIT = 256 * 1024 * 1024;
const DRAIN_MS = 15_000;

export type BodyRead = { ok: true; body: Buffer } | { ok: false; limit: number };

export function limitText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB` : `${bytes} bytes`;
}

/** The message every 413 of saboteur's servers carries. */
export function tooLargeMessage(what: string, limit: number): string {
  return `${what}: the request body is over the ${limitText(limit)} limit`;
}

function drain(req: http.IncomingMessage, alreadyRead: number): void {
  let drained = alreadyRead;
  const cut = setTimeout(() => req.socket.destroy(), DRAIN_MS);
  cut.unref();
  req.removeAllListeners('data');
  req.on('data', (c: Buffer) => {
    drained += c.length;
    if (drained > DRAIN_LIMIT) req.socket.destroy();
  });
  req.on('end', () => clearTimeout(cut));
  req.on('close', () => clearTimeout(cut));
  req.resume();
}

/**
 * The body, or `{ok: false}` as soon as it is known to be over `limit` (the caller then answers
 * 413; the rest of the upload is drained in the background). Rejects on a socket error.
 */
export function readBodyWithin(req: http.IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    drain(req, 0);
    return Promise.resolve({ ok: false, limit });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limit) {
        done = true;
        chunks.length = 0;
        drain(req, size);
        resolve({ ok: false, limit });
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve({ ok: true, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size) });
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      reject(err);
    });
  });
}
