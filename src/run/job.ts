/**
 * One run, end to end, as named phases: sandbox → benchmarks → model → services (judge,
 * defenses, proxy, tool server, OTLP receiver, pipeline) → plan the work → run the instances →
 * check what the run saw → stop everything → run log and report. Whatever fails, the run log and
 * the report are written with what finished and what went wrong, and everything started here is
 * stopped. A cancel (opts.signal, see util/cancel.ts) ends the phase under way at once and the run is
 * written as `cancelled`; one run at a time holds the output folder (out-lock.ts).
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config/load.js';
import { referenceAnswers, type BenchmarkSuite } from '../benchmarks/core/suite.js';
import type { InstanceResult, RunLog } from '../runlog/schema.js';
import type { ToolServer } from '../tools/index.js';
import type { OtlpReceiver } from '../otlp/index.js';
import type { Ask } from '../model/ask.js';
import type { Isolation } from '../sandbox/index.js';
import { itemKey, runInstance, type InstanceContext, type WorkItem } from './instance.js';
import { summaryLine } from '../report/markdown.js';
import { redactingLog, type Log } from '../util/log.js';
import type { ModelEndpoint, ProcessLedger } from '../model/index.js';
import { runPool } from '../util/pool.js';
import { redactingProgress, silentProgress, type Progress } from './progress.js';
import { realDeps, type JobDeps } from './deps.js';
import { shardSlice } from '../benchmarks/core/sample.js';
import { assembleRunLog, sortResults, writeRunFiles, type RunFiles } from './assemble.js';
import { callNotes } from './call-notes.js';
import type { Injector } from '../inject/index.js';
import { instanceHookOf, methodReportOf } from '../inject/registry.js';
import { CANCEL_DRAIN_MS, CANCEL_KILL_GRACE_MS, RunCancelled, cancelReason, settleWithin, untilCancelled } from '../util/cancel.js';
import { lockOutDir } from './out-lock.js';
import type { FenceInfo } from '../pipeline/fence.js';
import type { Redactor } from '../runlog/redact.js';
import { runRedactor } from './secrets.js';

export { VERSION } from './assemble.js';

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
  /** Aborted by SIGINT/SIGTERM (cancelOnSignals): the run stops and writes what finished, status `cancelled`. */
  signal?: AbortSignal;
  /**
   * What the run log and everything the run prints pass through (run/secrets.ts); default: one for
   * this config and process.env. A front end passes its own to redact its lines the same way (the
   * action's masks each value in the runner's log too). The run adds the model server's key.
   */
  redactor?: Redactor;
}

/** What a run leaves: its files as written (the run log, the report, what could not be written). */
export type RunOutcome = RunFiles;

/** What the phases of one run share: what finished, what went wrong, and what to stop. */
interface JobState {
  config: Config;
  opts: RunOptions;
  deps: JobDeps;
  /** The front end's log and progress, each line redacted: what the run prints holds no more than its run log. */
  log: Log;
  progress: Progress;
  redactor: Redactor;
  cacheDir: string;
  suites: BenchmarkSuite[];
  instances: InstanceResult[];
  notes: string[];
  /** Stopped in reverse order when the run ends, however it ends. */
  cleanups: { name: string; fn: () => Promise<void> }[];
  /** Set when the run stops early: the run log is then `aborted` with this reason. */
  abortReason?: string;
  isolation: Isolation;
  modelInfo: RunLog['model'];
  /** Who the graders' judge is, once the model serves. */
  judgeInfo?: RunLog['judge'];
  /** The malicious variant's injector: the run log keeps what it made (AutoTransform's profiles). */
  injector?: Injector;
  /** What fenced the pipeline in, once the runner started. */
  fence?: FenceInfo;
}

const cancelled = (s: JobState) => s.opts.signal?.aborted === true;

/** The services the instances run against. */
interface Services {
  model: ModelEndpoint;
  ctx: InstanceContext;
}

function newRunId(): string {
  return `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomBytes(3).toString('hex')}`;
}

