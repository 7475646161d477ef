/**
 * `saboteur compare BASE.json HEAD.json`: the PR comment's comparison for two run logs on a
 * laptop: every headline figure of HEAD beside BASE with Δ and the one-sided exact test, and the
 * regression verdict (worse by more than max-increase and significant).
 */
import type { Config } from '../config/load.js';
import { evaluateGate } from '../scoring/gate.js';
import { entryFromRunLog } from '../scoring/history-entry.js';
import { combineGate, compareWithBase, regressionChecks, type Comparison } from '../scoring/regression.js';
import { renderComment } from '../report/comment.js';
import { methodReportOf } from '../inject/registry.js';
import type { RunLog } from '../runlog/schema.js';
import { writeFileAtomic } from '../runlog/write.js';
import { parseArgs, usageOf, UsageError, type FlagSpec } from './args.js';
import { EXIT, readRunLogFile, wantsHelp, type CliIo } from './io.js';

export interface CompareResult {
  text: string;
  comparisons: Comparison[];
  /** Headline figures that got significantly worse by more than max-increase. */
  regressions: Comparison[];
}

export function compareRunLogs(
  base: { file: string; log: RunLog },
  head: { file: string; log: RunLog },
  settings: NonNullable<Config['gate']['regression']>,
): CompareResult {
  const shaOf = (log: RunLog) => (log.git?.sha && /^[0-9a-f]{7,64}$/i.test(log.git.sha) ? log.git.sha : '0000000');
  const baseEntry = entryFromRunLog(base.log, { sha: shaOf(base.log) });
  const headEntry = entryFromRunLog(head.log, { sha: shaOf(head.log) });
  const comparisons = compareWithBase(headEntry, baseEntry, settings);
  const thresholds: Config['gate'] = { regression: settings };
  const gate = combineGate(evaluateGate(head.log, thresholds), regressionChecks(comparisons, settings));
  const text = renderComment(head.log, {
    current: headEntry,
    comparisons,
    gate,
    thresholds,
    base: baseEntry,
    baseLabel: base.file,
    trend: [],
    subject: 'this run',
    maxChars: 1_000_000,
    method: methodReportOf(head.log.variants.malicious.method),
  });
  return { text, comparisons, regressions: comparisons.filter((c) => c.pass === false) };
}

const FLAGS: FlagSpec = {
  out: { type: 'string', description: 'write the comparison here instead of stdout' },
  'max-increase': {
    type: 'string',
    description: 'how much worse (0.03 = 3 points) a figure may get before it is a regression (default: 0.03)',
  },
  significance: { type: 'string', description: 'a regression must be significant at this level (default: 0.05)' },
};

function fraction(value: unknown, name: string, fallback: number, usage: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n >= 1)
    throw new UsageError(`--${name} must be a number between 0 and 1, got "${value}"\n\n${usage}`);
  return n;
}

export async function compareCommand(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf(
    'compare BASE.json HEAD.json [options]',
    'Compares two run logs: the headline figures of HEAD beside BASE, with the regression test.',
    FLAGS,
  );
  if (wantsHelp(argv, usage, io)) return EXIT.ok;
  const { flags, positionals } = parseArgs(argv, FLAGS, usage);
  if (positionals.length !== 2) throw new UsageError(`name two run logs: the base, then the head\n\n${usage}`);
  const settings = {
    maxIncrease: fraction(flags['max-increase'], 'max-increase', 0.03, usage),
    significance: fraction(flags.significance, 'significance', 0.05, usage),
  };
  const [base, head] = await Promise.all(positionals.map(async (file) => ({ file, log: await readRunLogFile(file) })));
  const result = compareRunLogs(base, head, settings);
  if (flags.out) await writeFileAtomic(flags.out as string, result.text);
  else io.stdout.write(result.text);
  for (const r of result.regressions) io.stderr.write(`regression: ${r.metric}: ${r.why}\n`);
  return result.regressions.length ? EXIT.failed : EXIT.ok;
}
