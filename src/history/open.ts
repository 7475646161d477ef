/**
 * Picks the history store for a run from the config (`history.*`), the action's inputs and the
 * workflow context: the data branch of this repository by default, a JSON file, or none.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { GithubContext } from '../github/context.js';
import type { Log } from '../util/log.js';
import { BranchStore } from './branch-store.js';
import { FileStore } from './file-store.js';
import type { HistoryStore } from './store.js';
import { gitAuthEnv } from './git.js';

export interface OpenHistoryOptions {
  /** The action's `history` input: overrides history.store. */
  override?: 'branch' | 'file' | 'none';
  /** The action's `history-remote` input: the repository holding the data branch. */
  remote?: string;
  token?: string;
  ctx: GithubContext;
  tempDir: string;
  dashboard: boolean;
  log: Log;
}

export interface OpenedHistory {
  store?: HistoryStore;
  /** Why there is none (store: none, no repository known). */
  why?: string;
  /** A value to mask in logs (the git auth header). */
  secret?: string;
}

/** Where run history lives, as the config gives it (docs/configuration.md, "History"; parsed in config/load.ts). */
export interface HistorySettings {
  store: 'branch' | 'file' | 'none';
  branch: string;
  file?: string;
  keep: number;
}
export function openHistoryStore(history: HistorySettings, opts: OpenHistoryOptions): OpenedHistory {
  const kind = opts.override ?? history.store;
  const title = opts.ctx.repository?.fullName;
  if (kind === 'none') return { why: 'history.store is none' };
  if (kind === 'file') {
    if (!history.file)
      return { why: 'history.store is file but history.file is not set (example: history: { store: file, file: .saboteur/history.json })' };
    return { store: new FileStore({ file: history.file, dashboard: opts.dashboard, title, defaultBranch: opts.ctx.defaultBranch }) };
  }
  const remote = opts.remote ?? (opts.ctx.repository ? `${opts.ctx.serverUrl}/${opts.ctx.repository.fullName}.git` : undefined);
  if (!remote) return { why: 'no repository to keep it in (GITHUB_REPOSITORY is not set; set the history-remote input)' };
  const store = new BranchStore({
    remote,
    branch: history.branch,
    workDir: path.join(opts.tempDir, `saboteur-history-${randomBytes(4).toString('hex')}`),
    token: opts.token,
    log: opts.log,
    dashboard: opts.dashboard,
    title,
    defaultBranch: opts.ctx.defaultBranch,
  });
  return { store, secret: gitAuthEnv(remote, opts.token).secret };
}
