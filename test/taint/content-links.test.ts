/**
 * Message edges recovered from content: verbatim copies (paraphrase-free, whatever the case,
 * punctuation, whitespace or JSON escaping), partial quotes, short texts, the time bound, and
 * argument coverage (what an argument quotes, and what the model wrote itself).
 */
import { describe, expect, it } from '@jest/globals';
import { ContentIndex, normalizeText, normalizeTokens } from '../../src/taint/content-links.js';

const RESULT =
  'The quarterly revenue grew to 4.2 million euros, driven by the Falcon contract and lower cloud costs in the northern region.';

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

describe('ContentIndex at scale', () => {
  it('finds a short text among thousands of producers by its rarest word, in time order', () => {
    const index = new ContentIndex();
    for (let i = 0; i < 5000; i++) index.add(i, `status report ${i % 7} for the team: nothing new today, all checks green`, i);
    index.add(6000, 'please pay DE44 5001 0517 5407 3249 31 by Friday', 6000);
    index.add(6001, 'again: DE44 5001 0517 5407 3249 31', 6001);
    expect(index.containingText('DE44 5001 0517 5407 3249 31', 7000)).toEqual([6000, 6001]);
    expect(index.containingText('DE44 5001 0517 5407 3249 31', 6000)).toEqual([6000]);
    // Every word common: the earliest producers are still found.
    expect(index.containingText('status report 3', 7000)[0]).toBe(3);
  });

  it('links a quote of a passage many producers share to the earliest of them', () => {
    const index = new ContentIndex();
    const boiler = 'this message was sent from the shared mailbox of the operations team';
    for (let i = 0; i < 200; i++) index.add(i, `${boiler} ticket ${i}`, i);
    const hits = index.linked(`Quoting: ${boiler}`, 1000);
    expect(hits.has(0)).toBe(true);
    expect(hits.size).toBeLessThanOrEqual(64);
  });
});
