/**
 * The history on a data branch (default `saboteur-data`): `history.json`, the dashboard
 * `index.html` (servable by GitHub Pages) and a short README, committed by real `git` in a
 * scratch repository and pushed without force.
 *
 * Concurrent writers: a push that loses the race is rejected (non-fast-forward). The writer then
 * fetches the new tip and re-applies its entry on top of it, i.e. rebases its change; the entry
 * is re-derived rather than text-merged because two appends to one JSON file always conflict as
 * text. Nothing is lost: every writer's entry lands, in push order.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { makeDir } from '../util/make-dir.js';
import path from 'node:path';
import { addEntry, parseHistory, serializeHistory, type HistoryEntry, type HistoryRead } from '../scoring/history-entry.js';
import { checkBranch, checkRemote, displayRemote, gitAuthEnv, gitError, gitIn, type Git, type GitResult } from './git.js';
import { corruptName, type AppendResult, type HistoryStore } from './store.js';
import { renderDashboard } from './dashboard.js';
import type { Log } from '../util/log.js';

export const HISTORY_FILE = 'history.json';
export const DASHBOARD_FILE = 'index.html';

export interface BranchStoreOptions {
  /** The repository: https URL, file:// URL or absolute path. */
  remote: string;
  branch: string;
  /** Scratch folder for the working repository (created; removed by close()). */
  workDir: string;
  token?: string;
  log: Log;
  /** Write the dashboard page too (default true). */
  dashboard?: boolean;
  /** Shown on the dashboard ("owner/repo"). */
  title?: string;
  /** The branch whose runs the dashboard shows first. */
  defaultBranch?: string;
  maxAttempts?: number;
  author?: { name: string; email: string };
  /** Runs after the commit, before each push: lets tests make a concurrent writer win the race. */
  beforePush?: (attempt: number) => Promise<void>;
  /** Wait before attempt `n` (n ≥ 2); default a growing, jittered pause. */
  backoffMs?: (attempt: number) => number;
}

const DEFAULT_AUTHOR = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' };

/** git push --porcelain reasons that mean "someone else pushed first": fetch and try again. */
const RACE =
  /non-fast-forward|fetch first|stale info|failed to update ref|cannot lock ref|incorrect old value|reference already exists|failed to lock/i;

export class BranchStore implements HistoryStore {
  readonly where: string;
  private readonly git: Git;
  private ready = false;

  constructor(private readonly opts: BranchStoreOptions) {
    const problem = checkRemote(opts.remote) ?? checkBranch(opts.branch);
    if (problem) throw new Error(problem);
    this.where = `branch ${opts.branch} of ${displayRemote(opts.remote)}`;
    this.git = gitIn(opts.workDir, gitAuthEnv(opts.remote, opts.token).env);
  }

  private async must(args: string[], what: string): Promise<GitResult> {
    const r = await this.git(args);
    if (r.exitCode !== 0) throw gitError(`${what} (${this.where})`, r);
    return r;
  }

  private async init(): Promise<void> {
    if (this.ready) return;
    await makeDir(this.opts.workDir);
    await this.must(['init', '-q'], 'git init');
    await this.must(['remote', 'add', 'origin', this.opts.remote], 'git remote add');
    this.ready = true;
  }

  private get trackingRef(): string {
    return `refs/remotes/origin/${this.opts.branch}`;
  }

