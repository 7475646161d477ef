/**
 * The first hour on a team's own pipeline: in a fresh git repository holding a two-agent pipeline
 * written against the real `openai` client (fixtures/team-pipeline/pipeline.mjs), `saboteur init --yes --offline` and then `saboteur run`
 * (the CLI bundled from the source, as subprocesses) give a gated result with no GPU, no model and
 * no cassette: the reference model answers, the control passes, the corrupted coder's cost shows.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { bundled, repoRoot } from '../helpers/bundled.js';
import { requireData } from '../helpers/benchmark-data.js';
import { parseRunLog } from '../../src/runlog/schema.js';
import { HUMANEVAL_DATA_PATH } from '../../src/benchmarks/humaneval/index.js';

const dataDir = process.env.SABOTEUR_DATA_DIR;
const hasData = requireData(
  !!dataDir && existsSync(path.resolve(dataDir, HUMANEVAL_DATA_PATH)),
  `init-offline.test: no HumanEval under ${dataDir ?? '(SABOTEUR_DATA_DIR is not set)'}`,
);

function cli(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return bundled('cli').then(
    (entry) =>
      new Promise((resolve) => {
        const env = { PATH: process.env.PATH, HOME: cwd, TMPDIR: process.env.TMPDIR, SABOTEUR_DATA_DIR: dataDir, CI: 'true' };
        execFile(process.execPath, [entry, ...args], { cwd, env, maxBuffer: 32 << 20 }, (err, stdout, stderr) =>
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
        );
      }),
  );
}

let repo: string;
beforeAll(async () => {
  repo = await mkdtemp(path.join(tmpdir(), 'saboteur-first-hour-'));
  // A checkout others can pass: as root, the pipeline runs as a uid of its own.
  await chmod(repo, 0o755);
  await writeFile(path.join(repo, 'package.json'), JSON.stringify({ name: 'team-pipeline', private: true, type: 'module' }));
  await copyFile(path.join(repoRoot, 'fixtures/team-pipeline/pipeline.mjs'), path.join(repo, 'pipeline.mjs'));
  // The team's own dependency, a copy as `npm install openai` leaves it (a link would lead out of
  // the repository, to a folder the fence may hide: this clone's, when it lives under /tmp).
  await cp(path.join(repoRoot, 'node_modules', 'openai'), path.join(repo, 'node_modules', 'openai'), { recursive: true });
  await new Promise((resolve, reject) => execFile('git', ['init', '-q', repo], (err) => (err ? reject(err) : resolve(undefined))));
});
afterAll(() => rm(repo, { recursive: true, force: true }));

describe('saboteur init --offline', () => {
  it('refuses --offline with another model kind (exit 2, nothing written)', async () => {
    const res = await cli(['init', '--yes', '--offline', '--model-kind', 'vllm', '--run', 'node pipeline.mjs'], repo);
    expect(res.code).toBe(2);
    expect(res.output).toMatch(
      /--offline serves the benchmark's own answers \(model kind reference\); it cannot go with --model-kind vllm/,
    );
    expect(existsSync(path.join(repo, 'saboteur.yml'))).toBe(false);
  }, 60_000);

  (hasData ? it : it.skip)(
    'then saboteur run: a gated result on the team pipeline with no model, the control passing',
    async () => {
      const init = await cli(['init', '--yes', '--offline', '--run', 'node pipeline.mjs'], repo);
      expect(init).toMatchObject({ code: 0 });
      expect(init.output).toMatch(/next: saboteur run \(offline/);
      const config = parse(readFileSync(path.join(repo, 'saboteur.yml'), 'utf8')) as {
        model: { kind: string };
        benchmarks: { humaneval: { limit: number } };
      };
      expect(config.model.kind).toBe('reference');
      expect(config.benchmarks.humaneval.limit).toBe(40);

      // A few tasks keep the test short; the config's own 40 are the first hour's run.
      const run = await cli(['run', '--limit', '6'], repo);
      if (run.code !== 0 && run.code !== 1) throw new Error(`saboteur run exited ${run.code}:\n${run.output.slice(-3000)}`);
      expect(run.output).toMatch(
        /reference: \d+ calls answered with a reference answer, \d+ passed an earlier agent's answer on, 0 echoed/,
      );
      const log = parseRunLog(readFileSync(path.join(repo, 'saboteur-out', 'run.json'), 'utf8'), 'run.json');
      const control = log.instances.filter((r) => r.variant === 'control');
      expect(control).toHaveLength(6);
      expect(control.every((r) => r.outcome === 'passed')).toBe(true);
      // The gate judged the drop: exit 0 when it passed, 1 when it failed.
      expect(run.output).toMatch(run.code === 0 ? /^gate: passed$/m : /^gate: FAILED: malicious drop/m);
    },
    240_000,
  );
});
