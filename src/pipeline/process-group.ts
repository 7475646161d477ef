/**
 * Process groups: every pipeline process is started detached (its own session and group), so a
 * timeout or stop kills the program and everything it started — a Python pipeline's worker
 * pool, a shell's children — not only the shell saboteur spawned.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** SIGTERM → SIGKILL grace: long enough for a pipeline to flush and exit, short enough not to stall a run. */
export const DEFAULT_KILL_GRACE_MS = 2000;

/** Sends `signal` to the whole group; false when the group is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

/**
 * The fields of /proc/PID/stat past the command name, which may itself hold spaces and
 * parentheses: [0] is field 3 (state), [1] the parent pid, [2] the process group.
 */
export function procStatFields(text: string): string[] | undefined {
  const close = text.lastIndexOf(')');
  return close < 0 ? undefined : text.slice(close + 2).split(' ');
}

/** The stat fields of a live process (see procStatFields); undefined when it is gone or there is no /proc. */
export function readProcStat(pid: number): string[] | undefined {
  try {
    return procStatFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The pids of the group's living members. Zombies do not count: where PID 1 of a container does
 * not reap orphans, a killed grandchild stays a zombie forever and would look alive to kill(-pgid, 0).
 * Without /proc (not Linux) falls back to kill(-pgid, 0).
 */
export function livingMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return signalGroup(pgid, 0) ? [pgid] : [];
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = readProcStat(Number(entry)); // undefined: it exited while we looked
    if (fields && Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(entry));
  }
  return members;
}

/** True while a process exists and is not a zombie. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // Without /proc (or an unreadable entry) kill(pid, 0) is all we know.
  const fields = readProcStat(pid);
  return fields ? fields[0] !== 'Z' && fields[0] !== 'X' : true;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitGroupGone(pgid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (livingMembers(pgid).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
  }
}

/**
 * SIGTERM to the group, then SIGKILL to whatever is left after `graceMs`. Resolves once the
 * group is gone (or, past a last second after SIGKILL, with false: a process in uninterruptible
 * sleep cannot be waited for forever).
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<boolean> {
  if (!signalGroup(pgid, 'SIGTERM')) return true;
  if (await waitGroupGone(pgid, graceMs)) return true;
  signalGroup(pgid, 'SIGKILL');
  return waitGroupGone(pgid, 1000);
}

/**
 * Groups still running when saboteur itself exits (a crash, Ctrl-C) are killed on the way out,
 * so no pipeline outlives the run on a shared runner.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killAllOnExit(): void {
  for (const pgid of liveGroups) {
    try {
      signalGroup(pgid, 'SIGKILL');
    } catch {
      // exiting anyway: nothing better to do with a group we may not signal
    }
  }
}

export function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (!exitHookInstalled) {
    process.on('exit', killAllOnExit);
    exitHookInstalled = true;
  }
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
}
