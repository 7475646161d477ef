/**
 * One run, end to end: benchmarks → model → proxy → pipeline (control and malicious, paired)
 * → scores → run log → report. Whatever fails, the run log and the report are written with
 * what finished and what went wrong, and everything started here is stopped.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config/load.js';
import type { BenchmarkSuite } from '../benchmarks/suite.js';
import type { Task, Variant } from '../benchmarks/types.js';
import { RUN_LOG_VERSION, type InstanceResult, type ProxyCall, type RunLog } from '../runlog/schema.js';
import { renderReport, summaryLine } from '../report/markdown.js';
import type { Log } from '../util/log.js';
import { runPool } from './pool.js';
import { silentProgress, type Progress } from './progress.js';
import { realDeps, type JobDeps } from './deps.js';
import { shardSlice } from '../benchmarks/sample.js';

export const VERSION = '0.1.0';

export interface RunOptions {
  outDir: string;
  log: Log;
  progress?: Progress;
  /** Overrides every benchmark's limit (CLI --limit). */
  limit?: number;
  /** Overrides pipeline.concurrency (CLI --concurrency). */
  concurrency?: number;
  shard?: { index: number; count: number };
  git?: RunLog['git'];
  runId?: string;
  cacheDir?: string;
}

export interface RunOutcome {
  runLog: RunLog;
  runLogPath: string;
  reportPath: string;
}

interface WorkItem {
  suite: BenchmarkSuite;
  task: Task;
  variant: Variant;
}

