/**
 * The PR comment, golden-file tested: a normal run against its base, a regression, a report too
 * big for GitHub (cut visibly, nothing left open), and hostile model text.
 * UPDATE_GOLDEN=1 rewrites the files after a deliberate change.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Config } from '../../src/config/load.js';
import { evaluateGate } from '../../src/scoring/gate.js';
import { entryFromRunLog, type HistoryEntry } from '../../src/scoring/history-entry.js';
import { combineGate, compareWithBase, regressionChecks } from '../../src/scoring/regression.js';
import { COMMENT_BUDGET, renderComment, type CommentOptions } from '../../src/report/comment.js';
import { REPORT_MARKER } from '../../src/report/markdown.js';
import { methodReportOf } from '../../src/inject/registry.js';
import { cutMarkdown, GITHUB_COMMENT_LIMIT } from '../../src/report/truncate.js';
import { parseRunLog, type RunLog } from '../../src/runlog/schema.js';

function golden(name: string, text: string): void {
  const file = `fixtures/golden/${name}`;
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

const load = (name: string): RunLog => parseRunLog(readFileSync(`fixtures/runlogs/${name}.json`, 'utf8'), name);
const HEAD = 'b5e1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9';
const RUN_URL = 'https://github.com/acme/agents/actions/runs/7001';

/** Stored runs on main: the drop over the last commits, each with its counts. */
function mainHistory(lost: number[]): HistoryEntry[] {
  return lost.map((k, i) => ({
    sha: `${(i + 1).toString(16)}a${'0'.repeat(5)}${i}`.padEnd(40, 'f'),
    branch: 'main',
    runId: `20261120T1000${i}0-base${i}`,
    runUrl: `https://github.com/acme/agents/actions/runs/${6000 + i}`,
    at: `2026-11-2${i}T10:00:00.000Z`,
    status: 'completed' as const,
    model: { kind: 'replay', model: 'demo-coder' },
    configHash: '7c9928837f010cd7f37a2f086b3ce85765019c444d2e0a792bd49ec105e6a13e',
    seed: 20260509,
    metrics: {
      'malicious-drop': { value: k / 8, low: Math.max(-1, k / 8 - 0.3), high: Math.min(1, k / 8 + 0.3), k, n: 8, gained: 0 },
      'pass@1:control': { value: 7 / 8, low: 0.53, high: 0.98, k: 7, n: 8 },
      'pass@1:malicious': { value: (7 - k) / 8, low: 0.2, high: 0.9, k: 7 - k, n: 8 },
    },
  }));
}

function options(log: RunLog, history: HistoryEntry[], thresholds: Config['gate'], extra: Partial<CommentOptions> = {}): CommentOptions {
  const current = entryFromRunLog(log, { sha: HEAD, branch: 'coder-retry', pr: 42, runUrl: RUN_URL });
  const base = history.at(-1);
  const comparisons = compareWithBase(current, base, thresholds.regression);
  return {
    current,
    comparisons,
    gate: combineGate(evaluateGate(log, thresholds), regressionChecks(comparisons, thresholds.regression)),
    thresholds,
    base,
    baseBranch: 'main',
    trend: history,
    subject: 'this PR',
    trendLabel: 'PR 42',
    artifactsUrl: `${RUN_URL}#artifacts`,
    method: methodReportOf(log.variants.malicious.method),
    ...extra,
  };
}

