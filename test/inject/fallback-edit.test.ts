/**
 * The logic-edit fallback chain: which rule serves a line no main rule fits, that each edit keeps
 * its program parsing (python3's own parser is the judge), and the lines it must leave alone (block
 * openers, pieces of a statement spread over several lines, the opening of a multi-line string).
 */
import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { fallbackEdit, wholeLine } from '../../src/inject/fallback-edit.js';
import { segment } from '../../src/inject/units.js';

function parses(programs: string[]): boolean[] {
  const script =
    'import ast, json, sys\nout = []\nfor p in json.load(sys.stdin):\n    try:\n        ast.parse(p)\n        out.append(True)\n    except SyntaxError:\n        out.append(False)\nprint(json.dumps(out))';
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(programs), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as boolean[];
}

describe('fallback chain', () => {
  test('each rule on the lines it is for, in order', () => {
    const cases: [string, string, string][] = [
      ['if is_palindrome(s):', 'negated-condition', 'if not (is_palindrome(s)):'],
      ['elif x in seen:  # seen before', 'negated-condition', 'elif not (x in seen):  # seen before'],
      ['while stack:', 'negated-condition', 'while not (stack):'],
      ['for ch in s:', 'skipped-first', 'for ch in list(s)[1:]:'],
      ['for i, (a, b) in enumerate(zip(xs, ys)):', 'skipped-first', 'for i, (a, b) in list(enumerate(zip(xs, ys)))[1:]:'],
      ['def f(a, b, c=1):', 'swapped-parameters', 'def f(b, a, c=1):'],
      ['def g(xs: List[int], k: int) -> int:', 'swapped-parameters', 'def g(k: int, xs: List[int]) -> int:'],
      ['def f(x):', 'renamed-parameter', 'def f(x_):'],
      ['def f(a, b=1):', 'renamed-parameter', 'def f(a_, b=1):'],
      ['def g(s: str) -> bool:', 'renamed-parameter', 'def g(s_: str) -> bool:'],
      ['return sorted(set(l))', 'dropped-statement', 'pass'],
      ['result.append(x)', 'dropped-statement', 'pass'],
      ['import math', 'dropped-statement', 'pass'],
      ["s = ''.join(reversed(s))  # why", 'dropped-statement', 'pass  # why'],
    ];
    for (const [line, rule, after] of cases) expect([line, fallbackEdit(line)]).toEqual([line, { rule, after }]);
  });

  test('what it leaves alone: block openers with nothing to turn, pass, defs without a plain first parameter, pieces of longer statements', () => {
    for (const line of [
      'else:',
      'try:',
      'finally:',
      'except ValueError:',
      'with open(p) as f:',
      'class A:',
      'pass',
      'def f():',
      'def f(*args, key):',
    ])
      expect([line, fallbackEdit(line)]).toEqual([line, undefined]);
    // Read on its own a line is whole when its brackets balance and nothing carries it on.
    for (const line of ['x = f(a,', 'b)', 'total = a + \\', 'FIX = """', 'y = [']) expect([line, wholeLine(line)]).toEqual([line, false]);
    expect(wholeLine('x = f(a, b)')).toBe(true);
    // In a message the segmenter knows which lines continue a statement.
    const { units } = segment('    x = max(a,\n            b)\n    s = """\n    text\n    """\n    return x\n');
    expect(units.map((u) => [u.text, u.whole])).toEqual([
      ['x = max(a,', false],
      ['b)', false],
      ['s = """', false],
      ['return x', true],
    ]);
    expect(fallbackEdit('b)', false)).toBeUndefined();
  });

  test('every edit keeps its program parsing', () => {
    const bodies = [
      ['if a < 0 and b:', '    return 1'],
      ['while n % 10:', '    n //= 10'],
      ['for k, v in d.items():', '    out[k] = v'],
      ['if x:', '    y = 1', 'elif z:', '    y = 2', 'else:', '    y = 3'],
      ['return [x for x in xs if x]'],
      ['yield from gen()'],
      ['global counter'],
      ['assert x, "x"'],
      ['del d[k]'],
      ['raise ValueError("bad")'],
      ['lambda_ = lambda q: q + 1'],
    ];
    const programs: string[] = [];
    for (const body of bodies) {
      for (let i = 0; i < body.length; i++) {
        const indent = /^\s*/.exec(body[i])![0];
        const e = fallbackEdit(body[i].trim());
        if (!e) continue;
        const lines = [...body];
        lines[i] = indent + e.after;
        programs.push(`def f(a, b, n, d, x, y, z, xs, out, counter, k, gen):\n${lines.map((l) => `    ${l}`).join('\n')}\n`);
      }
    }
    programs.push('def f(a, b):\n    return a - b\n'.replace('def f(a, b)', fallbackEdit('def f(a, b):')!.after.slice(0, -1)));
    expect(programs.length).toBeGreaterThan(12);
    const ok = parses(programs);
    expect(programs.filter((_, i) => !ok[i])).toEqual([]);
  });
});
