/**
 * Jest's node environment, with a temp folder of each test file's own: TMPDIR for the file's code,
 * for `os.tmpdir()` in the code under test and for every process it starts that keeps the
 * environment, removed after the file. Files that run beside each other never see each other's
 * scratch folders, so a test that lists the temp folder before and after counts only its own.
 * (An environment, not a setup file: jest gives test code a copy of `process.env`, while
 * `os.tmpdir()` reads the worker's own.)
 */
import { TestEnvironment } from 'jest-environment-node';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default class OwnTmpdirEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    this.tmpdirBefore = process.env.TMPDIR;
    this.ownTmpdir = mkdtempSync(path.join(tmpdir(), `saboteur-test-${process.pid}-`));
    // As open as /tmp itself: the sandbox and the uid fence run code as uids of their own, which
    // must reach the folders saboteur makes for them in here.
    chmodSync(this.ownTmpdir, 0o1777);
    process.env.TMPDIR = this.ownTmpdir;
    this.global.process.env.TMPDIR = this.ownTmpdir;
  }

  async teardown() {
    if (this.tmpdirBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = this.tmpdirBefore;
    rmSync(this.ownTmpdir, { recursive: true, force: true });
    await super.teardown();
  }
}
