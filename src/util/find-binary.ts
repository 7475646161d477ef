/** Executables by name, as a CI runner's environment has them. */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** An executable by name: PATH first, then the usual system folders (a CI PATH may omit sbin). */
export function findBinary(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = [...(env.PATH ?? '').split(delimiter), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}
