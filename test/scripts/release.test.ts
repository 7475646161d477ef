/**
 * The release script against a real git repository: it bumps the version, moves the CHANGELOG's
 * Unreleased notes under the new version, rebuilds dist/ with the repository's own build script,
 * commits, tags vX.Y.Z and moves vX (also on a remote), and refuses what would make a bad release.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const SCRIPT = path.resolve('scripts/release.mjs');
let dir: string;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-release-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd })).stdout.trim();

/** A small repository shaped like saboteur's: package.json with a build script, a lock file, dist/, CHANGELOG. */
async function repo(version = '1.2.3', notes = '- Something users will notice.\n'): Promise<string> {
  const cwd = path.join(dir, `repo-${++n}`);
  await mkdir(path.join(cwd, 'dist'), { recursive: true });
  const pkg = { name: 'saboteur', version, type: 'module', scripts: { build: 'node build.mjs' } };
  await writeFile(path.join(cwd, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  await writeFile(
    path.join(cwd, 'package-lock.json'),
    `${JSON.stringify({ name: 'saboteur', version, lockfileVersion: 3, packages: { '': { name: 'saboteur', version } } }, null, 2)}\n`,
  );
  await writeFile(
    path.join(cwd, 'build.mjs'),
    "import { readFileSync, writeFileSync } from 'node:fs';\nwriteFileSync('dist/index.js', `export const VERSION = '${JSON.parse(readFileSync('package.json', 'utf8')).version}';\\n`);\n",
  );
  await writeFile(path.join(cwd, 'dist/index.js'), `export const VERSION = '${version}';\n`);
  await mkdir(path.join(cwd, 'src/run'), { recursive: true });
  await writeFile(path.join(cwd, 'src/run/assemble.ts'), `/** The version saboteur reports. */\nexport const VERSION = '${version}';\n`);
  await writeFile(path.join(cwd, 'CHANGELOG.md'), `# Changelog\n\n## Unreleased\n\n${notes}\n## [${version}] - 2026-01-01\n\n- Earlier.\n`);
  await git(cwd, 'init', '-q', '-b', 'main');
  await git(cwd, 'add', '.');
  await git(cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init');
  return cwd;
}

async function release(cwd: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };
  try {
    const r = await exec('node', [SCRIPT, ...args], { cwd, env });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('scripts/release.mjs', () => {
  it('the version saboteur reports is the package version', async () => {
    const { VERSION } = await import('../../src/run/assemble.js');
    expect(VERSION).toBe(JSON.parse(await readFile('package.json', 'utf8')).version);
  });

  it('bumps, rebuilds dist, commits and tags vX.Y.Z and vX on the same commit', async () => {
    const cwd = await repo();
    const r = await release(cwd, 'minor');
    expect(r).toMatchObject({ code: 0 });
    expect(JSON.parse(await readFile(path.join(cwd, 'package.json'), 'utf8')).version).toBe('1.3.0');
    const lock = JSON.parse(await readFile(path.join(cwd, 'package-lock.json'), 'utf8'));
    expect([lock.version, lock.packages[''].version]).toEqual(['1.3.0', '1.3.0']);
    expect(await readFile(path.join(cwd, 'dist/index.js'), 'utf8')).toContain("'1.3.0'");
    expect(await readFile(path.join(cwd, 'src/run/assemble.ts'), 'utf8')).toContain("export const VERSION = '1.3.0';");
    const changelog = await readFile(path.join(cwd, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(/## Unreleased\n\n## \[1\.3\.0\] - \d{4}-\d\d-\d\d\n\n- Something users will notice\.\n\n## \[1\.2\.3\]/);
    const head = await git(cwd, 'rev-parse', 'HEAD');
    expect(await git(cwd, 'rev-parse', 'v1.3.0^{commit}')).toBe(head);
    expect(await git(cwd, 'rev-parse', 'v1^{commit}')).toBe(head);
    expect(await git(cwd, 'status', '--porcelain')).toBe('');
    expect(await git(cwd, 'log', '-1', '--format=%s')).toBe('Release v1.3.0');
  });

  it('moves the major tag on the next release, also on the remote; a major release starts a new one', async () => {
    const cwd = await repo();
    const remote = path.join(dir, `remote-${++n}.git`);
    await exec('git', ['init', '-q', '--bare', remote]);
    await git(cwd, 'remote', 'add', 'origin', remote);
    expect(await release(cwd, 'patch', '--push', 'origin')).toMatchObject({ code: 0 });
    const first = await git(cwd, 'rev-parse', 'HEAD');
    await writeFile(
      path.join(cwd, 'CHANGELOG.md'),
      (await readFile(path.join(cwd, 'CHANGELOG.md'), 'utf8')).replace('## Unreleased\n', '## Unreleased\n\n- A fix.\n'),
    );
    await git(cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qam', 'notes');
    expect(await release(cwd, 'patch', '--push', 'origin')).toMatchObject({ code: 0 });
    const second = await git(cwd, 'rev-parse', 'HEAD');
    expect(second).not.toBe(first);
    expect(await git(remote, 'rev-parse', 'v1^{commit}')).toBe(second);
    expect(await git(remote, 'rev-parse', 'v1.2.4^{commit}')).toBe(first);
    expect(await git(remote, 'rev-parse', 'v1.2.5^{commit}')).toBe(second);

    await writeFile(
      path.join(cwd, 'CHANGELOG.md'),
      (await readFile(path.join(cwd, 'CHANGELOG.md'), 'utf8')).replace('## Unreleased\n', '## Unreleased\n\n- Breaking.\n'),
    );
    await git(cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qam', 'notes');
    expect(await release(cwd, 'major')).toMatchObject({ code: 0 });
    expect(await git(cwd, 'rev-parse', 'v2^{commit}')).toBe(await git(cwd, 'rev-parse', 'HEAD'));
    expect(await git(cwd, 'rev-parse', 'v1^{commit}')).toBe(second);
  });

  it('refuses a dirty tree, empty notes, a version not above the current one, another branch, and leaves the tree as it was', async () => {
    const dirty = await repo();
    await writeFile(path.join(dirty, 'stray.txt'), 'x');
    expect(await release(dirty, 'patch')).toMatchObject({ code: 2, out: expect.stringContaining('uncommitted changes') });

    const empty = await repo('1.0.0', '');
    expect(await release(empty, 'patch')).toMatchObject({ code: 2, out: expect.stringContaining('Unreleased section is empty') });
    expect(await git(empty, 'status', '--porcelain')).toBe('');
    expect(await git(empty, 'tag', '--list')).toBe('');

    const lower = await repo('1.2.3');
    expect(await release(lower, '1.2.3')).toMatchObject({ code: 2, out: expect.stringContaining('not above the current version') });
    expect(await release(lower, 'next')).toMatchObject({ code: 2, out: expect.stringContaining('not a version') });

    const branch = await repo();
    await git(branch, 'checkout', '-qb', 'feature');
    expect(await release(branch, 'patch')).toMatchObject({ code: 2, out: expect.stringContaining('releases are cut from main') });

    const broken = await repo();
    await writeFile(path.join(broken, 'build.mjs'), 'process.exit(1);\n');
    await git(broken, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qam', 'broken build');
    expect(await release(broken, 'patch')).toMatchObject({ code: 2 });
    expect(await git(broken, 'status', '--porcelain')).toBe('');
    expect(JSON.parse(await readFile(path.join(broken, 'package.json'), 'utf8')).version).toBe('1.2.3');
    expect(await readFile(path.join(broken, 'src/run/assemble.ts'), 'utf8')).toContain("'1.2.3'");
  });
});
