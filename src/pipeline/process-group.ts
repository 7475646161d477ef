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

/** Parses /proc/PID/stat past the command name, which may itself hold spaces and parentheses. */
export function parseProcStat(text: string): { state: string; pgrp: number } | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(' ');
  const pgrp = Number(fields[2]);
  return fields[0] && Number.isInteger(pgrp) ? { state: fields[0], pgrp } : undefined;
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
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    const parsed = parseProcStat(stat);
    if (parsed && parsed.pgrp === pgid && parsed.state !== 'Z' && parsed.state !== 'X') members.push(Number(entry));
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
  try {
    const parsed = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return parsed ? parsed.state !== 'Z' && parsed.state !== 'X' : true;
  } catch {
    return true; // no /proc: kill(pid, 0) is all we know
  }
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
