import { describe, expect, it } from '@jest/globals';
import { countPerTask, passAtK, passAtKPerTask, passAtKSummary } from '../../src/scoring/passk.js';

/** 1 - C(n-c,k)/C(n,k) computed exactly with big integers, to check the product form against. */
function exactPassAtK(n: number, c: number, k: number): number {
  const choose = (a: number, b: number): bigint => {
    if (b < 0 || b > a) return 0n;
    let r = 1n;
    for (let i = 1; i <= b; i++) r = (r * BigInt(a - b + i)) / BigInt(i);
    return r;
  };
  const num = choose(n - c, k);
  const den = choose(n, k);
  // Scale before dividing so the ratio keeps ~15 significant digits.
  const scale = 10n ** 18n;
  return 1 - Number((num * scale) / den) / 1e18;
}

describe('passAtK', () => {
  it('gives the known values of small cases', () => {
    expect(passAtK(1, 1, 1)).toBe(1);
    expect(passAtK(1, 0, 1)).toBe(0);
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 12);
    // 1 - C(7,5)/C(10,5) = 1 - 21/252
    expect(passAtK(10, 3, 5)).toBeCloseTo(1 - 21 / 252, 12);
    // 1 - C(199,100)/C(200,100) = 1 - 100/200
    expect(passAtK(200, 1, 100)).toBeCloseTo(0.5, 12);
    expect(passAtK(200, 0, 100)).toBe(0);
  });

  it('is 1 when fewer than k samples failed', () => {
    expect(passAtK(10, 8, 3)).toBe(1);
    expect(passAtK(5, 5, 5)).toBe(1);
  });

  it('matches the exact binomial ratio where the binomials overflow doubles', () => {
    for (const [n, c, k] of [
      [1000, 10, 100],
      [1000, 1, 1],
      [2000, 37, 500],
      [200, 13, 10],
    ]) {
      expect(passAtK(n, c, k)).toBeCloseTo(exactPassAtK(n, c, k), 10);
    }
  });

  it('rejects impossible counts', () => {
    expect(() => passAtK(5, 6, 1)).toThrow(RangeError);
    expect(() => passAtK(5, -1, 1)).toThrow(RangeError);
    expect(() => passAtK(5, 1, 6)).toThrow(/1 <= k <= n/);
    expect(() => passAtK(5, 1, 0)).toThrow(RangeError);
    expect(() => passAtK(5.5, 1, 1)).toThrow(/integers/);
  });
});

describe('per task and summary', () => {
  // The official example: 6 samples of test/0, 3 pass (README of the dataset: pass@1 = 0.5).
  const official = [false, false, false, true, true, true].map((passed) => ({ task_id: 'test/0', passed }));

  it('groups by task_id in first-seen order', () => {
    const results = [
      { task_id: 'b', passed: true },
      { task_id: 'a', passed: false },
      { task_id: 'b', passed: false },
    ];
    expect(countPerTask(results)).toEqual([
      { task_id: 'b', n: 2, c: 1 },
      { task_id: 'a', n: 1, c: 0 },
    ]);
    expect(passAtKPerTask(results, 1)).toEqual(
      new Map([
        ['b', 0.5],
        ['a', 0],
      ]),
    );
  });

  it('reproduces the official example pass@1 = 0.5 and pass@5 from the estimator', () => {
    expect(passAtKSummary(official, [1])['pass@1']).toBeCloseTo(0.5, 12);
    // 1 - C(3,5)/C(6,5) = 1 (fewer than 5 failures); pass@2 = 1 - C(3,2)/C(6,2) = 1 - 3/15
    expect(passAtKSummary(official, [2, 5])).toEqual({ 'pass@2': expect.closeTo(0.8, 12), 'pass@5': 1 });
  });

  it('averages over tasks and reports only the k every task has samples for', () => {
    const results = [
      ...Array.from({ length: 10 }, (_, i) => ({ task_id: 'x', passed: i < 2 })),
      ...Array.from({ length: 3 }, (_, i) => ({ task_id: 'y', passed: i === 0 })),
    ];
    const summary = passAtKSummary(results, [1, 3, 10]);
    expect(Object.keys(summary)).toEqual(['pass@1', 'pass@3']);
    expect(summary['pass@1']).toBeCloseTo((0.2 + 1 / 3) / 2, 12);
    expect(summary['pass@3']).toBeCloseTo((passAtK(10, 2, 3) + 1) / 2, 12);
    expect(passAtKSummary([], [1])).toEqual({});
  });
});
