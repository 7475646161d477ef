/**
 * SafeArena's evaluator checks pinned to WebArena's own: fixtures/fidelity/safearena/evaluator-cases.json
 * holds answers, references and URLs with the score WebArena's evaluators.py gives each (and the tokens
 * nltk's word tokenizer gives the answer), produced by running that code outside the repository.
 */
import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { exactMatch, mustInclude, urlMatch } from '../../src/benchmarks/safearena/evaluate.js';
import { webArenaUrl, wordTokenize } from '../../src/benchmarks/safearena/webarena-text.js';

interface Cases {
  must_include: { ref: string; pred: string; tokenize: boolean; expected: number }[];
  exact_match: { ref: string; pred: string; expected: number }[];
  tokens: { text: string; expected: string[] }[];
  url_match: { reference_url: string; last_url: string; expected: number }[];
}
const cases = JSON.parse(readFileSync(new URL('../../fixtures/fidelity/safearena/evaluator-cases.json', import.meta.url), 'utf8')) as Cases;

describe('SafeArena fidelity: WebArena evaluator checks agree on every recorded case', () => {
  test('the fixture covers every check kind', () => {
    expect(cases.must_include.length).toBeGreaterThan(30);
    expect(cases.url_match.length).toBeGreaterThan(20);
  });

  test.each(cases.tokens.map((c) => [c.text, c.expected] as const))('word tokens of %j', (text, expected) => {
    expect(wordTokenize(text)).toEqual(expected);
  });

  test.each(cases.must_include.map((c) => [c.ref, c.pred, c.tokenize, c.expected] as const))(
    'must_include %j in %j (tokenize %s) = %s',
    (ref, pred, tokenize, expected) => {
      expect(mustInclude(ref, pred, tokenize) ? 1 : 0).toBe(expected);
    },
  );

  test.each(cases.exact_match.map((c) => [c.ref, c.pred, c.expected] as const))('exact_match %j vs %j = %s', (ref, pred, expected) => {
    expect(exactMatch(ref, pred) ? 1 : 0).toBe(expected);
  });

  test.each(cases.url_match.map((c) => [c.reference_url, c.last_url, c.expected] as const))(
    'url_match %s vs last URL %s = %s',
    (ref, last, expected) => {
      expect(urlMatch({ eval_types: ['url_match'], reference_url: ref }, last).score).toBe(expected);
    },
  );

  test('a one-letter reference is not found inside "n/a", and the slash before a query string is kept', () => {
    expect(mustInclude('a', 'n/a', true)).toBe(false);
    expect(webArenaUrl('http://reddit.local/f/news/?sort=new').base).toBe('reddit.local/f/news/');
    expect(webArenaUrl('http://reddit.local/f/news/').base).toBe('reddit.local/f/news');
  });
});
