/** What sandboxed runs of this test process run or left behind on the host, seen from /proc. */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { sandboxUidBlock } from '../../src/sandbox/index.js';

/** Processes whose real uid is in this process's sandbox uid block, with that uid. */
export async function sandboxProcessUids(): Promise<{ pid: number; uid: number }[]> {
  const { first, size } = sandboxUidBlock();
  const found: { pid: number; uid: number }[] = [];
  for (const pid of (await readdir('/proc')).filter((e) => /^\d+$/.test(e))) {
    try {
      const uid = Number(/^Uid:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1]);
      if (uid >= first && uid < first + size) found.push({ pid: Number(pid), uid });
    } catch {
      // gone
    }
  }
  return found;
}

/**
 * Sandbox processes still there once the killed ones have been reaped (they linger as zombies of
 * init for a moment): waits for the list to empty. `limitMs` is only a hang guard, long enough for
 * a loaded machine: past it the list is returned as it is, and the caller's assertion shows it.
 */
export async function leftoverSandboxProcesses(limitMs = 60_000): Promise<number[]> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const found = (await sandboxProcessUids()).map((p) => p.pid);
    if (found.length === 0 || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Host pids of the processes that have `arg` as one of their command-line arguments. */
export function processesWithArg(arg: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(arg)) found.push(Number(pid));
    } catch {
      // gone
    }
  }
  return found;
}

/** The parent of `pid`, or undefined once it is gone. */
export function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces; the parent pid is the second field after it.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** The read(2) system call's number, as /proc/PID/syscall shows it. */
const READ_SYSCALL: Partial<Record<NodeJS.Architecture, number>> = { x64: 0, arm64: 63 };

/**
 * Whether `pid` sits in read(2) on a socket: a bwrap sandbox held before its program starts waits
 * so on its --block-fd. Undefined where /proc cannot tell (another architecture, or no access).
 */
export function blockedReadingSocket(pid: number): boolean | undefined {
  const read = READ_SYSCALL[process.arch];
  if (read === undefined) return undefined;
  let fields: string[];
  try {
    fields = readFileSync(`/proc/${pid}/syscall`, 'utf8').trim().split(' ');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? false : undefined;
  }
  if (Number(fields[0]) !== read || fields.length < 2) return false;
  try {
    return readlinkSync(`/proc/${pid}/fd/${Number(fields[1])}`).startsWith('socket:');
  } catch {
    return false;
  }
}
