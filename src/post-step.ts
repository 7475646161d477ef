/** The post step's logic, kept apart from main so the post bundle stays small. */
import * as core from '@actions/core';

/** Post step: stop processes the main step recorded in the action state. Failures are warnings only. */
export async function runPost(): Promise<void> {
  const raw = core.getState('saboteur-processes');
  if (!raw) {
    core.info('saboteur post: nothing to stop');
    return;
  }
  try {
    const processes = JSON.parse(raw) as { pid: number; name: string }[];
    for (const p of processes) {
      try {
        process.kill(-p.pid, 'SIGKILL');
        core.info(`saboteur post: stopped ${p.name} (process group ${p.pid})`);
      } catch {
        core.info(`saboteur post: ${p.name} (pid ${p.pid}) had already stopped`);
      }
    }
  } catch (err) {
    core.warning(`saboteur post: could not stop the recorded processes: ${(err as Error).message}`);
  }
}