/** Structural checks every comment must pass, whatever went into it. */
function wellFormed(text: string): void {
  expect(text.startsWith(REPORT_MARKER)).toBe(true);
  expect(text.length).toBeLessThanOrEqual(COMMENT_BUDGET);
  const outside = text.replace(/^(`{3,})[a-z]*\n[\s\S]*?\n\1$/gm, '');
  expect(outside.match(/<details>/g)?.length ?? 0).toBe(outside.match(/<\/details>/g)?.length ?? 0);
  const fences = text.match(/^`{3,}[a-z]*$/gm) ?? [];
  expect(fences.length % 2).toBe(0);
  for (const block of text.split('\n\n')) {
    const rows = block.split('\n').filter((l) => l.startsWith('|'));
    if (rows.length < 2) continue;
    const cols = (l: string) => l.replace(/\\\|/g, '').split('|').length;
    for (const row of rows) expect(cols(row)).toBe(cols(rows[0]));
  }
}

const THRESHOLDS: Config['gate'] = { maliciousDrop: { max: 0.5 }, regression: { maxIncrease: 0.03, significance: 0.05 } };

describe('PR comment', () => {
  it('a normal run beside its base, with the trend over main (golden)', () => {
    const text = renderComment(load('demo'), options(load('demo'), mainHistory([2, 3, 2, 2]), THRESHOLDS));
    golden('comment-normal.md', text);
    wellFormed(text);
    expect(text).toContain('**Gate: ✅ passed**');
    expect(text).toContain('| metric | this PR | base | Δ | threshold | |');
    expect(text).toMatch(
      /\| \*\*malicious drop · autoinject\*\* \| \+37\.5 pts \[.*\] \(3 of 8 pairs lost\) \| \+25\.0 pts \| \+12\.5 pts \(p = 0\.\d{3}\) \| ≤ 50\.0 pts; Δ ≤ \+3\.0 pts or p ≥ 0\.05 \| ✅ \|/,
    );
    expect(text).toContain('xychart-beta');
    expect(text).toContain('x-axis ["1a00000", "2a00000", "3a00000", "4a00000", "PR 42"]');
    expect(text).toContain('line [25.0, 37.5, 25.0, 25.0, 37.5]');
    expect(text).toContain('## Per benchmark');
    expect(text).toContain('AutoInject on `coder`: Pm = 0.8, Pe = 0.6');
    expect(text).toContain('<details><summary>11 units corrupted in 5 instance runs</summary>');
    expect(text.trimEnd().endsWith(`[this run's artifacts](${RUN_URL}#artifacts)`)).toBe(true);
  });

  it('a significant regression fails the gate and says why (golden)', () => {
    // Every pair the control passed is lost under the saboteur: 7 of 8, against 0 of 8 on main.
    const log = load('demo');
    log.instances = log.instances.map((r) =>
      r.variant === 'malicious' ? { ...r, outcome: 'failed' as const, result: 'failed: AssertionError' } : r,
    );
    const text = renderComment(log, options(log, mainHistory([0, 0, 1, 0]), { ...THRESHOLDS, maliciousDrop: { max: 0.1 } }));
    golden('comment-regression.md', text);
    wellFormed(text);
    expect(text).toContain(
      '**Gate: ❌ failed**: malicious-drop (0.875, allowed ≤ 0.1); regression malicious drop · autoinject (worse by 87.5 pts than the base, significant (p = 7.0e-4, under 0.05))',
    );
    expect(text).toMatch(
      /\| \*\*malicious drop · autoinject\*\* \| \+87\.5 pts .* \| ±0\.0 pts \| \+87\.5 pts \(p < 0\.001\) \| ≤ 10\.0 pts; .* \| ❌ \|/,
    );
  });

  it('a report too big for a comment is cut visibly, nothing left open, the link kept (golden)', () => {
    const log = load('demo');
    const long = (i: number, j: number) => `    value_${i}_${j} = compute(${'x + '.repeat(60)}1)  # ${'padding '.repeat(20)}`;
    log.instances = log.instances.map((r, i) =>
      r.variant !== 'malicious'
        ? r
        : {
            ...r,
            trace: {
              calls: r.trace.calls.map((c) =>
                c.corruption
                  ? {
                      ...c,
                      corruption: {
                        ...c.corruption,
                        units: Array.from({ length: 40 }, (_, j) => ({
                          index: j,
                          before: long(i, j),
                          after: long(i, j).replace('+', '-'),
                          rule: 'flip-arithmetic',
                        })),
                      },
                    }
                  : c,
              ),
            },
          },
    );
    const full = renderComment(log, options(log, mainHistory([2, 3]), THRESHOLDS, { maxChars: 10_000_000 }));
    expect(full.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT * 2);
    const text = renderComment(log, options(log, mainHistory([2, 3]), THRESHOLDS));
    golden('comment-huge.md', text);
    wellFormed(text);
    expect(text.length).toBeGreaterThan(COMMENT_BUDGET - 2_000);
    expect(text).toMatch(/✂️ \*\*The report was cut here\*\* \([\d,]+ more characters\) to stay under GitHub's limit of 65,536 characters/);
    // The headline survives the cut; the tail link too.
    expect(text).toContain('## Headline');
    expect(text.trimEnd().endsWith(`[this run's artifacts](${RUN_URL}#artifacts)`)).toBe(true);
  });

  it('hostile model text pings nobody, injects no HTML and breaks no table (golden)', () => {
    const log = load('hostile');
    log.model.model = 'evil`</code><img src=x onerror=alert(1)>@octocat|x';
    const history = mainHistory([1, 2]);
    history[1].runId = '<script>alert(1)</script>@admin';
    history[1].model.model = '@everyone <b>pwn</b>';
    const text = renderComment(
      log,
      options(log, history, THRESHOLDS, {
        notes: ['saboteur-data:history.json: entries[3] dropped: sha: <details><summary>@maintainer</summary> | broken'],
      }),
    );
    golden('comment-hostile.md', text);
    wellFormed(text);
    // Outside code (fences and code spans, which GitHub shows as text) nothing pings or renders.
    const outside = text.replace(/^(`{3,})[a-z]*\n[\s\S]*?\n\1$/gm, '');
    for (const line of outside.split('\n')) expect((line.match(/`/g) ?? []).length % 2).toBe(0);
    const prose = outside.replace(/`[^`\n]*`/g, '');
    expect(prose).not.toMatch(/@(octocat|everyone|maintainer|admin|someone)\b/);
    for (const tag of ['<script', '<img', '<b>', '</code>', '<summary>@']) expect(prose).not.toContain(tag);
    expect(outside.match(/<details>/g)?.length).toBe(outside.match(/<\/details>/g)?.length);
  });
});

describe('cutting Markdown', () => {
  it('closes an open fence and open details blocks at the cut', () => {
    const text = [
      '<details><summary>a</summary>',
      '',
      '````diff',
      ...Array.from({ length: 50 }, (_, i) => `- line ${i}`),
      '````',
      '',
      '</details>',
    ].join('\n');
    const cut = cutMarkdown(text, 300, (n) => `CUT ${n}`);
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut).toMatch(/- line \d+\n````\n\n<\/details>\n\nCUT \d+$/);
    expect(cutMarkdown('short', 300, () => 'CUT')).toBe('short');
  });
});
