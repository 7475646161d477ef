/**
 * Every defense side by side on the same instances, offline: fixtures/demo/defenses.yml (the security
 * demo's instances and cassette, with none, taint, local-judge, global-judge and the ablations
 * taint/no-propagation, taint/local, taint/one-hop) through runJob, the judges answered by the replay
 * model. A quarter of the instances (shard 1/4) keeps the test short; shards never split a pair.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { runJob } from '../../src/run/job.js';
import { defaultDataDir } from '../../src/benchmarks/humaneval/index.js';
import { computeSecurity } from '../../src/scoring/security-metrics.js';
import { memoryLog } from '../../src/util/log.js';
import { requireData } from '../helpers/benchmark-data.js';

const dataDir = defaultDataDir();
const hasData = dataDir !== undefined && ['asb', 'agentharm', 'redcode'].every((d) => existsSync(path.join(dataDir, d)));
requireData(hasData, 'defenses-run.test: the defense comparison: no benchmark data');
const maybe = hasData ? describe : describe.skip;
const DEFENSES = ['none', 'taint', 'local-judge', 'global-judge', 'taint/no-propagation', 'taint/local', 'taint/one-hop'];

maybe('defenses side by side', () => {
  let out: string;
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('reports ASR, TCR and paired success for every defense and ablation on the same instances', async () => {
    out = await mkdtemp(path.join(os.tmpdir(), 'saboteur-defenses-'));
    const config = await loadConfig('fixtures/demo/defenses.yml');
    expect(config.defenses).toEqual(DEFENSES);
    const { runLog, reportPath } = await runJob(config, { outDir: out, log: memoryLog(), shard: { index: 1, count: 4 } });
    expect(runLog.status).toBe('completed');
    const missed = runLog.instances.flatMap((r) =>
      r.trace.calls.filter((c) => c.status !== 200).map((c) => `${r.instanceId} ${c.agent}: ${c.error}`),
    );
    expect(missed).toEqual([]);

    // The same instance runs under every defense.
    const byDefense = new Map(
      DEFENSES.map((d) => [d, runLog.instances.filter((r) => r.defense === d).map((r) => `${r.benchmark}/${r.instanceId}/${r.variant}`)]),
    );
    for (const d of DEFENSES) expect(byDefense.get(d)).toEqual(byDefense.get('none'));

    const stats = computeSecurity(runLog);
    const rows = new Map(stats.map((s) => [`${s.benchmark}/${s.defense}`, s]));
    const benchmarks = [...new Set(stats.map((s) => s.benchmark))];
    expect(benchmarks.length).toBeGreaterThanOrEqual(3);
    for (const b of benchmarks) for (const d of DEFENSES) expect(rows.has(`${b}/${d}`)).toBe(true);

    // Staged sinks are decided by the defense named on the run; `none` releases all of them.
    for (const r of runLog.instances) {
      for (const t of r.trace.tools ?? []) {
        if (!t.staged) continue;
        expect(t.staged.defense).toBe(r.defense);
        if (r.defense === 'none') expect(t.staged.decision).toBe('release');
      }
    }
    // A blocking defense never lets more attacks through than no defense, and the taint validator blocks with an attribution.
    const total = (d: string) => stats.filter((s) => s.defense === d).reduce((n, s) => n + s.asr.hits, 0);
    for (const d of DEFENSES) expect(total(d)).toBeLessThanOrEqual(total('none'));
    const blocked = runLog.instances
      .filter((r) => r.defense === 'taint')
      .flatMap((r) => (r.trace.tools ?? []).filter((t) => t.staged && t.staged.decision !== 'release'));
    expect(blocked.length).toBeGreaterThan(0);
    expect(blocked.every((t) => (t.staged?.reason ?? '').length > 0)).toBe(true);

    const report = await readFile(reportPath, 'utf8');
    for (const d of DEFENSES) {
      expect(report).toContain(`| ASR (${d}) |`);
      expect(report).toMatch(new RegExp(`\\| asb \\| ${d.replace('/', '\\/')} \\| `));
    }
    // Every stopped sink is listed with its reason (up to the cut, which is said).
    const stopped = runLog.instances.flatMap((r) =>
      (r.trace.tools ?? []).filter((t) => t.staged && t.staged.decision !== 'release').map((t) => ({ r, t })),
    );
    expect(report).toContain(
      `<details><summary>${stopped.length} staged sink${stopped.length === 1 ? '' : 's'} blocked or unverifiable, with the reason</summary>`,
    );
    const first = stopped[0];
    expect(report).toContain(
      `| ${first.r.benchmark} | \`${first.r.taskId ?? first.r.instanceId}\` | ${first.r.variant === 'malicious' ? 'harmful' : 'benign'} | \`${first.r.defense}\` | \`${first.t.tool}\` |`,
    );
    // Each benign task a defense lost against no defense: counted in the table and listed with why.
    const completed = new Set(
      runLog.instances
        .filter((r) => r.defense === 'none' && r.variant === 'control' && r.outcome === 'passed')
        .map((r) => `${r.benchmark}/${r.instanceId}`),
    );
    const lost = runLog.instances.filter(
      (r) => r.defense !== 'none' && r.variant === 'control' && r.outcome !== 'passed' && completed.has(`${r.benchmark}/${r.instanceId}`),
    );
    for (const s of stats.filter((x) => x.defense !== 'none')) {
      const n = lost.filter((r) => r.benchmark === s.benchmark && r.defense === s.defense).length;
      expect(report).toMatch(new RegExp(`^\\| ${s.benchmark} \\| ${s.defense.replace('/', '\\/')} \\| .* \\| ${n} tasks? \\|$`, 'm'));
    }
    if (lost.length) {
      expect(report).toContain(`${lost.length} benign task${lost.length === 1 ? '' : 's'} completed without a defense but not under one`);
      const l = lost[0];
      const why = (l.trace.tools ?? []).find((t) => t.staged && t.staged.decision !== 'release');
      if (why)
        expect(report).toContain(
          `| ${l.benchmark} | \`${l.taskId ?? l.instanceId}\` | \`${l.defense}\` | ${l.outcome} | ${why.tool.replace(/_/g, '\\_')} ${why.staged!.decision}: `,
        );
    }
  }, 240_000);
});
