/**
 * `npm run bench`: the figures the issues ask for, printed as ratios against their targets.
 *   (a) the proxy's added latency against a direct call to the same local model server;
 *   (b) a run's wall time against the ideal, pipeline in http mode (the harness itself);
 *   (c) the same in process mode, as start-up cost per instance.
 * BENCH_QUICK=1 runs smaller sizes (a smoke check, not the reported figures).
 */
import { cpus } from 'node:os';
import { benchProxyLatency } from './proxy-latency.js';
import { benchHarness } from './harness-overhead.js';
import { benchTaint } from './taint.js';

const quick = process.env.BENCH_QUICK === '1';
const only = process.argv.slice(2);
const want = (name: string) => only.length === 0 || only.includes(name);
const ms = (x: number) => `${x.toFixed(3)} ms`;

if (want('proxy')) {
  const p = await benchProxyLatency();
  console.log('(a) proxy latency, sequential chat calls to a local model that answers at once');
  console.log(`    calls: ${p.calls}`);
  console.log(`    direct  p50 ${ms(p.directP50Ms)}  p99 ${ms(p.directP99Ms)}`);
  console.log(`    proxied p50 ${ms(p.proxyP50Ms)}  p99 ${ms(p.proxyP99Ms)}`);
  console.log(`    overhead p50 ${ms(p.overheadP50Ms)} (target < 1 ms: ${p.overheadP50Ms < 1 ? 'met' : 'MISSED'})  p99 ${ms(p.overheadP99Ms)}`);
}

const instances = quick ? 200 : 1000;
if (want('http')) {
  const h = await benchHarness({ mode: 'http', instances, concurrency: 32, modelLatencyMs: 50 });
  console.log(`(b) run wall time, ${h.instances} one-call instance runs, concurrency ${h.concurrency}, model latency ${h.modelLatencyMs} ms, pipeline in http mode`);
  console.log(`    ideal ${ms(h.idealMs)}  measured ${ms(h.runMs)}  ratio ${h.ratio.toFixed(3)}× (target ≤ 1.10×: ${h.ratio <= 1.1 ? 'met' : 'MISSED'})`);
  console.log(`    harness overhead per instance run: ${ms(h.perInstanceOverheadMs)}  (${h.passed}/${h.instances} answered)`);
}
if (want('process')) {
  const n = quick ? 32 : 128;
  // One process per instance is CPU-bound on start-up: run as many at once as there are cores.
  const h = await benchHarness({ mode: 'process', instances: n, concurrency: cpus().length, modelLatencyMs: 50 });
  console.log(`(c) the same in process mode (one process per instance run), ${h.instances} instance runs`);
  console.log(`    ideal ${ms(h.idealMs)}  measured ${ms(h.runMs)}  ratio ${h.ratio.toFixed(3)}×`);
  console.log(`    start-up cost per instance run: ${ms(h.perInstanceOverheadMs)}  (${h.passed}/${h.instances} answered)`);
}

if (want('taint')) {
  const t = await benchTaint({ quick });
  console.log('(d) taint validator: propagation + validation of generated traces (4 edges per node)');
  for (const [k, v] of Object.entries(t)) console.log(`    ${k}: ${typeof v === 'number' ? (Number.isInteger(v) ? v : v.toFixed(3)) : v}`);
}
