/**
 * The GitHub Action: reads the inputs once, checks that the event is safe to run on, runs the job
 * (or merges the shards' run logs), publishes (job summary, outputs, the sticky PR comment, the
 * history entry), then applies the gate. The one place that calls core.setFailed: a failing gate
 * fails the job only after everything is published.
 */
import * as core from '@actions/core';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../config/load.js';
import { MODEL_KINDS } from '../config/schema.js';
import { runJob } from '../run/job.js';
import { lineProgress } from '../run/progress.js';
import { parseShardSpec } from '../benchmarks/sample.js';
import { computeMetrics } from '../scoring/metrics.js';
import { evaluateGate, securityFigures } from '../scoring/gate.js';
import { renderReport, REPORT_MARKER } from '../report/markdown.js';
import { renderComment } from '../report/comment.js';
import type { Log } from '../util/log.js';
import type { ProcessLedger, TrackedProcess } from '../model/index.js';
import { PROCESSES_STATE } from './post.js';
import type { RunLog } from '../runlog/schema.js';
import { loadGithubContext, type GithubContext } from '../github/context.js';
import { checkEventSafety } from '../github/safety.js';
import { createGithubClient } from '../github/client.js';
import { explainCommentFailure, octokitComments, upsertStickyComment } from '../github/sticky-comment.js';
import { branchTrend, entryFromRunLog, findBase, type HistoryEntry, type HistoryRead } from '../history/entry.js';
import { openHistoryStore } from '../history/open.js';
import { checkRemote, gitIn } from '../history/git.js';
import type { HistoryStore } from '../history/store.js';
import { combineGate, compareWithBase, regressionChecks } from '../scoring/regression.js';
import { expandRunLogPaths, mergeRunLogFiles } from '../runlog/merge.js';

export interface ActionInputs {
  config: string;
  model?: string;
  modelKind?: string;
  baseUrl?: string;
  shard?: { index: number; count: number };
  limit?: number;
  outDir: string;
  failOnGate: boolean;
  githubToken?: string;
  comment: boolean;
  allowForkPrs: boolean;
  /** Overrides history.store. */
  history?: 'branch' | 'file' | 'none';
  historyRemote?: string;
  dashboard: boolean;
  /** Run logs to merge and publish instead of running (the merge job of a sharded run). */
  runLogs?: string[];
}

export class InputError extends Error {}

function booleanInput(name: string, fallback: boolean): boolean {
  const raw = core.getInput(name).trim();
  if (raw === '') return fallback;
  if (/^(true|True|TRUE)$/.test(raw)) return true;
  if (/^(false|False|FALSE)$/.test(raw)) return false;
  throw new InputError(`input ${name}: "${raw}" is not true or false (example: ${name}: 'true')`);
}

/** Reads and checks every input in one place; nothing reads inputs at import time. */
export function readInputs(): ActionInputs {
  const modelKind = core.getInput('model-kind') || undefined;
  if (modelKind && !(MODEL_KINDS as readonly string[]).includes(modelKind)) {
    throw new InputError(`input model-kind: "${modelKind}" is not one of ${MODEL_KINDS.join(', ')} (example: model-kind: external)`);
  }
  const baseUrl = core.getInput('base-url') || undefined;
  if (baseUrl && !/^https?:\/\/\S+$/.test(baseUrl)) throw new InputError(`input base-url: "${baseUrl}" is not an http(s) URL (example: base-url: http://gpu-box:8000/v1)`);
  const shardText = core.getInput('shard') || undefined;
  let shard: ActionInputs['shard'];
  if (shardText) {
    shard = parseShardSpec(shardText);
    if (!shard) throw new InputError(`input shard: "${shardText}" must look like 2/8 (shard 2 of 8)`);
  }
  const limitText = core.getInput('limit') || undefined;
  const limit = limitText ? Number(limitText) : undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new InputError(`input limit: "${limitText}" must be a positive whole number (example: limit: 20)`);
  const token = core.getInput('github-token') || undefined;
  if (token) core.setSecret(token);
  const history = core.getInput('history').trim() || undefined;
  if (history && !['branch', 'file', 'none'].includes(history)) throw new InputError(`input history: "${history}" is not one of branch, file, none (example: history: none)`);
  const historyRemote = core.getInput('history-remote').trim() || undefined;
  const remoteProblem = historyRemote ? checkRemote(historyRemote) : undefined;
  if (remoteProblem) throw new InputError(`input history-remote: ${remoteProblem}`);
  const runLogs = core
    .getInput('run-logs')
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (runLogs.length && shard) throw new InputError('inputs run-logs and shard exclude each other: shards run, the merge job joins their run logs');
  return {
    config: core.getInput('config') || 'saboteur.yml',
    model: core.getInput('model') || undefined,
    modelKind,
    baseUrl,
    shard,
    limit,
    outDir: core.getInput('out-dir') || 'saboteur-out',
    failOnGate: booleanInput('fail-on-gate', true),
    githubToken: token,
    comment: booleanInput('comment', true),
    allowForkPrs: booleanInput('allow-fork-prs', false),
    history: history as ActionInputs['history'],
    historyRemote,
    dashboard: booleanInput('dashboard', true),
    ...(runLogs.length ? { runLogs } : {}),
  };
}

