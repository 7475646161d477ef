/**
 * Finding processes from the host's /proc by something they carry in their environment: a fenced
 * pipeline's own pids are those of its pid namespace, so a pid it reports means nothing outside.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Host pids of the living (not zombie) processes whose environment holds NAME=value. */
export function processesWithEnv(name: string, value: string): number[] {
  const wanted = `${name}=${value}`;
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(wanted)) out.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/**
 * Waits until `check` holds. `limitMs` is only a hang guard, long enough for a loaded machine:
 * past it the answer is whatever `check` says then, and the caller's assertion fails.
 */
export async function eventually(check: () => boolean, limitMs = 60_000): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** Clock ticks a second, the unit of /proc/PID/stat's CPU times. */
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time (user + system, all threads) a living process has used, in ms; undefined once it is gone. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Past the command name (which may hold spaces): state is field 3, utime and stime fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return undefined;
  }
}
