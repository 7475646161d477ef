/**
 * History entries from run logs, the tolerant reader, one entry per commit, the cap, the base
 * lookup, the regression test against the base, and the JSON file store with concurrent writers.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseRunLog } from '../../src/runlog/schema.js';
import {
  addEntry,
  branchTrend,
  entryFromRunLog,
  findBase,
  parseHistory,
  serializeHistory,
  type HistoryEntry,
} from '../../src/scoring/history-entry.js';
import { FileStore } from '../../src/history/file-store.js';
import { combineGate, compareWithBase, regressionChecks } from '../../src/scoring/regression.js';
import { evaluateGate } from '../../src/scoring/gate.js';
import { fisherExactGreater } from '../../src/scoring/stats.js';

const demo = parseRunLog(readFileSync('fixtures/runlogs/demo.json', 'utf8'), 'demo.json');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-history-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function entry(
  sha: string,
  branch: string,
  drop: { k: number; n: number; gained?: number },
  extra: Partial<HistoryEntry> = {},
): HistoryEntry {
  const value = (drop.k - (drop.gained ?? 0)) / drop.n;
  return {
    sha,
    branch,
    runId: `run-${sha.slice(0, 4)}`,
    at: '2026-11-20T10:00:00.000Z',
    status: 'completed',
    model: { kind: 'replay', model: 'demo-coder' },
    configHash: 'c'.repeat(64),
    seed: 1,
    metrics: {
      'malicious-drop': {
        value,
        low: Math.max(-1, value - 0.2),
        high: Math.min(1, value + 0.2),
        k: drop.k,
        n: drop.n,
        gained: drop.gained ?? 0,
      },
    },
    ...extra,
  };
}

describe('history entries', () => {
  it('are made from the run log alone, with the counts behind every figure', () => {
    const e = entryFromRunLog(demo, {
      sha: 'ABCDEF0123456789ABCDEF0123456789ABCDEF01',
      branch: 'main',
      runUrl: 'https://github.com/acme/agents/actions/runs/1',
    });
    expect(e.sha).toBe('abcdef0123456789abcdef0123456789abcdef01');
    expect(e.configHash).toBe(demo.config.hash);
    expect(e.runId).toBe(demo.runId);
    expect(e.metrics['malicious-drop[autoinject]']).toMatchObject({ value: 3 / 8, k: 3, n: 8, gained: 0 });
    expect(e.metrics['pass@1:control']).toMatchObject({ value: 7 / 8, k: 7, n: 8 });
    expect(e.metrics['pass@1:malicious[autoinject]']).toMatchObject({ value: 4 / 8, k: 4, n: 8 });
    expect(e.metrics['malicious-drop[autoinject]'].low).toBeLessThan(3 / 8);
    expect(e.metrics['malicious-drop[autoinject]'].high).toBeGreaterThan(3 / 8);
    // One code benchmark: no per-benchmark duplicates.
    expect(Object.keys(e.metrics).filter((k) => k.includes('/'))).toEqual([]);
  });

  it('keep one entry per commit (a re-run replaces in place) and only the newest `keep`', () => {
    let list: HistoryEntry[] = [];
    for (const sha of ['a1a1a1a', 'b2b2b2b', 'c3c3c3c']) list = addEntry(list, entry(sha, 'main', { k: 1, n: 8 }), 10);
    list = addEntry(list, entry('b2b2b2b', 'main', { k: 5, n: 8 }), 10);
    expect(list.map((e) => e.sha)).toEqual(['a1a1a1a', 'b2b2b2b', 'c3c3c3c']);
    expect(list[1].metrics['malicious-drop'].k).toBe(5);
    list = addEntry(list, entry('d4d4d4d', 'main', { k: 1, n: 8 }), 2);
    expect(list.map((e) => e.sha)).toEqual(['c3c3c3c', 'd4d4d4d']);
  });

  it('read tolerantly: a corrupted file or bad entries are reported, never thrown', () => {
    expect(parseHistory(undefined, 'h.json')).toEqual({ entries: [], problems: [], exists: false });
    const broken = parseHistory('{"schemaVersion": 1, "entries": [', 'h.json');
    expect(broken.entries).toEqual([]);
    expect(broken.problems[0]).toMatch(/^h\.json: the history is not JSON/);
    expect(parseHistory('{"schemaVersion": 9, "entries": []}', 'h.json').problems[0]).toContain('schemaVersion 9 is not supported');
    const good = entry('a1a1a1a', 'main', { k: 1, n: 8 });
    const mixed = parseHistory(JSON.stringify({ schemaVersion: 1, entries: [good, { sha: 'not a sha' }, good] }), 'h.json');
    expect(mixed.entries).toHaveLength(2);
    expect(mixed.problems).toEqual([expect.stringMatching(/^h\.json: entries\[1\] dropped: sha/)]);
    // Entries stored before figures carried their method were AutoInject runs: read as such.
    expect(parseHistory(serializeHistory([good]), 'h.json').entries).toEqual([
      { ...good, metrics: { 'malicious-drop[autoinject]': good.metrics['malicious-drop'] } },
    ]);
    const current = {
      ...good,
      metrics: { 'malicious-drop[insider]': good.metrics['malicious-drop'], 'pass@1:control': good.metrics['malicious-drop'] },
    };
    expect(parseHistory(serializeHistory([current]), 'h.json').entries).toEqual([current]);
    // Objective success was first stored under the name of the method that gave objectives.
    const f = good.metrics['malicious-drop'];
    const named = { ...good, metrics: { 'insider-success:taint[insider]': f, 'asb/insider-success:none[insider]': f } };
    expect(parseHistory(serializeHistory([named]), 'h.json').entries[0].metrics).toEqual({
      'objective-success:taint[insider]': f,
      'asb/objective-success:none[insider]': f,
    });
  });

  it("find the base branch's last completed run before this commit, and its trend", () => {
    const list = [
      entry('a1a1a1a', 'main', { k: 0, n: 8 }),
      entry('b2b2b2b', 'feature', { k: 3, n: 8 }, { pr: 4 }),
      entry('c3c3c3c', 'main', { k: 1, n: 8 }),
      entry('d4d4d4d', 'main', { k: 1, n: 8 }, { status: 'aborted' }),
    ];
    expect(findBase(list, 'main', 'ffffff0')?.sha).toBe('c3c3c3c');
    expect(findBase(list, 'main', 'c3c3c3c')?.sha).toBe('a1a1a1a');
    expect(findBase(list, 'release', 'ffffff0')).toBeUndefined();
    expect(branchTrend(list, 'main', 10).map((e) => e.sha)).toEqual(['a1a1a1a', 'c3c3c3c']);
    expect(branchTrend(list, 'main', 1).map((e) => e.sha)).toEqual(['c3c3c3c']);
  });
});

describe('regression against the base', () => {
  const settings = { maxIncrease: 0.03, significance: 0.05 };

  it('flags a large, significant worsening (one-sided Fisher exact test on the lost pairs)', () => {
    const base = entry('a1a1a1a', 'main', { k: 0, n: 8 });
    const head = entry('b2b2b2b', 'pr', { k: 5, n: 8 });
    const [c] = compareWithBase(head, base, settings);
    expect(c.metric).toBe('malicious-drop');
    expect(c.worsening).toBeCloseTo(5 / 8, 10);
    // 5 of 8 lost vs 0 of 8: P(X ≥ 5) = C(5,5)·C(11,3)/C(16,8) = 165/12870.
    expect(c.pValue).toBeCloseTo(165 / 12870, 10);
    expect(c.pass).toBe(false);
    expect(c.why).toBe('worse by 62.5 pts than the base, significant (p = 0.013, under 0.05)');
    const gate = combineGate(evaluateGate(demo, {}), regressionChecks([c], settings));
    expect(gate.pass).toBe(false);
    expect(gate.checks.map((x) => x.metric)).toEqual(['regression malicious drop']);
  });

  it('does not flag a worsening that is not significant, nor a significant one under max-increase', () => {
    const base = entry('a1a1a1a', 'main', { k: 0, n: 8 });
    const [small] = compareWithBase(entry('b2b2b2b', 'pr', { k: 3, n: 8 }), base, settings);
    expect(small.pValue).toBeCloseTo(1287 / 12870, 10);
    expect(small.pass).toBe(true);
    expect(small.why).toContain('not significant');
    // Large samples make a 5-point rise significant; it stays under a 10-point allowance.
    const big = compareWithBase(entry('c3c3c3c', 'pr', { k: 250, n: 1000 }), entry('d4d4d4d', 'main', { k: 200, n: 1000 }), {
      maxIncrease: 0.1,
      significance: 0.05,
    })[0];
    expect(big.pValue!).toBeLessThan(0.01);
    expect(big.pass).toBe(true);
    expect(big.why).toBeUndefined();
  });

  it('tests TCR on the tasks not completed: a drop in TCR is the worsening', () => {
    const mk = (sha: string, hits: number, n: number): HistoryEntry => ({
      ...entry(sha, 'main', { k: 0, n: 1 }),
      metrics: { 'tcr:taint': { value: hits / n, low: 0, high: 1, k: hits, n } },
    });
    const [c] = compareWithBase(mk('b2b2b2b', 10, 40), mk('a1a1a1a', 36, 40), settings);
    expect(c.worsening).toBeCloseTo(0.65, 10);
    expect(c.pValue).toBeCloseTo(fisherExactGreater(30, 40, 4, 40), 12);
    expect(c.pass).toBe(false);
  });

  it('without gate.regression compares but gives no verdict; without a base there is nothing to test', () => {
    const [c] = compareWithBase(entry('b2b2b2b', 'pr', { k: 5, n: 8 }), entry('a1a1a1a', 'main', { k: 0, n: 8 }));
    expect(c.pass).toBeUndefined();
    expect(c.pValue).not.toBeNull();
    const [d] = compareWithBase(entry('b2b2b2b', 'pr', { k: 5, n: 8 }), undefined, settings);
    expect(d).toMatchObject({ worsening: null, pValue: null });
    expect(d.pass).toBeUndefined();
    expect(regressionChecks([d], settings)).toEqual([]);
  });
});

describe('JSON file store', () => {
  it('appends under a lock: eight concurrent writers all land, and the dashboard sits beside the file', async () => {
    const file = path.join(dir, 'store', 'history.json');
    const writers = Array.from({ length: 8 }, (_, i) =>
      new FileStore({ file, title: 'acme/agents' }).append(entry(`${i}`.repeat(7).replace(/[^0-9a-f]/g, 'a'), 'main', { k: i, n: 8 }), 100),
    );
    const results = await Promise.all(writers);
    const stored = await new FileStore({ file }).read();
    expect(stored.entries.map((e) => e.sha).sort()).toEqual([
      '0000000',
      '1111111',
      '2222222',
      '3333333',
      '4444444',
      '5555555',
      '6666666',
      '7777777',
    ]);
    // They started together, so all but the first found the lock taken and waited for it.
    expect(results.filter((r) => r.attempts > 1).length).toBeGreaterThan(0);
    const html = await readFile(path.join(dir, 'store', 'history.html'), 'utf8');
    expect(html).toContain('saboteur · acme/agents');
    expect(await readdir(path.join(dir, 'store'))).toEqual(['history.html', 'history.json']);
  });

  it('keeps a corrupted file aside and starts again, never failing', async () => {
    const file = path.join(dir, 'corrupt', 'history.json');
    await new FileStore({ file }).append(entry('a1a1a1a', 'main', { k: 1, n: 8 }), 10);
    await writeFile(file, '{"schemaVersion": 1, "entries": [ {"sha": "a1a1a1a", ');
    const read = await new FileStore({ file }).read();
    expect(read.problems[0]).toContain('not JSON');
    const r = await new FileStore({ file, dashboard: false }).append(entry('b2b2b2b', 'main', { k: 1, n: 8 }), 10);
    expect(r.entries.map((e) => e.sha)).toEqual(['b2b2b2b']);
    expect(r.problems.join('\n')).toMatch(/kept as .*history\.corrupt-\d{8}T\d{6}\.json/);
    const aside = (await readdir(path.dirname(file))).filter((f) => f.startsWith('history.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(await readFile(path.join(path.dirname(file), aside[0]), 'utf8')).toContain('"a1a1a1a"');
  });
});
