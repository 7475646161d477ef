/**
 * A pipeline that calls a route the proxy does not serve, through a real run: the call is on the
 * instance's trace, the run's notes and the report name the route, and nothing blames agent naming.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../src/config/load.js';
import { runJob } from '../../src/run/job.js';
import { memoryLog } from '../../src/util/log.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('a route the proxy does not serve', () => {
  it('is recorded on the instance and named in the notes and the report', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'saboteur-route-'));
    dirs.push(out);
    const text =
      'model:\n  kind: replay\n  cassette: cassette.jsonl\npipeline:\n  run: node ../pipelines/embeddings.mjs\nbenchmarks:\n  humaneval: { path: problems.jsonl, limit: 2 }\n';
    const log = memoryLog();
    const { runLog, reportPath } = await runJob(parseConfig(text, path.resolve('fixtures/demo/route-test.yml')), { outDir: out, log });
    expect(runLog.instances).toHaveLength(4);
    for (const r of runLog.instances) {
      expect(r.outcome).toBe('error');
      expect(r.trace.calls).toEqual([
        expect.objectContaining({ endpoint: 'unsupported', route: 'POST /v1/embeddings', status: 404, agent: 'retriever' }),
      ]);
    }
    expect(runLog.notes).toHaveLength(2);
    expect(runLog.notes[0]).toContain('POST /v1/embeddings (4 calls in 4 instance runs)');
    expect(runLog.notes[1]).toContain('no model call of the malicious runs reached a route the proxy serves');
    expect(runLog.notes.join('\n')).not.toContain('X-Saboteur-Agent');
    const report = await readFile(reportPath, 'utf8');
    expect(report).toContain('POST /v1/embeddings');
    // Warned once per route, not once per call.
    expect(log.lines.filter((l) => l.includes('has no route POST /v1/embeddings'))).toHaveLength(1);
  });
});
