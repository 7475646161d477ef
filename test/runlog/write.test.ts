/**
 * Writing run.json and the other outputs on a real full disk (a 256 KiB tmpfs mounted for the
 * test) and a real read-only file system: the error names the file and the reason, no temp file
 * is left, and what was there before is untouched. The output-folder lock against a second run.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OutputWriteError, writeFileAtomic, writeJsonAtomic } from '../../src/runlog/write.js';
import { LOCK_FILE, lockOutDir, OutDirLocked } from '../../src/run/out-lock.js';

const root = mkdtempSync(path.join(tmpdir(), 'saboteur-write-'));
const full = path.join(root, 'full');
const readOnly = path.join(root, 'ro');
/** Mounting needs root (and a kernel that lets this container mount tmpfs): said, not skipped silently. */
let mounted = false;
let why = '';

beforeAll(() => {
  mkdirSync(full);
  mkdirSync(readOnly);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', full], { stdio: 'pipe' });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,ro', 'tmpfs', readOnly], { stdio: 'pipe' });
    mounted = true;
  } catch (err) {
    why = (err as Error).message.split('\n')[0];
    console.warn(`write.test: cannot mount a tmpfs here (${why}); the full-disk tests are skipped`);
  }
});
afterAll(() => {
  if (mounted) {
    execFileSync('umount', [full]);
    execFileSync('umount', [readOnly]);
  }
  rmSync(root, { recursive: true, force: true });
});

describe('writing on a full disk and a read-only file system', () => {
  it('ENOSPC: names the file and the reason, leaves no temp file and keeps the old file', async () => {
    if (!mounted) return;
    const file = path.join(full, 'run.json');
    writeFileSync(file, '{"old": true}\n');
    const big = { instances: Array.from({ length: 5000 }, (_, i) => ({ i, text: 'x'.repeat(200) })) };
    const err = await writeJsonAtomic(file, big).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OutputWriteError);
    expect((err as Error).message).toBe(`cannot write ${file}: ENOSPC (no space left on the device)`);
    expect(readdirSync(full)).toEqual(['run.json']);
    expect(readFileSync(file, 'utf8')).toBe('{"old": true}\n');
  });

  it('EROFS: the same for a read-only folder', async () => {
    if (!mounted) return;
    const file = path.join(readOnly, 'report.md');
    await expect(writeFileAtomic(file, '# report\n')).rejects.toThrow(`cannot write ${file}: EROFS (the file system is read-only)`);
    expect(readdirSync(readOnly)).toEqual([]);
  });

  it('writes what fits, atomically, in chunks', async () => {
    const dir = mkdtempSync(path.join(root, 'ok-'));
    const file = path.join(dir, 'run.json');
    const value = { a: [1, 2, { b: 'c' }], d: 'é' };
    await writeJsonAtomic(file, value);
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(readdirSync(dir)).toEqual(['run.json']);
  });
});

describe('one run per output folder', () => {
  it('refuses a second holder while the first lives, names it, and takes over a stale lock', async () => {
    const dir = path.join(root, 'out');
    const first = await lockOutDir(dir);
    const err = await lockOutDir(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OutDirLocked);
    expect((err as Error).message).toMatch(new RegExp(`^${dir} is in use by another saboteur run \\(pid ${process.pid} on `));
    await first.release();
    // A lock left by a process that is gone (a SIGKILLed run) is stale.
    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), startedAt: '2020-01-01T00:00:00Z' }),
    );
    const again = await lockOutDir(dir);
    await again.release();
    expect(readdirSync(dir)).toEqual([]);
  });
});
