/**
 * docs/architecture.md stays true: its list of the folders of src/ is `ls src` (and src/ holds
 * folders only), and every repository path the docs and the README name exists.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sectionOf } from '../helpers/doc-fields.js';

const DOC = 'docs/architecture.md';
const doc = readFileSync(DOC, 'utf8');
const SRC_FOLDERS = readdirSync('src').sort();

describe(DOC, () => {
  it('src/ holds folders only', () => {
    expect(SRC_FOLDERS.filter((name) => !statSync(path.join('src', name)).isDirectory())).toEqual([]);
  });

  it('names every folder of src/ with its job in one line, and no other', () => {
    const rows = [...sectionOf(doc, 'Folders of `src/`').matchAll(/^\| `([^`]+)\/` \| (.*) \|$/gm)];
    expect(rows.map((r) => r[1]).sort()).toEqual(SRC_FOLDERS);
    for (const [, folder, job] of rows) expect({ folder, job: job.trim().length > 20 }).toEqual({ folder, job: true });
  });

  it('has a Mermaid diagram of the data flow', () => {
    expect(sectionOf(doc, 'Data flow')).toMatch(/```mermaid\nflowchart /);
  });
});

/** Backticked repository paths in a page: `src/run/deps.ts`, and in architecture.md also `run/deps.ts` (under src/). */
function namedPaths(text: string, underSrc: boolean): string[] {
  const roots = ['src', 'test', 'fixtures', 'scripts', 'bench', 'prompts', 'policies', 'docs', 'dist', 'bin'];
  const out: string[] = [];
  for (const [, token] of text.matchAll(/`([A-Za-z0-9_.\-/]+\/[A-Za-z0-9_.\-/]*)`/g)) {
    if (token.includes('*') || token.startsWith('/')) continue;
    const first = token.split('/')[0];
    if (roots.includes(first)) out.push(token);
    else if (underSrc && SRC_FOLDERS.includes(first)) out.push(`src/${token}`);
  }
  return out;
}

describe('paths named in the docs and the README', () => {
  const pages = [
    'README.md',
    'CONTRIBUTING.md',
    ...readdirSync('docs')
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  it.each(pages)('%s names only paths that exist', (page) => {
    const text = readFileSync(page, 'utf8');
    const missing = namedPaths(text, page === DOC).filter((p) => !existsSync(p.replace(/\/$/, '')));
    expect(missing).toEqual([]);
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2, … */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, text] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('links between the docs and the README', () => {
  const pages = [
    'README.md',
    'CONTRIBUTING.md',
    ...readdirSync('docs')
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  it.each(pages)('%s links only to pages and headings that exist', (page) => {
    const broken: string[] = [];
    for (const [, target] of readFileSync(page, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split('#');
      const resolved = file ? path.normalize(path.join(path.dirname(page), file)) : page;
      if (!existsSync(resolved)) broken.push(target);
      else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(readFileSync(resolved, 'utf8')).has(anchor))
        broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});
