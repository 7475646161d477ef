/** What sandboxed runs of this test process left behind on the host, seen from /proc. */
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
 * init for a moment): waits up to 10 s for the list to empty.
 */
export async function leftoverSandboxProcesses(): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = (await sandboxProcessUids()).map((p) => p.pid);
    if (found.length === 0 || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}
