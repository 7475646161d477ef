/**
 * makeDir: `mkdir -p` that always settles. Node's recursive mkdir never returns under /proc, where
 * the kernel answers ENOENT for a folder whose parent exists; makeDir passes that error on.
 */
import { describe, expect, it } from '@jest/globals';
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeDir } from '../../src/util/make-dir.js';
import { ownedPipelineRuns } from '../helpers/pipeline-runs.js';

const dir = ownedPipelineRuns().tempDir('saboteur-make-dir-');

describe('makeDir', () => {
  it('makes every missing folder of a path, and is a no-op on one that exists', async () => {
    const deep = path.join(dir, 'a', 'b', 'c');
    await makeDir(deep);
    expect((await stat(deep)).isDirectory()).toBe(true);
    await expect(makeDir(deep)).resolves.toBeUndefined();
  });

  it('gives the mode to the folders it makes', async () => {
    const made = path.join(dir, 'private', 'inner');
    await makeDir(made, 0o700);
    expect((await stat(made)).mode & 0o777).toBe(0o700);
  });

  it('passes on ENOTDIR when a file stands in the path', async () => {
    await writeFile(path.join(dir, 'file'), 'x');
    await expect(makeDir(path.join(dir, 'file', 'below'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('settles with the kernel error under /proc, where a recursive mkdir never returns', async () => {
    await expect(makeDir('/proc/saboteur-no-such/out')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
