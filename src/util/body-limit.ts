/**
 * Request bodies with a limit, for saboteur's own servers (the proxy, the OTLP receiver): a body
 * over the limit gets a 413 with a message, never a connection reset. Past the limit the rest of the
 * upload is read and dropped, and the 413 goes out once the request is complete: a client still
 * writing its body when the answer came could see the connection reset under load (the answer
 * lost to the reset, or the connection reused while the server closed it). Only an upload past a
 * larger bound (bytes or time) is answered early, with `Connection: close`.
 */
import type http from 'node:http';

export const DEFAULT_BODY_LIMIT = 32 * 1024 * 1024;
/** How much of a refused upload is read and dropped before the answer goes out anyway. */
const DRAIN_LIMIT = 256 * 1024 * 1024;
const DRAIN_MS = 15_000;

/** `complete: false`: the upload was cut at the drain bound; answer with `Connection: close`. */
export type BodyRead = { ok: true; body: Buffer } | { ok: false; limit: number; complete: boolean };

export function limitText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB` : `${bytes} bytes`;
}

/** The message every 413 of saboteur's servers carries. */
export function tooLargeMessage(what: string, limit: number): string {
  return `${what}: the request body is over the ${limitText(limit)} limit`;
}

/** Reads and drops the rest of a refused upload; `complete` once it ended, or false at the bound. */
function drain(req: http.IncomingMessage, alreadyRead: number): Promise<boolean> {
  return new Promise((resolve) => {
    let drained = alreadyRead;
    const stop = (complete: boolean) => {
      clearTimeout(cut);
      req.removeListener('data', onData);
      resolve(complete);
    };
    const cut = setTimeout(() => stop(false), DRAIN_MS);
    cut.unref();
    const onData = (c: Buffer) => {
      drained += c.length;
      if (drained > DRAIN_LIMIT) stop(false);
    };
    req.removeAllListeners('data');
    req.on('data', onData);
    req.once('end', () => stop(true));
    req.once('close', () => stop(req.complete));
    req.once('error', () => stop(false));
    req.resume();
  });
}

/**
 * The body, or `{ok: false}` when it is over `limit`, once the rest of the upload was read and
 * dropped (the caller then answers 413, with `Connection: close` when `complete` is false; see
 * `refusalHeaders`). Rejects on a socket error.
 */
export function readBodyWithin(req: http.IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return drain(req, 0).then((complete) => ({ ok: false, limit, complete }));
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
        void drain(req, size).then((complete) => resolve({ ok: false, limit, complete }));
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

/** Headers of a 413: a connection whose upload was cut mid-way cannot carry another request. */
export function refusalHeaders(read: { complete: boolean }): Record<string, string> {
  return read.complete ? {} : { connection: 'close' };
}
