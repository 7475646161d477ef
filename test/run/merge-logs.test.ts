/**
 * Shards and `saboteur merge`: the demo run in two shards joins into the same instances and
 * outcomes as one whole run; run logs that cannot belong together are refused, naming the file.
 * Also `saboteur compare` on two run logs.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXIT, main } from '../../src/cli/main.js';
import { expandRunLogPaths, mergeRunLogs } from '../../src/run/merge-logs.js';
import { parseRunLog, type RunLog } from '../../src/runlog/schema.js';
import { computeMetrics } from '../../src/scoring/metrics.js';
import { shardSlice } from '../../src/benchmarks/core/sample.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-merge-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      stdout: { write: (s: string) => out.push(s) > 0 },
      stderr: { write: (s: string) => err.push(s) > 0, isTTY: false },
      env: { HOME: dir },
    },
  };
}

const demo = (): RunLog => parseRunLog(readFileSync('fixtures/runlogs/demo.json', 'utf8'), 'demo.json');

/** Cuts the demo run log the way `--shard i/N` cuts a run: by instance, pairs kept together. */
function shardOf(log: RunLog, index: number, count: number): RunLog {
  const mine = new Set(shardSlice(log.benchmarks[0].instanceIds, index, count));
  return {
    ...log,
    runId: `${log.runId}-s${index}`,
    shard: { index, count },
    instances: log.instances.filter((r) => mine.has(r.instanceId)),
  };
}

const outcomes = (log: RunLog) => log.instances.map((r) => `${r.benchmark} ${r.instanceId} ${r.variant} ${r.defense} ${r.outcome}`);

