/**
 * The injection detector on a benign corpus it was not built on (bench/taint-eval/benign-corpus.ts:
 * records, listings and pages @faker-js/faker composes in seven locales, and real mail from the
 * SpamAssassin corpus). No record may read as an order; free text may hold people's orders to
 * people, but at most 1% of it may read as an override. docs/validator.md, "Injection detection".
 */
import { describe, expect, it } from '@jest/globals';
import { benignCorpus, corpusFigures, type CorpusSplit } from '../../bench/taint-eval/benign-corpus.js';

describe.each(['tune', 'held-out'] as CorpusSplit[])('the benign corpus, %s split', (split) => {
  const figures = corpusFigures(benignCorpus({ split, n: 300, mail: 600 }));

  it('has every kind, with texts in it', () => {
    const kinds = figures.map((f) => f.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['customer records', 'order records', 'calendar events', 'bank transactions', 'mail (easy ham)']),
    );
    for (const f of figures) expect(f.texts).toBeGreaterThanOrEqual(250);
  });

  it('reads no field of any record as an order', () => {
    for (const f of figures.filter((x) => x.reading === 'record'))
      expect({ kind: f.kind, found: f.examples }).toEqual({ kind: f.kind, found: [] });
  });

  it('reads at most 1% of the free text as an override, but for marketing mail (below)', () => {
    for (const f of figures.filter((x) => x.reading === 'free-text' && x.kind !== 'mail (hard ham)'))
      expect({ kind: f.kind, rate: f.overrides / f.texts <= 0.01 }).toEqual({ kind: f.kind, rate: true });
  });

  it('holds marketing mail to what it measures now: calls to act with urgency and a price read as an override', () => {
    // "Buy any new Dell ... and you'll be automatically entered", "Buy online now and collect your
    // card immediately": an order with a redirect and a target is the shape of an injection. 11 of 250.
    const hard = figures.find((x) => x.kind === 'mail (hard ham)');
    if (hard) expect(hard.overrides / hard.texts).toBeLessThanOrEqual(0.05);
  });
});
