/**
 * Reading a run log of an earlier version. `fixtures/runlogs/v1-insider.json` is a real version-1
 * run log: the offline insider demo (fixtures/demo/insider.yml) as the last version-1 build wrote
 * it, with each trace emptied to keep the file small and the data paths made relative. That build
 * printed, per defense, insider success none 8/9, taint 1/10, local-judge 8/9, global-judge 0/9:
 * this build reads the same figures from it, under the names it writes today.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { NO_OBJECTIVE_NOTE_PREFIX, parseRunLog, RUN_LOG_VERSION, RunLogError } from '../../src/runlog/schema.js';
import { overallSecurity } from '../../src/scoring/security-metrics.js';
import { runFigures } from '../../src/scoring/history-entry.js';

const V1_FILE = 'fixtures/runlogs/v1-insider.json';
const v1Text = readFileSync(V1_FILE, 'utf8');
const v1 = (): Record<string, any> => JSON.parse(v1Text);
const read = (log: unknown) => parseRunLog(JSON.stringify(log), 'run.json');

describe('a version-1 run log', () => {
  it('reads in the current shape: the objective under `objective`, with the figures the old build printed', () => {
    expect(v1().schemaVersion).toBe(1);
    expect(v1().instances.filter((r: Record<string, unknown>) => 'insider' in r)).toHaveLength(48);
    const log = parseRunLog(v1Text, V1_FILE);
    expect(log.schemaVersion).toBe(RUN_LOG_VERSION);
    const malicious = log.instances.filter((r) => r.variant === 'malicious');
    expect(malicious.filter((r) => r.objective)).toHaveLength(48);
    expect(log.instances.some((r) => 'insider' in r)).toBe(false);
    const success = (defense: string) => {
      const s = overallSecurity(log, defense)?.objective?.success;
      return `${s?.hits}/${s?.n}`;
    };
    expect(Object.fromEntries(log.defenses.map((d) => [d, success(d)]))).toEqual({
      none: '8/9',
      taint: '1/10',
      'local-judge': '8/9',
      'global-judge': '0/9',
    });
    const figures = runFigures(log);
    expect(figures['objective-success:taint[insider]']).toMatchObject({ k: 1, n: 10 });
    expect(Object.keys(figures).filter((id) => id.includes('insider-success'))).toEqual([]);
  });

  it('turns the note of a run that got no objective into the note this build writes', () => {
    const log = v1();
    const run = log.instances.find((r: Record<string, unknown>) => 'insider' in r);
    delete run.insider;
    run.notes = ['insider: no tool of this instance reaches a hard sink', 'planner had no system prompt'];
    const read1 = read(log);
    const upgraded = read1.instances.find(
      (r) => r.instanceId === run.instanceId && r.defense === run.defense && r.variant === 'malicious',
    )!;
    expect(upgraded.notes).toEqual([
      `${NO_OBJECTIVE_NOTE_PREFIX} no tool of this instance reaches a hard sink`,
      'planner had no system prompt',
    ]);
    const stats = overallSecurity(read1, run.defense)!;
    expect(stats.objective?.noObjective).toBe(1);
  });

  it('leaves a log of another method as it was: nothing is under its id', () => {
    const log = v1();
    log.variants.malicious.method = 'autotransform';
    for (const r of log.instances) delete r.insider;
    log.instances[0].notes = ['autotransform left planner call 1 unchanged: timeout'];
    const read1 = read(log);
    expect(read1.instances[0].notes).toEqual(['autotransform left planner call 1 unchanged: timeout']);
    expect(read1.instances.some((r) => r.objective)).toBe(false);
  });

  it('never lets a method id overwrite a field of the record, and refuses what does not fit by name', () => {
    const named = v1();
    named.variants.malicious.method = 'notes';
    named.instances[0].notes = ['kept'];
    expect(read(named).instances[0].notes).toEqual(['kept']);

    const proto = v1();
    proto.variants.malicious.method = '__proto__';
    expect(() => read(proto)).not.toThrow();

    const bad = v1();
    bad.instances[2].insider = { reached: 'yes' };
    expect(() => read(bad)).toThrow(/instances\.2\.objective\.objective: /);

    // A field version 1 did not have is dropped, as its reader dropped it, and never shadows the method's record.
    const shadow = v1();
    const first = shadow.instances.findIndex((r: Record<string, unknown>) => 'insider' in r);
    shadow.instances[first].objective = { forged: true };
    expect(read(shadow).instances[first].objective).toEqual(v1().instances[first].insider);

    const notList = v1();
    notList.instances = { insider: {} };
    expect(() => read(notList)).toThrow(/instances: /);
  });
});

describe('versions', () => {
  it('reads 1 and the current one, and refuses any other naming both', () => {
    for (const version of [0, 3, '1', null, undefined]) {
      const log = { ...v1(), schemaVersion: version };
      expect(() => read(log)).toThrow(RunLogError);
      expect(() => read(log)).toThrow(
        `run.json: schemaVersion ${JSON.stringify(version)} is not supported; this saboteur reads run logs of schemaVersion 1, 2`,
      );
    }
    expect(() => parseRunLog('[1]', 'run.json')).toThrow(/schemaVersion undefined is not supported/);
    expect(() => parseRunLog('null', 'run.json')).toThrow(/schemaVersion undefined is not supported/);
  });
});
