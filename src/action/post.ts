/**
 * The post step's logic, kept apart from main so the post bundle stays small. It stops the model
 * server processes the main step recorded in the action state (`saboteur-processes`), which are
 * still there only when main crashed or the job was cancelled. Everything here is a warning at
 * worst: cleanup never fails the job.
 */
import * as core from '@actions/core';
import { livingMembers } from '../pipeline/process-group.js';
import { isSameProcess, killTree } from '../model/servers/process-tree.js';
import type { TrackedProcess } from '../model/servers/types.js';
import { PROCESSES_STATE } from './state.js';
import { BUNDLE_STATE, verifyBundle } from './bundle-guard.js';

export { PROCESSES_STATE };
/** Shorter than a run's: the job is over, the server only has to let go of the GPU. */
export const POST_KILL_GRACE_MS = 5000;

export interface PostLog {
  info(message: string): void;
  warning(message: string): void;
}

/** The recorded processes; entries that could not be ours (pid 0 or 1, not a number) are refused. */
export function parseRecorded(raw: string): { processes: TrackedProcess[]; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return { processes: [], problems: [`the state ${PROCESSES_STATE} is not JSON (${(err as Error).message})`] };
  }
  if (!Array.isArray(value)) return { processes: [], problems: [`the state ${PROCESSES_STATE} is not a list`] };
  const processes: TrackedProcess[] = [];
  const problems: string[] = [];
  for (const item of value as Partial<TrackedProcess>[]) {
    const pid = item?.pid;
    // kill(-1) would signal every process of the user: only real, foreign group ids pass.
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 1 || pid === process.pid) {
      problems.push(`ignored the entry ${JSON.stringify(item)}: not a process saboteur started`);
      continue;
    }
    processes.push({
      pid,
      name: typeof item.name === 'string' ? item.name : 'process',
      ...(typeof item.startTime === 'number' ? { startTime: item.startTime } : {}),
    });
  }
  return { processes, problems };
}

/** Stops each recorded process tree that is still ours; reports what it did. Never throws. */
export async function stopRecorded(
  raw: string,
  log: PostLog,
  graceMs = POST_KILL_GRACE_MS,
): Promise<{ stopped: number; gone: number; failed: number }> {
  const { processes, problems } = parseRecorded(raw);
  for (const p of problems) log.warning(`saboteur post: ${p}`);
  const counts = { stopped: 0, gone: 0, failed: problems.length };
  for (const p of processes) {
    try {
      const leaderIsOurs = isSameProcess(p.pid, p.startTime);
      // A group id is not handed out again while the group has members: members mean ours.
      const members = livingMembers(p.pid);
      if (!leaderIsOurs && members.length === 0) {
        log.info(`saboteur post: ${p.name} (pid ${p.pid}) had already stopped`);
        counts.gone++;
        continue;
      }
      if (!leaderIsOurs && members.includes(p.pid)) {
        log.info(`saboteur post: pid ${p.pid} now belongs to another process; left alone`);
        counts.gone++;
        continue;
      }
      if (await killTree(p.pid, graceMs)) {
        log.info(`saboteur post: stopped ${p.name} (process group ${p.pid})`);
        counts.stopped++;
      } else {
        log.warning(`saboteur post: ${p.name} (process group ${p.pid}) survived SIGKILL; check the runner for leftover processes`);
        counts.failed++;
      }
    } catch (err) {
      log.warning(`saboteur post: could not stop ${p.name} (pid ${p.pid}): ${(err as Error).message}`);
      counts.failed++;
    }
  }
  return counts;
}

/** Post step: stop processes the main step recorded in the action state. Failures are warnings only. */
export async function runPost(): Promise<void> {
  try {
    const changed = process.argv[1] ? verifyBundle(process.argv[1], core.getState(BUNDLE_STATE)) : undefined;
    if (changed) {
      core.warning(`saboteur post: ${changed}; the saved state is not acted on`);
      return;
    }
    const raw = core.getState(PROCESSES_STATE);
    if (!raw || raw === '[]') {
      core.info('saboteur post: nothing to stop');
      return;
    }
    await stopRecorded(raw, { info: (m) => core.info(m), warning: (m) => core.warning(m) });
  } catch (err) {
    core.warning(`saboteur post: ${(err as Error).message}`);
  }
}