describe('saboteur merge', () => {
  it('two real shards of the demo join into what one whole run gives', async () => {
    // A shard's figures are partial: the gate waits for the merge. The whole run breaks it (exit 1).
    const run = async (args: string[], out: string, exit: number) => {
      const h = io();
      const code = await main(['run', '--config', 'fixtures/demo/saboteur.yml', '--out', out, ...args], h.io);
      expect(code).toBe(exit);
      expect(h.err.join('')).toMatch(exit === EXIT.ok ? /gate: not applied to one shard/ : /gate: FAILED/);
      return parseRunLog(await readFile(path.join(out, 'run.json'), 'utf8'), out);
    };
    const [one, two, whole] = [
      await run(['--shard', '1/2'], path.join(dir, 's1'), EXIT.ok),
      await run(['--shard', '2/2'], path.join(dir, 's2'), EXIT.ok),
      await run([], path.join(dir, 'whole'), EXIT.failed),
    ];
    expect(one.shard).toEqual({ index: 1, count: 2 });
    expect(one.instances.length + two.instances.length).toBe(whole.instances.length);
    expect(new Set(one.instances.map((r) => r.instanceId)).size).toBe(4);

    const h = io();
    // The shards as a matrix job downloads them: one folder each, named by a pattern.
    // The demo breaks its gate (malicious drop +62.5 pts against at most 10): merge exits 1 after writing both files.
    expect(await main(['merge', path.join(dir, 's*', 'run.json'), '--out', path.join(dir, 'merged')], h.io)).toBe(EXIT.failed);
    expect(h.err.join('')).toMatch(/merged 2 run logs, 16 instance runs/);
    expect(h.err.join('')).toContain('gate: FAILED: malicious drop +62.5 pts (allowed ≤ +10.0 pts)');
    expect(await readFile(path.join(dir, 'merged', 'report.md'), 'utf8')).toContain('## Gate');
    const merged = parseRunLog(await readFile(path.join(dir, 'merged', 'run.json'), 'utf8'), 'merged');
    expect(outcomes(merged)).toEqual(outcomes(whole));
    expect(merged.shard).toBeUndefined();
    expect(merged.notes[0]).toBe(`merged from 2 of 2 shards: 1/2 (${one.runId}), 2/2 (${two.runId})`);
    const m = computeMetrics(merged).overall;
    const w = computeMetrics(whole).overall;
    expect(m.drop).toEqual(w.drop);
    expect(m.control.passAt1).toBe(w.control.passAt1);
    // The sabotage in figures (hits, units drawn and changed, effective Pe) is the whole run's.
    expect(merged.sabotage).toEqual(whole.sabotage);
    expect(merged.sabotage!.hits).toBeGreaterThan(0);
    const report = await readFile(path.join(dir, 'merged', 'report.md'), 'utf8');
    expect(report).toContain('# saboteur report');
  }, 180_000);

  it('refuses run logs that do not belong together, naming the file', () => {
    const a = { file: 'a/run.json', log: shardOf(demo(), 1, 2) };
    const b = { file: 'b/run.json', log: shardOf(demo(), 2, 2) };
    expect(mergeRunLogs([a, b]).runLog.instances).toHaveLength(16);
    expect(() => mergeRunLogs([a, { file: 'c/run.json', log: { ...b.log, config: { ...b.log.config, hash: 'f'.repeat(64) } } }])).toThrow(
      /^c\/run\.json: config hash ffffffffffff differs from a\/run\.json/,
    );
    expect(() => mergeRunLogs([a, { file: 'd/run.json', log: shardOf(demo(), 1, 2) }])).toThrow(
      'd/run.json: shard 1/2 was already given as a/run.json',
    );
    expect(() => mergeRunLogs([a, { file: 'e/run.json', log: { ...shardOf(demo(), 1, 3), shard: { index: 2, count: 3 } } }])).toThrow(
      'merge: the run logs come from different splits (2 shards and 3 shards)',
    );
    const overlap = { file: 'f/run.json', log: { ...b.log, instances: [...b.log.instances, a.log.instances[0]] } };
    expect(() => mergeRunLogs([a, overlap])).toThrow(/^f\/run\.json: humaneval Demo\/0 \(control, none\) is also in a\/run\.json/);
    expect(() => mergeRunLogs([])).toThrow('merge: no run logs given');
  });

  it("keeps every shard's AutoTransform profiles, one per original", () => {
    const profile = (id: string, agents: string[]) => ({
      profile: id.repeat(64),
      agents,
      original: `profile ${id}`,
      rewrite: `saboteur ${id}`,
      model: 'm',
      template: 't'.repeat(64),
      cached: false,
    });
    const summary = {
      method: 'autotransform',
      hits: 0,
      messagesChanged: 0,
      unitsConsidered: 0,
      unitsDrawn: 0,
      unitsChanged: 0,
      effectiveErrorRate: null,
      unchanged: [],
    };
    const a = { ...shardOf(demo(), 1, 2), sabotage: { ...summary, profiles: [profile('a', ['coder']), profile('b', ['planner'])] } };
    const b = {
      ...shardOf(demo(), 2, 2),
      sabotage: { ...summary, profiles: [profile('a', ['coder', 'reviewer']), profile('c', ['coder'])] },
    };
    const { runLog } = mergeRunLogs([
      { file: 'a.json', log: a },
      { file: 'b.json', log: b },
    ]);
    expect(runLog.sabotage!.profiles!.map((p) => [p.original, p.agents])).toEqual([
      ['profile a', ['coder', 'reviewer']],
      ['profile b', ['planner']],
      ['profile c', ['coder']],
    ]);
  });

  it('shards that scored no instance merge into a run that exits 3 with that reason, before any gate', async () => {
    const timedOut = (log: RunLog): RunLog => ({
      ...log,
      instances: log.instances.map((r) => ({ ...r, outcome: 'timeout' as const, error: 'the pipeline ran past 60s' })),
    });
    const files = [];
    for (const i of [1, 2]) {
      const file = path.join(dir, `timeout-${i}.json`);
      await writeFile(file, JSON.stringify(timedOut(shardOf(demo(), i, 2))));
      files.push(file);
    }
    const h = io();
    expect(await main(['merge', ...files, '--out', path.join(dir, 'merged-timeout')], h.io)).toBe(EXIT.infrastructure);
    expect(h.err.join('')).toContain(
      'no instance could be scored (16 instance runs: 16 timeout); the first: the pipeline ran past 60s; report.md says why for each instance run',
    );
    expect(h.err.join('')).not.toContain('gate:');
  });

  it('a missing shard is said, not hidden; an aborted shard makes the merged run aborted', () => {
    const a = shardOf(demo(), 1, 3);
    const c = { ...shardOf(demo(), 3, 3), status: 'aborted' as const, abortReason: 'the model server stopped answering' };
    const { runLog, warnings } = mergeRunLogs([
      { file: 'a.json', log: a },
      { file: 'c.json', log: c },
    ]);
    expect(warnings).toEqual(['shards 2/3 are missing: their instances are not in this report']);
    expect(runLog.notes).toContain('shards 2/3 are missing: their instances are not in this report');
    expect(runLog).toMatchObject({ status: 'aborted', abortReason: 'shard 3: the model server stopped answering' });
  });

  it('a cancelled shard makes the merged run cancelled; an aborted one wins over it', () => {
    const a = { ...shardOf(demo(), 1, 2), status: 'cancelled' as const, abortReason: 'cancelled by SIGTERM' };
    const b = shardOf(demo(), 2, 2);
    expect(
      mergeRunLogs([
        { file: 'a.json', log: a },
        { file: 'b.json', log: b },
      ]).runLog,
    ).toMatchObject({ status: 'cancelled', abortReason: 'shard 1: cancelled by SIGTERM' });
    const c = { ...b, status: 'aborted' as const, abortReason: 'the model server stopped answering' };
    expect(
      mergeRunLogs([
        { file: 'a.json', log: a },
        { file: 'c.json', log: c },
      ]).runLog,
    ).toMatchObject({
      status: 'aborted',
      abortReason: 'shard 2: the model server stopped answering; shard 1: cancelled by SIGTERM',
    });
  });

  it('expands * in path segments, sorted; a pattern that matches nothing is an error', async () => {
    for (const s of ['shard-2', 'shard-10', 'shard-1', 'other']) {
      await mkdir(path.join(dir, 'glob', s), { recursive: true });
      await writeFile(path.join(dir, 'glob', s, 'run.json'), '{}');
    }
    const found = await expandRunLogPaths(['glob/shard-*/run.json'], dir);
    expect(found).toEqual(['glob/shard-1/run.json', 'glob/shard-10/run.json', 'glob/shard-2/run.json']);
    await expect(expandRunLogPaths(['glob/none-*/run.json'], dir)).rejects.toThrow('glob/none-*/run.json: no run log matches');
  });
});

