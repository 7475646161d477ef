/**
 * One hostile run log (fixtures/runlogs/hostile-every-field.json, built by its script there) with
 * an attack in every string a renderer shows: report.md, the PR comment, the job summary, the
 * `compare` output and the dashboard. Golden files pin the exact text (UPDATE_GOLDEN=1 rewrites
 * them); the checks below say what must hold whatever the text: no HTML but our own details
 * blocks, no @-mention, no javascript: link, no injected heading or alert, no direction override,
 * every table row with its header's number of cells, every code fence closed where it should be.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseRunLog, type RunLog } from '../../src/runlog/schema.js';
import { renderReport as renderBare, type RenderOptions } from '../../src/report/markdown.js';
import { methodReportOf } from '../../src/inject/registry.js';
import { renderComment, type CommentOptions } from '../../src/report/comment.js';
import { compareRunLogs } from '../../src/cli/compare.js';
import { entryFromRunLog } from '../../src/scoring/history-entry.js';
import { evaluateGate } from '../../src/scoring/gate.js';
import { combineGate, compareWithBase, regressionChecks } from '../../src/scoring/regression.js';
import { renderDashboard } from '../../src/history/dashboard.js';

/** The report as the run renders it: with the run's method as its definition tells it. */
const renderReport = (log: RunLog, opts: RenderOptions = {}) =>
  renderBare(log, { method: methodReportOf(log.variants.malicious.method), ...opts });

const FILE = 'fixtures/runlogs/hostile-every-field.json';
const log: RunLog = parseRunLog(readFileSync(FILE, 'utf8'), FILE);

function golden(name: string, text: string): void {
  const file = `fixtures/golden/${name}`;
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

/** The text outside fenced blocks and code spans (what GitHub parses as Markdown and HTML), and the fences' balance. */
function prose(markdown: string): { text: string; unclosedFence: boolean } {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const m = /^(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = undefined;
      continue;
    }
    if (m) {
      fence = m[1];
      continue;
    }
    // A line that starts with a tag opens an HTML block: no code spans there, what looks like one is raw.
    out.push(line.startsWith('<') ? line : line.replace(/(`+)[^`]*?\1/g, ''));
  }
  return { text: out.join('\n'), unclosedFence: fence !== undefined };
}

/** Pipes that split table cells: not escaped by an odd run of backslashes. */
function cellPipes(row: string): number {
  let n = 0;
  for (let i = 0; i < row.length; i++) {
    if (row[i] !== '|') continue;
    let slashes = 0;
    for (let j = i - 1; j >= 0 && row[j] === '\\'; j--) slashes++;
    if (slashes % 2 === 0) n++;
  }
  return n;
}

function expectSafeMarkdown(markdown: string): void {
  expect(markdown).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  const { text, unclosedFence } = prose(markdown);
  expect(unclosedFence).toBe(false);
  // HTML: only our own details/summary tags and the report marker.
  const tags = text.match(/<[^>\s]*/g) ?? [];
  for (const t of tags) expect(['<details', '</details', '<summary', '</summary', '<!--']).toContain(t);
  expect(text.match(/<!-- saboteur-report -->/g) ?? []).toHaveLength(1);
  expect(text).not.toMatch(/(?<![A-Za-z0-9])@[A-Za-z0-9]/);
  // Links form only outside HTML blocks (lines that start with a tag).
  expect(
    text
      .split('\n')
      .filter((l) => !l.startsWith('<'))
      .join('\n'),
  ).not.toMatch(/(?<!\\)\]\(\s*javascript:/i);
  expect(text).not.toMatch(/^\s*## injected/m);
  expect(text).not.toMatch(/<script/i);
  // Tables: every row splits into as many cells as its header.
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('|') || (i > 0 && lines[i - 1].startsWith('|'))) continue;
    const header = cellPipes(lines[i]);
    for (let j = i; j < lines.length && lines[j].startsWith('|'); j++)
      expect([lines[j].slice(0, 80), cellPipes(lines[j])]).toEqual([lines[j].slice(0, 80), header]);
  }
}

function commentOptions(): CommentOptions {
  const current = entryFromRunLog(log, { sha: 'b'.repeat(40), branch: log.git!.ref, pr: 12, runUrl: 'javascript:alert(1)' });
  const base = {
    ...current,
    sha: 'c'.repeat(40),
    runId: log.runId,
    runUrl: 'javascript:alert(document.cookie)',
    configHash: 'd'.repeat(64),
    model: { kind: log.model.kind, model: `${log.model.model}-base` },
    seed: 8,
  };
  const thresholds = { maliciousDrop: { max: 0.1 }, regression: { maxIncrease: 0.03, significance: 0.05 } };
  const comparisons = compareWithBase(current, base, thresholds.regression);
  return {
    current,
    comparisons,
    gate: combineGate(evaluateGate(log, thresholds), regressionChecks(comparisons, thresholds.regression)),
    thresholds,
    base,
    baseBranch: log.git!.baseRef,
    trend: [base, base],
    subject: 'this PR',
    trendLabel: 'PR 12',
    artifactsUrl: 'javascript:alert(1)',
    method: methodReportOf(log.variants.malicious.method),
    notes: [log.notes[0]],
  };
}

describe('a hostile run log in every rendered field', () => {
  it('report.md (saboteur report, the shard job summary)', () => {
    const report = renderReport(log, { artifactsUrl: 'javascript:alert(1)' });
    expectSafeMarkdown(report);
    // Every section is there: the payloads were rendered, escaped, not dropped.
    for (const part of [
      '## Headline',
      '## Per benchmark',
      '## Security',
      '## Sabotage',
      '## Sample',
      '## Notes',
      'Pipeline fence degraded',
      'Sandbox degraded',
      'before it finished. The figures below cover what finished',
    ])
      expect(report).toContain(part);
    golden('hostile-every-field-report.md', report);
  });

  it('the PR comment and the job summary', () => {
    const comment = renderComment(log, commentOptions());
    expectSafeMarkdown(comment);
    golden('hostile-every-field-comment.md', comment);
    const summary = renderComment(log, { ...commentOptions(), maxChars: 800_000 });
    expectSafeMarkdown(summary);
  });

  it('saboteur compare', () => {
    const base = { ...log, runId: `${log.runId}-base`, model: { ...log.model, serverVersion: `${log.model.serverVersion}-other` } };
    const { text } = compareRunLogs(
      { file: `${log.runId}.json`, log: base },
      { file: FILE, log },
      { maxIncrease: 0.03, significance: 0.05 },
    );
    expectSafeMarkdown(text);
  });

  it('the dashboard page', () => {
    const entry = entryFromRunLog(log, { sha: 'e'.repeat(40), branch: log.git!.ref, runUrl: 'javascript:alert(1)' });
    const html = renderDashboard([entry, { ...entry, sha: 'f'.repeat(40) }], { title: log.runId, defaultBranch: log.git!.ref });
    expect(html.match(/<script/g)).toHaveLength(2);
    const found = /<img|<\/details>|<!-- saboteur-report -->|[\u202a-\u202e]/.exec(html);
    expect(found ? html.slice(Math.max(0, found.index - 200), found.index + 100) : '').toBe('');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
