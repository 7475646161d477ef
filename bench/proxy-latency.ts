/**
 * What the proxy adds to a model call: N sequential chat calls to a local model server that answers
 * at once, straight, through a bare node:http forwarder (the hop itself: read the body, send it on
 * over a kept-alive connection, pass the answer back) and through the proxy, interleaved one by one
 * so load on the machine hits all three alike. Reports p50/p99 of each, the overhead (proxy minus
 * direct) and what the proxy adds beyond the hop (proxy minus forwarder).
 */
import http from 'node:http';
import { closeServer, listenLocal, readBody } from '../src/util/http.js';
import { silentLog } from '../src/util/log.js';
import { InvocationRegistry, startProxy } from '../src/proxy/index.js';

const N = 2000;
const WARMUP = 300;

const ANSWER = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1700000000,
  model: 'bench',
  choices: [{ index: 0, message: { role: 'assistant', content: 'def add(a, b):\n    return a + b\n' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 120, completion_tokens: 12, total_tokens: 132 },
});

const REQUEST = Buffer.from(
  JSON.stringify({
    model: 'bench',
    messages: [
      { role: 'system', content: 'You are the coder of a small team. Write Python functions that pass the given tests. '.repeat(4) },
      {
        role: 'user',
        content:
          'Complete this function:\n\ndef add(a: int, b: int) -> int:\n    """Return the sum of a and b.\n    >>> add(2, 3)\n    5\n    """\n',
      },
    ],
    temperature: 0,
  }),
);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function call(agent: http.Agent, url: URL, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}/chat/completions`,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': REQUEST.length, authorization: `Bearer ${key}` },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - t0) / 1e6) : reject(new Error(`HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(REQUEST);
  });
}

/** The hop alone: a node:http server that forwards each request to `to` and passes the answer back. */
async function bareForwarder(to: URL): Promise<{ server: http.Server; url: URL; agent: http.Agent }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const up = http.request(
      {
        host: to.hostname,
        port: to.port,
        path: req.url,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      async (answer) => {
        const text = await readBody(answer);
        res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json', 'content-length': text.length });
        res.end(text);
      },
    );
    up.end(body);
  });
  const port = await listenLocal(server);
  return { server, url: new URL(`http://127.0.0.1:${port}${to.pathname}`), agent };
}

export async function benchProxyLatency(): Promise<Record<string, number>> {
  const model = http.createServer(async (req, res) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER) });
    res.end(ANSWER);
  });
  const port = await listenLocal(model);
  const modelUrl = `http://127.0.0.1:${port}/v1`;
  const registry = new InvocationRegistry();
  const proxy = await startProxy({
    upstream: { baseUrl: modelUrl },
    agents: [{ name: 'coder', match: { system: 'You are the coder' } }],
    registry,
    log: silentLog,
  });
  const forwarder = await bareForwarder(new URL(modelUrl));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const direct: number[] = [];
  const viaForwarder: number[] = [];
  const viaProxy: number[] = [];
  try {
    const directUrl = new URL(modelUrl);
    const proxyUrl = new URL(proxy.baseUrl);
    // A fresh invocation per batch keeps the recorded trace from growing without bound.
    let inv = registry.open({ instanceId: 'bench', benchmark: 'bench', variant: 'control' });
    for (let i = 0; i < WARMUP + N; i++) {
      if (i % 500 === 0) {
        registry.close(inv.key);
        inv = registry.open({ instanceId: `bench-${i}`, benchmark: 'bench', variant: 'control' });
      }
      const d = await call(agent, directUrl, 'none');
      const f = await call(agent, forwarder.url, 'none');
      const p = await call(agent, proxyUrl, inv.key);
      if (i >= WARMUP) {
        direct.push(d);
        viaForwarder.push(f);
        viaProxy.push(p);
      }
    }
    registry.close(inv.key);
  } finally {
    agent.destroy();
    forwarder.agent.destroy();
    await closeServer(forwarder.server);
    await proxy.close();
    await closeServer(model);
  }
  direct.sort((a, b) => a - b);
  viaForwarder.sort((a, b) => a - b);
  viaProxy.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const result = {
    calls: N,
    directP50Ms: round(percentile(direct, 50)),
    directP99Ms: round(percentile(direct, 99)),
    forwarderP50Ms: round(percentile(viaForwarder, 50)),
    forwarderP99Ms: round(percentile(viaForwarder, 99)),
    proxyP50Ms: round(percentile(viaProxy, 50)),
    proxyP99Ms: round(percentile(viaProxy, 99)),
    overheadP50Ms: 0,
    overheadP99Ms: 0,
    hopP50Ms: 0,
    beyondHopP50Ms: 0,
  };
  result.overheadP50Ms = round(result.proxyP50Ms - result.directP50Ms);
  result.overheadP99Ms = round(result.proxyP99Ms - result.directP99Ms);
  result.hopP50Ms = round(result.forwarderP50Ms - result.directP50Ms);
  result.beyondHopP50Ms = round(result.proxyP50Ms - result.forwarderP50Ms);
  return result;
}
