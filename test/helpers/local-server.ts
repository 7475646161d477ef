/**
 * Servers on 127.0.0.1 for tests. A small HTTP server that fenced pipeline runs reach over the
 * (shared) network: they cannot share a folder with the test, so they count, report or hand things
 * over through it (`answer` gets each request's path and whole body and returns the response
 * body). A TCP listener that counts only the connections a test's own programs make.
 */
import { createServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';

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

/** A TCP listener that counts the connections a test's own programs make. */
export interface MarkedListener {
  port: number;
  /** `address:port` of each counted connection, in the order they came. */
  connections: string[];
  close(): Promise<void>;
}

/**
 * A TCP listener on 127.0.0.1 that counts only the connections whose first bytes `counts` accepts
 * (the mark a test's program sends once connected, a benchmark case's request line): anything
 * else on the machine (another test's port probe) may connect to any port too, and is not
 * counted. Port 0 takes a free port; a fixed port that is busy gives undefined.
 */
export async function startMarkedListener(counts: (first: string) => boolean, port = 0): Promise<MarkedListener | undefined> {
  const connections: string[] = [];
  const accepted = new Set<Socket>();
  const server = createNetServer((socket) => {
    accepted.add(socket);
    let first = '';
    socket.on('error', () => undefined);
    socket.on('close', () => accepted.delete(socket));
    socket.on('end', () => socket.destroy());
    socket.on('data', (d: Buffer) => {
      first += d.toString('latin1');
      if (counts(first)) connections.push(`${socket.remoteAddress}:${socket.remotePort}`);
      if (counts(first) || first.length >= 4096) socket.destroy();
    });
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!listening) return undefined;
  return {
    port: (server.address() as AddressInfo).port,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of accepted) socket.destroy();
      }),
  };
}
