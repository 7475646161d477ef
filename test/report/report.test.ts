import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseRunLog, RunLogError, type RunLog } from '../../src/runlog/schema.js';
import { renderReport as renderBare, type RenderOptions } from '../../src/report/markdown.js';
import { methodReportOf } from '../../src/inject/registry.js';
import { escapeInline, fenced } from '../../src/report/escape.js';
import { computeMetrics } from '../../src/scoring/metrics.js';

/** The report as the run renders it: with the run's method as its definition tells it. */
const renderReport = (log: RunLog, opts: RenderOptions = {}) =>
  renderBare(log, { method: methodReportOf(log.variants.malicious.method), ...opts });

// Golden files: UPDATE_GOLDEN=1 npm test -- test/report/report.test.ts rewrites them after a deliberate change.
function golden(name: string, text: string): void {
  const file = `fixtures/golden/${name}`;
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

const load = (name: string) => parseRunLog(readFileSync(`fixtures/runlogs/${name}.json`, 'utf8'), name);

describe('report', () => {
  it('renders the demo run (golden)', () => {
    golden('demo-report.md', renderReport(load('demo')));
  });

  it('renders an aborted run with a degraded sandbox, saying what happened (golden)', () => {
    const text = renderReport(load('aborted'));
    expect(text).toContain('The run stopped early: the model server stopped answering');
    expect(text).toContain('Sandbox degraded');
    expect(text).toContain('model-error');
    golden('aborted-report.md', text);
  });

  it('neutralises hostile model text (golden)', () => {
    const text = renderReport(load('hostile'));
    golden('hostile-report.md', text);
    expect(text).not.toMatch(/@(octocat|everyone|maintainer|admin|someone)\b/);
    // Outside code fences no model HTML survives; inside them it is shown as text, and no
    // fence can be closed early by the content (each diff line starts with - or +).
    const fences = [...text.matchAll(/^(`{3,})diff\n([\s\S]*?)\n\1$/gm)];
    expect(fences.length).toBeGreaterThan(0);
    for (const f of fences) for (const line of f[2].split('\n')) expect(line).toMatch(/^[-+] /);
    const outside = text.replace(/^(`{3,})diff\n[\s\S]*?\n\1$/gm, '');
    expect(outside).not.toContain('<script>');
    expect(outside).not.toContain('<img');
    expect(outside).not.toContain('<b>');
    // Only the report's own details tags open and close.
    expect(outside.match(/<details>/g)?.length).toBe(outside.match(/<\/details>/g)?.length);
    // Every table row keeps its column count.
    for (const block of text.split('\n\n')) {
      const rows = block.split('\n').filter((l) => l.startsWith('|'));
      if (rows.length < 2) continue;
      const cols = (l: string) => l.replace(/\\\|/g, '').split('|').length;
      for (const row of rows) expect(cols(row)).toBe(cols(rows[0]));
    }
  });

  it('computes the demo metrics from the run log alone', () => {
    const m = computeMetrics(load('demo')).overall;
    expect(m.control.passed).toBe(7);
    expect(m.malicious.passed).toBe(4);
    expect(m.drop.absolute).toBeCloseTo(3 / 8, 10);
    expect(m.drop.controlOnly).toBe(3);
    expect(m.drop.maliciousOnly).toBe(0);
    expect(m.drop.pValue).toBeCloseTo(0.25, 10);
    expect(m.corruption.corruptedMessages).toBeGreaterThan(0);
  });

  it('counts errors apart from failures', () => {
    const m = computeMetrics(load('aborted')).overall;
    expect(m.control.counts['model-error'] + m.malicious.counts['model-error']).toBe(2);
    expect(m.control.counts.skipped + m.malicious.counts.skipped).toBe(6);
    expect(m.control.scored + m.malicious.scored).toBe(8);
  });

  it('rejects a run log of another version or shape, naming the file and field', () => {
    expect(() => parseRunLog('{"schemaVersion": 99}', 'old.json')).toThrow('old.json: schemaVersion 99 is not supported');
    expect(() => parseRunLog('{"schemaVersion": 1, "runId": 3}', 'bad.json')).toThrow(/bad.json: not a valid run log:\n {2}runId/);
    expect(() => parseRunLog('nope', 'x.json')).toThrow(RunLogError);
  });
});

describe('escaping', () => {
  it('keeps inline text inert', () => {
    expect(escapeInline('a | b <i> @bob `x`\nnext')).toBe('a \\| b &lt;i&gt; @\u200bbob ˋxˋ ⏎ next');
  });
  it('makes fences the content cannot close', () => {
    const f = fenced('x ```` y');
    expect(f.startsWith('`````')).toBe(true);
    expect(f.endsWith('\n`````')).toBe(true);
  });
});
