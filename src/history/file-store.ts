/**
 * The history in a JSON file outside git (`history.store: file`), for teams that keep it on a
 * shared disk or sync it themselves. Writers take a lock file (created exclusively), so
 * concurrent runs on one machine or a shared mount append one after the other; the file itself
 * is replaced atomically (write, then rename). The dashboard goes beside it as NAME.html.
 */
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { makeDir } from '../util/make-dir.js';
import path from 'node:path';
import { addEntry, parseHistory, serializeHistory, type HistoryEntry, type HistoryRead } from '../scoring/history-entry.js';
import { corruptName, type AppendResult, type HistoryStore } from './store.js';
import { renderDashboard } from './dashboard.js';

export interface FileStoreOptions {
  file: string;
  dashboard?: boolean;
  title?: string;
  defaultBranch?: string;
  /** How long to wait for another writer's lock before giving up (default 60 s). */
  lockTimeoutMs?: number;
  /** A lock older than this is a crashed writer's and is removed (default 10 min). */
  staleLockMs?: number;
}

export class FileStore implements HistoryStore {
  readonly where: string;

  constructor(private readonly opts: FileStoreOptions) {
    this.where = `file ${opts.file}`;
  }

  async read(): Promise<HistoryRead> {
    let text: string;
    try {
      text = await readFile(this.opts.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], problems: [], exists: false };
      return {
        entries: [],
        problems: [`${this.opts.file}: cannot read the history (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`],
        exists: true,
      };
    }
    return parseHistory(text, this.opts.file);
  }

  private async lock(): Promise<{ release: () => Promise<void>; attempts: number }> {
    const lockFile = `${this.opts.file}.lock`;
    const deadline = Date.now() + (this.opts.lockTimeoutMs ?? 60_000);
    for (let attempts = 1; ; attempts++) {
      try {
        const handle = await open(lockFile, 'wx');
        await handle.writeFile(`${process.pid}\n`);
        await handle.close();
        return { release: () => rm(lockFile, { force: true }), attempts };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
          throw new Error(`${lockFile}: cannot take the history lock (${(err as Error).message})`);
      }
      const age = await stat(lockFile)
        .then((s) => Date.now() - s.mtimeMs)
        .catch(() => 0);
      if (age > (this.opts.staleLockMs ?? 600_000)) {
        await rm(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`${lockFile}: another run has held the history lock too long; remove the file if no run is writing`);
      await new Promise((r) => setTimeout(r, 50 + Math.floor(Math.random() * 100)));
    }
  }

  async append(entry: HistoryEntry, keep: number): Promise<AppendResult> {
    await makeDir(path.dirname(path.resolve(this.opts.file)));
    const { release, attempts } = await this.lock();
    try {
      const text = await readFile(this.opts.file, 'utf8').catch(() => undefined);
      const stored = text === undefined ? { entries: [], problems: [], exists: false } : parseHistory(text, this.opts.file);
      let problems = stored.problems;
      if (text !== undefined && problems.length && stored.entries.length === 0) {
        const aside = path.join(path.dirname(this.opts.file), corruptName(path.basename(this.opts.file), new Date()));
        await writeFile(aside, text);
        problems = [...problems, `the unreadable history was kept as ${aside}`];
      }
      const entries = addEntry(stored.entries, entry, keep);
      const tmp = `${this.opts.file}.${process.pid}.tmp`;
      await writeFile(tmp, serializeHistory(entries));
      await rename(tmp, this.opts.file);
      if (this.opts.dashboard !== false) {
        const html = this.opts.file.replace(/(\.json)?$/, '.html');
        await writeFile(
          `${html}.${process.pid}.tmp`,
          renderDashboard(entries, { title: this.opts.title, defaultBranch: this.opts.defaultBranch }),
        );
        await rename(`${html}.${process.pid}.tmp`, html);
      }
      return { entries, attempts, problems };
    } finally {
      await release();
    }
  }

  async close(): Promise<void> {}
}
