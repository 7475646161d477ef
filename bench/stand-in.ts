/**
 * The bench's stand-ins for a model server and a pipeline service run as their own Node processes,
 * as the real ones would, so their CPU is not saboteur's. Each prints one line when it listens.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

export interface StandIn {
  /** The first line the script printed (the port, or its listening message). */
  firstLine: string;
  pid: number;
  close(): Promise<void>;
}

/** Starts `node bench/SCRIPT ARGS…` and waits until it prints its first line. */
export async function startStandIn(script: string, args: string[]): Promise<StandIn> {
  const child = spawn(process.execPath, [path.resolve('bench', script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const firstLine = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bench/${script} exited with ${code} before it listened`)));
  });
  return {
    firstLine,
    pid: child.pid!,
    close: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
