/**
 * Hostile data folders for the agentic benchmarks: a data file that is a device (a link to
 * /dev/zero would otherwise be read until memory runs out) or over the size limit is refused
 * before it is read, with an error naming the benchmark and the file.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadAsb } from '../../src/benchmarks/asb/index.js';
import { AGENTHARM_FILES, loadAgentHarm } from '../../src/benchmarks/agentharm/index.js';
import { loadRedCode, REDCODE_DIRS } from '../../src/benchmarks/redcode/index.js';
import { loadSafeArena, SAFEARENA_FILES } from '../../src/benchmarks/safearena/index.js';
import { LIMITS } from '../../src/util/input-file.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'saboteur-data-files-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A data folder whose file `rel` is `kind`: a link to /dev/zero, or a sparse file one byte over the limit. */
async function folderWith(name: string, rel: string, kind: 'device' | 'oversized'): Promise<{ root: string; file: string }> {
  const root = join(dir, `${name}-${kind}`);
  const file = join(root, rel);
  await mkdir(dirname(file), { recursive: true });
  if (kind === 'device') await symlink('/dev/zero', file);
  else {
    await writeFile(file, '');
    await truncate(file, LIMITS.benchmarkData + 1);
  }
  return { root, file };
}

const CASES: { name: string; rel: string; load: (root: string) => Promise<unknown>; label: string }[] = [
  { name: 'asb', rel: 'asb/data/agent_task.jsonl', load: (root) => loadAsb(root, { attacks: ['dpi'] }), label: 'ASB' },
  {
    name: 'agentharm',
    rel: AGENTHARM_FILES.validation.harmful,
    load: (root) => loadAgentHarm(root, { split: 'validation' }),
    label: 'AgentHarm',
  },
  {
    name: 'redcode',
    rel: join(REDCODE_DIRS.bash.dir, 'index4_30_codes_full_upd.json'),
    load: (root) => loadRedCode(root, { languages: ['bash'] }),
    label: 'RedCode',
  },
  { name: 'safearena', rel: SAFEARENA_FILES.harm, load: (root) => loadSafeArena(root, { kinds: ['harm'] }), label: 'SafeArena' },
];

describe('agentic benchmark data files', () => {
  it.each(CASES)('$name: a device is refused by name, never read', async ({ name, rel, load, label }) => {
    const { root, file } = await folderWith(name, rel, 'device');
    await expect(load(root)).rejects.toThrow(
      `${label}: ${file}: the ${label} data file ${rel.split('/').at(-1)} must be a regular file; this is a character device`,
    );
  });

  it.each(CASES)('$name: a file over the limit is refused with the limit', async ({ name, rel, load, label }) => {
    const { root, file } = await folderWith(name, rel, 'oversized');
    await expect(load(root)).rejects.toThrow(
      `${label}: ${file}: the ${label} data file ${rel.split('/').at(-1)} is 64 MiB, over the limit of 64 MiB`,
    );
  });
});
