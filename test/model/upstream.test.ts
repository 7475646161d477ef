/**
 * The proxy's client to the model server keeps connections alive. A server that drops an idle kept
 * connection just as the next request goes out on it resets that request before reading it: the
 * request goes once more, on a new connection. A reset on a new connection, or after the answer
 * began, is the server's failure and is reported.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { createUpstream, UpstreamError } from '../../src/model/upstream.js';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const OK = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}';

/** A raw server: `onRequest(connection number, request number on it, socket)` per request head seen. */
async function rawServer(onRequest: (conn: number, nth: number, sock: net.Socket) => void): Promise<string> {
  let conns = 0;
  const server = net.createServer((sock) => {
    const conn = ++conns;
    let nth = 0;
    let buf = '';
    sock.on('error', () => undefined);
    sock.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      while (buf.includes('\r\n\r\n')) {
        const head = buf.slice(0, buf.indexOf('\r\n\r\n'));
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < head.length + 4 + length) return;
        buf = buf.slice(head.length + 4 + length);
        onRequest(conn, ++nth, sock);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1`;
}

const post = { method: 'POST', path: '/chat/completions', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"x":1}') };

describe('the model server client', () => {
  it('a request reset on a kept-alive connection goes once more on a new one', async () => {
    const seen: string[] = [];
    const base = await rawServer((conn, nth, sock) => {
      seen.push(`${conn}.${nth}`);
      // The second request on the first connection meets a connection the server is dropping.
      if (conn === 1 && nth === 2) sock.resetAndDestroy();
      else sock.write(OK);
    });
    const up = createUpstream({ baseUrl: base });
    try {
      expect((await up.fetchBody(post)).status).toBe(200);
      const again = await up.fetchBody(post);
      expect([again.status, again.body.toString()]).toEqual([200, '{}']);
      expect(seen).toEqual(['1.1', '1.2', '2.1']);
    } finally {
      up.close();
    }
  });

  it('a reset on a new connection is the server failing: reported, not sent again', async () => {
    const seen: string[] = [];
    const base = await rawServer((conn, nth, sock) => {
      seen.push(`${conn}.${nth}`);
      sock.resetAndDestroy();
    });
    const up = createUpstream({ baseUrl: base });
    try {
      await expect(up.fetchBody(post)).rejects.toThrow(new UpstreamError(`the model server at ${base} did not answer (ECONNRESET)`));
      expect(seen).toEqual(['1.1']);
    } finally {
      up.close();
    }
  });
});
