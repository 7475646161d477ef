/**
 * The GitHub Action: reads the inputs once, checks that the event is safe to run on, runs the job
 * (or merges the shards' run logs), publishes (job summary, outputs, the sticky PR comment, the
 * history entry), then applies the gate. The one place that calls core.setFailed: a failing gate
 * fails the job only after everything is published.
 */
import * as actionsCache from '@actions/cache';
import * as core from '@actions/core';
import path from 'node:path';
import { loadConfig, type Config } from '../config/load.js';
import { runJob } from '../run/job.js';
import { lineProgress } from '../run/progress.js';
import { evaluateGate, type GateResult } from '../scoring/gate.js';
import { loadGithubContext, type GithubContext } from '../github/context.js';
import { checkEventSafety } from '../github/safety.js';
import { gitIn } from '../history/git.js';
import { expandRunLogPaths, mergeRunLogFiles } from '../run/merge-logs.js';
import { applyOverrides, readInputs, type ActionInputs } from './inputs.js';
import { actionLog } from './log.js';
import { publishCutShort, publishRun, publishShard } from './publish.js';
import { stateLedger } from './state.js';
import { BUNDLE_STATE, guardFile, type FileGuard } from './bundle-guard.js';
import { cancelOnSignals, type SignalCancel } from '../util/cancel.js';
import { lockOutDir } from '../run/out-lock.js';
import { writeRunFiles, type RunFiles } from '../run/assemble.js';
import { preflightInputs } from '../config/preflight.js';
import { dataCacheDir } from '../benchmarks/data/index.js';
import { restoreDataCache, saveDataCache } from './data-cache.js';
import { cutShort, runVerdict, type RunVerdict } from '../run/verdict.js';
import { createRedactor, secretValuesOf, type Redactor } from '../runlog/redact.js';
import { declaredSecretNames } from '../run/secrets.js';
import { redactingLog } from '../util/log.js';
import { maskSecret } from './mask.js';

export { readInputs, ActionInputError, type ActionInputs } from './inputs.js';
export { stateLedger } from './state.js';

/** The commit checked out in the workspace, or null when there is no git repository there. */
async function workspaceHead(dir: string): Promise<string | null> {
  const r = await gitIn(dir)(['rev-parse', 'HEAD']).catch(() => undefined);
  return r && r.exitCode === 0 ? r.stdout.trim() : null;
}

/** The run log of this job: the shards' joined (`run-logs`), or a run of the pipeline. */
async function produceRunLog(
  config: Config,
  inputs: ActionInputs,
  ctx: GithubContext,
  cancel: SignalCancel,
  redactor: Redactor,
): Promise<RunFiles> {
  const outDir = path.resolve(inputs.outDir);
  const log = redactingLog(actionLog, redactor.text);
  if (inputs.runLogs) {
    const files = await expandRunLogPaths(inputs.runLogs);
    log.info(`merging ${files.length} run logs: ${files.join(', ')}`);
    const { runLog, warnings } = await mergeRunLogFiles(files);
    for (const w of warnings) log.warn(w);
    // The shards' runs may have declared secrets this job's config does not.
    redactor.add(...secretValuesOf(process.env, runLog.pipeline.secrets ?? []));
    const lock = await lockOutDir(outDir, 'merge');
    try {
      return await writeRunFiles(outDir, runLog, redactor);
    } finally {
      await lock.release();
    }
  }
  await preflightInputs(config);
  const cacheDir = path.join(process.env.RUNNER_TOOL_CACHE ?? path.resolve(inputs.outDir, '.cache'), 'saboteur');
  // Benchmarks with a path of their own read no downloaded data.
  const downloaded = Object.entries(config.benchmarks)
    .filter(([, s]) => !(s as { path?: string } | undefined)?.path)
    .map(([id]) => id);
  const dataCache = await restoreDataCache(actionsCache, dataCacheDir(cacheDir), downloaded, process.env, log);
  try {
    return await runJob(config, {
      signal: cancel.signal,
      outDir,
      log,
      progress: lineProgress((l) => log.info(l)),
      redactor,
      limit: inputs.limit,
      shard: inputs.shard,
      cacheDir,
      git: {
        sha: ctx.commit ?? process.env.GITHUB_SHA,
        ref: process.env.GITHUB_REF,
        baseRef: ctx.pr?.baseRef || process.env.GITHUB_BASE_REF || undefined,
        ...(ctx.pr ? { pr: ctx.pr.number } : {}),
      },
      ledger: stateLedger(),
    });
  } finally {
    await saveDataCache(actionsCache, dataCache, log);
  }
}

/**
 * The run's verdict, said last: its failure fails the job, and its exit code (an infrastructure
 * failure's 3, a signal's) is the last word, after any publishing failure's 1.
 */
