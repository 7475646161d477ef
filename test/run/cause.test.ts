/**
 * Why an instance run errored: the cause is read from what real crashes print (a Python traceback,
 * an uncaught Node error, a process that says little) and from a model call the proxy refused,
 * and the console line carries it.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { errorCause, modelErrorOf, stderrCause } from '../../src/run/cause.js';
import { lineProgress, unscoredLine } from '../../src/run/progress.js';
import { chatCall } from '../helpers/chat-call.js';

const stderrOf = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' }).stderr;

describe('the cause of a crash, from its stderr', () => {
  it('a Python traceback: its last exception line, chained or not', () => {
    const single = stderrOf('/usr/bin/python3', [
      '-c',
      'import sys\nprint("loading agents", file=sys.stderr)\ndef plan():\n    raise ValueError("planner got no tools")\nplan()',
    ]);
    expect(stderrCause(single)).toBe('ValueError: planner got no tools');
    const chained = stderrOf('/usr/bin/python3', [
      '-c',
      'try:\n    {}["model"]\nexcept KeyError:\n    raise RuntimeError("no model configured")',
    ]);
    expect(stderrCause(chained)).toBe('RuntimeError: no model configured');
  });

  it('an uncaught Node error: its message line, not the source excerpt or the stack', () => {
    const crash = stderrOf(process.execPath, [
      '-e',
      'function run() { throw new TypeError("Cannot read properties of undefined (reading \'choices\')"); }\nrun();',
    ]);
    expect(stderrCause(crash)).toBe("TypeError: Cannot read properties of undefined (reading 'choices')");
    const rejected = stderrOf(process.execPath, ['-e', 'Promise.reject(new Error("404 saboteur proxy has no route POST /v1/responses"))']);
    expect(stderrCause(rejected)).toBe('Error: 404 saboteur proxy has no route POST /v1/responses');
  });

  it('a process that says no error word: its last line; nothing said: no cause', () => {
    expect(stderrCause('starting\nwaiting for the planner\ngave up after 3 tries\n')).toBe('gave up after 3 tries');
    expect(stderrCause('')).toBeUndefined();
    expect(stderrCause(undefined)).toBeUndefined();
    expect(stderrCause(`Error: ${'x'.repeat(5000)}`)!.length).toBe(300);
  });
});

describe('the cause of a crash, from the model calls', () => {
  const ok = chatCall({
    id: 'c1',
    agent: 'planner',
    messages: [{ role: 'user', content: 'plan' }],
    content: 'a plan',
    startedAt: '2026-05-09T10:00:00Z',
    durationMs: 5,
  });
  const refused = {
    ...chatCall({
      id: 'c2',
      agent: 'coder',
      messages: [{ role: 'user', content: 'code' }],
      startedAt: '2026-05-09T10:00:01Z',
      durationMs: 1,
    }),
    status: 400,
    response: undefined,
    error: 'messages[1].content must be a string\nmore detail',
  };

  it('names the refused call and the model error before stderr', () => {
    expect(modelErrorOf([ok])).toBeUndefined();
    expect(modelErrorOf([ok, refused])).toBe(
      'the model answered chat.completions call 1 of agent coder with HTTP 400: messages[1].content must be a string',
    );
    expect(errorCause([ok, refused], 'Error: 400 Bad Request')).toMatch(/^the model answered/);
    expect(errorCause([ok], 'Error: 400 Bad Request')).toBe('Error: 400 Bad Request');
  });
});

describe('the console line of an unscored run', () => {
  it('carries the reason, on one bounded line', () => {
    expect(
      unscoredLine({
        label: 'humaneval HumanEval/3 malicious',
        outcome: 'error',
        reason: 'pipeline crash: exited with code 1\n(cause: Error: boom)',
      }),
    ).toBe('  humaneval HumanEval/3 malicious: error: pipeline crash: exited with code 1 (cause: Error: boom)');
    const lines: string[] = [];
    const p = lineProgress((l) => lines.push(l));
    p.start(2);
    p.done({ label: 'humaneval A control', outcome: 'passed', ms: 1 });
    p.done({ label: 'humaneval A malicious', outcome: 'timeout', ms: 1, reason: 'no answer within 1000 ms' });
    expect(lines).toContain('  humaneval A malicious: timeout: no answer within 1000 ms');
  });
});
