/**
 * The project speaks only of itself: no file cites an outside specification document (the word
 * "SPEC" on its own, or "spec §N"); comments point to the README or docs/ instead. Identifiers
 * such as EXECUTE_CODE_SPEC or TOOL_SPECS are words of their own and do not count.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOTS = ['src', 'test', 'bench', 'scripts', 'fixtures', 'prompts', 'policies', 'docs', 'README.md', 'CONTRIBUTING.md'];
/** "SPEC" as a word of its own, "spec §", or a section sign before a number. */
const CITATIONS = [/\bSPEC\b/, /\bspec\s*§/i, /§\s*\d/];
/**
 * The evaluation set's scenarios quote the documents of their desks: a German maintenance contract
 * numbers its clauses "§ 2". There a section sign is the data's own; "SPEC" still counts.
 */
const SCENARIO_DATA = /^fixtures\/taint-eval\/[^/]+\.yml$/;
const citationsIn = (file: string) => (SCENARIO_DATA.test(file.split(path.sep).join('/')) ? CITATIONS.slice(0, 2) : CITATIONS);

function files(root: string): string[] {
  if (!statSync(root).isDirectory()) return [root];
  return readdirSync(root, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(root, e.name)) : e.isFile() ? [path.join(root, e.name)] : [],
  );
}

/** The lines of a text file that cite an outside spec; none for binary files (a NUL byte). */
function citations(file: string): string[] {
  const bytes = readFileSync(file);
  if (bytes.includes(0)) return [];
  return bytes
    .toString('utf8')
    .split('\n')
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => citationsIn(file).some((re) => re.test(line)))
    .map(({ line, i }) => `${file}:${i + 1}: ${line.trim()}`);
}

const THIS_FILE = 'test/docs/no-external-spec.test.ts';
const all = ROOTS.flatMap(files).filter((f) => f !== THIS_FILE);

describe('no citations of an outside spec', () => {
  it('no file cites one', () => {
    const found = all.flatMap(citations);
    expect(found).toEqual([]);
  });
});
