/**
 * The GitHub Action: reads the inputs once, runs the job, publishes the report (job summary,
 * outputs), then applies the gate. The one place that calls core.setFailed.
 */
import * as core from '@actions/core';
import path from 'node:path';
import { loadConfig, type Config } from './config/load.js';
import { MODEL_KINDS } from './config/schema.js';
import { runJob } from './run/job.js';
import { lineProgress } from './run/progress.js';
import { computeMetrics } from './scoring/metrics.js';
import { evaluateGate, securityFigures } from './gate.js';
import { renderReport } from './report/markdown.js';
import type { Log } from './util/log.js';
import type { ProcessLedger, TrackedProcess } from './model/index.js';
import { PROCESSES_STATE } from './post-step.js';

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
}

export class InputError extends Error {}

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
    const m = /^(\d+)\/(\d+)$/.exec(shardText);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new InputError(`input shard: "${shardText}" must look like 2/8 (shard 2 of 8)`);
    shard = { index: Number(m[1]), count: Number(m[2]) };
  }
  const limitText = core.getInput('limit') || undefined;
  const limit = limitText ? Number(limitText) : undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new InputError(`input limit: "${limitText}" must be a positive whole number (example: limit: 20)`);
  const token = core.getInput('github-token') || undefined;
  if (token) core.setSecret(token);
  return {
    config: core.getInput('config') || 'saboteur.yml',
    model: core.getInput('model') || undefined,
    modelKind,
    baseUrl,
    shard,
    limit,
    outDir: core.getInput('out-dir') || 'saboteur-out',
    failOnGate: (core.getInput('fail-on-gate') || 'true') !== 'false',
    githubToken: token,
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

export async function run(): Promise<void> {
  try {
    const inputs = readInputs();
    const config = applyOverrides(await loadConfig(inputs.config), inputs);
    core.debug(`config: ${JSON.stringify(config)}`);
    const { runLog, runLogPath, reportPath } = await runJob(config, {
      outDir: path.resolve(inputs.outDir),
      log: actionLog,
      progress: lineProgress((l) => core.info(l)),
      limit: inputs.limit,
      shard: inputs.shard,
      cacheDir: path.join(process.env.RUNNER_TOOL_CACHE ?? path.resolve(inputs.outDir, '.cache'), 'saboteur'),
      git: { sha: process.env.GITHUB_SHA, ref: process.env.GITHUB_REF, baseRef: process.env.GITHUB_BASE_REF || undefined },
      ledger: stateLedger(),
    });
    const metrics = computeMetrics(runLog);
    const gate = evaluateGate(runLog, config.gate);
    const security = securityFigures(runLog, config.gate.asr?.defense ?? config.defenses[0]);
    await core.summary.addRaw(renderReport(runLog)).write();
    const drop = metrics.overall.drop.absolute;
    core.setOutput('malicious-drop', drop === null ? '' : drop.toFixed(4));
    core.setOutput('asr', security.asr === null ? '' : security.asr.toFixed(4));
    core.setOutput('tcr', security.tcr === null ? '' : security.tcr.toFixed(4));
    core.setOutput('gate', gate.pass ? 'pass' : 'fail');
    core.setOutput('report-path', reportPath);
    core.setOutput('run-log-path', runLogPath);
    for (const c of gate.checks) core.info(`gate ${c.metric}: ${c.value === null ? 'n/a' : c.value.toFixed(4)} (${c.threshold}) ${c.pass ? 'pass' : `FAIL${c.why ? `: ${c.why}` : ''}`}`);
    if (runLog.status === 'aborted') {
      core.setFailed(`saboteur: infrastructure failure, the run stopped early: ${runLog.abortReason}`);
    } else if (!gate.pass && inputs.failOnGate) {
      core.setFailed(`saboteur: the gate failed (${gate.checks.filter((c) => !c.pass).map((c) => c.metric).join(', ')})`);
    }
  } catch (err) {
    core.setFailed(`saboteur: ${(err as Error).message}`);
  }
}

