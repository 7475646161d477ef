/**
 * The floor of bench (b) on this machine: the same job (same model stand-in, same minimal
 * service, same instance count and concurrency) driven by a harness that does nothing but forward:
 * a client posting tasks and a proxy passing each chat call to the model, with no attribution,
 * trace, run log or scoring. `node-http` builds both on node:http, as saboteur does; `raw-socket`
 * on bench/wire.mjs (no HTTP stack to speak of). Their wall time / ideal is what the machine itself
 * costs (cold processes, loopback TCP, the HTTP stack); saboteur's figure is read against them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, listenLocal, readBody } from '../src/util/http.js';
import { slowModel } from './harness-overhead.js';
import { reservePort } from '../src/model/servers/lifecycle.js';
import { createClient, createServer } from './wire.mjs';
import { startStandIn } from './stand-in.js';

function post(agent: http.Agent, port: number, path: string, body: Buffer): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        readBody(res).then((b) => resolve({ status: res.statusCode ?? 0, body: b }), reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface FloorFigures {
  instances: number;
  idealMs: number;
  runMs: number;
  ratio: number;
}

type Post = (port: number, path: string, body: Buffer) => Promise<{ status: number; body: Buffer }>;

interface Forwarder {
  post: Post;
  /** Starts the proxy on 127.0.0.1 and returns its port. */
  listen(): Promise<number>;
  close(): Promise<void>;
}

/** Where a forwarder's proxy sends each chat call: the model's port and its chat completions path. */
interface Target {
  port: number;
  path: string;
}

function nodeHttpForwarder(concurrency: number, to: Target): Forwarder {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency * 2 });
  const send: Post = (port, path, body) => post(agent, port, path, body);
  const proxy = http.createServer((req, res) => {
    void readBody(req)
      .then((body) => send(to.port, to.path, body))
      .then(
        (answer) =>
          res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': answer.body.length }).end(answer.body),
        (err: Error) => res.writeHead(502).end(err.message),
      );
  });
  return {
    post: send,
    listen: () => listenLocal(proxy),
    close: async () => {
      agent.destroy();
      await closeServer(proxy);
    },
  };
}

function rawSocketForwarder(to: Target): Forwarder {
  const clients = new Map<number, ReturnType<typeof createClient>>();
  const send: Post = async (port, path, body) => {
    let client = clients.get(port);
    if (!client) clients.set(port, (client = createClient('127.0.0.1', port)));
    const answer = await client.post(path, {}, body.toString('utf8'));
    return { status: answer.status, body: Buffer.from(answer.body) };
  };
  const proxy = createServer((req, reply) => {
    send(to.port, to.path, req.body).then(
      (answer) => reply(answer.status, answer.body.toString('utf8')),
      (err: Error) => reply(500, JSON.stringify({ error: err.message })),
    );
  });
  return {
    post: send,
    listen: () => new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve((proxy.address() as AddressInfo).port))),
    // The service and the model are stopped first; their ends of the sockets go with them.
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}

export async function benchFloor(opts: {
  kind: 'node-http' | 'raw-socket';
  instances: number;
  concurrency: number;
  modelLatencyMs: number;
}): Promise<FloorFigures> {
  const model = await slowModel(opts.modelLatencyMs);
  const modelUrl = new URL(model.baseUrl);
  const to = { port: Number(modelUrl.port), path: `${modelUrl.pathname}/chat/completions` };
  const forwarder = opts.kind === 'node-http' ? nodeHttpForwarder(opts.concurrency, to) : rawSocketForwarder(to);
  const proxyPort = await forwarder.listen();
  const servicePort = await reservePort('127.0.0.1');
  const service = await startStandIn('minimal-service.mjs', ['--port', String(servicePort)]);
  try {
    const task = (i: number) =>
      Buffer.from(
        JSON.stringify({
          task: { id: `bench/${i}`, prompt: `task bench/${i}` },
          apiKey: 'floor',
          model: 'bench',
          openaiBaseUrl: `http://127.0.0.1:${proxyPort}/v1`,
        }),
      );
    let next = 0;
    let answered = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: opts.concurrency }, async () => {
        while (next < opts.instances) {
          const answer = await forwarder.post(servicePort, '/run', task(next++));
          if (answer.status === 200 && JSON.parse(answer.body.toString('utf8')).answer === 'ok') answered++;
        }
      }),
    );
    const runMs = performance.now() - t0;
    if (answered !== opts.instances) throw new Error(`floor bench: only ${answered}/${opts.instances} tasks were answered`);
    const idealMs = (opts.instances * opts.modelLatencyMs) / opts.concurrency;
    return { instances: opts.instances, idealMs, runMs, ratio: runMs / idealMs };
  } finally {
    await service.close();
    await model.close();
    await forwarder.close();
  }
}
