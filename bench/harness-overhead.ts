/**
 * The harness's own cost: a run of one-call instances against a local model that answers in a
 * fixed latency, compared with the ideal wall time (instances × latency / concurrency). The
 * whole run is real (proxy, registry, pipeline runner, run log); only the model and the
 * benchmark are synthetic, so what is measured is saboteur itself.
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { parseConfig } from '../src/config/load.js';
import { runJob } from '../src/run/job.js';
import { realDeps, type JobDeps } from '../src/run/deps.js';
import type { BenchmarkSuite } from '../src/benchmarks/core/suite.js';
import { silentLog } from '../src/util/log.js';
import { reservePort } from '../src/model/servers/lifecycle.js';
import type { PipelineRunner } from '../src/pipeline/index.js';
import { startStandIn, type StandIn } from './stand-in.js';
import { livingMembers, readProcStat } from '../src/pipeline/process-group.js';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time (user + system, ms) a process has used so far, from /proc. */
function processCpuMs(pid: number): number {
  const f = readProcStat(pid);
  return f ? (Number(f[11]) + Number(f[12])) * TICK_MS : 0;
}
/** The same summed over a process group (the pipeline service runs under a shell). */
function groupCpuMs(pgid: number | undefined): number {
  return pgid === undefined ? 0 : livingMembers(pgid).reduce((sum, pid) => sum + processCpuMs(pid), 0);
}
function selfCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The model runs in its own process, as a real model server would: the bench measures saboteur's CPU, not the model's. */
export async function slowModel(latencyMs: number): Promise<StandIn & { baseUrl: string }> {
  const model = await startStandIn('slow-model.mjs', [String(latencyMs)]);
  return { ...model, baseUrl: `http://127.0.0.1:${Number(model.firstLine)}/v1` };
}

function syntheticSuite(instances: number): BenchmarkSuite {
  const ids = Array.from({ length: instances }, (_, i) => `bench/${i}`);
  return {
    info: { id: 'synthetic', kind: 'code', source: 'generated', total: instances, selected: instances, seed: 1, instanceIds: ids },
    instances: ids.map((id) => {
      const task = { id, benchmark: 'synthetic', kind: 'code' as const, prompt: `task ${id}`, metadata: {} };
      return { id, control: task, malicious: task };
    }),
    score: async (_task, output) =>
      output.answer === 'ok' ? { outcome: 'passed' } : { outcome: 'failed', result: `answer ${JSON.stringify(output.answer)}` },
  };
}

export interface HarnessFigures {
  instances: number;
  concurrency: number;
  modelLatencyMs: number;
  idealMs: number;
  runMs: number;
  ratio: number;
  perInstanceOverheadMs: number;
  passed: number;
  /** CPU per instance run during the run phase (ms): saboteur itself, the pipeline service, the model. */
  cpuPerRunMs: { harness: number; pipeline: number; model: number };
}

export async function benchHarness(opts: {
  mode: 'http' | 'process';
  instances: number;
  concurrency: number;
  modelLatencyMs: number;
}): Promise<HarnessFigures> {
  const model = await slowModel(opts.modelLatencyMs);
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-bench-'));
  const root = path.resolve('fixtures/pipelines');
  const port = await reservePort('127.0.0.1');
  const pipeline =
    opts.mode === 'http'
      ? `pipeline:\n  mode: http\n  serve: "node ${path.resolve('bench/minimal-service.mjs')} --port ${port}"\n  cwd: ${process.cwd()}\n  url: http://127.0.0.1:${port}/run\n  ready-url: http://127.0.0.1:${port}/health\n  concurrency: ${opts.concurrency}\n`
      : `pipeline:\n  run: node ${root}/minimal.mjs\n  concurrency: ${opts.concurrency}\n`;
  const config = parseConfig(
    `model:\n  kind: external\n  base-url: ${model.baseUrl}\n  model: bench\n${pipeline}variants:\n  malicious: { message-rate: 0 }\n`,
    path.join(outDir, 'bench.yml'),
  );
  let runMs = 0;
  // The runner, kept to read its service's pid: the service runs from before the run phase to after it.
  let runner: PipelineRunner | undefined;
  const cpu = { harness: 0, pipeline: 0, model: 0 };
  const deps: JobDeps = {
    ...realDeps,
    loadSuites: async () => [syntheticSuite(opts.instances / 2)],
    createRunner: (pipelineConfig, runnerOpts) => (runner = realDeps.createRunner(pipelineConfig, runnerOpts)),
  };
  // Time the run phase only: start-up (servers, pipeline service) is paid once per job, not per instance.
  const timedLog = {
    ...silentLog,
    group: async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      if (!name.startsWith('Run')) return fn();
      const before = { harness: selfCpuMs(), pipeline: groupCpuMs(runner?.servePids[0]), model: processCpuMs(model.pid) };
      // BENCH_PROFILE=FILE.cpuprofile: a V8 CPU profile of saboteur's process during the run phase only.
      const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
        await profiler.post('Profiler.start');
      }
      const t0 = performance.now();
      try {
        return await fn();
      } finally {
        runMs = performance.now() - t0;
        cpu.harness = selfCpuMs() - before.harness;
        cpu.pipeline = groupCpuMs(runner?.servePids[0]) - before.pipeline;
        cpu.model = processCpuMs(model.pid) - before.model;
        if (profiler) {
          const { profile } = await profiler.post('Profiler.stop');
          await writeFile(process.env.BENCH_PROFILE!, JSON.stringify(profile));
          profiler.disconnect();
        }
      }
    },
  };
  try {
    const { runLog } = await runJob(config, { outDir, log: timedLog }, deps);
    const unanswered = runLog.instances.filter((r) => r.outcome !== 'passed');
    if (runLog.status !== 'completed' || unanswered.length > 0) {
      // A figure from a run that went wrong would be a wrong figure: say what happened instead.
      const why = runLog.abortReason ?? `${unanswered[0].outcome}: ${unanswered[0].error ?? unanswered[0].result ?? ''}`;
      throw new Error(`bench run: ${unanswered.length}/${opts.instances} instance runs not answered (${why})`);
    }
    const idealMs = (opts.instances * opts.modelLatencyMs) / opts.concurrency;
    return {
      instances: opts.instances,
      concurrency: opts.concurrency,
      modelLatencyMs: opts.modelLatencyMs,
      idealMs,
      runMs,
      ratio: runMs / idealMs,
      perInstanceOverheadMs: ((runMs - idealMs) * opts.concurrency) / opts.instances,
      passed: runLog.instances.filter((r) => r.outcome === 'passed').length,
      cpuPerRunMs: { harness: cpu.harness / opts.instances, pipeline: cpu.pipeline / opts.instances, model: cpu.model / opts.instances },
    };
  } finally {
    await model.close();
    await rm(outDir, { recursive: true, force: true });
  }
}
