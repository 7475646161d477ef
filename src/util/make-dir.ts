/**
 * `mkdir -p` that always settles. Node's `mkdir(dir, { recursive: true })` never does where the
 * kernel answers ENOENT for a folder whose parent exists (under `/proc` or `/sys`): it makes the
 * parent again and retries, forever, so `saboteur run --out /proc/x` hung. This walks up once to
 * the nearest folder that exists, creates each missing one below it in turn, and passes on the
 * kernel's own error (ENOENT, EACCES, ENOTDIR, …) for the caller to name.
 */
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

export async function makeDir(dir: string, mode?: number): Promise<void> {
  const missing: string[] = [];
  for (let at = path.resolve(dir); ;) {
    try {
      if ((await stat(at)).isDirectory()) break;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR', path: at });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      missing.push(at);
      const up = path.dirname(at);
      if (up === at) break;
      at = up;
    }
  }
  for (const d of missing.reverse()) {
    try {
      await mkdir(d, mode === undefined ? undefined : { mode });
    } catch (err) {
      // Another process made it in between: what counts is that it is a folder now.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !(await stat(d)).isDirectory()) throw err;
    }
  }
}