function applyVerdict(verdict: RunVerdict): void {
  if (verdict.failure) core.setFailed(verdict.failure);
  for (const line of verdict.lines) (line.level === 'warning' ? core.warning : core.info)(line.text);
  if (verdict.exitCode !== 0) process.exitCode = verdict.exitCode;
}

/** Publishing steps that failed fail the job, once everything else is published. */
function failIfUnpublished(failures: readonly string[]): void {
  if (failures.length) core.setFailed(`saboteur: publishing failed: ${failures.join('; ')}`);
}

function logGate(gate: GateResult): void {
  for (const c of gate.checks)
    core.info(
      `gate ${c.metric}: ${c.value === null ? 'n/a' : c.value.toFixed(4)} (${c.threshold}${c.on && c.on !== 'estimate' ? `, on the ${c.on.replace('-', ' ')} ${c.judged?.toFixed(4) ?? 'n/a'}` : ''}) ${c.pass ? 'pass' : `FAIL${c.why ? `: ${c.why}` : ''}`}`,
    );
}

/** The files a run must not change: the post step's bundle (beside this one), GITHUB_ENV and GITHUB_PATH. */
function guardJobFiles(): { post?: FileGuard; commands: FileGuard[] } {
  const post = process.argv[1] ? guardFile(path.join(path.dirname(path.resolve(process.argv[1])), 'post.js')) : undefined;
  if (post) core.saveState(BUNDLE_STATE, JSON.stringify(post.recorded));
  const commands = [process.env.GITHUB_ENV, process.env.GITHUB_PATH].flatMap((f) =>
    f ? [guardFile(f)].filter((g): g is FileGuard => g !== undefined) : [],
  );
  return { post, commands };
}

/** Writes back what a run changed, fails the job when it did, and records the bundle again (last in the state wins). */
function checkJobFiles(guards: { post?: FileGuard; commands: FileGuard[] }): void {
  const changed = [guards.post, ...guards.commands].flatMap((g) => (g ? [g.check()].filter((c): c is string => c !== undefined) : []));
  if (guards.post) core.saveState(BUNDLE_STATE, JSON.stringify(guards.post.recorded));
  if (changed.length) core.setFailed(`saboteur: the job's files were changed during the run: ${changed.join('; ')}`);
}

export async function run(): Promise<void> {
  const guards = guardJobFiles();
  try {
    await runSteps();
  } finally {
    checkJobFiles(guards);
  }
}

async function runSteps(): Promise<void> {
  // Every secret of the job's environment is masked in the runner's log before anything is
  // printed, and the config's declared ones as soon as it is read; the run adds the model
  // server's key. What the run prints passes the same redaction as run.json besides.
  const redactor = createRedactor(secretValuesOf(process.env), maskSecret);
  try {
    const inputs = readInputs();
    const ctx = loadGithubContext(process.env);
    for (const p of ctx.problems) core.warning(`saboteur: ${p}`);
    const checkedOut =
      ctx.eventName === 'pull_request_target' ? await workspaceHead(process.env.GITHUB_WORKSPACE || process.cwd()) : undefined;
    const safety = checkEventSafety(ctx, { allowForkPrs: inputs.allowForkPrs, checkedOut });
    if (!safety.ok) {
      core.setFailed(`saboteur: ${safety.reason}`);
      return;
    }
    const config = applyOverrides(await loadConfig(inputs.config), inputs);
    redactor.add(...secretValuesOf(process.env, declaredSecretNames(config)));
    core.debug(redactor.text(`config: ${JSON.stringify(config)}`));
    const cancel = cancelOnSignals({ log: (m) => core.warning(m) });
    let produced: RunFiles;
    try {
      produced = await produceRunLog(config, inputs, ctx, cancel, redactor);
    } finally {
      cancel.dispose();
    }
    const verdictOf = (gate?: GateResult) =>
      runVerdict({
        files: produced,
        frontEnd: 'action',
        cancelledBy: cancel.received(),
        shard: inputs.shard !== undefined,
        gate,
        failOnGate: inputs.failOnGate,
      });
    if (cutShort(produced)) {
      await publishCutShort(produced);
      applyVerdict(verdictOf());
      return;
    }
    const absolute = evaluateGate(produced.runLog, config.gate);
    if (inputs.shard) {
      // Publishing first: core.setFailed sets exit code 1, and an infrastructure failure's 3 must be the last word.
      failIfUnpublished(await publishShard(produced, config, inputs, absolute));
      applyVerdict(verdictOf());
      return;
    }
    const { gate, failures } = await publishRun(produced, config, inputs, ctx, absolute);
    failIfUnpublished(failures);
    logGate(gate);
    applyVerdict(verdictOf(gate));
  } catch (err) {
    core.setFailed(redactor.text(`saboteur: ${(err as Error).message}`));
  }
}
