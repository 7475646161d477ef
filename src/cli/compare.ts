/**
 * `saboteur compare BASE.json HEAD.json`: the PR comment's comparison for two run logs on a
 * laptop: every headline figure of HEAD beside BASE with Δ and the one-sided exact test, and the
 * regression verdict (worse by more than max-increase and significant).
 */
import type { Config } from '../config/load.js';
import { evaluateGate } from '../scoring/gate.js';
import { entryFromRunLog } from '../history/entry.js';
import { combineGate, compareWithBase, regressionChecks, type Comparison } from '../scoring/regression.js';
import { renderComment } from '../report/comment.js';
import type { RunLog } from '../runlog/schema.js';

export interface CompareResult {
  text: string;
  comparisons: Comparison[];
  /** Headline figures that got significantly worse by more than max-increase. */
  regressions: Comparison[];
}

export function compareRunLogs(base: { file: string; log: RunLog }, head: { file: string; log: RunLog }, settings: NonNullable<Config['gate']['regression']>): CompareResult {
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
  });
  return { text, comparisons, regressions: comparisons.filter((c) => c.pass === false) };
}
