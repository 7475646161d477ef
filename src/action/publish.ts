/**
 * What the action publishes once the run log exists: the job summary and the step outputs, the
 * sticky pull request comment, and the history entry. Every step is tried whatever became of the
 * one before it (nothing that finished is lost); each step that fails is returned, named, and
 * main.ts fails the job on it after everything else is published. A fork's read-only token that may
 * not comment is the one expected refusal: a warning.
 */
import * as core from '@actions/core';
import os from 'node:os';
import type { Config } from '../config/load.js';
import type { RunLog } from '../runlog/schema.js';
import type { RunFiles } from '../run/assemble.js';
import { computeMetrics } from '../scoring/metrics.js';
import { securityFigures, type GateResult } from '../scoring/gate.js';
import { combineGate, compareWithBase, regressionChecks } from '../scoring/regression.js';
import { REPORT_MARKER } from '../report/markdown.js';
import { renderComment } from '../report/comment.js';
import { methodReportOf } from '../inject/registry.js';
import type { GithubContext } from '../github/context.js';
import { createGithubClient } from '../github/client.js';
import { explainCommentFailure, octokitComments, upsertStickyComment } from '../github/sticky-comment.js';
import { branchTrend, entryFromRunLog, findBase, type HistoryEntry, type HistoryRead } from '../scoring/history-entry.js';
import { openHistoryStore } from '../history/open.js';
import type { HistoryStore } from '../history/store.js';
import type { ActionInputs } from './inputs.js';
import { actionLog } from './log.js';
import { maskSecret } from './mask.js';

/** What the action publishes: the run's files as written (src/run/assemble.ts). */
export type Produced = RunFiles;

/** Publishing steps that failed, each `what: why`; the job fails on any of them. */
export type PublishFailures = string[];

/** The job summary, or the step's log when the summary cannot be written (a full disk, no file): the failure, or undefined. */
export async function publishSummaryOrLog(markdown: string): Promise<string | undefined> {
  try {
    await core.summary.addRaw(markdown).write();
    return undefined;
  } catch (err) {
    core.warning(`saboteur: the job summary could not be written (${(err as Error).message}); the report follows in the log`);
    core.info(markdown);
    return `the job summary could not be written (${(err as Error).message})`;
  }
}

/**
 * A cancelled run (the runner gives a few seconds before it kills the step) or one whose files are
 * lost: the report goes to the job summary (or the log) and the outputs name the files; no
 * comment, no history.
 */
export async function publishCutShort(produced: Produced): Promise<void> {
  await publishSummaryOrLog(produced.report);
  try {
    core.setOutput('report-path', produced.reportPath);
    core.setOutput('run-log-path', produced.runLogPath);
  } catch (err) {
    // A runner that cannot take outputs any more (its files gone with the job) must not turn a cancel into a failure.
    core.warning(`saboteur: the step outputs could not be set (${(err as Error).message})`);
  }
}

/** The step outputs: the headline figures (empty when not measured), the gate, the two files; the failure, or undefined. */
function setOutputs(produced: Produced, config: Config, pass: boolean): string | undefined {
  try {
    writeOutputs(produced, config, pass);
    return undefined;
  } catch (err) {
    // GITHUB_OUTPUT names a file that is gone or cannot be written: later steps would read no figures.
    return `the step outputs could not be set (${(err as Error).message})`;
  }
}

function writeOutputs(produced: Produced, config: Config, pass: boolean): void {
  const drop = computeMetrics(produced.runLog).overall.drop.absolute;
  const security = securityFigures(produced.runLog, config.gate.asr?.defense ?? config.defenses[0]);
  core.setOutput('malicious-drop', drop === null ? '' : drop.toFixed(4));
  core.setOutput('asr', security.asr === null ? '' : security.asr.toFixed(4));
  core.setOutput('tcr', security.tcr === null ? '' : security.tcr.toFixed(4));
  core.setOutput('gate', pass ? 'pass' : 'fail');
  core.setOutput('report-path', produced.reportPath);
  core.setOutput('run-log-path', produced.runLogPath);
}

/** One slice of the run: its figures are partial, so the merge job comments, stores and gates. */
export async function publishShard(
  produced: Produced,
  config: Config,
  inputs: ActionInputs,
  absolute: GateResult,
): Promise<PublishFailures> {
  const failures = [await publishSummaryOrLog(produced.report), setOutputs(produced, config, absolute.pass)];
  core.info(
    `shard ${inputs.shard!.index}/${inputs.shard!.count}: no comment, history or gate here; the job that merges the shards (run-logs) does them`,
  );
  return failures.filter((f): f is string => f !== undefined);
}

async function readHistory(store: HistoryStore | undefined): Promise<HistoryRead> {
  if (!store) return { entries: [], problems: [], exists: false };
  try {
    const read = await store.read();
    core.info(`history: ${read.exists ? `${read.entries.length} entries` : 'none yet'} on ${store.where}`);
    return read;
  } catch (err) {
    return { entries: [], problems: [`history: could not read ${store.where}: ${(err as Error).message}`], exists: false };
  }
}

