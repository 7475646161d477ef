/**
 * Which user a sandboxed run is. As root every run gets a uid of its own (never a real account):
 * RLIMIT_NPROC counts processes per uid across the whole machine, so with a shared uid such as
 * nobody, one run's fork bomb would use up the process limit of every other run at the same time
 * (checked: its neighbours then fail to start). As another user the limit has to sit on top of the
 * processes that user already has.
 */
import { readdir, readFile } from 'node:fs/promises';

/** First uid of the range; each process takes a block of 1000 from it, keyed by its pid. */
export const SANDBOX_UID_BASE = 1_900_000_000;
const BLOCK = 1000;

/** The uids this process hands out: [first, first + 1000). Stays below 2^31 for every pid. */
export function sandboxUidBlock(pid: number = process.pid): { first: number; size: number } {
  return { first: SANDBOX_UID_BASE + (pid % 100_000) * BLOCK, size: BLOCK };
}

const inUse = new Set<number>();
let nextSlot = 0;

/**
 * Takes the next free uid of this process's block, round-robin: a killed run's processes linger
 * as zombies until init reaps them and still count against their uid's process limit, so a uid is
 * only reused after the rest of the block.
 */
export function acquireSandboxUid(): { uid: number; release: () => void } {
  const { first, size } = sandboxUidBlock();
  for (let i = 0; i < size; i++) {
    const slot = (nextSlot + i) % size;
    const uid = first + slot;
    if (!inUse.has(uid)) {
      inUse.add(uid);
      nextSlot = (slot + 1) % size;
      return { uid, release: () => void inUse.delete(uid) };
    }
  }
  throw new Error(`sandbox: more than ${size} sandboxed runs at once in one process`);
}

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Processes (threads included, as RLIMIT_NPROC counts them) whose real uid is `uid`, from /proc. */
export async function countTasksOfUid(uid: number): Promise<number> {
  let count = 0;
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return 0;
  }
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (pid) => {
        try {
          const status = await readFile(`/proc/${pid}/status`, 'utf8');
          const uidLine = /^Uid:\s+(\d+)/m.exec(status);
          const threads = /^Threads:\s+(\d+)/m.exec(status);
          if (uidLine && Number(uidLine[1]) === uid) count += threads ? Number(threads[1]) : 1;
        } catch {
          // The process ended while we looked.
        }
      }),
  );
  return count;
}
