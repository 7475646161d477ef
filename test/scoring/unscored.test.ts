/** Whether a run scored anything: the reason a run that scored nothing exits 3, gate or not. */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parseRunLog, type Outcome, type RunLog } from '../../src/runlog/schema.js';
import { unscoredReason } from '../../src/scoring/unscored.js';

const demo = (): RunLog => parseRunLog(readFileSync('fixtures/runlogs/demo.json', 'utf8'), 'demo.json');
const withOutcomes = (log: RunLog, pick: (i: number) => Outcome, error?: string): RunLog => ({
  ...log,
  instances: log.instances.map((r, i) => ({ ...r, outcome: pick(i), error })),
});

describe('a run that scored no instance', () => {
  it('is nothing to say about when one instance run reached its tests', () => {
    expect(unscoredReason(demo())).toBeUndefined();
    expect(unscoredReason(withOutcomes(demo(), (i) => (i === 5 ? 'failed' : 'timeout')))).toBeUndefined();
  });

  it('names the outcomes, most frequent first, and the first error', () => {
    const log = withOutcomes(
      demo(),
      (i) => (i < 10 ? 'timeout' : i < 15 ? 'error' : 'model-error'),
      `the pipeline died\n${'x'.repeat(500)}`,
    );
    expect(unscoredReason(log)).toBe(
      'no instance could be scored (16 instance runs: 10 timeout, 5 error, 1 model-error); the first: the pipeline died',
    );
    const long = withOutcomes(demo(), () => 'error', 'y'.repeat(500));
    expect(unscoredReason(long)).toMatch(/the first: y{199}…$/);
  });

  it('counts a refusal as scored on an agentic benchmark only (its grader decided), not on a code one', () => {
    const refused = withOutcomes(demo(), () => 'refused');
    expect(unscoredReason(refused)).toBe('no instance could be scored (16 instance runs: 16 refused)');
    const agentic = { ...refused, benchmarks: refused.benchmarks.map((b) => ({ ...b, kind: 'agentic' as const })) };
    expect(unscoredReason(agentic)).toBeUndefined();
  });

  it('an empty run is a failure, an empty shard is not', () => {
    expect(unscoredReason({ ...demo(), instances: [] })).toBe('no instance was run (the benchmarks selected none)');
    expect(unscoredReason({ ...demo(), instances: [], shard: { index: 9, count: 9 } })).toBeUndefined();
  });
});
