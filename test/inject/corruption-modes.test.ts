/**
 * The corruption modes on real code: over every canonical solution of the demo problems and of the
 * real HumanEval (when the data is there), with Pm = Pe = 1, `syntax-error` leaves no program that
 * Python can parse and changes every unit drawn, while `logic-edit` leaves every program parsing
 * and, with its fallback chain, changes all but a few code lines.
 * Python's own parser (python3, ast.parse) is the judge. Prose is garbled or edited sentence by sentence.
 */
import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { createAutoInjector } from '../../src/inject/autoinject.js';
import { codeSyntaxEdits, textSyntaxEdits } from '../../src/inject/syntax-error.js';
import type { InjectionContext } from '../../src/inject/types.js';
import { defaultDataDir } from '../../src/benchmarks/humaneval/index.js';

const ctx = (instanceId: string): InjectionContext => ({ instanceId, variant: 'malicious', agent: 'coder', agentCallIndex: 0 });

interface Problem {
  task_id: string;
  prompt: string;
  canonical_solution: string;
}

function problems(): Problem[] {
  const demo = readFileSync('fixtures/demo/problems.jsonl', 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Problem);
  const dir = defaultDataDir(process.env);
  const file = dir && path.join(dir, 'humaneval', 'data', 'HumanEval.jsonl.gz');
  if (!file || !existsSync(file)) {
    console.warn('corruption modes: no HumanEval data under SABOTEUR_DATA_DIR: only the demo problems are used');
    return demo;
  }
  const real = gunzipSync(readFileSync(file))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Problem);
  return [...demo, ...real];
}

/** Which of the programs Python's parser accepts, in one python3 process. */
function parses(programs: string[]): boolean[] {
  const script =
    'import ast, json, sys\nout = []\nfor p in json.load(sys.stdin):\n    try:\n        ast.parse(p)\n        out.append(True)\n    except SyntaxError:\n        out.append(False)\nprint(json.dumps(out))';
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(programs), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as boolean[];
}

const fenced = (code: string) => `Here is the implementation.\n\n\`\`\`python\n${code}\`\`\`\n`;
const codeOf = (message: string) => /```python\n([\s\S]*?)```/.exec(message)![1];

describe('syntax-error and logic-edit on real code', () => {
  const all = problems();
  const originals = all.map((p) => `${p.prompt}${p.canonical_solution}`);

  test('the originals parse (the judge works)', () => {
    expect(parses(originals).every(Boolean)).toBe(true);
  });

  test('syntax-error: no corrupted program parses, and every drawn unit is changed', async () => {
    const inj = createAutoInjector({ target: 'coder', messageRate: 1, errorRate: 1, corruption: 'syntax-error', seed: 20260509 });
    const corrupted: string[] = [];
    const rules = new Map<string, number>();
    for (const [i, p] of all.entries()) {
      const { hit, corruption } = await inj.corrupt!({ content: fenced(originals[i]), toolCalls: [] }, ctx(p.task_id));
      expect(hit.changed).toBe(hit.drawn);
      expect(hit.unchanged).toBeUndefined();
      corrupted.push(codeOf(corruption!.after));
      for (const u of corruption!.units) if (u.kind === 'line') rules.set(u.rule, (rules.get(u.rule) ?? 0) + 1);
    }
    const ok = parses(corrupted);
    expect(all.filter((_, i) => ok[i]).map((p) => p.task_id)).toEqual([]);
    // Every rule family shows up over the set, not only the catch-all indentation.
    for (const rule of ['unclosed-bracket', 'missing-colon', 'missing-operator', 'missing-comma', 'misspelt-keyword', 'indentation'])
      expect(rules.get(rule) ?? 0).toBeGreaterThan(0);
  });

  test('logic-edit: every corrupted program still parses; lines no rule fits are counted and explained', async () => {
    const inj = createAutoInjector({ target: 'coder', messageRate: 1, errorRate: 1, corruption: 'logic-edit', seed: 20260509 });
    const corrupted: string[] = [];
    let drawn = 0;
    let changed = 0;
    let drawnLines = 0;
    let noRuleLines = 0;
    for (const [i, p] of all.entries()) {
      const { hit, corruption } = await inj.corrupt!({ content: fenced(originals[i]), toolCalls: [] }, ctx(p.task_id));
      drawn += hit.drawn;
      changed += hit.changed;
      // Pe = 1: every unit is drawn, and all but the one sentence around the fence are code lines.
      drawnLines += hit.drawn - 1;
      noRuleLines += (hit.unchanged ?? []).filter((u) => u.kind === 'line').length;
      expect(hit.drawn - hit.changed).toBe(hit.unchanged?.length ?? 0);
      for (const u of hit.unchanged ?? [])
        expect(u.reason).toMatch(/no logic-edit rule fits .*; the syntax-error or semantic mode would change it/);
      corrupted.push(corruption ? codeOf(corruption.after) : originals[i]);
    }
    const ok = parses(corrupted);
    expect(corrupted.filter((_, i) => !ok[i])).toEqual([]);
    // The fallback chain leaves few code lines alone (block openers such as else: and try:, defs of
    // one parameter, pieces of statements spread over lines); they are counted, not hidden.
    expect(changed).toBeLessThan(drawn);
    expect(noRuleLines / drawnLines).toBeLessThan(0.1);
  });

  test('every single-line edit of syntax-error breaks the line on its own', () => {
    const lines = [
      'if a < b:',
      'return max(xs, key=len)',
      'total = a + b',
      'for i, x in enumerate(xs):',
      "name = 'abc'",
      'xs.append(x)',
      'while n > 0:',
      'import os',
    ];
    const programs: string[] = [];
    for (const line of lines)
      for (const e of codeSyntaxEdits(line))
        programs.push(
          `def f(a, b, xs, x, n):\n    ${e.after}${e.after.endsWith(':') || /^\s*(if|for|while)\b/.test(e.after) ? '\n        pass' : ''}\n    return 1\n`,
        );
    expect(programs.length).toBeGreaterThan(lines.length * 2);
    expect(parses(programs).filter(Boolean)).toEqual([]);
  });

  test('prose: syntax-error garbles every sentence, logic-edit changes the sentences a rule fits', async () => {
    const prose = 'First sort the list in ascending order. Then drop duplicates. Return the first element.';
    for (const s of ['Then drop duplicates.', 'Return the first element.']) expect(textSyntaxEdits(s).length).toBeGreaterThan(0);
    const broken = createAutoInjector({ target: 'coder', messageRate: 1, errorRate: 1, corruption: 'syntax-error', seed: 1 });
    const b = await broken.corrupt!({ content: prose, toolCalls: [] }, ctx('p'));
    expect(b.hit).toMatchObject({ units: 3, drawn: 3, changed: 3 });
    const logic = createAutoInjector({ target: 'coder', messageRate: 1, errorRate: 1, corruption: 'logic-edit', seed: 1 });
    const l = await logic.corrupt!({ content: prose, toolCalls: [] }, ctx('p'));
    // "Then drop duplicates." has no negation, number or listed antonym.
    expect(l.hit).toMatchObject({ units: 3, drawn: 3, changed: 2, unchanged: [{ index: 1, kind: 'sentence' }] });
  });
});
