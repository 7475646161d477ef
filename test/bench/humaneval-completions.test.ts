/**
 * The HumanEval completions the scorer's agreement test and bench use: generated deterministically
 * from the canonical solutions by saboteur's own corruption modes, and recorded official results
 * read only from where SABOTEUR_HUMANEVAL_RECORDED points.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCompletions, generateCompletionSet } from '../../bench/generated-completions.js';
import { readRecordedResults } from '../../bench/recorded-results.js';
import { defaultDataDir, HUMANEVAL_DATA_PATH, loadHumanEval, type HumanEvalProblem } from '../../src/benchmarks/humaneval/index.js';
import { codeEdits, codeSyntaxEdits } from '../../src/inject/index.js';
import { requireData } from '../helpers/benchmark-data.js';

const dataDir = defaultDataDir();
const realFile = dataDir ? join(dataDir, HUMANEVAL_DATA_PATH) : undefined;
const haveRealData = realFile !== undefined && existsSync(realFile);
requireData(haveRealData, 'generated HumanEval completions on the real problems: no data folder');
const withRealData = haveRealData ? describe : describe.skip;

let fixtureProblems: HumanEvalProblem[];
let work: string;
beforeAll(async () => {
  fixtureProblems = (await loadHumanEval('fixtures/humaneval/problems.jsonl')).problems;
  work = await mkdtemp(join(tmpdir(), 'saboteur-recorded-test-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('generateCompletions', () => {
  test('the same problems and seed give the same completions; the draw is per problem, whatever else is in the list', () => {
    const a = generateCompletions(fixtureProblems, 7);
    expect(generateCompletions(fixtureProblems, 7)).toEqual(a);
    expect(a.map((c) => c.task_id)).toEqual(fixtureProblems.map((p) => p.task_id));
    expect(generateCompletions(fixtureProblems.slice(1), 7)).toEqual(a.slice(1));
  });
});

withRealData('generateCompletions on the real problems', () => {
  let real: HumanEvalProblem[];
  beforeAll(async () => {
    real = (await loadHumanEval(realFile!)).problems;
  });

  test('every kind appears in each seed, and only canonical completions equal the solution', () => {
    const byId = new Map(real.map((p) => [p.task_id, p]));
    for (const seed of [1, 2, 3, 4]) {
      const set = generateCompletions(real, seed);
      const count = (k: string) => set.filter((c) => c.kind === k).length;
      // 30% / 35% / 10% / 15% / 10% drawn (two logic edits only where two lines can take one): every kind in every seed.
      expect(count('canonical')).toBeGreaterThan(30);
      expect(count('one logic edit')).toBeGreaterThan(40);
      expect(count('two logic edits')).toBeGreaterThanOrEqual(5);
      expect(count('syntax error')).toBeGreaterThan(10);
      expect(count('truncated')).toBeGreaterThan(10);
      for (const c of set) {
        const solution = byId.get(c.task_id)!.canonical_solution;
        if (c.kind === 'canonical') expect(c.completion).toBe(solution);
        else expect(c.completion).not.toBe(solution);
        if (c.kind === 'truncated') expect(solution.startsWith(c.completion)).toBe(true);
        expect(c.rules).toHaveLength(c.kind === 'two logic edits' ? 2 : c.kind === 'one logic edit' || c.kind === 'syntax error' ? 1 : 0);
      }
    }
  });

  test('edits are the corruption modes of src/inject: each changed line is one logic-edit or syntax-error rule away from its original', () => {
    const byId = new Map(real.map((p) => [p.task_id, p]));
    const edited = generateCompletionSet(real, [1, 2]).filter((c) => c.kind === 'one logic edit' || c.kind === 'syntax error');
    expect(new Set(edited.map((c) => c.kind)).size).toBe(2);
    for (const c of edited) {
      const before = byId.get(c.task_id)!.canonical_solution.split('\n');
      const after = c.completion.split('\n');
      expect(after).toHaveLength(before.length);
      const changed = before.flatMap((line, i) => (line === after[i] ? [] : [i]));
      expect(changed).toHaveLength(1);
      const [i] = changed;
      const indent = /^\s*/.exec(before[i])![0];
      const body = before[i].slice(indent.length).trimEnd();
      const tail = before[i].slice(indent.length + body.length);
      const possible =
        c.kind === 'one logic edit'
          ? codeEdits(body).map((e) => indent + body.slice(0, e.start) + e.replacement + body.slice(e.end) + tail)
          : codeSyntaxEdits(body).map((e) => indent + e.after + tail);
      expect(possible).toContain(after[i]);
    }
  });
});

describe('readRecordedResults', () => {
  const line = (o: object) => JSON.stringify(o) + '\n';
  const ok = { task_id: 'HumanEval/0', completion: '    return 1\n', result: 'passed', passed: true };

  test('reads every *.jsonl of a folder in name order, or one file', async () => {
    const dir = join(work, 'folder');
    await mkdir(dir);
    await writeFile(join(dir, 'b.jsonl'), line(ok) + '\n' + line({ ...ok, task_id: 'HumanEval/1', result: 'failed: ', passed: false }));
    await writeFile(join(dir, 'a.jsonl'), line(ok));
    await writeFile(join(dir, 'notes.txt'), 'not results');
    const files = readRecordedResults(dir);
    expect(files.map((f) => [f.name, f.results.length])).toEqual([
      ['a.jsonl', 1],
      ['b.jsonl', 2],
    ]);
    expect(files[1].results[1]).toEqual({ task_id: 'HumanEval/1', completion: '    return 1\n', result: 'failed: ', passed: false });
    expect(readRecordedResults(join(dir, 'a.jsonl'))).toEqual([files[0]]);
  });

  test('names the file and line of a malformed result, and says when there is nothing to read', async () => {
    const bad = join(work, 'bad.jsonl');
    await writeFile(bad, line(ok) + line({ ...ok, passed: 'yes' }));
    expect(() => readRecordedResults(bad)).toThrow(`${bad}:2: field "passed" must be true or false (the official results format)`);
    await writeFile(bad, line(ok) + '{oops\n');
    expect(() => readRecordedResults(bad)).toThrow(`${bad}:2: not valid JSON`);
    await writeFile(bad, line({ ...ok, completion: 3 }));
    expect(() => readRecordedResults(bad)).toThrow(`${bad}:1: field "completion" must be a string`);
    const empty = join(work, 'empty');
    await mkdir(empty);
    expect(() => readRecordedResults(empty)).toThrow(/SABOTEUR_HUMANEVAL_RECORDED=.*empty: holds no \*\.jsonl file/);
    expect(() => readRecordedResults(join(work, 'absent'))).toThrow(/SABOTEUR_HUMANEVAL_RECORDED=.*absent: cannot read it/);
  });
});