function applyOverrides(config: Config, inputs: ActionInputs): Config {
  const model = { ...config.model };
  if (inputs.model) model.model = inputs.model;
  if (inputs.modelKind) model.kind = inputs.modelKind as Config['model']['kind'];
  if (inputs.baseUrl) model.baseUrl = inputs.baseUrl.replace(/\/+$/, '');
  return { ...config, model };
}

const actionLog: Log = {
  info: (m) => core.info(m),
  warn: (m) => core.warning(m),
  debug: (m) => core.debug(m),
  group: (name, fn) => core.group(name, fn),
};

/**
 * Saves the model server processes in the action state on every change, so the post step can
 * stop them when this step crashes or the job is cancelled before it stops them itself.
 */
export function stateLedger(save: (json: string) => void = (json) => core.saveState(PROCESSES_STATE, json)): ProcessLedger {
  const running: TrackedProcess[] = [];
  return {
    started(p) {
      running.push(p);
      save(JSON.stringify(running));
    },
    stopped(pid) {
      const i = running.findIndex((p) => p.pid === pid);
      if (i >= 0) running.splice(i, 1);
      save(JSON.stringify(running));
    },
  };
}

/** The commit checked out in the workspace, or null when there is no git repository there. */
async function workspaceHead(dir: string): Promise<string | null> {
  const r = await gitIn(dir)(['rev-parse', 'HEAD']).catch(() => undefined);
  return r && r.exitCode === 0 ? r.stdout.trim() : null;
}

