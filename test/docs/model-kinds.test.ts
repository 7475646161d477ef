/**
 * Every `model.kind` of the registry (src/model/registry.ts) is documented where users look for
 * it, and nothing else is: docs/models.md's table of kinds, action.yml's `model-kind` input, the
 * config reference's `model.kind` row and the README's example config. A kind added to the
 * registry without its docs fails here, with the line to add.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { MODEL_KIND_IDS } from '../../src/model/registry.js';

const KINDS = [...MODEL_KIND_IDS].sort();

/** What a page lists beyond the registry, and what it leaves out. */
function difference(listed: string[]): { missing: string[]; unknown: string[] } {
  return { missing: KINDS.filter((k) => !listed.includes(k)), unknown: listed.filter((k) => !KINDS.includes(k as never)).sort() };
}

/** One page's list of kinds, and where it goes wrong: `fix` says what to add or remove. */
function check(where: string, listed: string[], fix: string): void {
  const { missing, unknown } = difference(listed);
  const problem =
    missing.length || unknown.length
      ? `${where}: ${fix}; missing ${missing.join(', ') || '—'}, unknown ${unknown.join(', ') || '—'}`
      : 'ok';
  expect(problem).toBe('ok');
  expect(new Set(listed).size).toBe(listed.length);
}

describe('the model kinds of the registry are documented', () => {
  it('docs/models.md: one row per kind in the table of kinds', () => {
    const doc = readFileSync('docs/models.md', 'utf8');
    const table = doc.slice(doc.indexOf('| `model.kind` | command saboteur runs |'));
    expect(table.length).toBeLessThan(doc.length);
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    check(
      'docs/models.md',
      rows.map((r) => /^\| `([^`]+)` \|/.exec(r)?.[1] ?? r),
      'add a row "| `KIND` | command saboteur runs | ready when | version from |" (or remove one)',
    );
  });

  it("action.yml: the model-kind input's description lists every kind, in the registry's order", () => {
    const action = readFileSync('action.yml', 'utf8');
    const description = /^ {2}model-kind:\n {4}description: Overrides model\.kind \(([^)]*)\)\./m.exec(action);
    expect(description).not.toBeNull();
    const listed = description![1].split(', ');
    check('action.yml', listed, 'list the kind in "Overrides model.kind (…)." of the model-kind input');
    expect(listed).toEqual(MODEL_KIND_IDS);
  });

  it('docs/configuration.md: the model.kind row names every kind', () => {
    const row = /^\| `model\.kind` \| — \| (.*) \|$/m.exec(readFileSync('docs/configuration.md', 'utf8'));
    expect(row).not.toBeNull();
    check(
      'docs/configuration.md',
      [...row![1].matchAll(/`([^`]+)`/g)].map((m) => m[1]),
      'name the kind in backticks in the `model.kind` row',
    );
  });

  it('README.md and docs/configuration.md: the example config names every kind after `kind:`', () => {
    for (const page of ['README.md', 'docs/configuration.md']) {
      const line = /^ {2}kind: \w+ +# ([a-z|\s]+) \(/m.exec(readFileSync(page, 'utf8'));
      expect(line).not.toBeNull();
      check(
        page,
        line![1].split('|').map((k) => k.trim()),
        'add the kind to "kind: replay  # replay | external | …" in the example config',
      );
    }
  });
});
