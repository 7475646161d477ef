import { describe, expect, it } from '@jest/globals';
import { failureOf } from '../../src/pipeline/process-runner.js';
import { answerResult } from '../../src/pipeline/http-runner.js';

describe('failureOf (process mode)', () => {
  const ran = { timedOut: false, spawned: true, timeoutMs: 1000 };
  it('is undefined for exit code 0', () => {
    expect(failureOf({ exitCode: 0 }, ran, undefined, 5)).toBeUndefined();
  });
  it('names a timeout, a start that failed, a signal and an exit code', () => {
    expect(failureOf({ exitCode: 1 }, { ...ran, timedOut: true }, 'tail', 5)).toMatchObject({ status: 'timeout', exitCode: 1 });
    expect(failureOf({ message: 'spawn sh ENOENT' }, { ...ran, spawned: false }, undefined, 5)).toEqual({
      status: 'error',
      error: 'pipeline.run could not be started: spawn sh ENOENT',
      stderrTail: undefined,
      durationMs: 5,
    });
    expect(failureOf({ signal: 'SIGKILL' }, ran, undefined, 5)).toMatchObject({ status: 'crash', exitCode: null });
    expect(failureOf({ exitCode: 3 }, ran, 'oops', 5)).toEqual({
      status: 'crash',
      exitCode: 3,
      stderrTail: 'oops',
      error: 'pipeline.run exited with code 3',
      durationMs: 5,
    });
  });
});

describe('answerResult (http mode)', () => {
  const url = new URL('http://127.0.0.1:9000/run');
  it('reads a 2xx JSON answer as the output', () => {
    expect(answerResult(url, { status: 200, body: JSON.stringify({ answer: 'done' }) }, 7)).toEqual({
      status: 'ok',
      output: { answer: 'done' },
      durationMs: 7,
    });
  });
  it('is a crash for a non-2xx answer and bad output for one that is not JSON', () => {
    expect(answerResult(url, { status: 500, body: 'boom' }, 7)).toMatchObject({ status: 'crash', stderrTail: 'boom' });
    expect(answerResult(url, { status: 200, body: 'not json' }, 7).status).toBe('bad-output');
  });
});
