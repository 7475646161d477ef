/**
 * A small HTTP server on 127.0.0.1 that fenced pipeline runs reach over the (shared) network:
 * they cannot share a folder with the test, so they count, report or hand things over through it.
 * `answer` gets each request's path and whole body and returns the response body.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

export async function startLocalServer(answer: (path: string, body: string) => string): Promise<LocalServer> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => res.end(answer(req.url ?? '/', body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
