/** The log wrapper every run prints through: each line and group name redacted before it reaches the log underneath. */
import { describe, expect, it } from '@jest/globals';
import { memoryLog, redactingLog } from '../../src/util/log.js';

const redact = (text: string) => text.replaceAll('hunter2-hunter2', '[redacted]');

describe('redactingLog', () => {
  it('redacts info, warnings, debug lines and group names, and runs the group', async () => {
    const inner = memoryLog();
    const log = redactingLog(inner, redact);
    log.info('cause: hunter2-hunter2 refused');
    log.warn('hunter2-hunter2 twice: hunter2-hunter2');
    log.debug('config: {"key":"hunter2-hunter2"}');
    const result = await log.group('Run hunter2-hunter2', async () => {
      log.info('inside');
      return 7;
    });
    expect(result).toBe(7);
    expect(inner.lines).toEqual([
      'cause: [redacted] refused',
      'warning: [redacted] twice: [redacted]',
      'debug: config: {"key":"[redacted]"}',
      '## Run [redacted]',
      'inside',
    ]);
  });

  it('wraps once for one redactor: a log wrapped again with the same one is the same log', () => {
    const inner = memoryLog();
    const once = redactingLog(inner, redact);
    expect(redactingLog(once, redact)).toBe(once);
    // Another redactor is another wrap: both apply.
    const twice = redactingLog(once, (t) => t.replaceAll('other-secret', '[redacted]'));
    expect(twice).not.toBe(once);
    twice.info('hunter2-hunter2 and other-secret');
    expect(inner.lines).toEqual(['[redacted] and [redacted]']);
  });
});
