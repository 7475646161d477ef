/**
 * `saboteur history add RUN.json --store DIR` and `saboteur dashboard --store DIR --out DIR`: the
 * history and its dashboard from the command line, without the action. The store is a folder
 * holding `history.json` (the file store's format, locked and replaced atomically, as the action's
 * `history.store: file`); the dashboard is one static `index.html`.
 */
import { readFile } from 'node:fs/promises';
import { makeDir } from '../util/make-dir.js';
import path from 'node:path';
import { entryFromRunLog, parseHistory } from '../scoring/history-entry.js';
import { FileStore } from '../history/file-store.js';
import { gitIn } from '../history/git.js';
import { renderDashboard } from '../history/dashboard.js';
import { writeFileAtomic } from '../runlog/write.js';
import { parseArgs, usageOf, UsageError, type FlagSpec } from './args.js';
import { EXIT, readRunLogFile, wantsHelp, type CliIo } from './io.js';

export const HISTORY_FILE = 'history.json';
const SHA = /^[0-9a-f]{7,64}$/i;

const ADD_FLAGS: FlagSpec = {
  store: { type: 'string', description: 'folder of the history (history.json is created there)' },
  sha: {
    type: 'string',
    description: "the commit the run measured (default: the run log's git.sha, else HEAD of the repository holding the run log)",
  },
  branch: { type: 'string', description: "its branch (default: the run log's git.ref, refs/heads/ taken off)" },
  pr: { type: 'number', description: 'the pull request it belongs to, if any' },
  keep: { type: 'number', description: 'keep at most this many entries (default 500)' },
};

const DASHBOARD_FLAGS: FlagSpec = {
  store: { type: 'string', description: 'folder of the history (history.json)' },
  out: { type: 'string', description: 'folder for index.html (default: the store)' },
  title: { type: 'string', description: 'the page title' },
  branch: { type: 'string', description: 'the branch shown first (default: the one with the most runs)' },
};

/** HEAD of the git repository holding `dir`; undefined outside one (or without git). */
async function headOf(dir: string): Promise<string | undefined> {
  const r = await gitIn(dir)(['rev-parse', '--verify', '--quiet', 'HEAD']).catch(() => undefined);
  return r?.exitCode === 0 ? r.stdout.trim() : undefined;
}

function storeDir(flags: Record<string, unknown>, usage: string): string {
  if (typeof flags.store !== 'string' || flags.store === '') throw new UsageError(`--store names the history's folder\n\n${usage}`);
  return path.resolve(flags.store);
}

async function historyAdd(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf(
    'history add RUN.json --store DIR [--sha SHA] [--branch NAME] [--pr N]',
    "Adds the run log as its commit's entry of the history (one entry per commit: a later run replaces it).",
    ADD_FLAGS,
  );
  if (wantsHelp(argv, usage, io)) return EXIT.ok;
  const { flags, positionals } = parseArgs(argv, ADD_FLAGS, usage);
  if (positionals.length !== 1) throw new UsageError(`name one run log\n\n${usage}`);
  const dir = storeDir(flags, usage);
  const runLog = await readRunLogFile(positionals[0]);
  let sha = (flags.sha as string | undefined) ?? runLog.git?.sha;
  if (sha === undefined) {
    // A run outside GitHub records no commit: the checkout the run log lies in measured its HEAD.
    sha = await headOf(path.dirname(path.resolve(positionals[0])));
    if (sha) io.stderr.write(`history: the run log records no commit; using HEAD of the repository holding it (${sha.slice(0, 7)})\n`);
  }
  if (!sha || !SHA.test(sha))
    throw new UsageError(
      `${positionals[0]}: ${sha ? `"${sha}" is not a commit sha` : 'the run log records no commit and lies in no git repository'}; pass --sha with the commit it measured (7 to 64 hex digits)\n\n${usage}`,
    );
  if (runLog.status !== 'completed') {
    io.stderr.write(`${positionals[0]}: the run did not finish (${runLog.status}); an unfinished run is not added to the history\n`);
    return EXIT.infrastructure;
  }
  const branch = (flags.branch as string | undefined) ?? runLog.git?.ref?.replace(/^refs\/heads\//, '');
  const pr = (flags.pr as number | undefined) ?? runLog.git?.pr;
  const entry = entryFromRunLog(runLog, { sha, ...(branch ? { branch } : {}), ...(pr !== undefined ? { pr } : {}) });
  await makeDir(dir);
  const store = new FileStore({ file: path.join(dir, HISTORY_FILE), dashboard: false });
  const { entries, problems } = await store.append(entry, (flags.keep as number | undefined) ?? 500);
  for (const p of problems) io.stderr.write(`warning: ${p}\n`);
  io.stderr.write(`history: ${sha.slice(0, 7)}${branch ? ` on ${branch}` : ''} stored in ${store.where} (${entries.length} entries)\n`);
  return EXIT.ok;
}

async function dashboard(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf(
    'dashboard --store DIR [--out DIR]',
    "Writes the dashboard of the history (index.html: every figure over commits, the gate's thresholds, failing commits marked).",
    DASHBOARD_FLAGS,
  );
  if (wantsHelp(argv, usage, io)) return EXIT.ok;
  const { flags, positionals } = parseArgs(argv, DASHBOARD_FLAGS, usage);
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"\n\n${usage}`);
  const dir = storeDir(flags, usage);
  const file = path.join(dir, HISTORY_FILE);
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(
      `${file}: cannot read the history (${err.code ?? err.message}); add a run first with saboteur history add RUN.json --store ${flags.store}`,
    );
  });
  const read = parseHistory(text, file);
  for (const p of read.problems) io.stderr.write(`warning: ${p}\n`);
  if (read.entries.length === 0) throw new UsageError(`${file}: the history holds no entry to draw`);
  const out = path.resolve((flags.out as string | undefined) ?? dir);
  await makeDir(out);
  const page = path.join(out, 'index.html');
  await writeFileAtomic(
    page,
    renderDashboard(read.entries, { title: flags.title as string | undefined, defaultBranch: flags.branch as string | undefined }),
  );
  io.stderr.write(`dashboard: ${read.entries.length} entries drawn in ${page}\n`);
  return EXIT.ok;
}

export async function historyCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'add') return historyAdd(rest, io);
  throw new UsageError(
    `${sub === undefined ? 'name a history command' : `unknown history command "${sub}"`}: saboteur history add RUN.json --store DIR`,
  );
}

export { dashboard as dashboardCommand };
