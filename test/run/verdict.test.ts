/**
 * The run's verdict: one decision, from the run's files to the exit code, the failure and the lines
 * `saboteur run`, `saboteur merge` and the action say, for each way a run can end.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { EXIT } from '../../src/cli/io.js';
import type { RunFiles } from '../../src/run/assemble.js';
import { cutShort, RUN_EXIT, runVerdict, type FrontEnd } from '../../src/run/verdict.js';
import { parseRunLog, type RunLog } from '../../src/runlog/schema.js';
import { OutputWriteError } from '../../src/runlog/write.js';
import type { GateResult } from '../../src/scoring/gate.js';

const demo = (): RunLog => parseRunLog(readFileSync('fixtures/runlogs/demo.json', 'utf8'), 'demo.json');
const files = (runLog: RunLog, writeErrors: RunFiles['writeErrors'] = []): RunFiles => ({
  runLog,
  runLogPath: '/out/run.json',
  reportPath: '/out/report.md',
  report: '# report',
  writeErrors,
});
const passed: GateResult = { pass: true, checks: [{ metric: 'malicious-drop', value: 0.05, threshold: '≤ 0.1', pass: true }] };
const failedGate: GateResult = {
  pass: false,
  checks: [
    { metric: 'malicious-drop', value: 0.3, threshold: '≤ 0.1', pass: false },
    { metric: 'asr', value: 0.1, threshold: '≤ 0.5', pass: true },
  ],
};
const aborted = (): RunLog => ({ ...demo(), status: 'aborted', abortReason: 'the model server stopped answering' });
const cancelled = (): RunLog => ({ ...demo(), status: 'cancelled', abortReason: 'cancelled by SIGTERM' });
const unscored = (): RunLog => ({
  ...demo(),
  instances: demo().instances.map((r) => ({ ...r, outcome: 'timeout' as const, error: undefined })),
});
const lost = [new OutputWriteError('/out/run.json', 'ENOSPC')];
const LOST = lost[0].message;
const cli: FrontEnd[] = ['run', 'merge'];

describe('the exit codes', () => {
  it('are the CLI’s', () => {
    expect(RUN_EXIT).toEqual({ ok: EXIT.ok, failed: EXIT.failed, infrastructure: EXIT.infrastructure });
  });
});

describe('a run that finished and scored', () => {
  it.each(cli)('%s: a passed gate exits 0 and says so; no checks, nothing said', (frontEnd) => {
    expect(runVerdict({ files: files(demo()), frontEnd, gate: passed })).toEqual({
      kind: 'gate',
      exitCode: 0,
      failed: false,
      lines: [{ level: 'info', text: 'gate: passed' }],
    });
    expect(runVerdict({ files: files(demo()), frontEnd, gate: { pass: true, checks: [] } }).lines).toEqual([]);
  });

  it.each(cli)('%s: a failed gate exits 1 and names the failed checks', (frontEnd) => {
    const v = runVerdict({ files: files(demo()), frontEnd, gate: failedGate });
    expect(v).toMatchObject({ kind: 'gate', exitCode: 1, failed: true });
    expect(v.lines).toHaveLength(1);
    expect(v.lines[0].text).toMatch(/^gate: FAILED: malicious drop 0\.3 \(allowed ≤ 0\.1\) \(see the Gate section of report\.md\)$/);
    expect(v.lines[0].text).not.toMatch(/asr/i);
  });

  it('action: a failed gate fails the job with its metrics when fail-on-gate is set, and only then', () => {
    expect(runVerdict({ files: files(demo()), frontEnd: 'action', gate: failedGate, failOnGate: true })).toEqual({
      kind: 'gate',
      exitCode: 1,
      failed: true,
      failure: 'saboteur: the gate failed (malicious-drop)',
      lines: [],
    });
    expect(runVerdict({ files: files(demo()), frontEnd: 'action', gate: failedGate, failOnGate: false })).toMatchObject({
      exitCode: 0,
      failed: false,
    });
    expect(runVerdict({ files: files(demo()), frontEnd: 'action', gate: passed, failOnGate: true })).toMatchObject({
      exitCode: 0,
      failed: false,
    });
  });
});

describe('a run that scored nothing', () => {
  it('exits 3 whatever the gate, and says the report tells why', () => {
    const run = runVerdict({ files: files(unscored()), frontEnd: 'run', gate: passed });
    expect(run).toMatchObject({ kind: 'unscored', exitCode: 3, failed: true });
    expect(run.lines).toEqual([
      { level: 'warning', text: expect.stringMatching(/^no instance could be scored .*; report\.md says why for each instance run$/) },
    ]);
    expect(runVerdict({ files: files(unscored()), frontEnd: 'merge', gate: passed }).lines[0].level).toBe('info');
    const action = runVerdict({ files: files(unscored()), frontEnd: 'action', gate: passed });
    expect(action).toMatchObject({ kind: 'unscored', exitCode: 3, failed: true, lines: [] });
    expect(action.failure).toMatch(
      /^saboteur: infrastructure failure, no instance could be scored .*; the job summary says why for each instance run$/,
    );
  });
});

describe('a run that stopped early', () => {
  it('exits 3 with the reason', () => {
    expect(runVerdict({ files: files(aborted()), frontEnd: 'run', gate: passed })).toEqual({
      kind: 'aborted',
      exitCode: 3,
      failed: true,
      lines: [{ level: 'warning', text: 'the run stopped early: the model server stopped answering' }],
    });
    expect(runVerdict({ files: files(aborted()), frontEnd: 'merge' }).lines).toEqual([
      { level: 'info', text: 'the merged run did not finish (aborted): the model server stopped answering' },
    ]);
    expect(runVerdict({ files: files(aborted()), frontEnd: 'action', gate: passed })).toMatchObject({
      exitCode: 3,
      failure: 'saboteur: infrastructure failure, the run stopped early: the model server stopped answering',
    });
  });
});

describe('a cancelled run', () => {
  it('run: exits with the signal’s code, a warning, not a failure', () => {
    expect(runVerdict({ files: files(cancelled()), frontEnd: 'run', cancelledBy: 'SIGINT', gate: passed })).toEqual({
      kind: 'cancelled',
      exitCode: 130,
      failed: false,
      lines: [{ level: 'warning', text: 'the run was cancelled by SIGINT; run.json and report.md hold what finished' }],
    });
  });

  it('merge: a cancelled shard leaves the merged run unfinished: exit 3', () => {
    expect(runVerdict({ files: files(cancelled()), frontEnd: 'merge' })).toMatchObject({ kind: 'cancelled', exitCode: 3, failed: true });
  });

  it('action: cut short, a warning and the signal’s code (SIGTERM when none was seen)', () => {
    expect(cutShort(files(cancelled()))).toBe(true);
    expect(runVerdict({ files: files(cancelled()), frontEnd: 'action' })).toEqual({
      kind: 'cancelled',
      exitCode: 143,
      failed: false,
      lines: [{ level: 'warning', text: 'saboteur: the run was cancelled by SIGTERM; run.json and report.md hold what finished' }],
    });
  });
});

describe('files that could not be written', () => {
  it.each(cli)('%s: exit 3, each error a warning, the report shown instead', (frontEnd) => {
    expect(runVerdict({ files: files(demo(), lost), frontEnd, gate: failedGate })).toEqual({
      kind: 'write-error',
      exitCode: 3,
      failed: true,
      lines: [{ level: 'warning', text: LOST }],
      showReport: true,
    });
  });

  it('action: cut short, the job fails naming the files; cancelled as well, the signal’s code', () => {
    expect(cutShort(files(demo(), lost))).toBe(true);
    expect(runVerdict({ files: files(demo(), lost), frontEnd: 'action', gate: failedGate, failOnGate: true })).toEqual({
      kind: 'write-error',
      exitCode: 1,
      failed: true,
      failure: `saboteur: ${LOST}`,
      lines: [],
    });
    const both = runVerdict({ files: files(cancelled(), lost), frontEnd: 'action', cancelledBy: 'SIGINT' });
    expect(both).toMatchObject({
      kind: 'write-error',
      exitCode: 130,
      failed: true,
      failure: `saboteur: ${LOST}`,
    });
    expect(both.lines.map((l) => l.level)).toEqual(['warning']);
  });
});

describe('one shard of a run', () => {
  const shard = (): RunLog => ({ ...demo(), shard: { index: 2, count: 4 } });

  it('run: not gated, exit 0, saying merge applies the gate', () => {
    expect(runVerdict({ files: files(shard()), frontEnd: 'run', gate: failedGate })).toEqual({
      kind: 'shard',
      exitCode: 0,
      failed: false,
      lines: [{ level: 'info', text: 'gate: not applied to one shard (2/4); saboteur merge applies it to the whole run' }],
    });
  });

  it('action: not gated either, but an early stop or nothing scored still fails it', () => {
    expect(runVerdict({ files: files(shard()), frontEnd: 'action', shard: true })).toMatchObject({
      kind: 'shard',
      exitCode: 0,
      failed: false,
    });
    expect(runVerdict({ files: files({ ...aborted(), shard: { index: 1, count: 4 } }), frontEnd: 'action', shard: true })).toMatchObject({
      kind: 'aborted',
      exitCode: 3,
    });
  });

  it('the shard is still checked for an early stop first', () => {
    expect(runVerdict({ files: files({ ...aborted(), shard: { index: 1, count: 4 } }), frontEnd: 'run' }).kind).toBe('aborted');
  });
});
