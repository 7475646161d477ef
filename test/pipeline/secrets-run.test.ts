/**
 * A real run (`saboteur run` built from the source, as a subprocess) with the job's secrets in
 * its environment and a pipeline that hunts for them through /proc, its ancestors, its inherited
 * descriptors and its own environment, four runs at a time: none of GITHUB_TOKEN, INPUT_*,
 * ACTIONS_*, HF_TOKEN or the model key turns up in what it found, in run.json or in report.md, and
 * no run can write into another's trace.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundled, repoRoot } from '../helpers/bundled.js';
import { parseRunLog } from '../../src/runlog/schema.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'saboteur-secrets-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const rand = () => randomBytes(16).toString('hex');

describe('a pipeline hunting for secrets', () => {
  it("finds none of the job's, the model's or saboteur's secrets, and no other run's key", async () => {
    const secrets: Record<string, string> = {
      GITHUB_TOKEN: `ghs_${rand()}`,
      GH_TOKEN: `gho_${rand()}`,
      'INPUT_GITHUB-TOKEN': `ghs_${rand()}`,
      INPUT_HF_TOKEN: `hf_${rand()}`,
      ACTIONS_RUNTIME_TOKEN: `rt-${rand()}`,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: `idt-${rand()}`,
      HF_TOKEN: `hf_${rand()}`,
      MODEL_API_KEY: `sk-${rand()}`,
      AWS_SECRET_ACCESS_KEY: rand(),
    };
    writeFileSync(path.join(dir, 'cassette.jsonl'), '{"match": {}, "response": {"content": "ok"}}\n');
    writeFileSync(
      path.join(dir, 'saboteur.yml'),
      `model: { kind: replay, cassette: cassette.jsonl, model: m, api-key-env: MODEL_API_KEY }
pipeline:
  run: node ${repoRoot}/fixtures/pipelines/secret-hunter.mjs
  cwd: ${repoRoot}
  concurrency: 4
  env: [HF_TOKEN, HUNT_MS, AWS_SECRET_ACCESS_KEY]
benchmarks:
  humaneval: { path: ${repoRoot}/fixtures/demo/problems.jsonl, limit: 2 }
`,
    );
    const out = path.join(dir, 'out');
    const cli = await bundled('cli');
    const { stderr } = await new Promise<{ stderr: string }>((resolve, reject) =>
      execFile(
        process.execPath,
        [cli, 'run', '--config', path.join(dir, 'saboteur.yml'), '--out', out],
        { env: { PATH: process.env.PATH, HOME: dir, HUNT_MS: '1500', ...secrets } },
        // The hunter answers with its loot, not code, so nothing is scored: exit 3 (README, exit codes).
        (err, _stdout, stderr) =>
          err?.code === 3 ? resolve({ stderr }) : reject(new Error(`exit ${err?.code ?? 0}, expected 3\n${stderr}`)),
      ),
    );
    expect(stderr).toMatch(/pipeline fence: bwrap/);
    expect(stderr).toMatch(
      /pipeline\.env lists HF_TOKEN, which looks like a secret: it is not passed to the pipeline; list it under pipeline\.secrets/,
    );
    const runJson = readFileSync(path.join(out, 'run.json'), 'utf8');
    const report = readFileSync(path.join(out, 'report.md'), 'utf8');
    const log = parseRunLog(runJson, 'run.json');
    expect(log.instances).toHaveLength(4);
    expect(log.pipeline.fence).toMatchObject({ kind: 'bwrap', degraded: false });

    const keys = new Set<string>();
    for (const r of log.instances) {
      const found = JSON.parse(r.output!.answer!) as { foreignKeys: string[]; foreignCalls: unknown[]; loot: string };
      // It really looked: its own environment and the processes of its namespace are in the loot.
      expect(found.loot).toContain('env SABOTEUR_TASK_FILE=');
      expect(found.loot).toMatch(/\/proc\/1\/cmdline/);
      for (const [name, value] of Object.entries(secrets)) expect([name, found.loot.includes(value)]).toEqual([name, false]);
      expect(found.foreignKeys).toEqual([]);
      expect(found.foreignCalls).toEqual([]);
      // Its trace holds its own call and nothing another run planted.
      const id = r.taskId ?? r.instanceId;
      expect(r.trace.calls.map((c) => c.request.messages?.[0]?.content)).toEqual([`call of ${id}`]);
      keys.add(id + r.variant);
    }
    expect(keys.size).toBe(4);
    for (const [name, value] of Object.entries(secrets)) {
      expect([name, runJson.includes(value), report.includes(value), stderr.includes(value)]).toEqual([name, false, false, false]);
    }
  }, 120_000);
});
