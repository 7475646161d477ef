/**
 * Taint validator at scale: propagation plus validation (adjudicating every staged sink, with
 * attribution paths) of generated traces of 100,000 nodes / 400,000 edges and 1,000,000 nodes /
 * 4,000,000 edges. Time should grow linearly (the 1M/100k ratio near 10; the 1M graph no longer
 * fits the CPU caches, which costs a little more per node). Times are the fastest of 10 (100k) and
 * 5 (1M) runs, with the median beside them. Memory is the V8 heap
 * plus the typed arrays (array buffers) the graph lives in, measured after the run with the graph
 * still alive. Also times the real trace builder (content matching included) on a recorded-like
 * trace of a few thousand LLM and tool calls.
 *
 * The generated graph looks like a long multi-agent trace: nodes in time order, 1 % staged sinks,
 * data labels on one tool result in 500, 64 conversations interleaved, each a task of 200 steps; each
 * node has four in-edges: the previous step of its conversation, two earlier steps of it, and one
 * hand-off from anywhere earlier. Tool-call edges carry only the control labels half of the time (arguments traced to
 * their source), hand-offs 99 times in 100 (a delegated task that quotes the request, not the data).
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { GraphBuilder } from '../src/taint/graph.js';
import { ALL_MASK, ROOT_BIT, SINK_LABELS, bitOf, maskOf } from '../src/taint/labels.js';
import { propagate } from '../src/taint/propagate.js';
import { adjudicateSink } from '../src/taint/adjudicate.js';
import { defaultPolicy } from '../src/taint/policy.js';
import { buildTraceGraph } from '../src/taint/trace-graph.js';
import type { BuiltTrace, SinkSite } from '../src/taint/trace-graph.js';
import type { ProxyCall } from '../src/runlog/schema.js';
import type { ToolEvent } from '../src/benchmarks/agentic/agentic.js';
import { mulberry32 } from '../src/util/random.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const CONVERSATIONS = 64;
const TASK_STEPS = 200;
const DATA_LABELS = ['SENSITIVE_READ', 'CREDENTIAL_ACCESS', 'PII_READ', 'UNTRUSTED_CONTENT'] as const;

function generate(n: number, seed: number): BuiltTrace {
  const rnd = mulberry32(seed);
  const g = new GraphBuilder({ nodes: n, edges: 4 * n });
  const sinks: SinkSite[] = [];
  const control = maskOf(['PROMPT_OVERRIDE', 'HARMFUL_INTENT']) | ROOT_BIT;
  g.addNode('root', { ref: 'root' });
  g.label(0, ROOT_BIT);
  for (let v = 1; v < n; v++) {
    const r = rnd();
    const kind = r < 0.01 ? 'sink' : r < 0.4 ? 'tool' : 'message';
    g.addNode(kind);
    if (kind === 'tool' && rnd() < 0.002) g.label(v, bitOf(DATA_LABELS[Math.floor(rnd() * DATA_LABELS.length)]));
    if (kind === 'sink') {
      const sink = bitOf(SINK_LABELS[Math.floor(rnd() * SINK_LABELS.length)]);
      g.label(v, sink);
      sinks.push({
        node: v,
        tool: 'bench_tool',
        toolCallId: `s:${v}`,
        arguments: {},
        sinks: sink,
        targets: [],
        generated: [],
        pending: false,
      });
    }
    // 64 conversations interleave, each a task of 200 steps that starts from the request: the
    // previous step of this one, two earlier steps of it, and a hand-off from anywhere earlier
    // (carrying data one time in a hundred, else only control labels).
    const step = Math.floor(v / CONVERSATIONS) % TASK_STEPS;
    const back = (k: number) => (step >= k ? v - CONVERSATIONS * k : 0);
    g.addEdgeUnchecked(back(1), v, kind === 'sink' ? 'tool' : 'message', kind === 'sink' && rnd() < 0.5 ? control : ALL_MASK);
    for (let k = 0; k < 2; k++) g.addEdgeUnchecked(back(2 + Math.floor(rnd() * 16)), v, 'message');
    if (v > 1) g.addEdgeUnchecked(Math.floor(rnd() * (v - 1)), v, 'message', rnd() < 0.01 ? ALL_MASK : control);
  }
  const needs = maskOf(['EXTERNAL_SEND', 'CODE_EXEC', 'DESTRUCTIVE_WRITE', 'PUBLIC_POST', 'FINANCIAL_TRANSFER']);
  return { graph: g.build(), root: 0, rootText: 'bench request', sinks, needs: { mask: needs, evidence: [] }, notes: [] };
}

function run(b: BuiltTrace): { ms: number; blocked: number; released: number } {
  const policy = defaultPolicy();
  const t0 = process.hrtime.bigint();
  const p = propagate(b.graph);
  let blocked = 0;
  let released = 0;
  for (const s of b.sinks) {
    const v = adjudicateSink(b, p, s, policy);
    if (v.decision === 'release') released++;
    else blocked++;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { ms, blocked, released };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

function measure(n: number, repeats: number): Record<string, number> {
  gc();
  const before = process.memoryUsage();
  const t0 = process.hrtime.bigint();
  const b = generate(n, 20260509);
  const buildMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const times: number[] = [];
  let last = { ms: 0, blocked: 0, released: 0 };
  for (let i = 0; i < repeats; i++) times.push((last = run(b)).ms);
  const after = process.memoryUsage();
  const tag = n >= 1_000_000 ? '1m' : `${n / 1000}k`;
  const out = {
    [`nodes${tag}`]: b.graph.n,
    [`edges${tag}`]: b.graph.m,
    [`sinks${tag}`]: b.sinks.length,
    [`blocked${tag}`]: last.blocked,
    [`released${tag}`]: last.released,
    [`generateMs${tag}`]: Math.round(buildMs),
    // The fastest run is the one least disturbed by other work on the machine; the median is kept beside it.
    [`propagateValidateMs${tag}`]: Math.round(Math.min(...times) * 10) / 10,
    [`propagateValidateMedianMs${tag}`]: Math.round(median(times) * 10) / 10,
    [`heapUsedMb${tag}`]: mb(after.heapUsed),
    [`heapGrowthMb${tag}`]: mb(after.heapUsed - before.heapUsed),
    [`arrayBuffersMb${tag}`]: mb(after.arrayBuffers),
  };
  return out;
}

function recordedLikeTrace(turns: number): { calls: ProxyCall[]; tools: ToolEvent[]; root: string } {
  const rnd = mulberry32(7);
  const words =
    'alpha beta gamma delta report invoice meeting budget client server deploy review summary draft update status ticket release customer order'.split(
      ' ',
    );
  const sentence = (len: number) => Array.from({ length: len }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  const t0 = Date.parse('2026-05-09T10:00:00Z');
  const calls: ProxyCall[] = [];
  const tools: ToolEvent[] = [];
  const root = `Prepare the weekly ${sentence(30)}`;
  const history: { role: string; content: string }[] = [{ role: 'user', content: root }];
  let t = t0;
  for (let i = 0; i < turns; i++) {
    const agent = `agent${i % 4}`;
    const args = { query: sentence(8) };
    calls.push({
      id: `c${i}`,
      agent,
      agentSource: 'header',
      endpoint: 'chat.completions',
      agentCallIndex: i,
      startedAt: new Date((t += 10)).toISOString(),
      durationMs: 5,
      stream: false,
      status: 200,
      request: { messages: history.slice(-12) },
      response: {
        content: sentence(20),
        toolCalls: [
          {
            id: `t${i}`,
            name: i % 50 === 49 ? 'send_email' : 'search',
            arguments: JSON.stringify(i % 50 === 49 ? { to: 'x@corp.example', body: sentence(12) } : args),
          },
        ],
      },
    });
    const ev: ToolEvent =
      i % 50 === 49
        ? {
            id: `s:${i}`,
            tool: 'send_email',
            agent,
            arguments: { to: 'x@corp.example', body: sentence(12) },
            result: 'sent',
            isError: false,
            startedAt: new Date((t += 10)).toISOString(),
            durationMs: 2,
            staged: { sinks: ['EXTERNAL_SEND'], decision: 'release', defense: 'none' },
          }
        : {
            id: `s:${i}`,
            tool: 'search',
            agent,
            arguments: args,
            result: sentence(40),
            isError: false,
            startedAt: new Date((t += 10)).toISOString(),
            durationMs: 2,
          };
    tools.push(ev);
    history.push({ role: 'assistant', content: calls[i].response!.content }, { role: 'tool', content: ev.result });
  }
  return { calls, tools, root };
}

export async function benchTaint(opts: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const small = 100_000;
  const large = opts.quick ? 200_000 : 1_000_000;
  measure(small, 1); // warm-up: JIT and allocation paths
  const a = measure(small, 10);
  // A middle size shows the growth once the graph is out of the CPU caches as well.
  const mid = opts.quick ? undefined : measure(500_000, 5);
  const b = measure(large, 5);
  const ms = (r: Record<string, number>, n: number) => r[`propagateValidateMs${n >= 1_000_000 ? '1m' : `${n / 1000}k`}`];
  const ratio = ms(b, large) / a.propagateValidateMs100k;
  const trace = recordedLikeTrace(opts.quick ? 500 : 2000);
  const t0 = process.hrtime.bigint();
  const built = buildTraceGraph(
    {
      root: trace.root,
      calls: trace.calls,
      tools: trace.tools,
      toolSpecs: [
        { name: 'search', sources: ['UNTRUSTED_CONTENT'] },
        { name: 'send_email', sinks: ['EXTERNAL_SEND'] },
      ],
    },
    defaultPolicy(),
  );
  const traceMs = Number(process.hrtime.bigint() - t0) / 1e6;
  return {
    ...a,
    ...(mid ?? {}),
    ...b,
    ratio1mOver100k: Math.round(ratio * 100) / 100,
    ...(mid ? { ratio1mOver500k: Math.round((ms(b, large) / ms(mid, 500_000)) * 100) / 100 } : {}),
    recordedTraceCalls: trace.calls.length + trace.tools.length,
    recordedTraceNodes: built.graph.n,
    recordedTraceEdges: built.graph.m,
    recordedTraceBuildMs: Math.round(traceMs),
  };
}

// `node scripts/run-ts.mjs bench/taint.ts` runs it alone.
if (process.argv[1]?.endsWith('taint.mjs')) {
  const r = await benchTaint({ quick: process.env.BENCH_QUICK === '1' });
  for (const [k, v] of Object.entries(r)) console.log(`${k}: ${v}`);
}