async function probeSandbox(s: JobState): Promise<void> {
  s.isolation = await s.log.group('Sandbox', async () => {
    const iso = await s.deps.detectIsolation();
    if (iso.degraded) s.log.warn(`sandbox degraded: ${iso.note}`);
    else s.log.info(`sandbox: ${iso.kind} (${iso.note})`);
    return iso;
  });
}

async function loadBenchmarks(s: JobState, judge: Ask): Promise<void> {
  await s.log.group('Benchmarks', async () => {
    for (const suite of await s.deps.loadSuites(s.config, {
      limit: s.opts.limit,
      isolation: s.isolation,
      cacheDir: s.cacheDir,
      log: s.log,
      judge,
    })) {
      s.log.info(
        `${suite.info.id}: ${suite.info.selected} of ${suite.info.total} instances (seed ${suite.info.seed}, limit ${suite.info.limit ?? 'none'}) from ${suite.info.source}`,
      );
      s.suites.push(suite);
      if (suite.close) s.cleanups.push({ name: `${suite.info.id} scorer`, fn: () => suite.close!() });
    }
  });
}

async function serveModel(s: JobState): Promise<ModelEndpoint> {
  const { config, opts, log } = s;
  const model = await log.group('Model', async () => {
    // No generation outlives the pipeline run that asked for it.
    const m = await s.deps.startModel(config.model, log, {
      ledger: opts.ledger,
      logDir: opts.outDir,
      configDir: config.dir,
      generationTimeoutMs: config.pipeline.timeoutMs,
      ...(config.model.kind === 'reference' ? { references: referenceAnswers(s.suites) } : {}),
    });
    s.cleanups.push({ name: 'model', fn: () => m.close() });
    // A key saboteur drew for a server it started is as secret as the job's own.
    s.redactor.add(m.apiKey);
    log.info(`model ${m.model ?? config.model.model ?? '(server default)'} (${m.kind}) at ${m.baseUrl}`);
    return m;
  });
  const serverVersion = model.describe().serverVersion;
  s.modelInfo = {
    ...s.modelInfo,
    model: model.model ?? config.model.model,
    baseUrl: model.baseUrl,
    cassette: config.model.cassette,
    ...(serverVersion ? { serverVersion } : {}),
  };
  if (model.serverLog)
    s.modelInfo.serverLog = model.serverLog.startsWith(`${opts.outDir}${path.sep}`)
      ? path.relative(opts.outDir, model.serverLog)
      : model.serverLog;
  if (model.gpus?.length) s.modelInfo.gpus = model.gpus;
  return model;
}

/** Judge, defenses, proxy (with the injector), and for agentic runs the MCP tool server and the OTLP receiver; then the pipeline. */
async function startServices(
  s: JobState,
  model: ModelEndpoint,
  setJudges: (defense: Ask, grader: Ask) => void,
  lateJudge: Ask,
): Promise<Services> {
  const { config, opts, log, deps, cleanups } = s;
  const modelName = model.model ?? config.model.model ?? 'default';
  const agentic = s.suites.some((suite) => suite.tools);
  if (agentic) {
    const j = deps.createJudge(model);
    cleanups.push({ name: 'judge', fn: async () => j.close() });
    // The graders' judge: judge.model when set, else the served model (the report notes which).
    const g = config.judge ? deps.createJudge(model, config.judge) : j;
    if (g !== j) cleanups.push({ name: 'grader judge', fn: async () => g.close() });
    setJudges(j.judge, g.judge);
    s.judgeInfo = graderJudgeInfo(model.model ?? config.model.model, model.baseUrl, config.judge);
    const who = s.judgeInfo;
    log.info(
      who.servedModel
        ? `graders' judge: the served model (${who.model ?? 'server default'}); set judge.model to grade with another`
        : `graders' judge: ${who.model ?? 'server default'}${who.baseUrl ? ` at ${who.baseUrl}` : ''}`,
    );
  }
  const defense = await deps.createDefenses(config, { judge: lateJudge, cacheDir: s.cacheDir });
  return log.group('Proxy and pipeline', async () => {
    const registry = deps.createRegistry();
    const { injector, close: closeInjector } = deps.createInjector(config, model, { cacheDir: s.cacheDir, log });
    s.injector = injector;
    cleanups.push({ name: 'injector', fn: closeInjector });
    const proxy = await deps.startProxy({
      upstream: { baseUrl: model.baseUrl, apiKey: model.apiKey },
      agents: config.pipeline.agents,
      model: model.model ?? config.model.model,
      registry,
      injector,
      log,
    });
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
    cleanups.push({ name: 'pipeline', fn: () => runner.stop(cancelled(s) ? { graceMs: CANCEL_KILL_GRACE_MS } : undefined) });
    await runner.start({ proxyBaseUrl: proxy.baseUrl, model: modelName });
    s.fence = runner.fence;
    // The post step stops a pipeline service that outlives a crashed or cancelled main step.
    for (const servePid of opts.ledger ? runner.servePids : []) {
      opts.ledger!.started({ pid: servePid, name: 'pipeline service' });
      cleanups.push({ name: 'pipeline ledger', fn: async () => opts.ledger!.stopped(servePid) });
    }
    const ctx: InstanceContext = {
      registry,
      runner,
      proxyUrl: proxy.baseUrl,
      model: modelName,
      target: config.variants.malicious.target,
      timeoutMs: config.pipeline.timeoutMs,
      toolServer,
      otlp,
      defense,
    };
    const method = instanceHookOf(config.variants.malicious.method, config.sample.seed);
    if (method) ctx.method = method;
    return { model, ctx };
  });
}

