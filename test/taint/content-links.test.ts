/**
 * Message edges recovered from content: verbatim copies (paraphrase-free, whatever the case,
 * punctuation, whitespace or JSON escaping), partial quotes, short texts, the time bound, and
 * argument coverage (what an argument quotes, and what the model wrote itself).
 */
import { describe, expect, it } from '@jest/globals';
import { ContentIndex, normalizeText, normalizeTokens } from '../../src/taint/content-links.js';

const RESULT = 'The quarterly revenue grew to 4.2 million euros, driven by the Falcon contract and lower cloud costs in the northern region.';

describe('normalisation', () => {
  it('lower-cases, drops punctuation and JSON escapes, and splits on whitespace', () => {
    expect(normalizeTokens('Hello,  WORLD!\\nNext-line "quoted"')).toEqual(['hello', 'world', 'next', 'line', 'quoted']);
    expect(normalizeText('bob@corp.example')).toBe('bob corp example');
    expect(normalizeText('Ünïcode — café')).toBe('ünïcode café');
  });
});

describe('ContentIndex.linked', () => {
  const index = new ContentIndex();
  index.add(1, RESULT, 100);
  index.add(2, 'Meeting moved to Thursday at 10:00 in room B.', 100);
  index.add(3, 'ok', 100);
  index.add(4, 'The northern region report is due on Friday with the cost figures.', 500);

  it('links a verbatim copy inside a longer request', () => {
    const hits = index.linked(`Here is what the tool said: ${RESULT} Please summarise it.`, 200);
    expect([...hits.keys()]).toEqual([1]);
    expect(hits.get(1)).toBeGreaterThan(10);
  });

  it('links a copy that only differs by case, punctuation, spacing and JSON escaping', () => {
    const mangled = JSON.stringify({ text: RESULT.toUpperCase().replace(/ /g, '\n  ') }).replace(/,/g, ' ;');
    expect([...index.linked(mangled, 200).keys()]).toEqual([1]);
  });

  it('links a partial quote of seven words or more', () => {
    expect([...index.linked('As reported, driven by the Falcon contract and lower cloud costs.', 200).keys()]).toEqual([1]);
  });

  it('does not link a shorter overlap or a paraphrase', () => {
    expect(index.linked('the Falcon contract was signed', 200).size).toBe(0);
    expect(index.linked('Revenue went up to 4.2M EUR thanks to Falcon and cheaper cloud.', 200).size).toBe(0);
  });

  it('links a short producer only when the input contains all of it', () => {
    expect([...index.linked('FYI: meeting moved to Thursday at 10:00 in room B. Bring slides.', 200).keys()]).toEqual([2]);
    expect(index.linked('meeting moved to Thursday', 200).size).toBe(0);
    // "ok" is too short to mean anything.
    expect(index.linked('ok, thanks', 200).size).toBe(0);
  });

  it('keeps causality: a producer only counts for inputs that start after it produced', () => {
    const text = 'Reminder: the northern region report is due on Friday with the cost figures.';
    expect(index.linked(text, 499).size).toBe(0);
    expect([...index.linked(text, 500).keys()]).toEqual([4]);
  });
});

describe('ContentIndex.coverage', () => {
  const index = new ContentIndex();
  index.add(0, 'Send the weekly report to team@corp.example before noon.', -Infinity);
  index.add(7, RESULT, 100);
  index.add(8, `Summary: ${RESULT}`, 300);

  it('accounts for a quoted argument and says where it first appeared', () => {
    const cov = index.coverage(RESULT, 400);
    expect(cov.covered).toBe(cov.windows);
    expect([...cov.byProducer.keys()].sort()).toEqual([7, 8]);
    expect([...cov.firstSeen.keys()]).toEqual([7]);
  });

  it('finds a short argument (an address) as whole words in the request', () => {
    const cov = index.coverage('team@corp.example', 400);
    expect(cov).toMatchObject({ windows: 1, covered: 1 });
    expect([...cov.firstSeen.keys()]).toEqual([0]);
    expect(index.coverage('corp.example.evil.test', 400).covered).toBe(0);
    expect(index.containingText('eam@corp.example', 400)).toEqual([]);
  });

  it('leaves what the model wrote itself uncovered', () => {
    const cov = index.coverage('Dear team, please find the figures below and let me know if anything looks off to you.', 400);
    expect(cov.covered).toBe(0);
    expect(cov.windows).toBeGreaterThan(5);
  });
});
