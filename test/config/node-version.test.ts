/**
 * The Node.js versions saboteur claims: the minimum in package.json's engines is the one the README
 * states and .ci/run tests on, every installed dependency's own engines admit it (so `npm ci` on it
 * never warns EBADENGINE), and .ci/run also tests on the action's runtime.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (f: string) => readFileSync(path.join(repoRoot, f), 'utf8');

const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }> };
const ci = read('.ci/run');
const minimum = /^NODE_MIN=(\S+)$/m.exec(ci)?.[1];
const runtime = /^NODE_24=(\S+)$/m.exec(ci)?.[1];

describe('Node.js versions', () => {
  it('package.json, the README and .ci/run state the same minimum', () => {
    expect(minimum).toBeDefined();
    expect(pkg.engines.node).toBe(`>=${minimum}`);
    const [major, minor] = minimum!.split('.');
    expect(read('README.md')).toContain(`Node.js ${major}.${minor}+`);
  });

  it('every dependency in the lock file admits the minimum and the action runtime (no EBADENGINE)', () => {
    const refusing: string[] = [];
    for (const [name, entry] of Object.entries(lock.packages)) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!range) continue;
      for (const version of [minimum!, runtime!]) if (!semver.satisfies(version, range)) refusing.push(`${name || '(root)'} wants node ${range}, not ${version}`);
    }
    expect(refusing).toEqual([]);
  });

  it('the action runs on the Node .ci/run tests as its runtime', () => {
    expect(runtime).toMatch(/^24\./);
    expect(read('action.yml')).toMatch(/using: ['"]?node24['"]?/);
  });

  it('this test runs on a Node the engines admit', () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });
});