/**
 * Every instance in each variant it has; agentic instances once per defense (defenses act on tool
 * calls); then this shard's share. On agentic benchmarks the malicious variant runs the harmful twin
 * (the benchmark's attack) or, under a saboteur, the benign twin: variants.malicious.agentic-task.
 */
function planWork(s: JobState): WorkItem[] {
  const { suites, config, opts, log } = s;
  const maliciousTwin = config.variants.malicious.agenticTask === 'benign' ? 'control' : 'malicious';
  const items: WorkItem[] = suites.flatMap((suite) =>
    suite.instances.flatMap((instance) =>
      (['control', 'malicious'] as const).flatMap((variant) => {
        const task = suite.tools && variant === 'malicious' ? instance[maliciousTwin] : instance[variant];
        if (!task) return [];
        const defenses = suite.tools ? config.defenses : ['none'];
        return defenses.map((defense) => ({ suite, instance, task, variant, defense }));
      }),
    ),
  );
  if (!opts.shard) return items;
  // Shard by instance, never splitting a control/malicious pair across machines.
  const all = suites.flatMap((suite) => suite.instances.map((instance) => ({ suite, instance })));
  const mine = new Set(shardSlice(all, opts.shard.index, opts.shard.count).map((t) => `${t.suite.info.id}/${t.instance.id}`));
  log.info(`shard ${opts.shard.index}/${opts.shard.count}: ${mine.size} instances`);
  return items.filter((i) => mine.has(`${i.suite.info.id}/${i.instance.id}`));
}

/**
 * Runs the items through the pool; a model server that stops answering stops the run (the rest are
 * skipped). A cancel stops the running pipelines at once; what they were doing is not on the
 * record (markSkipped puts it there as not run), what ended on its own is kept.
 */
