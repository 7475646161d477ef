/**
 * What a tool call costs at saboteur's MCP server: N sequential calls through the SDK client over
 * Streamable HTTP, for a plain tool and for a staged sink (adjudicated by the `none` defense), then
 * the same from 16 tool sessions at once. Run alone with
 *   node scripts/run-ts.mjs bench/mcp-latency.ts      (BENCH_QUICK=1 for a smoke run)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AgenticTask } from '../src/benchmarks/agentic/agentic.js';
import { releaseAll } from '../src/defenses/release-all.js';
import { startToolServer } from '../src/tools/index.js';
import { silentLog } from '../src/util/log.js';

const TASK: AgenticTask = {
  id: 'bench/tools',
  benchmark: 'bench',
  kind: 'agentic',
  role: 'benign',
  category: 'bench',
  pairId: 'bench',
  prompt: 'bench',
  metadata: {},
  toolSpecs: [
    { name: 'read', description: 'reads', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
    {
      name: 'send',
      description: 'sends',
      inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
      sinks: ['EXTERNAL_SEND'],
    },
  ],
};
const HANDLERS = { read: async () => ({ result: 'contents' }), send: async () => ({ result: 'sent' }) };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timedCalls(client: Client, tool: 'read' | 'send', n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await client.callTool({ name: tool, arguments: tool === 'read' ? { path: `/f${i}` } : { to: `x${i}` } });
    out.push(performance.now() - t0);
  }
  return out;
}

export async function benchMcpLatency(opts: { calls?: number; sessions?: number } = {}): Promise<Record<string, number>> {
  const calls = opts.calls ?? 1000;
  const sessions = opts.sessions ?? 16;
  const server = await startToolServer({ log: silentLog });
  const round = (x: number) => Math.round(x * 1000) / 1000;
  try {
    const connect = async (url: string) => {
      const c = new Client({ name: 'bench', version: '1' });
      await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'X-Saboteur-Agent': 'bench' } } }));
      return c;
    };
    const url = server.open('bench-seq', { task: TASK, handlers: HANDLERS, defense: releaseAll });
    const client = await connect(url);
    await timedCalls(client, 'read', 100); // warm-up
    const plain = (await timedCalls(client, 'read', calls)).sort((a, b) => a - b);
    const staged = (await timedCalls(client, 'send', calls)).sort((a, b) => a - b);
    await client.close();
    server.close('bench-seq');

    const perSession = Math.max(1, Math.floor(calls / sessions));
    const clients = await Promise.all(
      Array.from({ length: sessions }, (_, i) =>
        connect(server.open(`bench-par-${i}`, { task: TASK, handlers: HANDLERS, defense: releaseAll })),
      ),
    );
    const t0 = performance.now();
    await Promise.all(clients.map((c) => timedCalls(c, 'read', perSession)));
    const wall = performance.now() - t0;
    await Promise.all(clients.map((c) => c.close()));
    const recorded = clients.map((_, i) => server.close(`bench-par-${i}`).length).reduce((a, b) => a + b, 0);
    return {
      calls,
      plainP50Ms: round(percentile(plain, 50)),
      plainP99Ms: round(percentile(plain, 99)),
      stagedP50Ms: round(percentile(staged, 50)),
      stagedP99Ms: round(percentile(staged, 99)),
      sessions,
      parallelCalls: recorded,
      parallelCallsPerSecond: round((recorded / wall) * 1000),
    };
  } finally {
    await server.stop();
  }
}

if (process.argv[1]?.endsWith('mcp-latency.mjs')) {
  const quick = process.env.BENCH_QUICK === '1';
  const r = await benchMcpLatency({ calls: quick ? 200 : 1000 });
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  console.log(`MCP tool server, ${r.calls} sequential calls per kind (SDK client, Streamable HTTP, JSON responses)`);
  console.log(`    plain tool   p50 ${ms(r.plainP50Ms)}  p99 ${ms(r.plainP99Ms)}`);
  console.log(`    staged sink  p50 ${ms(r.stagedP50Ms)}  p99 ${ms(r.stagedP99Ms)}  (defense: none)`);
  console.log(`    ${r.sessions} sessions at once: ${r.parallelCalls} calls recorded, ${r.parallelCallsPerSecond.toFixed(0)} calls/s`);
}