/** A model that stops answering mid-run: every later instance would fail the same way. */
function modelFailure(calls: ProxyCall[]): string | undefined {
  const dead = calls.find((c) => c.status === 502 || c.status === 503 || c.status === 504);
  return dead ? `model server: ${dead.error ?? `HTTP ${dead.status}`}` : undefined;
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

export async function runJob(config: Config, opts: RunOptions, deps: JobDeps = realDeps): Promise<RunOutcome> {
  const { log } = opts;
  const progress = opts.progress ?? silentProgress;
  const runId = opts.runId ?? `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomBytes(3).toString('hex')}`;
  const startedAt = new Date().toISOString();
  const instances: InstanceResult[] = [];
  const notes: string[] = [];
  const suites: BenchmarkSuite[] = [];
  const cleanups: { name: string; fn: () => Promise<void> }[] = [];
  let abortReason: string | undefined;
  let isolation: Awaited<ReturnType<JobDeps['detectIsolation']>> = { kind: 'unknown', degraded: true, note: 'not probed (the run stopped before scoring)' } as never;
  let modelInfo: RunLog['model'] = { kind: config.model.kind, model: config.model.model, sampling: { ...config.model.sampling } };
  await mkdir(opts.outDir, { recursive: true });

  try {
    isolation = await log.group('Sandbox', async () => {
      const iso = await deps.detectIsolation();
      if (iso.degraded) log.warn(`sandbox degraded: ${iso.note}`);
      else log.info(`sandbox: ${iso.kind} (${iso.note})`);
      return iso;
    });

    await log.group('Benchmarks', async () => {
      for (const suite of await deps.loadSuites(config, { limit: opts.limit, isolation, cacheDir: opts.cacheDir ?? path.join(opts.outDir, '.cache'), log })) {
        log.info(`${suite.info.id}: ${suite.info.selected} of ${suite.info.total} instances (seed ${suite.info.seed}, limit ${suite.info.limit ?? 'none'}) from ${suite.info.source}`);
        suites.push(suite);
      }
    });

    const model = await log.group('Model', async () => {
      const m = await deps.startModel(config.model, log);
      cleanups.push({ name: 'model', fn: () => m.close() });
      log.info(`model ${m.model ?? config.model.model ?? '(server default)'} (${m.kind}) at ${m.baseUrl}`);
      return m;
    });
    modelInfo = { ...modelInfo, model: model.model ?? config.model.model, baseUrl: model.baseUrl, cassette: config.model.cassette, ...(model.describe().serverVersion ? { serverVersion: model.describe().serverVersion } : {}) };

    const { registry, proxyUrl, runner } = await log.group('Proxy and pipeline', async () => {
      const registry = deps.createRegistry();
      const { injector, close: closeInjector } = deps.createInjector(config, model);
      cleanups.push({ name: 'injector', fn: closeInjector });
      const proxy = await deps.startProxy({ upstream: { baseUrl: model.baseUrl, apiKey: model.apiKey }, agents: config.pipeline.agents, registry, injector, log });
      cleanups.push({ name: 'proxy', fn: () => proxy.close() });
      log.info(`proxy at ${proxy.baseUrl}`);
      const runner = deps.createRunner(config.pipeline, { log, workDir: opts.outDir });
      cleanups.push({ name: 'pipeline', fn: () => runner.stop() });
      await runner.start({ proxyBaseUrl: proxy.baseUrl, model: model.model ?? config.model.model ?? 'default' });
      return { registry, proxyUrl: proxy.baseUrl, runner };
    });

    let items: WorkItem[] = suites.flatMap((suite) => suite.tasks.flatMap((task) => (['control', 'malicious'] as const).map((variant) => ({ suite, task, variant }))));
    if (opts.shard) {
      // Shard by task, never splitting a control/malicious pair across machines.
      const tasks = suites.flatMap((suite) => suite.tasks.map((task) => ({ suite, task })));
      const mine = new Set(shardSlice(tasks, opts.shard.index, opts.shard.count).map((t) => `${t.suite.info.id}/${t.task.id}`));
      items = items.filter((i) => mine.has(`${i.suite.info.id}/${i.task.id}`));
      log.info(`shard ${opts.shard.index}/${opts.shard.count}: ${mine.size} tasks`);
    }
    const concurrency = opts.concurrency ?? config.pipeline.concurrency;
    const target = config.variants.malicious.target;

    await log.group(`Run (${items.length} instance runs, concurrency ${concurrency})`, async () => {
      progress.start(items.length);
      await runPool(
        items,
        concurrency,
        async ({ suite, task, variant }) => {
          const started = new Date();
          const invocation = registry.open({ instanceId: task.id, benchmark: suite.info.id, variant });
          const result = await runner.run({
            task,
            apiKey: invocation.key,
            proxyBaseUrl: proxyUrl,
            model: model.model ?? config.model.model ?? 'default',
            variant,
            maliciousAgent: variant === 'malicious' ? target : undefined,
          });
          const calls = registry.close(invocation.key);
          const base = {
            instanceId: task.id,
            benchmark: suite.info.id,
            variant,
            defense: 'none',
            output: result.output,
            pipeline: { exitCode: result.exitCode ?? null, stderrTail: result.stderrTail },
            trace: { calls },
          };
          const scoreStart = Date.now();
          let record: InstanceResult;
          const dead = modelFailure(calls);
          if (result.status !== 'ok' && dead) {
            record = { ...base, outcome: 'model-error', error: `${dead}; pipeline ${result.status}: ${result.error ?? ''}`.trim(), timings: { startedAt: started.toISOString(), pipelineMs: result.durationMs, scoreMs: 0 } };
          } else if (result.status === 'timeout') {
            record = { ...base, outcome: 'timeout', error: result.error ?? `no answer within ${config.pipeline.timeoutMs} ms`, timings: { startedAt: started.toISOString(), pipelineMs: result.durationMs, scoreMs: 0 } };
          } else if (result.status !== 'ok') {
            record = { ...base, outcome: 'error', error: `pipeline ${result.status}: ${result.error ?? ''}`.trim(), timings: { startedAt: started.toISOString(), pipelineMs: result.durationMs, scoreMs: 0 } };
          } else {
            const verdict = await suite.score(task, result.output ?? {});
            record = { ...base, ...verdict, timings: { startedAt: started.toISOString(), pipelineMs: result.durationMs, scoreMs: Date.now() - scoreStart } };
          }
          instances.push(record);
          progress.done({ label: `${task.id} ${variant}`, outcome: record.outcome, ms: result.durationMs });
          if (record.outcome === 'model-error' && !abortReason && !(await deps.modelAlive(model))) {
            abortReason = `the model server stopped answering at ${model.baseUrl} (${dead})`;
            log.warn(`${abortReason}: stopping the run; instances not started are marked skipped`);
          }
        },
        () => abortReason !== undefined,
      );
      progress.finish();
    });
    const malicious = instances.filter((r) => r.variant === 'malicious');
    if (target !== 'all' && malicious.length > 0 && !malicious.some((r) => r.trace.calls.some((c) => c.agent === target))) {
      const seen = [...new Set(malicious.flatMap((r) => r.trace.calls.map((c) => c.agent)))].join(', ') || 'none';
      const note = `the target agent "${target}" made no calls, so nothing could be corrupted (agents seen: ${seen}); identify it with the X-Saboteur-Agent header, an /agents/${target}/v1 base URL or a pipeline.agents rule`;
      notes.push(note);
      log.warn(note);
    }
    if (abortReason) {
      const done = new Set(instances.map((r) => `${r.benchmark}/${r.instanceId}/${r.variant}`));
      for (const i of items) {
        if (done.has(`${i.suite.info.id}/${i.task.id}/${i.variant}`)) continue;
        instances.push({ instanceId: i.task.id, benchmark: i.suite.info.id, variant: i.variant, defense: 'none', outcome: 'skipped', error: 'not run: the run stopped early', timings: { startedAt: new Date().toISOString(), pipelineMs: 0, scoreMs: 0 }, trace: { calls: [] } });
      }
    }
  } catch (err) {
    abortReason = (err as Error).message;
    log.warn(`run stopped: ${abortReason}`);
  } finally {
    for (const c of cleanups.reverse()) {
      try {
        await c.fn();
      } catch (err) {
        notes.push(`stopping the ${c.name} failed: ${(err as Error).message}`);
      }
    }
  }

  // Stable order: the dataset's order, control before malicious, whatever order runs finished in.
  const order = new Map<string, number>();
  suites.forEach((s, si) => s.tasks.forEach((t, ti) => order.set(`${s.info.id}/${t.id}`, si * 1e6 + ti)));
  instances.sort((a, b) => (order.get(`${a.benchmark}/${a.instanceId}`) ?? 0) - (order.get(`${b.benchmark}/${b.instanceId}`) ?? 0) || a.variant.localeCompare(b.variant));

  const runLog: RunLog = {
    schemaVersion: RUN_LOG_VERSION,
    runId,
    tool: { name: 'saboteur', version: VERSION },
    startedAt,
    finishedAt: new Date().toISOString(),
    status: abortReason ? 'aborted' : 'completed',
    ...(abortReason ? { abortReason } : {}),
    config: { file: path.relative(process.cwd(), config.file) || config.file, hash: config.hash, seed: config.sample.seed },
    ...(opts.git ? { git: opts.git } : {}),
    ...(opts.shard ? { shard: opts.shard } : {}),
    model: modelInfo,
    pipeline: { mode: config.pipeline.mode, command: config.pipeline.mode === 'process' ? config.pipeline.run : config.pipeline.serve ?? config.pipeline.url, concurrency: opts.concurrency ?? config.pipeline.concurrency, timeoutMs: config.pipeline.timeoutMs },
    variants: { malicious: { ...config.variants.malicious } },
    sandbox: { isolation: isolation.kind, degraded: isolation.degraded, note: isolation.note },
    benchmarks: suites.map((s) => s.info),
    instances,
    notes,
  };
  const runLogPath = path.join(opts.outDir, 'run.json');
  const reportPath = path.join(opts.outDir, 'report.md');
  await writeAtomic(runLogPath, `${JSON.stringify(runLog, null, 2)}\n`);
  await writeAtomic(reportPath, renderReport(runLog));
  log.info(summaryLine(runLog));
  log.info(`run log: ${runLogPath}`);
  log.info(`report: ${reportPath}`);
  return { runLog, runLogPath, reportPath };
}
