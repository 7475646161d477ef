/**
 * Real runs (the CLI in this process, the real proxy, the replay model server, the pipeline as a
 * fenced subprocess) of a pipeline whose coder dodges the corruption in the malicious variant:
 * with another agent's header, and with another agent's model alias. With the default gate (a
 * malicious-drop threshold, so the coverage check is on) each run fails the gate, and the report
 * says which signals disagreed and which one saboteur believed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { parseRunLog } from '../../src/runlog/schema.js';

const root = path.resolve('.');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'saboteur-dodge-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(name: string, dodge: string): { file: string; out: string } {
  const file = path.join(dir, `${name}.yml`);
  writeFileSync(
    file,
    `model: { kind: replay, cassette: ${root}/fixtures/demo/cassette.jsonl, model: demo-coder }
pipeline:
  run: DODGE=${dodge} node ${root}/fixtures/pipelines/dodge.mjs
  cwd: ${root}
  concurrency: 2
  agents:
    - { name: reviewer, match: { header: reviewer } }
    - { name: reviewer, match: { model: "review-*" } }
    - { name: coder, match: { system: "You are the coder" } }
benchmarks:
  humaneval: { path: ${root}/fixtures/demo/problems.jsonl, limit: 2 }
variants:
  malicious: { target: coder, message-rate: 1 }
gate:
  malicious-drop: { max: 0.5 }
`,
  );
  return { file, out: path.join(dir, `${name}-out`) };
}

describe('a pipeline that dodges the corruption', () => {
  for (const [dodge, signal] of [
    ['header', 'header'],
    ['alias', 'model'],
  ] as const) {
    it(`by ${dodge === 'header' ? "another agent's header" : "another agent's model alias"}: flagged in the report, and the default gate fails`, async () => {
      const { file, out } = config(dodge, dodge);
      let stderr = '';
      const io = { stdout: { write: () => true }, stderr: { write: (s: string) => ((stderr += s), true) }, env: process.env };
      const code = await main(['run', '--config', file, '--out', out], io);
      const log = parseRunLog(readFileSync(path.join(out, 'run.json'), 'utf8'), 'run.json');
      const malicious = log.instances.filter((r) => r.variant === 'malicious').flatMap((r) => r.trace.calls);
      expect(malicious.map((c) => [c.agent, c.agentSource, c.agentSignals])).toEqual(
        malicious.map(() => [
          'reviewer',
          signal,
          [
            { source: signal, agent: 'reviewer' },
            { source: 'system', agent: 'coder' },
          ],
        ]),
      );
      expect(log.gate?.coverage).toEqual({ maxLoss: 0.25 });
      const report = readFileSync(path.join(out, 'report.md'), 'utf8');
      expect(report).toContain('coverage of the target');
      expect(report).toMatch(/the target agent "coder" made no model calls in the malicious runs \(2 in the control runs\)/);
      expect(report).toContain(
        `agent identification disagreed on 2 calls: the first said ${signal} → "reviewer", system → "coder"; saboteur believed the ${signal} ("reviewer")`,
      );
      expect({ code, gate: /gate failed|❌ fail/.test(stderr + report) }).toEqual({ code: 1, gate: true });
    }, 180_000);
  }
});
