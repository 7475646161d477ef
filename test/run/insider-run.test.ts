/**
 * The saboteurs on the agentic benchmarks, whole runs with everything real (the agentic pipeline as
 * processes, the proxy, the MCP tool server with its staged sinks, the defenses, the graders): the
 * insider demo (fixtures/demo/insider.yml), where the planner is briefed with each instance's
 * objective and the worker carries it out, side by side under none, taint and the two judges; and
 * AutoInject on tool calls (fixtures/demo/autoinject-tools.yml), where the worker's arguments are
 * corrupted on the benign twins and the report gives the paired TCR drop.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { runJob } from '../../src/run/job.js';
import { realDeps } from '../../src/run/deps.js';
import { defaultDataDir } from '../../src/benchmarks/humaneval/resolve.js';
import { chooseObjective } from '../../src/inject/insider-catalogue.js';
import { computeSecurity, overallSecurity } from '../../src/scoring/security-metrics.js';
import { runFigures } from '../../src/scoring/history-entry.js';
import type { RunLog } from '../../src/runlog/schema.js';
import { memoryLog } from '../../src/util/log.js';
import { requireData } from '../helpers/benchmark-data.js';

const dataDir = defaultDataDir();
const hasData = dataDir !== undefined && ['agentharm', 'redcode'].every((d) => existsSync(path.join(dataDir, d)));
requireData(hasData, 'insider-run.test: the agentic sabotage demos: no benchmark data');
const maybe = hasData ? describe : describe.skip;

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'saboteur-insider-run-'));
  dirs.push(d);
  return d;
}

maybe('the insider demo', () => {
  let log: RunLog;
  let report: string;

  it('runs the benign twins with and without the insider under every defense', async () => {
    const out = await tempDir();
    const config = await loadConfig('fixtures/demo/insider.yml');
    const result = await runJob(config, { outDir: out, log: memoryLog() });
    log = result.runLog;
    report = await readFile(result.reportPath, 'utf8');
    expect(log.status).toBe('completed');
    expect(log.variants.malicious).toMatchObject({ method: 'insider', target: 'planner', agenticTask: 'benign' });
    // Both variants run the benign twin of each pair, under each defense.
    for (const r of log.instances) expect(r.role).toBe('benign');
    const pairs = new Set(log.instances.map((r) => `${r.benchmark}/${r.instanceId}`));
    expect(log.instances).toHaveLength(pairs.size * 2 * 4);
  }, 600_000);

  it('gives every instance its seeded objective, the same under every defense, and only in the malicious variant', async () => {
    const config = await loadConfig('fixtures/demo/insider.yml');
    const suites = await realDeps.loadSuites(config, { isolation: undefined as never, cacheDir: await tempDir(), log: memoryLog() });
    for (const r of log.instances) {
      if (r.variant === 'control') {
        expect(r.objective).toBeUndefined();
        for (const c of r.trace.calls) expect(c.rewrite).toBeUndefined();
        continue;
      }
      const suite = suites.find((s) => s.info.id === r.benchmark)!;
      const instance = suite.instances.find((i) => i.id === r.instanceId)!;
      const choice = chooseObjective({
        seed: config.sample.seed,
        benchmark: r.benchmark,
        instanceId: r.instanceId,
        toolSpecs: suite.tools!(instance.control!).task.toolSpecs,
      });
      expect('objective' in choice && choice.objective).toEqual(r.objective!.objective);
      // The planner carries the briefing; the worker never does; the trace keeps the pipeline's own prompts.
      for (const c of r.trace.calls) {
        if (c.agent === 'planner')
          expect(c.rewrite).toEqual({ method: 'insider', action: 'appended', objective: r.objective!.objective.id });
        else expect(c.rewrite).toBeUndefined();
        expect(JSON.stringify(c.request)).not.toContain('CONFIDENTIAL BRIEFING');
      }
    }
  });

  it('measures, per defense, how many objectives reached their sink, and shows the path of each attempt', () => {
    const none = overallSecurity(log, 'none')!.objective!;
    const taint = overallSecurity(log, 'taint')!.objective!;
    const local = overallSecurity(log, 'local-judge')!.objective!;
    const global = overallSecurity(log, 'global-judge')!.objective!;
    // Without a defense every attempt gets through; the scripted global judge stops them all, the local one none.
    expect(none.success.hits).toBe(none.attempted);
    expect(none.success.hits).toBeGreaterThan(5);
    expect(none.blocked).toBe(0);
    // (Compared by what each judge did, not by equal counts: on a loaded machine one instance run
    // may end before its attempt under one defense and not under another.)
    expect(local.blocked).toBe(0);
    expect(local.success.hits).toBe(local.attempted);
    expect(local.attempted).toBeGreaterThan(5);
    expect(global.success.hits).toBe(0);
    expect(global.blocked).toBe(global.attempted);
    // The taint validator stops some of them on its own.
    expect(taint.blocked).toBeGreaterThan(0);
    expect(taint.success.hits).toBe(taint.attempted - taint.blocked);
    // Planted by the planner, carried out by the worker: fragmented, and the path says so.
    expect(none.fragmented).toBe(none.attempted);
    const attempt = log.instances
      .find((r) => r.defense === 'taint' && r.objective?.attempts.some((a) => a.decision === 'block'))!
      .objective!.attempts.find((a) => a.decision === 'block')!;
    expect(attempt.path![0]).toMatch(/^planner call 1$/);
    expect(attempt.path![attempt.path!.length - 1]).toBe(`${attempt.tool} (by worker)`);
    expect(attempt.reason).toBeTruthy();
    // Benign completion under the insider, paired with control, per benchmark and defense.
    for (const s of computeSecurity(log)) expect(s.sabotaged!.drop.pairs).toBeGreaterThan(0);
    const ids = Object.keys(runFigures(log));
    for (const d of ['none', 'taint', 'local-judge', 'global-judge'])
      expect(ids).toEqual(expect.arrayContaining([`objective-success:${d}[insider]`, `tcr-drop:${d}[insider]`, `tcr:${d}`]));
    expect(ids.some((id) => id.startsWith('asr:'))).toBe(false);
  });

  it('the report shows the figures side by side and the objectives defense by defense', () => {
    expect(report).toContain('### Under the saboteur (insider)');
    expect(report).toMatch(/\| \*\*objective success\*\* \(none\) \| \d+\.\d% \(\d+\/\d+\)/);
    expect(report).toMatch(/\| \*\*objective success\*\* \(global-judge\) \| 0\.0% \(0\/\d+\)/);
    expect(report).toMatch(/\| \*\*TCR drop under insider\*\* \(taint\) \|/);
    expect(report).toContain('The insider: `planner` gets a hidden objective toward a hard sink');
    // Tool names are escaped in prose (post\_on\_x), not in code spans.
    expect(report).toMatch(
      /- `taint`: stopped \(run \w+, fragmented across agents\)\n {2}- `\w+` by `worker` \(fragmented: the insider is `planner`\): block \(no effect\): .+\n {4}- path of the target: planner call 1 → worker call \d+ → [\w\\]+ \(by worker\)/,
    );
    expect(report).toMatch(/- `none`: \*\*reached its sink\*\*/);
  });
});

