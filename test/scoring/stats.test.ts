import { describe, expect, it } from '@jest/globals';
import { fisherExactGreater, mcnemarExact, pairedDifferenceInterval, wilson } from '../../src/scoring/stats.js';
import { sampleIds, shardSlice, stratifiedSample } from '../../src/benchmarks/core/sample.js';

describe('wilson', () => {
  it('matches published values', () => {
    // 8/10: Wilson 95% [0.4902, 0.9433] (Newcombe 1998, table I style check)
    const w = wilson(8, 10);
    expect(w.low).toBeCloseTo(0.4902, 3);
    expect(w.high).toBeCloseTo(0.9433, 3);
    const z = wilson(0, 10);
    expect(z.low).toBe(0);
    expect(z.high).toBeCloseTo(0.2775, 3);
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe('mcnemarExact', () => {
  it('is the two-sided binomial test on discordant pairs', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    // b=10, c=2: 2 * P(X<=2 | n=12, 1/2) = 2 * 79/4096
    expect(mcnemarExact(10, 2)).toBeCloseTo((2 * 79) / 4096, 10);
    expect(mcnemarExact(2, 10)).toBeCloseTo(mcnemarExact(10, 2), 12);
    expect(mcnemarExact(5, 5)).toBe(1);
    expect(mcnemarExact(6, 0)).toBeCloseTo(2 / 64, 12);
  });
});

describe('pairedDifferenceInterval', () => {
  const table = (both: number, onlyA: number, onlyB: number, neither: number) => [
    ...Array.from({ length: both }, () => ({ a: true, b: true })),
    ...Array.from({ length: onlyA }, () => ({ a: true, b: false })),
    ...Array.from({ length: onlyB }, () => ({ a: false, b: true })),
    ...Array.from({ length: neither }, () => ({ a: false, b: false })),
  ];
  it('contains the estimate, mirrors when the variants swap, and stays inside [-1, 1]', () => {
    const ci = pairedDifferenceInterval(table(12, 9, 2, 21));
    expect(ci.low).toBeLessThan(7 / 44);
    expect(ci.high).toBeGreaterThan(7 / 44);
    const swapped = pairedDifferenceInterval(table(12, 2, 9, 21));
    expect(swapped.low).toBeCloseTo(-ci.high, 10);
    expect(swapped.high).toBeCloseTo(-ci.low, 10);
    const extreme = pairedDifferenceInterval(table(0, 30, 0, 0));
    expect(extreme.high).toBeLessThanOrEqual(1);
    expect(extreme.low).toBeGreaterThan(0.8);
  });
  it('is narrower for strongly paired outcomes than for the same margins unpaired', () => {
    // Same margins (25/44 vs 18/44): concordant pairs make the paired interval tighter.
    const paired = pairedDifferenceInterval(table(18, 7, 0, 19));
    const loose = pairedDifferenceInterval(table(10, 15, 8, 11));
    expect(paired.high - paired.low).toBeLessThan(loose.high - loose.low);
  });
  it('is wide open without pairs and contains the point estimate', () => {
    expect(pairedDifferenceInterval([])).toEqual({ low: -1, high: 1 });
    const ci = pairedDifferenceInterval([
      { a: true, b: false },
      { a: true, b: true },
      { a: false, b: false },
    ]);
    expect(ci.low).toBeLessThan(1 / 3);
    expect(ci.high).toBeGreaterThan(1 / 3);
  });
});

describe('fisherExactGreater', () => {
  it('gives p = 1 when the new run is no worse and small p for a clear regression', () => {
    expect(fisherExactGreater(0, 50, 10, 50)).toBeCloseTo(1, 10);
    expect(fisherExactGreater(20, 50, 2, 50)).toBeLessThan(0.001);
  });
});

describe('sampling and shards', () => {
  const ids = Array.from({ length: 164 }, (_, i) => `HumanEval/${i}`);
  it('is a fixed slice: same seed same ids, in dataset order; another seed another slice', () => {
    const a = sampleIds(ids, { seed: 1, limit: 20, benchmark: 'humaneval' });
    expect(a).toHaveLength(20);
    expect(sampleIds(ids, { seed: 1, limit: 20, benchmark: 'humaneval' })).toEqual(a);
    expect([...a].sort((x, y) => ids.indexOf(x) - ids.indexOf(y))).toEqual(a);
    expect(sampleIds(ids, { seed: 2, limit: 20, benchmark: 'humaneval' })).not.toEqual(a);
    expect(sampleIds(ids, { seed: 1, limit: 500, benchmark: 'humaneval' })).toEqual(ids);
  });
  it('shards cover every item exactly once', () => {
    const parts = [1, 2, 3].map((i) => shardSlice(ids, i, 3));
    expect(parts.flat().sort()).toEqual([...ids].sort());
    expect(Math.max(...parts.map((p) => p.length)) - Math.min(...parts.map((p) => p.length))).toBeLessThanOrEqual(1);
  });
});

describe('stratifiedSample', () => {
  const items = [
    ...Array.from({ length: 60 }, (_, i) => ({ id: `a${i}`, stratum: 'Fraud' })),
    ...Array.from({ length: 30 }, (_, i) => ({ id: `b${i}`, stratum: 'Hate' })),
    ...Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, stratum: 'Drugs' })),
  ];
  it('splits the limit in proportion to the strata, fixed by the seed', () => {
    const s = stratifiedSample(items, { seed: 7, limit: 20, benchmark: 'x' });
    expect(s.strata).toEqual({ Drugs: 2, Fraud: 12, Hate: 6 });
    expect(s.ids).toHaveLength(20);
    expect(stratifiedSample(items, { seed: 7, limit: 20, benchmark: 'x' }).ids).toEqual(s.ids);
    expect(stratifiedSample(items, { seed: 8, limit: 20, benchmark: 'x' }).ids).not.toEqual(s.ids);
  });
  it('gives every stratum one while the limit allows, and takes all without a limit', () => {
    expect(stratifiedSample(items, { seed: 1, limit: 3, benchmark: 'x' }).strata).toEqual({ Drugs: 1, Fraud: 1, Hate: 1 });
    expect(stratifiedSample(items, { seed: 1, benchmark: 'x' }).ids).toHaveLength(100);
    expect(stratifiedSample(items, { seed: 1, limit: 11, benchmark: 'x' }).ids).toHaveLength(11);
  });
});

describe('exact tests at scale', () => {
  it('stay accurate for large counts (log-gamma binomials)', () => {
    // Symmetric: b = c gives p = 1 at any size; a lopsided split stays tiny.
    expect(mcnemarExact(5000, 5000)).toBeCloseTo(1, 6);
    expect(mcnemarExact(5200, 4800)).toBeLessThan(0.001);
    expect(fisherExactGreater(500, 10000, 500, 10000)).toBeGreaterThan(0.4);
    expect(fisherExactGreater(700, 10000, 500, 10000)).toBeLessThan(1e-6);
  });
});
