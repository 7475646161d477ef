/**
 * The process tree of a started server, from /proc: a model server spawns workers (vLLM's engine
 * core, tensor-parallel ranks, TGI's shards) and some of them leave the server's process group.
 * Stopping signals the group and every descendant found before the first signal (once the leader
 * dies, its children are re-parented and can no longer be found from it).
 */
import { readdirSync } from 'node:fs';
import { isProcessAlive, livingMembers, readProcStat, signalGroup } from '../../pipeline/process-group.js';

/** When the process started (clock ticks since boot, field 22); undefined without /proc. */
export function processStartTime(pid: number): number | undefined {
  const fields = readProcStat(pid);
  const value = fields ? Number(fields[19]) : NaN;
  return Number.isFinite(value) ? value : undefined;
}

/** Parent pid of every living process, read once. */
function parentMap(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return children;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = readProcStat(Number(entry));
    if (!fields || fields[0] === 'Z' || fields[0] === 'X') continue;
    const ppid = Number(fields[1]);
    const list = children.get(ppid);
    if (list) list.push(Number(entry));
    else children.set(ppid, [Number(entry)]);
  }
  return children;
}

/** Every living descendant of `pid` (not `pid` itself), children before grandchildren. */
export function descendants(pid: number): number[] {
  const children = parentMap();
  const out: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length) {
    const next = queue.shift()!;
    if (out.includes(next)) continue;
    out.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return out;
}

/** Whether `pid` is still the process we started (same start time), or a stranger that reused the pid. */
export function isSameProcess(pid: number, startTime: number | undefined): boolean {
  if (!isProcessAlive(pid)) return false;
  if (startTime === undefined) return true;
  const now = processStartTime(pid);
  return now === undefined || now === startTime;
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether anything of the tree is still alive: the group's members or one of the listed pids. */
function anyAlive(pgid: number, extra: readonly number[]): boolean {
  return livingMembers(pgid).length > 0 || extra.some((p) => isProcessAlive(p));
}

/**
 * SIGTERM to the process group and to every descendant, SIGKILL to whatever is left after
 * `graceMs`. Resolves true once nothing of the tree is alive (false if something survived a
 * last second after SIGKILL: a process stuck in the kernel cannot be waited for forever).
 * `pgid` must be a group saboteur started; callers check that (isSameProcess) first.
 */
export async function killTree(pgid: number, graceMs: number): Promise<boolean> {
  if (!Number.isInteger(pgid) || pgid <= 1) throw new Error(`refusing to signal process group ${pgid}`);
  const tree = descendants(pgid);
  if (!anyAlive(pgid, tree)) return true;
  signalGroup(pgid, 'SIGTERM');
  for (const p of tree) signalPid(p, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!anyAlive(pgid, tree)) return true;
    await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
  }
  // Children the workers started during the grace period count too.
  const late = [...new Set([...tree, ...tree.flatMap((p) => descendants(p))])];
  signalGroup(pgid, 'SIGKILL');
  for (const p of late) signalPid(p, 'SIGKILL');
  const killDeadline = Date.now() + 1000;
  while (Date.now() < killDeadline) {
    if (!anyAlive(pgid, late)) return true;
    await sleep(20);
  }
  return !anyAlive(pgid, late);
}
