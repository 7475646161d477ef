/**
 * `npm run bench`: the figures the issues ask for, printed as ratios against their targets.
 *   (a) the proxy's added latency against a direct call to the same local model server;
 *   (b) a run's wall time against the ideal, pipeline in http mode (the harness itself), next to
 *       the floor: the same job through a do-nothing forwarder on the same machine;
 *   (c) the same in process mode, as start-up cost per instance;
 *   (d) taint propagation at scale; (e) the taint validator on its evaluation set, the four
 *       security benchmarks side by side, and large OTLP exports;
 *   (f) HumanEval scoring in the sandbox against a plain subprocess-per-problem scorer;
 *   (g) AutoInject's corruption strength per hit message, per mode and answer shape
 *       (`npm run bench -- autoinject`; AUTOINJECT_SEEDS sets how many seeds, default 5).
 * BENCH_QUICK=1 runs smaller sizes (a smoke check, not the reported figures).
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { benchProxyLatency } from './proxy-latency.js';
import { benchHarness, type HarnessFigures } from './harness-overhead.js';
import { benchFloor, type FloorFigures } from './floor.js';
import { benchTaint } from './taint.js';
import { validatorFigures } from './taint-eval/validator-figures.js';
import { benchScorer } from './scorer.js';
import { RECORDED_ENV } from './recorded-results.js';
import { benchAutoInject, renderAutoInject } from './autoinject.js';

const quick = process.env.BENCH_QUICK === '1';

/** Runs one measurement (`floor-once` / `http-once` below) in a new Node process and reads its JSON. */
function inFreshProcess<T>(part: string, job: object): T {
  const child = spawnSync(process.execPath, [process.argv[1], part, JSON.stringify(job)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`bench ${part} exited with ${child.status ?? child.signal}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as T;
}

if (process.argv[2] === 'floor-once' || process.argv[2] === 'raw-floor-once' || process.argv[2] === 'http-once') {
  const job = JSON.parse(process.argv[3]) as { instances: number; concurrency: number; modelLatencyMs: number };
  const figures =
    process.argv[2] === 'http-once'
      ? await benchHarness({ mode: 'http', ...job })
      : await benchFloor({ kind: process.argv[2] === 'floor-once' ? 'node-http' : 'raw-socket', ...job });
  console.log(JSON.stringify(figures));
  process.exit(0);
}
const only = process.argv.slice(2);
const want = (name: string) => only.length === 0 || only.includes(name);
const ms = (x: number) => `${x.toFixed(3)} ms`;

if (want('proxy')) {
  const p = await benchProxyLatency();
  console.log('(a) proxy latency, sequential chat calls to a local model that answers at once');
  console.log(`    calls: ${p.calls}`);
  console.log(`    direct  p50 ${ms(p.directP50Ms)}  p99 ${ms(p.directP99Ms)}`);
  console.log(`    forwarded by a bare node:http forwarder p50 ${ms(p.forwarderP50Ms)}  p99 ${ms(p.forwarderP99Ms)}`);
  console.log(`    proxied p50 ${ms(p.proxyP50Ms)}  p99 ${ms(p.proxyP99Ms)}`);
  console.log(
    `    overhead p50 ${ms(p.overheadP50Ms)} (target < 0.2 ms: ${p.overheadP50Ms < 0.2 ? 'met' : 'MISSED'})  p99 ${ms(p.overheadP99Ms)}`,
  );
  console.log(
    `    of which the hop itself (the bare forwarder) p50 ${ms(p.hopP50Ms)}, saboteur's own work beyond it p50 ${ms(p.beyondHopP50Ms)}`,
  );
}

const instances = quick ? 200 : 1000;
if (want('http')) {
  // Alternate saboteur and the do-nothing floor, several rounds, and report medians: one round on a
  // shared 2-core machine swings by ±10%.
  const rounds = quick ? 1 : 3;
  const job = { instances, concurrency: 32, modelLatencyMs: 50 };
  const runs: HarnessFigures[] = [];
  const floors: FloorFigures[] = [];
  const rawFloors: FloorFigures[] = [];
  // Each measurement in a fresh process, as a real `saboteur run` is: a process whose HTTP code
  // the JIT has already warmed (by the other measurement) would flatter the figure by ~2×.
  for (let r = 0; r < rounds; r++) {
    rawFloors.push(inFreshProcess<FloorFigures>('raw-floor-once', job));
    floors.push(inFreshProcess<FloorFigures>('floor-once', job));
    runs.push(inFreshProcess<HarnessFigures>('http-once', job));
  }
  const median = <T>(xs: T[], by: (x: T) => number): T => [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)];
  const h = median(runs, (x) => x.ratio);
  const f = median(floors, (x) => x.ratio);
  const raw = median(rawFloors, (x) => x.ratio);
  console.log(
    `(b) run wall time, ${h.instances} one-call instance runs, concurrency ${h.concurrency}, model latency ${h.modelLatencyMs} ms, pipeline in http mode (median of ${rounds})`,
  );
  console.log(
    `    ideal ${ms(h.idealMs)}  measured ${ms(h.runMs)}  ratio ${h.ratio.toFixed(3)}× (target ≤ 1.10×: ${h.ratio <= 1.1 ? 'met' : 'MISSED'})  rounds: ${runs.map((x) => x.ratio.toFixed(3)).join(', ')}`,
  );
  console.log(`    harness overhead per instance run: ${ms(h.perInstanceOverheadMs)}  (${h.passed}/${h.instances} answered)`);
  const c = h.cpuPerRunMs;
  console.log(
    `    CPU per instance run: saboteur ${ms(c.harness)}, pipeline service ${ms(c.pipeline)}, model ${ms(c.model)} (${cpus().length} cores)`,
  );
  console.log(
    '    the floor on this machine: the same job, saboteur replaced by a do-nothing forwarder (client + proxy, no attribution, trace or run log)',
  );
  console.log(
    `      over node:http, as saboteur: ratio ${f.ratio.toFixed(3)}×  rounds: ${floors.map((x) => x.ratio.toFixed(3)).join(', ')}`,
  );
  console.log(
    `      over raw sockets (no HTTP stack): ratio ${raw.ratio.toFixed(3)}×  rounds: ${rawFloors.map((x) => x.ratio.toFixed(3)).join(', ')}`,
  );
  console.log(`    saboteur / node:http floor: ${(h.runMs / f.runMs).toFixed(3)}×`);
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
  console.log('(e) taint validator on its evaluation set, the security benchmarks and large traces');
  console.log((await validatorFigures({ quick })).replace(/^/gm, '    '));
}