async function produceRunLog(config: Config, inputs: ActionInputs, ctx: GithubContext): Promise<{ runLog: RunLog; runLogPath: string; reportPath: string }> {
  const outDir = path.resolve(inputs.outDir);
  if (inputs.runLogs) {
    const files = await expandRunLogPaths(inputs.runLogs);
    core.info(`merging ${files.length} run logs: ${files.join(', ')}`);
    const { runLog, warnings } = await mergeRunLogFiles(files);
    for (const w of warnings) core.warning(w);
    await mkdir(outDir, { recursive: true });
    const runLogPath = path.join(outDir, 'run.json');
    const reportPath = path.join(outDir, 'report.md');
    await writeFile(runLogPath, `${JSON.stringify(runLog, null, 2)}\n`);
    await writeFile(reportPath, renderReport(runLog));
    return { runLog, runLogPath, reportPath };
  }
  return runJob(config, {
    outDir,
    log: actionLog,
    progress: lineProgress((l) => core.info(l)),
    limit: inputs.limit,
    shard: inputs.shard,
    cacheDir: path.join(process.env.RUNNER_TOOL_CACHE ?? path.resolve(inputs.outDir, '.cache'), 'saboteur'),
    git: {
      sha: ctx.commit ?? process.env.GITHUB_SHA,
      ref: process.env.GITHUB_REF,
      baseRef: ctx.pr?.baseRef || process.env.GITHUB_BASE_REF || undefined,
      ...(ctx.pr ? { pr: ctx.pr.number } : {}),
    },
    ledger: stateLedger(),
  });
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

async function postComment(ctx: GithubContext, inputs: ActionInputs, body: string): Promise<void> {
  const pr = ctx.pr!;
  if (!inputs.githubToken) {
    core.warning('saboteur: no github-token, so no pull request comment; the report is in the job summary');
    return;
  }
  if (!ctx.repository) {
    core.warning('saboteur: GITHUB_REPOSITORY is not set, so no pull request comment; the report is in the job summary');
    return;
  }
  try {
    const client = createGithubClient({ token: inputs.githubToken, baseUrl: ctx.apiUrl, log: actionLog });
    const result = await upsertStickyComment(octokitComments(client, ctx.repository.owner, ctx.repository.repo), pr.number, body, REPORT_MARKER);
    core.info(`pull request #${pr.number}: comment ${result.action}${result.url ? ` (${result.url})` : ''}`);
  } catch (err) {
    core.warning(`saboteur: ${explainCommentFailure(err, pr)}`);
  }
}

export async function run(): Promise<void> {
  try {
    const inputs = readInputs();
    const ctx = loadGithubContext(process.env);
    for (const p of ctx.problems) core.warning(`saboteur: ${p}`);
    const checkedOut = ctx.eventName === 'pull_request_target' ? await workspaceHead(process.env.GITHUB_WORKSPACE || process.cwd()) : undefined;
    const safety = checkEventSafety(ctx, { allowForkPrs: inputs.allowForkPrs, checkedOut });
    if (!safety.ok) {
      core.setFailed(`saboteur: ${safety.reason}`);
      return;
    }
    const config = applyOverrides(await loadConfig(inputs.config), inputs);
    core.debug(`config: ${JSON.stringify(config)}`);
    const { runLog, runLogPath, reportPath } = await produceRunLog(config, inputs, ctx);
    const metrics = computeMetrics(runLog);
    const absolute = evaluateGate(runLog, config.gate);
    const security = securityFigures(runLog, config.gate.asr?.defense ?? config.defenses[0]);
    const drop = metrics.overall.drop.absolute;
    const setOutputs = (pass: boolean) => {
      core.setOutput('malicious-drop', drop === null ? '' : drop.toFixed(4));
      core.setOutput('asr', security.asr === null ? '' : security.asr.toFixed(4));
      core.setOutput('tcr', security.tcr === null ? '' : security.tcr.toFixed(4));
      core.setOutput('gate', pass ? 'pass' : 'fail');
      core.setOutput('report-path', reportPath);
      core.setOutput('run-log-path', runLogPath);
    };

    if (inputs.shard) {
      // One slice of the run: its figures are partial, so the merge job comments, stores and gates.
      await core.summary.addRaw(renderReport(runLog)).write();
      setOutputs(absolute.pass);
      core.info(`shard ${inputs.shard.index}/${inputs.shard.count}: no comment, history or gate here; the job that merges the shards (run-logs) does them`);
      if (runLog.status === 'aborted') core.setFailed(`saboteur: infrastructure failure, the run stopped early: ${runLog.abortReason}`);
      return;
    }

    const opened = openHistoryStore(config.history, {
      override: inputs.history,
      remote: inputs.historyRemote,
      token: inputs.githubToken,
      ctx,
      tempDir: process.env.RUNNER_TEMP || os.tmpdir(),
      dashboard: inputs.dashboard,
      log: actionLog,
    });
    if (opened.secret) core.setSecret(opened.secret);
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
      };

      // Publish: job summary and outputs, the comment, the history; the gate only after all of it.
      // The job summary takes 1 MiB per step; 800,000 characters leaves room for multi-byte ones.
      await core.summary.addRaw(renderComment(runLog, { ...commentOptions, maxChars: 800_000 })).write();
      setOutputs(gate.pass);
      if (ctx.pr && inputs.comment) await postComment(ctx, inputs, renderComment(runLog, commentOptions));
      else if (!ctx.pr) core.info(`no pull request (${ctx.eventName ?? 'not in a workflow'}): no comment`);

      if (store && !ctx.pr?.fork && runLog.status === 'completed' && ctx.commit) {
        try {
          const { entries, attempts, problems } = await store.append(current, config.history.keep);
          for (const p of problems) if (!stored.problems.includes(p)) core.warning(`saboteur: ${p}`);
          core.info(`history: stored ${current.sha.slice(0, 7)} on ${store.where} (${entries.length} entries${attempts > 1 ? `, ${attempts} attempts` : ''})`);
        } catch (err) {
          core.warning(`saboteur: history not stored: ${(err as Error).message}`);
        }
      } else if (store && runLog.status !== 'completed') {
        core.info('history: an aborted run is not stored');
      }

      for (const c of gate.checks) core.info(`gate ${c.metric}: ${c.value === null ? 'n/a' : c.value.toFixed(4)} (${c.threshold}) ${c.pass ? 'pass' : `FAIL${c.why ? `: ${c.why}` : ''}`}`);
      if (runLog.status === 'aborted') {
        core.setFailed(`saboteur: infrastructure failure, the run stopped early: ${runLog.abortReason}`);
      } else if (!gate.pass && inputs.failOnGate) {
        core.setFailed(`saboteur: the gate failed (${gate.checks.filter((c) => !c.pass).map((c) => c.metric).join(', ')})`);
      }
    } finally {
      await store?.close().catch(() => undefined);
    }
  } catch (err) {
    core.setFailed(`saboteur: ${(err as Error).message}`);
  }
}
