/**
 * Field types shared by the config schema and the settings schemas the registries contribute
 * (a benchmark's `benchmarks.<id>` keys): durations and rates written the same way everywhere.
 */
import { z } from 'zod';
import { MAX_DURATION_MS, parseDuration } from './duration.js';

/** `120s`, `15m`, `1h`, `500ms` or a number of seconds, more than 0 and at most 24h; the output is milliseconds. */
export const duration = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const ms = parseDuration(value);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a duration (write 120s, 15m, 1h or 500ms)` });
    return z.NEVER;
  }
  // 0 would time out every run at once; past 24 h the timer overflows and fires at once too.
  if (ms <= 0 || ms > MAX_DURATION_MS) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is out of range: a duration is more than 0 and at most 24h` });
    return z.NEVER;
  }
  return ms;
});

/** A fraction between 0 and 1. */
export const rate = z.number().min(0).max(1);

/** A benchmark's `limit`: at most this many instances (pairs for the agentic ones). */
export const limit = z.number().int().positive();