async function runInstances(s: JobState, items: WorkItem[], services: Services): Promise<void> {
  const { log, deps } = s;
  const { model, ctx } = services;
  const signal = s.opts.signal;
  const progress = s.progress;
  const concurrency = s.opts.concurrency ?? s.config.pipeline.concurrency;
  let poolClosed = false;
  await log.group(`Run (${items.length} instance runs, concurrency ${concurrency})`, async () => {
    progress.start(items.length);
    const stopOnCancel = () => void ctx.runner.stop({ graceMs: CANCEL_KILL_GRACE_MS });
    signal?.addEventListener('abort', stopOnCancel, { once: true });
    const pool = runPool(
      items,
      concurrency,
      async (item) => {
        const { record, dead } = await runInstance(item, ctx);
        // After a cancel only runs that ended on their own count; the rest were cut off by it.
        if (poolClosed || (cancelled(s) && !['passed', 'failed', 'refused'].includes(record.outcome))) return;
        s.instances.push(record);
        progress.done({
          label: `${item.suite.info.id} ${item.instance.id} ${item.variant}${item.defense !== 'none' ? ` [${item.defense}]` : ''}`,
          outcome: record.outcome,
          ms: record.timings.pipelineMs,
          ...(record.error && !['passed', 'failed'].includes(record.outcome) ? { reason: record.error } : {}),
        });
        if (record.outcome === 'model-error' && !s.abortReason && !(await deps.modelAlive(model))) {
          s.abortReason = `the model server stopped answering at ${model.baseUrl} (${dead})`;
          log.warn(`${s.abortReason}: stopping the run; instances not started are marked skipped`);
          const death = await model.exitReport?.();
          if (death) {
            s.notes.push(death);
            log.warn(death);
          }
        }
      },
      () => s.abortReason !== undefined || cancelled(s),
    );
    await untilCancelled(pool, signal).catch(async (err: unknown) => {
      if (!(err instanceof RunCancelled)) throw err;
      await settleWithin(pool, CANCEL_DRAIN_MS);
    });
    poolClosed = true;
    signal?.removeEventListener('abort', stopOnCancel);
    progress.finish();
  });
}

/**
 * What the proxy's record says about how the pipeline reached the model: routes it does not serve,
 * and why a target agent was never corrupted (naming only when other agents were answered).
 */
function noteSilentTarget(s: JobState): void {
  for (const note of callNotes(s.instances, s.config.variants.malicious.target, s.config.gate.coverage !== undefined)) {
    s.notes.push(note);
    s.log.warn(note);
  }
}

/** After an early stop or a cancel: every planned run that did not finish is on the record as skipped. */
function markSkipped(s: JobState, items: WorkItem[], why: string): void {
  const done = new Set(s.instances.map((r) => itemKey(r.benchmark, r.instanceId, r.variant, r.defense)));
  for (const i of items) {
    if (done.has(itemKey(i.suite.info.id, i.instance.id, i.variant, i.defense))) continue;
    s.instances.push({
      instanceId: i.instance.id,
      ...(i.task.id !== i.instance.id ? { taskId: i.task.id } : {}),
      ...(i.instance.category ? { category: i.instance.category } : {}),
      benchmark: i.suite.info.id,
      variant: i.variant,
      defense: i.defense,
      outcome: 'skipped',
      error: why,
      timings: { startedAt: new Date().toISOString(), pipelineMs: 0, scoreMs: 0 },
      trace: { calls: [] },
    });
  }
}

/** Stops everything the run started, newest first; a stop that fails is a note, never a lost run log. */
async function stopAll(s: JobState): Promise<void> {
  for (const c of s.cleanups.reverse()) {
    try {
      await c.fn();
    } catch (err) {
      s.notes.push(`stopping the ${c.name} failed: ${(err as Error).message}`);
    }
  }
}

export async function runJob(config: Config, opts: RunOptions, deps: JobDeps = realDeps): Promise<RunOutcome> {
  // One run per output folder (this also creates it): a second one is refused, never mixed in.
  const outLock = await lockOutDir(opts.outDir);
  try {
    return await runLocked(config, opts, deps);
  } finally {
    await outLock.release();
  }
}

/** A run's state before its first phase; its log and progress are redacted here, once, so no phase, dependency or progress line can print a secret. */
function initialState(config: Config, opts: RunOptions, deps: JobDeps): JobState {
  const redactor = opts.redactor ?? runRedactor(config);
  return {
    config,
    opts,
    deps,
    log: redactingLog(opts.log, redactor.text),
    progress: redactingProgress(opts.progress ?? silentProgress, redactor.text),
    redactor,
    cacheDir: opts.cacheDir ?? path.join(opts.outDir, '.cache'),
    suites: [],
    instances: [],
    notes: [],
    cleanups: [],
    isolation: { kind: 'unknown', degraded: true, note: 'not probed (the run stopped before scoring)' } as never,
    modelInfo: { kind: config.model.kind, model: config.model.model, sampling: { ...config.model.sampling } },
  };
}

