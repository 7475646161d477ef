/**
 * The injection detector on a benign corpus it was not built on (bench/taint-eval/benign-corpus.ts:
 * records, listings and pages @faker-js/faker composes in seven locales, and real mail from the
 * SpamAssassin corpus). No record may read as an order; free text may hold people's orders to
 * people, but at most 1% of any kind may read as an override. docs/validator.md, "Injection detection".
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

  it('reads at most 1% of the free text of every kind as an override, marketing mail included', () => {
    // Marketing mail orders its readers with urgency ("Buy online now and collect your card
    // immediately"): an order still, but not an override without another signal (injection.ts, URGENCY).
    for (const f of figures.filter((x) => x.reading === 'free-text'))
      expect({ kind: f.kind, rate: f.overrides / f.texts <= 0.01 }).toEqual({ kind: f.kind, rate: true });
  });
});

describe('the benign corpus, other scripts split', () => {
  // Han, Kana, Hangul, Arabic, Hebrew, Persian, Cyrillic and Thai records, and Portuguese, Polish and Turkish ones.
  const figures = corpusFigures(benignCorpus({ split: 'other scripts', n: 300 }));

  it('reads no name, address, company or code of any script as prose', () => {
    for (const f of figures.filter((x) => x.reading === 'record' && x.kind !== 'bank transactions'))
      expect({ kind: f.kind, found: f.examples }).toEqual({ kind: f.kind, found: [] });
  });

  it('reads a record’s sentence in a language it cannot read as what it cannot rule out, and as nothing else', () => {
    // Japanese transaction descriptions ("…の引き落としが行われました。") are prose the validator
    // cannot read: fail-closed, they claim their values as an order would (docs/validator.md).
    const t = figures.find((x) => x.kind === 'bank transactions')!;
    expect(t.orders).toBe(t.unreadable);
    expect(t.overrides).toBe(0);
    for (const e of t.examples) expect(e).toMatch(/^injected instructions: unreadable \("description: /);
  });
});