  /** Fetches the branch's tip; undefined when the branch does not exist yet. */
  private async fetchTip(): Promise<string | undefined> {
    const r = await this.git(['fetch', '-q', '--no-tags', '--depth=1', 'origin', `+refs/heads/${this.opts.branch}:${this.trackingRef}`]);
    if (r.exitCode !== 0) {
      if (/couldn't find remote ref|no such ref|not our ref/i.test(r.stderr)) return undefined;
      throw gitError('git fetch', r);
    }
    return (await this.must(['rev-parse', this.trackingRef], 'git rev-parse')).stdout.trim();
  }

  async read(): Promise<HistoryRead> {
    await this.init();
    const tip = await this.fetchTip();
    if (!tip) return { entries: [], problems: [], exists: false };
    const r = await this.git(['show', `${this.trackingRef}:${HISTORY_FILE}`]);
    if (r.exitCode !== 0) return { entries: [], problems: [`${this.where} has no ${HISTORY_FILE}; starting a new history`], exists: true };
    return parseHistory(r.stdout, `${this.opts.branch}:${HISTORY_FILE}`);
  }

  async append(entry: HistoryEntry, keep: number): Promise<AppendResult> {
    await this.init();
    const max = this.opts.maxAttempts ?? 6;
    const author = this.opts.author ?? DEFAULT_AUTHOR;
    const identity = ['-c', `user.name=${author.name}`, '-c', `user.email=${author.email}`, '-c', 'commit.gpgsign=false'];
    let problems: string[] = [];
    for (let attempt = 1; attempt <= max; attempt++) {
      if (attempt > 1)
        await new Promise((r) => setTimeout(r, this.opts.backoffMs?.(attempt) ?? 200 * attempt + Math.floor(Math.random() * 300)));
      const tip = await this.fetchTip();
      if (tip) {
        await this.must(['checkout', '-q', '--force', '-B', 'saboteur-history', this.trackingRef], 'git checkout');
      } else {
        await this.must(['checkout', '-q', '--force', '--orphan', `saboteur-history-${attempt}`], 'git checkout --orphan');
        await this.must(['rm', '-q', '-r', '-f', '--cached', '--ignore-unmatch', '.'], 'git rm');
      }
      await this.must(['clean', '-q', '-f', '-d', '-x'], 'git clean');
      const file = path.join(this.opts.workDir, HISTORY_FILE);
      const text = await readFile(file, 'utf8').catch(() => undefined);
      const stored: HistoryRead =
        text === undefined
          ? {
              entries: [],
              problems: tip ? [`${this.where} had no ${HISTORY_FILE}; starting a new history`] : [],
              exists: tip !== undefined,
            }
          : parseHistory(text, `${this.opts.branch}:${HISTORY_FILE}`);
      problems = stored.problems;
      if (text !== undefined && stored.problems.length && stored.entries.length === 0) {
        // Keep the unreadable file on the branch, so nothing stored is ever lost.
        const aside = corruptName(HISTORY_FILE, new Date());
        await writeFile(path.join(this.opts.workDir, aside), text);
        problems = [...problems, `the unreadable history was kept as ${aside} on ${this.opts.branch}`];
      }
      const entries = addEntry(stored.entries, entry, keep);
      await writeFile(file, serializeHistory(entries));
      if (this.opts.dashboard !== false) {
        await writeFile(
          path.join(this.opts.workDir, DASHBOARD_FILE),
          renderDashboard(entries, { title: this.opts.title, defaultBranch: this.opts.defaultBranch }),
        );
        await writeFile(path.join(this.opts.workDir, '.nojekyll'), '');
      }
      await writeFile(path.join(this.opts.workDir, 'README.md'), BRANCH_README);
      await this.must(['add', '-A'], 'git add');
      await this.must(
        [
          ...identity,
          'commit',
          '-q',
          '--allow-empty',
          '-m',
          `saboteur: ${entry.sha.slice(0, 7)}${entry.branch ? ` on ${entry.branch}` : ''} (run ${entry.runId})`,
        ],
        'git commit',
      );
      await this.opts.beforePush?.(attempt);
      const push = await this.git(['push', '--porcelain', 'origin', `HEAD:refs/heads/${this.opts.branch}`]);
      if (push.exitCode === 0) {
        if (attempt > 1) this.opts.log.info(`history: landed on ${this.where} after ${attempt} attempts (another run pushed first)`);
        return { entries, attempts: attempt, problems };
      }
      if (!RACE.test(`${push.stdout}\n${push.stderr}`)) throw gitError(`git push to ${this.where}`, push);
      this.opts.log.info(
        `history: another run pushed to ${this.where} first; fetching it and re-applying this entry (attempt ${attempt + 1} of ${max})`,
      );
    }
    throw new Error(`history: gave up pushing to ${this.where} after ${max} attempts: other runs kept pushing first`);
  }

  async close(): Promise<void> {
    await rm(this.opts.workDir, { recursive: true, force: true });
  }
}

/** Reads a branch's history once and cleans up: what the action needs before the comment. */
export async function readBranch(opts: BranchStoreOptions): Promise<HistoryRead> {
  const store = new BranchStore(opts);
  try {
    return await store.read();
  } finally {
    await store.close();
  }
}

const BRANCH_README = `# saboteur data

This branch is written by the saboteur action: one entry per measured commit in \`history.json\`
(figures with their 95% intervals and the counts behind them, the model, the config hash, the run),
and \`index.html\`, a dashboard with a chart of every metric over commits (serve this branch with
GitHub Pages, or open the file). Do not edit by hand while workflows run: they push here.
`;
