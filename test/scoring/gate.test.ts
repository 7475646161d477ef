/** The gate's verdicts: each check judges the estimate or the end of the interval it names, and an unmeasured figure fails. */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parseRunLog, type RunLog } from '../../src/runlog/schema.js';
import { evaluateGate, judgedNumber } from '../../src/scoring/gate.js';

const load = (name: string): RunLog => parseRunLog(readFileSync(`fixtures/runlogs/${name}.json`, 'utf8'), name);

describe('the gate', () => {
  it('picks the number each check judges', () => {
    const interval = { low: 0.1, high: 0.6 };
    expect(judgedNumber(0.3, interval, 'estimate')).toBe(0.3);
    expect(judgedNumber(0.3, interval, 'lower-bound')).toBe(0.1);
    expect(judgedNumber(0.3, interval, 'upper-bound')).toBe(0.6);
    expect(judgedNumber(null, interval, 'lower-bound')).toBeNull();
  });

  it('the same drop fails on its estimate, passes on its lower bound and fails on its upper bound', () => {
    // The demo: +37.5 pts, 95% interval [−7.3, +67.8], McNemar p = 0.25.
    const log = load('demo');
    const verdict = (on?: 'estimate' | 'lower-bound' | 'upper-bound', max = 0.1) =>
      evaluateGate(log, { maliciousDrop: { max, ...(on ? { on } : {}) } }).checks[0];
    expect(verdict().pass).toBe(false);
    expect(verdict().on).toBe('estimate');
    expect(verdict('lower-bound')).toMatchObject({ pass: true, value: 0.375, on: 'lower-bound' });
    expect(verdict('lower-bound').judged).toBeLessThan(0);
    expect(verdict('estimate', 0.4).pass).toBe(true);
    expect(verdict('upper-bound', 0.4).pass).toBe(false);
  });

  it('an unmeasured figure fails whatever the check judges', () => {
    const log = load('demo');
    for (const on of ['estimate', 'lower-bound', 'upper-bound'] as const) {
      const c = evaluateGate(log, { asr: { max: 1, defense: 'taint', on }, tcr: { min: 0, defense: 'taint', on } });
      expect(c.pass).toBe(false);
      expect(c.checks.map((x) => x.why)).toEqual([
        'no graded harmful instances under defense taint',
        'no graded benign instances under defense taint',
      ]);
    }
  });
});
