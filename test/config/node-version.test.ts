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
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }>;
};
const ci = read('.ci/run');
const minimum = /^NODE_MIN=(\S+)$/m.exec(ci)?.[1];
const runtime = /^NODE_24=(\S+)$/m.exec(ci)?.[1];

type LockEntry = {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** Where npm resolves `name` from the package at `from` (its own node_modules first, then up). */
function resolveIn(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return undefined;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up < 0 ? '' : dir.slice(0, up);
  }
}

/** True when every package that depends on `target` is one of `owners` or, in turn, only there for them. */
function onlyFor(owners: readonly string[], target: string, seen = new Set<string>()): boolean {
  if (owners.includes(target) || !target) return owners.includes(target);
  if (seen.has(target)) return true;
  seen.add(target);
  const name = target.slice(target.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const dependents = Object.entries(lock.packages as Record<string, LockEntry>)
    .filter(
      ([from, e]) =>
        [e.dependencies, e.devDependencies, e.optionalDependencies, e.peerDependencies].some((d) => d?.[name]) &&
        resolveIn(from, name) === target,
    )
    .map(([from]) => from);
  return dependents.length > 0 && dependents.every((d) => onlyFor(owners, d, seen));
}

const LINTER = ['node_modules/eslint', 'node_modules/typescript-eslint', 'node_modules/@eslint/js'];

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
      // node-llama-cpp (the real-engine tests' devDependency; teams install it themselves for
      // model.kind embedded) brings packages that ask for Node 20.17: its source build (cmake-js)
      // and CLI helpers, none on saboteur's paths. Only those, and only while nothing else needs them.
      if (onlyFor(['node_modules/node-llama-cpp'], name)) continue;
      // The linter (ESLint and typescript-eslint) runs once in .ci/run, on the machine's Node, never
      // on the minimum: what only it brings may ask for a newer Node.
      if (onlyFor(LINTER, name)) continue;
      // The real OpenLLMetry SDK (@traceloop/node-server-sdk, for the LLM-spans-only trace tests)
      // brings cloud clients that ask for Node 22; those tests run on the machine's Node and Node 24.
      if (onlyFor(['node_modules/@traceloop/node-server-sdk'], name)) continue;
      for (const version of [minimum!, runtime!])
        if (!semver.satisfies(version, range)) refusing.push(`${name || '(root)'} wants node ${range}, not ${version}`);
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
