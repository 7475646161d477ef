/**
 * scripts/check-imports.mjs: the folders of src/ import only downward along docs/architecture.md's
 * "Import order"; an upward import not listed there fails, and so does a listed one nothing needs.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
// @ts-expect-error: a plain ES module script without type declarations
import { check, folderImports, readRules } from '../../scripts/check-imports.mjs';

type Import = { from: string; to: string; file: string; spec: string };
const doc = (exceptions: string[]) =>
  [
    '# A',
    '',
    '## Import order',
    '',
    'Order: `util/` → `model/` → `run/`',
    '',
    '| upward import | why |',
    '|---|---|',
    ...exceptions.map((e) => `| \`${e.split('→')[0]}/\` → \`${e.split('→')[1]}/\` | because |`),
    '',
    '## Next',
    '',
  ].join('\n');
const imp = (from: string, to: string): Import => ({ from, to, file: `src/${from}/a.ts`, spec: `../${to}/b.js` });
const FOLDERS = ['util', 'model', 'run'];

describe('check-imports', () => {
  it('reads the order and the exceptions from the page', () => {
    expect(readRules(doc(['model→run']))).toEqual({ order: ['util', 'model', 'run'], exceptions: ['model→run'] });
  });

  it('reads a page without a table of exceptions as none', () => {
    const page = ['# A', '', '## Import order', '', 'Order: `util/` → `model/`', '', '## Next', ''].join('\n');
    expect(readRules(page)).toEqual({ order: ['util', 'model'], exceptions: [] });
    expect(check(page, [imp('model', 'util')], ['util', 'model'])).toEqual([]);
    expect(check(page, [imp('util', 'model')], ['util', 'model'])).toEqual([
      expect.stringContaining("src/util/a.ts imports '../model/b.js'"),
    ]);
  });

  it('passes downward imports and fails an upward one, naming the file and the page', () => {
    expect(check(doc([]), [imp('run', 'model'), imp('model', 'util')], FOLDERS)).toEqual([]);
    const problems = check(doc([]), [imp('model', 'run')], FOLDERS) as string[];
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("src/model/a.ts imports '../run/b.js'");
    expect(problems[0]).toContain('docs/architecture.md');
  });

  it('accepts a listed upward import, and fails a listed one that nothing needs any more', () => {
    expect(check(doc(['model→run']), [imp('model', 'run')], FOLDERS)).toEqual([]);
    expect(check(doc(['model→run']), [], FOLDERS)).toEqual([expect.stringContaining('model→run is no longer needed')]);
  });

  it('fails when a folder of src/ is missing from the order', () => {
    expect(check(doc([]), [], [...FOLDERS, 'cli'])).toEqual([expect.stringContaining('does not name cli')]);
  });

  it('the repository itself passes', () => {
    const folders = readdirSync('src').filter((f) => statSync(path.join('src', f)).isDirectory());
    expect(check(readFileSync('docs/architecture.md', 'utf8'), folderImports(), folders)).toEqual([]);
  });
});
