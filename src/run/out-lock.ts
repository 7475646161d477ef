/**
 * One run per output folder: two runs into the same `--out` would overwrite each other's run.json
 * and report.md (and the servers' logs) and both exit 0. A lock file in the folder, created
 * exclusively, names the run that holds it; a second run is refused with that name. A lock whose
 * process is gone (a crash, a SIGKILL) is stale and taken over.
 */
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { makeDir } from '../util/make-dir.js';
import { unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { isProcessAlive } from '../pipeline/process-group.js';
import { writeErrorOf } from '../runlog/write.js';
import { InputError } from '../util/input-error.js';

export const LOCK_FILE = '.saboteur.lock';

/** Another run holds the folder: a usage error (exit 2), nothing was written. */
export class OutDirLocked extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'OutDirLocked';
  }
}

interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
  command?: string;
}

const held = new Set<string>();
let exitHook = false;

function releaseAllOnExit(): void {
  for (const file of held) {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  }
}

async function readLock(file: string): Promise<LockInfo | undefined> {
  try {
    const info = JSON.parse((await readFile(file, 'utf8')).slice(0, 4096)) as LockInfo;
    return typeof info?.pid === 'number' ? info : undefined;
  } catch {
    return undefined;
  }
}

/** Takes `dir` (creating it) for this process; throws OutDirLocked when a live run holds it. */
export async function lockOutDir(dir: string, command = 'run'): Promise<{ release(): Promise<void> }> {
  try {
    await makeDir(dir);
  } catch (err) {
    throw writeErrorOf(dir, err);
  }
  const file = path.join(dir, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o644);
      try {
        await handle.writeFile(JSON.stringify(mine));
      } finally {
        await handle.close();
      }
      held.add(file);
      if (!exitHook) {
        exitHook = true;
        process.on('exit', releaseAllOnExit);
      }
      return {
        async release() {
          if (!held.delete(file)) return;
          await unlink(file).catch(() => undefined);
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw writeErrorOf(file, err);
    }
    const other = await readLock(file);
    // Another machine sharing the folder cannot be checked: its lock stands. A lock still being
    // written (no content yet) stands for a few seconds.
    const fresh = other === undefined && Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? 0) < 5000;
    if (fresh) throw new OutDirLocked(`${dir} is being taken by another saboteur run right now (${file}); give this one another --out`);
    const alive = other !== undefined && (other.host !== mine.host || (other.pid !== process.pid && isProcessAlive(other.pid)));
    if (alive || (other?.pid === process.pid && held.has(file))) {
      throw new OutDirLocked(
        `${dir} is in use by another saboteur ${other?.command ?? 'run'} (pid ${other?.pid} on ${other?.host}, since ${other?.startedAt}); give this one another --out, or wait for that one to finish (a stale lock is ${file})`,
      );
    }
    // Stale (its process is gone) or unreadable half-written: take it over.
    await unlink(file).catch(() => undefined);
  }
  throw new OutDirLocked(`${dir}: could not take the lock ${file}; another saboteur run keeps taking it`);
}
