/**
 * The action's inputs, read and checked in one place (nothing reads inputs at import time), and
 * the overrides they make to the config. A bad input is an ActionInputError naming it with an example.
 */
import * as core from '@actions/core';
import type { Config } from '../config/load.js';
import { MODEL_KINDS } from '../config/schema.js';
import { parseShardSpec } from '../benchmarks/core/sample.js';
import { checkRemote } from '../history/git.js';
import { InputError } from '../util/input-error.js';
import { maskSecret } from './mask.js';

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

export class ActionInputError extends InputError {}

function booleanInput(name: string, fallback: boolean): boolean {
  const raw = core.getInput(name).trim();
  if (raw === '') return fallback;
  if (/^(true|True|TRUE)$/.test(raw)) return true;
  if (/^(false|False|FALSE)$/.test(raw)) return false;
  throw new ActionInputError(`input ${name}: "${raw}" is not true or false (example: ${name}: 'true')`);
}

/** Reads and checks every input in one place; nothing reads inputs at import time. */
export function readInputs(): ActionInputs {
  const modelKind = core.getInput('model-kind') || undefined;
  if (modelKind && !(MODEL_KINDS as readonly string[]).includes(modelKind)) {
    throw new ActionInputError(`input model-kind: "${modelKind}" is not one of ${MODEL_KINDS.join(', ')} (example: model-kind: external)`);
  }
  const baseUrl = core.getInput('base-url') || undefined;
  if (baseUrl && !/^https?:\/\/\S+$/.test(baseUrl))
    throw new ActionInputError(`input base-url: "${baseUrl}" is not an http(s) URL (example: base-url: http://gpu-box:8000/v1)`);
  const shardText = core.getInput('shard') || undefined;
  let shard: ActionInputs['shard'];
  if (shardText) {
    shard = parseShardSpec(shardText);
    if (!shard) throw new ActionInputError(`input shard: "${shardText}" must look like 2/8 (shard 2 of 8)`);
  }
  const limitText = core.getInput('limit') || undefined;
  const limit = limitText ? Number(limitText) : undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new ActionInputError(`input limit: "${limitText}" must be a positive whole number (example: limit: 20)`);
  const token = core.getInput('github-token') || undefined;
  if (token) maskSecret(token);
  const history = core.getInput('history').trim() || undefined;
  if (history && !['branch', 'file', 'none'].includes(history))
    throw new ActionInputError(`input history: "${history}" is not one of branch, file, none (example: history: none)`);
  const historyRemote = core.getInput('history-remote').trim() || undefined;
  const remoteProblem = historyRemote ? checkRemote(historyRemote) : undefined;
  if (remoteProblem) throw new ActionInputError(`input history-remote: ${remoteProblem}`);
  const runLogs = core
    .getInput('run-logs')
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (runLogs.length && shard)
    throw new ActionInputError('inputs run-logs and shard exclude each other: shards run, the merge job joins their run logs');
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

export function applyOverrides(config: Config, inputs: ActionInputs): Config {
  const model = { ...config.model };
  if (inputs.model) model.model = inputs.model;
  if (inputs.modelKind) model.kind = inputs.modelKind as Config['model']['kind'];
  if (inputs.baseUrl) model.baseUrl = inputs.baseUrl.replace(/\/+$/, '');
  return { ...config, model };
}
