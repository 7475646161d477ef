/**
 * Progress of a run: a live bar on a terminal, plain lines in CI logs (a line per 5% or per
 * 15 seconds, whichever comes first), nothing in benches and tests.
 */
import type { Outcome } from '../runlog/schema.js';
import { formatDuration } from '../util/duration.js';

export interface Progress {
  start(total: number): void;
  /** `reason`: why an instance run was not scored (error, timeout, model error), shown beside it. */
  done(item: { label: string; outcome: Outcome; ms: number; reason?: string }): void;
  finish(): void;
}

const SCORED = new Set<Outcome>(['passed', 'failed']);

/** `  humaneval HumanEval/3 malicious: error: pipeline crash: … (cause: …)`; one line, bounded. */
export function unscoredLine(item: { label: string; outcome: Outcome; reason?: string }): string {
  const reason = (item.reason ?? '').replace(/\s+/g, ' ').trim();
  return `  ${item.label}: ${item.outcome}${reason ? `: ${reason.length > 400 ? `${reason.slice(0, 399)}…` : reason}` : ''}`;
}

export const silentProgress: Progress = { start() {}, done() {}, finish() {} };

interface Counts {
  done: number;
  passed: number;
  failed: number;
  other: number;
}

function countsLine(c: Counts, total: number, startedAt: number): string {
  const elapsed = Date.now() - startedAt;
  const eta = c.done > 0 && c.done < total ? ` · eta ${formatDuration((elapsed / c.done) * (total - c.done))}` : '';
  return `${c.done}/${total} · ${c.passed} passed · ${c.failed} failed · ${c.other} refused/error/timeout · ${formatDuration(elapsed)}${eta}`;
}

function tally(c: Counts, outcome: Outcome): void {
  c.done++;
  if (outcome === 'passed') c.passed++;
  else if (outcome === 'failed') c.failed++;
  else c.other++;
}

/** A bar redrawn in place on a TTY stream. */
export function ttyProgress(stream: NodeJS.WriteStream): Progress {
  let total = 0;
  let startedAt = 0;
  const c: Counts = { done: 0, passed: 0, failed: 0, other: 0 };
  let lastDraw = 0;
  const draw = (force = false) => {
    const now = Date.now();
    if (!force && now - lastDraw < 80) return;
    lastDraw = now;
    const width = 24;
    const filled = total ? Math.round((c.done / total) * width) : 0;
    stream.write(`\r\x1b[2K[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${countsLine(c, total, startedAt)}`);
  };
  return {
    start(n) {
      total = n;
      startedAt = Date.now();
      draw(true);
    },
    done(item) {
      tally(c, item.outcome);
      // An unscored run gets its own line above the bar, with why.
      if (!SCORED.has(item.outcome) && item.outcome !== 'refused') stream.write(`\r\x1b[2K${unscoredLine(item)}\n`);
      draw(c.done === total || !SCORED.has(item.outcome));
    },
    finish() {
      draw(true);
      stream.write('\n');
    },
  };
}

/**
 * `progress` with each item's label and reason (the cause of an unscored run, the pipeline's own
 * words) passed through `redact` first: a terminal's bar and CI's lines print no more than the run
 * log holds (docs/security.md, "Secrets").
 */
export function redactingProgress(progress: Progress, redact: (text: string) => string): Progress {
  return {
    start: (n) => progress.start(n),
    done: (item) =>
      progress.done({ ...item, label: redact(item.label), ...(item.reason !== undefined ? { reason: redact(item.reason) } : {}) }),
    finish: () => progress.finish(),
  };
}

/** Plain lines for logs that are not terminals (GitHub Actions, files). */
export function lineProgress(write: (line: string) => void): Progress {
  let total = 0;
  let startedAt = 0;
  let lastLine = 0;
  let lastBucket = -1;
  const c: Counts = { done: 0, passed: 0, failed: 0, other: 0 };
  return {
    start(n) {
      total = n;
      startedAt = Date.now();
      lastLine = startedAt;
      write(`progress: 0/${n} instance runs`);
    },
    done(item) {
      tally(c, item.outcome);
      const bucket = total ? Math.floor((c.done / total) * 20) : 0;
      const now = Date.now();
      if (!SCORED.has(item.outcome)) write(unscoredLine(item));
      if (bucket !== lastBucket || now - lastLine > 15_000 || c.done === total) {
        lastBucket = bucket;
        lastLine = now;
        write(`progress: ${countsLine(c, total, startedAt)}`);
      }
    },
    finish() {},
  };
}
