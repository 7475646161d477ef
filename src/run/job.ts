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
import { RUN_LOG_VERSION, type InstanceResult, type RunLog } from '../runlog/schema.js';
import type { ToolServer } from '../tools/index.js';
import type { OtlpReceiver } from '../taint/index.js';
import type { Judge } from '../benchmarks/agentic-suites.js';
import { itemKey, runInstance, type InstanceContext, type WorkItem } from './instance.js';
import { renderReport, summaryLine } from '../report/markdown.js';
import type { Log } from '../util/log.js';
import type { ProcessLedger } from '../model/index.js';
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
  /** Told about model server processes started and stopped (the action saves them for its post step). */
  ledger?: ProcessLedger;
}

export interface RunOutcome {
  runLog: RunLog;
  runLogPath: string;
  reportPath: string;
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
  const cacheDir = opts.cacheDir ?? path.join(opts.outDir, '.cache');
  await mkdir(opts.outDir, { recursive: true });

  try {
    isolation = await log.group('Sandbox', async () => {
      const iso = await deps.detectIsolation();
      if (iso.degraded) log.warn(`sandbox degraded: ${iso.note}`);
      else log.info(`sandbox: ${iso.kind} (${iso.note})`);
      return iso;
    });

    // Graders that ask the model are built before the model starts; they reach it once it serves.
    let judgeModel: Judge | undefined;
    const lateJudge: Judge = async (prompt) => {
      if (!judgeModel) throw new Error('the model is not serving yet');
      return judgeModel(prompt);
    };
    await log.group('Benchmarks', async () => {
      for (const suite of await deps.loadSuites(config, { limit: opts.limit, isolation, cacheDir, log, judge: lateJudge })) {
        log.info(`${suite.info.id}: ${suite.info.selected} of ${suite.info.total} instances (seed ${suite.info.seed}, limit ${suite.info.limit ?? 'none'}) from ${suite.info.source}`);
        suites.push(suite);
      }
    });

    const model = await log.group('Model', async () => {
      const m = await deps.startModel(config.model, log, { ledger: opts.ledger, logDir: opts.outDir, configDir: config.dir });
      cleanups.push({ name: 'model', fn: () => m.close() });
      log.info(`model ${m.model ?? config.model.model ?? '(server default)'} (${m.kind}) at ${m.baseUrl}`);
      return m;
    });
    const modelName = model.model ?? config.model.model;
    const serverVersion = model.describe().serverVersion;
    modelInfo = { ...modelInfo, model: modelName, baseUrl: model.baseUrl, cassette: config.model.cassette, ...(serverVersion ? { serverVersion } : {}) };
    if (model.serverLog) modelInfo.serverLog = model.serverLog.startsWith(`${opts.outDir}${path.sep}`) ? path.relative(opts.outDir, model.serverLog) : model.serverLog;
    if (model.gpus?.length) modelInfo.gpus = model.gpus;

    const agentic = suites.some((s) => s.tools);
    if (agentic) {
      const j = deps.createJudge(model);
      judgeModel = j.judge;
      cleanups.push({ name: 'judge', fn: async () => j.close() });
    }
    const defenseFactory = await deps.createDefenses(config, { judge: lateJudge, cacheDir });
    const { registry, proxyUrl, runner, toolServer, otlp } = await log.group('Proxy and pipeline', async () => {
      const registry = deps.createRegistry();
      const { injector, close: closeInjector } = deps.createInjector(config, model);
      cleanups.push({ name: 'injector', fn: closeInjector });
      const proxy = await deps.startProxy({ upstream: { baseUrl: model.baseUrl, apiKey: model.apiKey }, agents: config.pipeline.agents, registry, injector, log });
      cleanups.push({ name: 'proxy', fn: () => proxy.close() });
      log.info(`proxy at ${proxy.baseUrl}`);
      let toolServer: ToolServer | undefined;
      let otlp: OtlpReceiver | undefined;
      if (agentic) {
        toolServer = await deps.startToolServer(log);
        cleanups.push({ name: 'MCP tool server', fn: () => toolServer!.stop() });
        log.info(`MCP tool server at ${toolServer.baseUrl}`);
        otlp = await deps.startOtlpReceiver(log);
        cleanups.push({ name: 'OTLP receiver', fn: () => otlp!.stop() });
        log.info(`OTLP receiver at ${otlp.baseUrl}/v1/traces (defenses: ${config.defenses.join(', ')}, ${config.defenseMode})`);
      }
      const runner = deps.createRunner(config.pipeline, { log, workDir: opts.outDir });
      cleanups.push({ name: 'pipeline', fn: () => runner.stop() });
      await runner.start({ proxyBaseUrl: proxy.baseUrl, model: modelName ?? 'default' });
      // The post step stops a pipeline service that outlives a crashed or cancelled main step.
      const servePid = runner.servePid;
      if (servePid !== undefined && opts.ledger) {
        opts.ledger.started({ pid: servePid, name: 'pipeline service' });
        cleanups.push({ name: 'pipeline ledger', fn: async () => opts.ledger!.stopped(servePid) });
      }
      return { registry, proxyUrl: proxy.baseUrl, runner, toolServer, otlp };
    });

    // Every instance in each variant it has; agentic instances once per defense (defenses act on tool calls).
    let items: WorkItem[] = suites.flatMap((suite) =>
      suite.instances.flatMap((instance) =>
        (['control', 'malicious'] as const).flatMap((variant) => {
          const task = instance[variant];
          if (!task) return [];
          const defenses = suite.tools ? config.defenses : ['none'];
          return defenses.map((defense) => ({ suite, instance, task, variant, defense }));
        }),
      ),
    );
    if (opts.shard) {
      // Shard by instance, never splitting a control/malicious pair across machines.
      const all = suites.flatMap((suite) => suite.instances.map((instance) => ({ suite, instance })));
      const mine = new Set(shardSlice(all, opts.shard.index, opts.shard.count).map((t) => `${t.suite.info.id}/${t.instance.id}`));
      items = items.filter((i) => mine.has(`${i.suite.info.id}/${i.instance.id}`));
      log.info(`shard ${opts.shard.index}/${opts.shard.count}: ${mine.size} instances`);
    }
    const concurrency = opts.concurrency ?? config.pipeline.concurrency;
    const target = config.variants.malicious.target;
    const ctx: InstanceContext = {
      registry,
      runner,
      proxyUrl,
      model: modelName ?? 'default',
      target,
      timeoutMs: config.pipeline.timeoutMs,
      toolServer,
      otlp,
      defense: defenseFactory,
    };

    await log.group(`Run (${items.length} instance runs, concurrency ${concurrency})`, async () => {
      progress.start(items.length);
      await runPool(
        items,
        concurrency,
        async (item) => {
          const { record, dead } = await runInstance(item, ctx);
          instances.push(record);
          progress.done({ label: `${item.suite.info.id} ${item.instance.id} ${item.variant}${item.defense !== 'none' ? ` [${item.defense}]` : ''}`, outcome: record.outcome, ms: record.timings.pipelineMs });
          if (record.outcome === 'model-error' && !abortReason && !(await deps.modelAlive(model))) {
            abortReason = `the model server stopped answering at ${model.baseUrl} (${dead})`;
            log.warn(`${abortReason}: stopping the run; instances not started are marked skipped`);
            const death = await model.exitReport?.();
            if (death) {
              notes.push(death);
              log.warn(death);
            }
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
      const done = new Set(instances.map((r) => itemKey(r.benchmark, r.instanceId, r.variant, r.defense)));
      for (const i of items) {
        if (done.has(itemKey(i.suite.info.id, i.instance.id, i.variant, i.defense))) continue;
        instances.push({
          instanceId: i.instance.id,
          ...(i.task.id !== i.instance.id ? { taskId: i.task.id } : {}),
          ...(i.instance.category ? { category: i.instance.category } : {}),
          benchmark: i.suite.info.id,
          variant: i.variant,
          defense: i.defense,
          outcome: 'skipped',
          error: 'not run: the run stopped early',
          timings: { startedAt: new Date().toISOString(), pipelineMs: 0, scoreMs: 0 },
          trace: { calls: [] },
        });
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
  suites.forEach((s, si) => s.instances.forEach((t, ti) => order.set(`${s.info.id}/${t.id}`, si * 1e6 + ti)));
  const defenseRank = (d: string) => config.defenses.indexOf(d as never);
  instances.sort(
    (a, b) =>
      (order.get(`${a.benchmark}/${a.instanceId}`) ?? 0) - (order.get(`${b.benchmark}/${b.instanceId}`) ?? 0) ||
      a.variant.localeCompare(b.variant) ||
      defenseRank(a.defense) - defenseRank(b.defense),
  );

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
    defenses: [...config.defenses],
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