describe('saboteur compare', () => {
  it('shows the head beside the base and exits 1 on a significant regression', async () => {
    const base = demo();
    base.instances = base.instances.map((r) =>
      r.variant === 'malicious' ? { ...r, outcome: r.outcome === 'error' ? r.outcome : ('passed' as const) } : r,
    );
    const worse = demo();
    worse.instances = worse.instances.map((r) => (r.variant === 'malicious' ? { ...r, outcome: 'failed' as const } : r));
    await writeFile(path.join(dir, 'base.json'), JSON.stringify(base));
    await writeFile(path.join(dir, 'worse.json'), JSON.stringify(worse));
    const h = io();
    expect(await main(['compare', path.join(dir, 'base.json'), path.join(dir, 'worse.json')], h.io)).toBe(EXIT.failed);
    const text = h.out.join('');
    expect(text).toContain(`Compared with \`${path.join(dir, 'base.json')}\``);
    expect(text).toMatch(
      /\| \*\*malicious drop · autoinject\*\* \| \+87\.5 pts .* \| −12\.5 pts \| \+100\.0 pts \(p < 0\.001\) \| Δ ≤ \+3\.0 pts or p ≥ 0\.05 \| ❌ \|/,
    );
    expect(h.err.join('')).toMatch(/^regression: malicious-drop\[autoinject\]: worse by 100\.0 pts than the base, significant/);
    const same = io();
    expect(await main(['compare', path.join(dir, 'base.json'), path.join(dir, 'base.json'), '--max-increase', '0.1'], same.io)).toBe(
      EXIT.ok,
    );
    const bad = io();
    expect(await main(['compare', path.join(dir, 'base.json'), path.join(dir, 'base.json'), '--significance', '5'], bad.io)).toBe(
      EXIT.usage,
    );
    expect(bad.err.join('')).toContain('--significance must be a number between 0 and 1, got "5"');
  });
});
