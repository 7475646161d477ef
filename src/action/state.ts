/**
 * What the main step leaves in the action state for the post step: the model server processes
 * still running, so the post step can stop them when main crashed or the job was cancelled.
 * Kept free of heavy imports: the post bundle reads the name from here.
 */
import * as core from '@actions/core';
import type { ProcessLedger, TrackedProcess } from '../model/servers/types.js';

export const PROCESSES_STATE = 'saboteur-processes';

/**
 * Saves the model server processes in the action state on every change, so the post step can
 * stop them when this step crashes or the job is cancelled before it stops them itself.
 */
export function stateLedger(save: (json: string) => void = (json) => core.saveState(PROCESSES_STATE, json)): ProcessLedger {
  const running: TrackedProcess[] = [];
  return {
    started(p) {
      running.push(p);
      save(JSON.stringify(running));
    },
    stopped(pid) {
      const i = running.findIndex((p) => p.pid === pid);
      if (i >= 0) running.splice(i, 1);
      save(JSON.stringify(running));
    },
  };
}