/** The sticky comment; the failure, or undefined when it was posted or not asked for. */
async function postComment(ctx: GithubContext, inputs: ActionInputs, body: string): Promise<string | undefined> {
  const pr = ctx.pr!;
  if (!inputs.githubToken) {
    core.warning('saboteur: no github-token, so no pull request comment; the report is in the job summary');
    return undefined;
  }
  if (!ctx.repository) {
    core.warning('saboteur: GITHUB_REPOSITORY is not set, so no pull request comment; the report is in the job summary');
    return undefined;
  }
  try {
    const client = createGithubClient({ token: inputs.githubToken, baseUrl: ctx.apiUrl, log: actionLog });
    const result = await upsertStickyComment(
      octokitComments(client, ctx.repository.owner, ctx.repository.repo),
      pr.number,
      body,
      REPORT_MARKER,
    );
    core.info(`pull request #${pr.number}: comment ${result.action}${result.url ? ` (${result.url})` : ''}`);
    return undefined;
  } catch (err) {
    const why = explainCommentFailure(err, pr);
    // A fork's token is read-only by GitHub's design: expected, so a warning; any other refusal is a failure.
    const status = (err as { status?: unknown })?.status;
    if (pr.fork && (status === 403 || status === 404)) {
      core.warning(`saboteur: ${why}`);
      return undefined;
    }
    return `the pull request comment: ${why}`;
  }
}

/** Stores this commit's entry: completed runs of the repository's own branches only; the failure, or undefined. */
async function storeEntry(
  store: HistoryStore | undefined,
  current: HistoryEntry,
  runLog: RunLog,
  ctx: GithubContext,
  config: Config,
  known: readonly string[],
): Promise<string | undefined> {
  if (store && !ctx.pr?.fork && runLog.status === 'completed' && ctx.commit) {
    try {
      const { entries, attempts, problems } = await store.append(current, config.history.keep);
      for (const p of problems) if (!known.includes(p)) core.warning(`saboteur: ${p}`);
      core.info(
        `history: stored ${current.sha.slice(0, 7)} on ${store.where} (${entries.length} entries${attempts > 1 ? `, ${attempts} attempts` : ''})`,
      );
    } catch (err) {
      return `the history entry was not stored: ${(err as Error).message}`;
    }
  } else if (store && runLog.status !== 'completed') {
    core.info('history: an aborted run is not stored');
  }
  return undefined;
}

/**
 * The whole run: compared with the base branch's last stored run, published (job summary and
 * outputs, the comment, the history), and the combined gate (absolute and regression) returned.
 */
export async function publishRun(
  produced: Produced,
  config: Config,
  inputs: ActionInputs,
  ctx: GithubContext,
  absolute: GateResult,
): Promise<{ gate: GateResult; failures: PublishFailures }> {
  const { runLog } = produced;
  const opened = openHistoryStore(config.history, {
    override: inputs.history,
    remote: inputs.historyRemote,
    token: inputs.githubToken,
    ctx,
    tempDir: process.env.RUNNER_TEMP || os.tmpdir(),
    dashboard: inputs.dashboard,
    log: actionLog,
  });
  if (opened.secret) maskSecret(opened.secret);
  if (opened.why) core.info(`history: not kept (${opened.why})`);
  const store = opened.store;
  try {
    const stored = await readHistory(store);
    for (const p of stored.problems) core.warning(`saboteur: ${p}`);
    const current: HistoryEntry = entryFromRunLog(runLog, {
      sha: ctx.commit && /^[0-9a-f]{7,64}$/i.test(ctx.commit) ? ctx.commit : '0000000',
      branch: ctx.branch,
      pr: ctx.pr?.number,
      runUrl: ctx.runUrl,
    });
    const base = findBase(stored.entries, ctx.baseBranch, ctx.commit);
    const comparisons = compareWithBase(current, base, config.gate.regression);
    const gate = combineGate(absolute, regressionChecks(comparisons, config.gate.regression));
    const notes = [...stored.problems];
    if (store && ctx.pr?.fork) notes.push('pull request from a fork: this run is not stored in the history');
    const commentOptions = {
      current,
      comparisons,
      gate,
      thresholds: config.gate,
      base,
      baseBranch: ctx.baseBranch,
      trend: branchTrend(stored.entries, ctx.baseBranch, 20, ctx.commit),
      subject: ctx.pr ? 'this PR' : 'this commit',
      trendLabel: ctx.pr ? `PR ${ctx.pr.number}` : (ctx.commit ?? 'this run').slice(0, 7),
      artifactsUrl: ctx.runUrl ? `${ctx.runUrl}#artifacts` : undefined,
      notes,
      method: methodReportOf(runLog.variants.malicious.method),
    };

    // The job summary takes 1 MiB per step; 800,000 characters leaves room for multi-byte ones.
    const failures = [
      await publishSummaryOrLog(renderComment(runLog, { ...commentOptions, maxChars: 800_000 })),
      setOutputs(produced, config, gate.pass),
    ];
    if (ctx.pr && inputs.comment) failures.push(await postComment(ctx, inputs, renderComment(runLog, commentOptions)));
    else if (!ctx.pr) core.info(`no pull request (${ctx.eventName ?? 'not in a workflow'}): no comment`);
    failures.push(await storeEntry(store, current, runLog, ctx, config, stored.problems));
    return { gate, failures: failures.filter((f): f is string => f !== undefined) };
  } finally {
    await store?.close().catch(() => undefined);
  }
}