async function runLocked(config: Config, opts: RunOptions, deps: JobDeps): Promise<RunOutcome> {
  const runId = opts.runId ?? newRunId();
  const startedAt = new Date().toISOString();
  const s = initialState(config, opts, deps);
  const { log, redactor } = s;
  // Each phase gives way to a cancel at once; what it started is stopped by stopAll. The phase
  // cut short gets a moment to settle first (a model server still starting is being stopped by
  // then, and its stop tells the ledger), so nothing it started is left out of stopAll.
  let pending: Promise<unknown> | undefined;
  const phase = <T>(p: Promise<T>) => untilCancelled((pending = p), opts.signal);

  try {
    await phase(probeSandbox(s));
    // Graders and judge defenses that ask a model are built before it starts; they reach it once it serves.
    let judgeModel: Ask | undefined;
    let graderModel: Ask | undefined;
    const late =
      (get: () => Ask | undefined): Ask =>
      async (prompt) => {
        const ask = get();
        if (!ask) throw new Error('the model is not serving yet');
        return ask(prompt);
      };
    const lateJudge = late(() => judgeModel);
    await phase(
      loadBenchmarks(
        s,
        late(() => graderModel),
      ),
    );
    const model = await phase(serveModel(s));
    const services = await phase(
      startServices(
        s,
        model,
        (defense, grader) => {
          judgeModel = defense;
          graderModel = grader;
        },
        lateJudge,
      ),
    );
    const items = planWork(s);
    await runInstances(s, items, services);
    noteSilentTarget(s);
    if (cancelled(s)) markSkipped(s, items, `not run: the run was ${cancelReason(opts.signal!)}`);
    else if (s.abortReason) markSkipped(s, items, 'not run: the run stopped early');
  } catch (err) {
    if (!(err instanceof RunCancelled)) {
      s.abortReason = (err as Error).message;
      log.warn(`run stopped: ${s.abortReason}`);
    } else if (pending) {
      await settleWithin(pending, CANCEL_DRAIN_MS);
    }
  } finally {
    await stopAll(s);
  }

  sortResults(s.instances, s.suites, config.defenses);
  const assembled = assembleRunLog(config, {
    runId,
    startedAt,
    abortReason: s.abortReason,
    ...(cancelled(s) ? { cancelReason: cancelReason(opts.signal!) } : {}),
    ...(s.fence ? { fence: s.fence } : {}),
    git: opts.git,
    shard: opts.shard,
    concurrency: opts.concurrency,
    model: s.modelInfo,
    ...(s.judgeInfo ? { judge: s.judgeInfo } : {}),
    isolation: s.isolation,
    suites: s.suites,
    instances: s.instances,
    notes: s.notes,
    profiles: s.injector?.profiles?.(),
  });
  const files = await writeRunFiles(opts.outDir, assembled, redactor);
  const runLog = files.runLog;
  for (const e of files.writeErrors) log.warn(e.message);
  const lost = (file: string) => (files.writeErrors.some((e) => e.file === file) ? ' (NOT written)' : '');
  log.info(summaryLine(runLog, methodReportOf(runLog.variants.malicious.method)));
  log.info(`run log: ${files.runLogPath}${lost(files.runLogPath)}`);
  log.info(`report: ${files.reportPath}${lost(files.reportPath)}`);
  return files;
}

/** Who the graders' judge is, for the run log: servedModel when it is the model under test. */
export function graderJudgeInfo(
  servedModel: string | undefined,
  servedBaseUrl: string,
  judge: Config['judge'],
): NonNullable<RunLog['judge']> {
  const baseUrl = judge?.baseUrl ?? servedBaseUrl;
  const model = judge?.model ?? servedModel;
  return {
    ...(model ? { model } : {}),
    ...(judge?.baseUrl ? { baseUrl } : {}),
    servedModel: baseUrl === servedBaseUrl && model === servedModel,
  };
}