if (want('scorer')) {
  const rounds = quick ? 1 : 3;
  const s = await benchScorer({ rounds, lanes: 4, recordedPath: process.env[RECORDED_ENV] || undefined });
  const m = s.median;
  console.log(
    `(f) HumanEval scoring, ${s.completions} ${s.source}, ${s.lanes} lanes vs ${s.lanes} threads, sandbox ${s.isolation} (median of ${rounds}, alternating)`,
  );
  console.log(
    `    sandboxed ${ms(m.sandboxedMs)}  reference (one plain python3 per problem, no sandbox) ${ms(m.referenceMs)}  ratio ${m.ratio.toFixed(3)}× (target ≤ 1.0×: ${m.ratio <= 1 ? 'met' : 'MISSED'})  rounds: ${s.rounds.map((r) => r.ratio.toFixed(3)).join(', ')}`,
  );
  const cpu = (x: number | undefined) => (x === undefined ? 'CPU not measured' : `${ms(x / s.completions)} CPU`);
  console.log(
    `    per problem: sandboxed ${ms(m.sandboxedMs / s.completions)} wall, ${cpu(m.sandboxedCpuMs)}; reference ${ms(m.referenceMs / s.completions)} wall, ${cpu(m.referenceCpuMs)} (${cpus().length} cores)`,
  );
  console.log(
    `    passed: sandboxed ${s.passed.sandboxed}, reference ${s.passed.reference}${s.passed.recorded !== undefined ? `, recorded official ${s.passed.recorded}` : ''}; result strings that differ: ${s.differ.length}${s.differ.length ? `\n      ${s.differ.slice(0, 5).join('\n      ')}` : ''}`,
  );
}

if (want('autoinject')) {
  const seedCount = Number(process.env.AUTOINJECT_SEEDS ?? (quick ? 1 : 5));
  const seeds = Array.from({ length: seedCount }, (_, i) => 20260509 + i);
  const opts = { seeds, messageRate: 1, errorRate: 0.6, lanes: 2, ...(quick ? { limit: 40 } : {}) };
  const a = await benchAutoInject(opts);
  console.log(
    `(g) AutoInject per hit message: ${a.problems} HumanEval canonical solutions × ${seeds.length} seeds, Pm ${opts.messageRate}, Pe ${opts.errorRate}, ${a.scored} distinct programs scored in the sandbox (${a.isolation})`,
  );
  console.log(renderAutoInject(a.figures, opts.errorRate).replace(/^/gm, '    '));
  const weakest = Math.min(...a.figures.filter((f) => f.mode === 'logic-edit').map((f) => f.failedHits / f.hits));
  console.log(
    `    logic-edit per-hit failure, weakest shape: ${(100 * weakest).toFixed(1)}% (target ≥ 75%: ${weakest >= 0.75 ? 'met' : 'MISSED'})`,
  );
}
