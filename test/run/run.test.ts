/**
 * Whole runs, everything real: the replay model, the proxy, the example pipelines as processes,
 * the sandboxed scorer, the run log and the report.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, parseConfig } from '../../src/config/load.js';
import { runJob } from '../../src/run/job.js';
import { parseRunLog, type RunLog } from '../../src/runlog/schema.js';
import { memoryLog } from '../../src/util/log.js';
import { lineProgress } from '../../src/run/progress.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'saboteur-run-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function corruptions(log: RunLog): string[] {
  return log.instances.flatMap((r) =>
    r.trace.calls
      .filter((c) => c.corruption)
      .map((c) => `${r.instanceId}|${c.agent}|${c.agentCallIndex}|${JSON.stringify(c.corruption!.units)}`),
  );
}

describe('the offline demo', () => {
  let first: RunLog;

  it('runs control and malicious, writes run.json and report.md with the drop and the corruptions', async () => {
    const out = await tempDir();
    const log = memoryLog();
    const config = await loadConfig('fixtures/demo/saboteur.yml');
    const { runLog, runLogPath, reportPath } = await runJob(config, { outDir: out, log, progress: lineProgress((l) => log.info(l)) });
    first = runLog;
    expect(runLog.status).toBe('completed');
    expect(runLog.instances).toHaveLength(16);
    const reread = parseRunLog(await readFile(runLogPath, 'utf8'), runLogPath);
    expect(reread.instances.map((r) => `${r.instanceId}/${r.variant}/${r.outcome}`)).toEqual(
      runLog.instances.map((r) => `${r.instanceId}/${r.variant}/${r.outcome}`),
    );
    const control = runLog.instances.filter((r) => r.variant === 'control');
    const malicious = runLog.instances.filter((r) => r.variant === 'malicious');
    // The cassette answers Demo/7 wrongly on purpose; everything else passes in control.
    expect(control.filter((r) => r.outcome === 'passed').map((r) => r.instanceId)).toEqual([
      'Demo/0',
      'Demo/1',
      'Demo/2',
      'Demo/3',
      'Demo/4',
      'Demo/5',
      'Demo/6',
    ]);
    expect(malicious.filter((r) => r.outcome === 'passed').length).toBeLessThan(7);
    // Every agent of the chain was identified: planner by its system prompt, coder by path, reviewer by header.
    const sources = new Map(control[0].trace.calls.map((c) => [c.agent, c.agentSource]));
    expect(sources).toEqual(
      new Map([
        ['planner', 'system'],
        ['coder', 'path'],
        ['reviewer', 'header'],
      ]),
    );
    // Only the malicious coder is corrupted.
    for (const r of control) expect(r.trace.calls.some((c) => c.corruption)).toBe(false);
    for (const r of malicious) for (const c of r.trace.calls) if (c.corruption) expect(c.agent).toBe('coder');
    expect(corruptions(runLog).length).toBeGreaterThan(0);
    const report = await readFile(reportPath, 'utf8');
    expect(report).toContain('**malicious drop**');
    expect(report).toMatch(/```diff\n- /);
    expect(log.lines.some((l) => l.startsWith('progress: 16/16'))).toBe(true);
  });

  it('corrupts the same messages the same way on a second run with the same seed, at another concurrency', async () => {
    const out = await tempDir();
    const config = await loadConfig('fixtures/demo/saboteur.yml');
    const { runLog } = await runJob(config, { outDir: out, log: memoryLog(), concurrency: 1 });
    expect(corruptions(runLog)).toEqual(corruptions(first));
    expect(runLog.instances.map((r) => r.outcome)).toEqual(first.instances.map((r) => r.outcome));
  });

  it('runs the hierarchical pipeline (planner → two workers → merger) through the same cassette', async () => {
    const out = await tempDir();
    const base = await readFile('fixtures/demo/saboteur.yml', 'utf8');
    const text = base.replace(/^ {2}run: .*$/m, '  run: node ../pipelines/hierarchical.mjs').replace('target: coder', 'target: merger');
    const config = parseConfig(text, path.resolve('fixtures/demo/hierarchical-test.yml'));
    const { runLog } = await runJob(config, { outDir: out, log: memoryLog(), limit: 4 });
    expect(runLog.instances).toHaveLength(8);
    const agents = new Set(runLog.instances.flatMap((r) => r.trace.calls.map((c) => c.agent)));
    expect(agents).toEqual(new Set(['planner', 'worker-a', 'worker-b', 'merger']));
    expect(runLog.instances.filter((r) => r.variant === 'control').every((r) => r.outcome === 'passed')).toBe(true);
  });
});

describe('failures are recorded on the instance and the run goes on', () => {
  async function runWith(pipelineYaml: string, extra = ''): Promise<RunLog> {
    const out = await tempDir();
    const file = path.resolve('fixtures/demo/failure-test.yml');
    const text = `model:\n  kind: replay\n  cassette: cassette.jsonl\n${pipelineYaml}benchmarks:\n  humaneval: { path: problems.jsonl, limit: 2 }\n${extra}`;
    const { runLog } = await runJob(parseConfig(text, file), { outDir: out, log: memoryLog() });
    const written = parseRunLog(await readFile(path.join(out, 'run.json'), 'utf8'), 'run.json');
    expect(written.instances).toHaveLength(runLog.instances.length);
    await expect(readFile(path.join(out, 'report.md'), 'utf8')).resolves.toContain('# saboteur report');
    return runLog;
  }

  it('a crashing pipeline: error with its stderr, every instance attempted', async () => {
    const log = await runWith('pipeline:\n  run: node ../pipelines/crash.mjs\n');
    expect(log.status).toBe('completed');
    expect(log.instances).toHaveLength(4);
    for (const r of log.instances) {
      expect(r.outcome).toBe('error');
      // What it died of is on the record, not only in the stderr tail.
      expect(r.error).toBe('pipeline crash: pipeline.run exited with code 3 (cause: RuntimeError: the planner fell over)');
    }
  });

  it('a hanging pipeline: timeout at pipeline.timeout', async () => {
    const log = await runWith('pipeline:\n  run: node ../pipelines/hang.mjs\n  timeout: 1s\n');
    for (const r of log.instances) expect(r.outcome).toBe('timeout');
  });

  it('unreadable output: error that says what was wrong', async () => {
    const log = await runWith('pipeline:\n  run: node ../pipelines/bad-output.mjs\n');
    for (const r of log.instances) expect(r.outcome).toBe('error');
  });

  it('a cassette without an answer: the pipeline fails on the proxy error and it is recorded', async () => {
    const out = await tempDir();
    const cassette = path.join(out, 'empty.jsonl');
    await writeFile(cassette, '{"match": {"agent": "nobody"}, "response": {"content": "x"}}\n');
    const text = `model:\n  kind: replay\n  cassette: ${cassette}\npipeline:\n  run: node ${path.resolve('fixtures/pipelines/chain.mjs')}\n  cwd: ${process.cwd()}\nbenchmarks:\n  humaneval: { path: ${path.resolve('fixtures/demo/problems.jsonl')}, limit: 1 }\n`;
    const { runLog } = await runJob(parseConfig(text, path.join(out, 's.yml')), { outDir: out, log: memoryLog() });
    for (const r of runLog.instances) {
      expect(r.outcome).toBe('error');
      expect(r.trace.calls[0].status).toBe(400);
    }
  });

  it('benchmark data that cannot be read: the run stops early, names the file, and still writes the report', async () => {
    const out = await tempDir();
    const text = `model:\n  kind: replay\n  cassette: cassette.jsonl\npipeline:\n  run: node x.mjs\nbenchmarks:\n  redcode: { limit: 2, path: ${out}/no-data }\n`;
    const log = memoryLog();
    const { runLog } = await runJob(parseConfig(text, path.resolve('fixtures/demo/x.yml')), { outDir: out, log });
    expect(runLog.status).toBe('aborted');
    expect(runLog.abortReason).toContain(`${out}/no-data`);
    await expect(readFile(path.join(out, 'report.md'), 'utf8')).resolves.toContain('The run stopped early');
  });
});