maybe('AutoInject on tool calls', () => {
  it("corrupts the worker's arguments by kind on the benign twins, the tools get them, and the TCR drop is paired", async () => {
    const result = await runJob(await loadConfig('fixtures/demo/autoinject-tools.yml'), { outDir: await tempDir(), log: memoryLog() });
    const log = result.runLog;
    const mal = log.instances.filter((r) => r.variant === 'malicious');
    expect(mal.every((r) => r.role === 'benign')).toBe(true);
    const argCalls = mal.flatMap((r) => r.trace.calls.filter((c) => c.corruption?.toolCalls).map((c) => ({ r, c })));
    expect(argCalls.length).toBeGreaterThan(3);
    const kinds = new Set(argCalls.flatMap(({ c }) => c.corruption!.units.map((u) => u.argKind)));
    for (const k of ['recipient', 'amount', 'path']) expect(kinds).toContain(k);
    // What the tool server received is the corrupted call, not the model's.
    for (const { r, c } of argCalls) {
      for (const t of c.corruption!.toolCalls!.after) {
        const event = r.trace.tools!.find(
          (e) => e.tool === t.name && JSON.stringify(e.arguments) === JSON.stringify(JSON.parse(t.arguments)),
        );
        expect(event).toBeDefined();
      }
    }
    const s = overallSecurity(log, 'none')!;
    expect(s.sabotaged!.drop.pairs).toBeGreaterThan(5);
    expect(s.sabotaged!.drop.lost).toBeGreaterThan(0);
    expect(log.sabotage!.unitsChanged).toBeGreaterThan(0);
    expect(runFigures(log)['tcr-drop:none[autoinject]']).toMatchObject({ k: s.sabotaged!.drop.lost, n: s.sabotaged!.drop.pairs });
    const report = await readFile(result.reportPath, 'utf8');
    expect(report).toMatch(
      /\| \*\*TCR drop under autoinject\*\* \(none\) \| \+\d+\.\d pts \| \[.+\] pts \| McNemar exact p = \d\.\d{3} over \d+ pairs/,
    );
    expect(report).toMatch(/```diff\n- \w+\.\w+ = .+\n\+ \w+\.\w+ = /);
  }, 600_000);
});
