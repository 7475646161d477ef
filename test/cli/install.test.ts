/**
 * The package as a user gets it: fresh bundles (the action, the CLI and the demos' pipelines) packed
 * with `npm pack` (only what package.json's `files` names) and installed from the tarball alone into
 * an empty project: nothing else, so whatever the package needs at run time must be inside it. From
 * there: `saboteur --help`, `saboteur init`, the action as a runner starts `uses: ./node_modules/saboteur`,
 * both offline demos as the README and docs/benchmarks.md document them, and the README's first hour
 * (`init --yes --offline`, then `run`) on a team's own pipeline.
 *
 * One install serves every case. The two demos start together at the end of the install and run
 * beside the other cases (they mostly wait on their pipeline runs); their cases wait for them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { HUMANEVAL_DATA_PATH, defaultDataDir } from '../../src/benchmarks/humaneval/resolve.js';
import { parseConfig } from '../../src/config/load.js';
import { parseCommandFile } from '../helpers/action-process.js';
import { requireData } from '../helpers/benchmark-data.js';

const repoRoot = process.cwd();
const dataDir = defaultDataDir();
const hasData = dataDir !== undefined && ['asb', 'agentharm', 'redcode'].every((d) => existsSync(path.join(dataDir, d)));
requireData(hasData, 'install.test: the packaged security demo: no benchmark data');
const hasHumanEval = dataDir !== undefined && existsSync(path.join(dataDir, HUMANEVAL_DATA_PATH));
requireData(hasHumanEval, 'install.test: the first hour on HumanEval: no benchmark data');

/** The environment without what npm sets for the jest process (a prefix or a cache of its own would leak in). */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'NODE_OPTIONS'),
  );
  return { ...env, ...extra };
}

type Result = { code: number; stdout: string; stderr: string };

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeout = 240_000): Promise<Result> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let work: string;
let project: string;
/** The installed package: what `uses: ./node_modules/saboteur` names. */
let installed: string;
let tarFiles: string[];
let env: NodeJS.ProcessEnv;
let humanevalDemo: Promise<Result>;
let securityDemo: Promise<Result> | undefined;

const saboteur = (args: string[], timeout?: number) => run('npx', ['--no', '--', 'saboteur', ...args], project, env, timeout);

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'saboteur-install-'));
  env = cleanEnv({ XDG_CACHE_HOME: path.join(work, 'xdg-cache'), CI: 'true' });
  const stage = path.join(work, 'stage');
  // Every bundle fresh from src/ and fixtures/pipelines/ (the committed dist/ may lag behind until a build).
  const bundle = await run(process.execPath, ['scripts/bundle.mjs', '--outdir', path.join(stage, 'dist')], repoRoot, env);
  expect(bundle.stderr).toBe('');
  const listed = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], repoRoot, env);
  tarFiles = (JSON.parse(listed.stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
  for (const file of tarFiles.filter((f) => !f.startsWith('dist/'))) {
    await mkdir(path.dirname(path.join(stage, file)), { recursive: true });
    await copyFile(path.join(repoRoot, file), path.join(stage, file));
  }
  const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], stage, env);
  expect(packed.code).toBe(0);
  const tarball = path.join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0].filename);

  project = path.join(work, 'project');
  installed = path.join(project, 'node_modules', 'saboteur');
  await mkdir(project);
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'a-team-project', version: '1.0.0', private: true }));
  // The tarball and nothing else: the demos' pipelines carry their clients inside.
  const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project, env);
  expect(install.stderr.replace(/npm warn.*\n/gi, '')).toBe('');
  expect(install.code).toBe(0);
  expect(JSON.parse(await readFile(path.join(project, 'package-lock.json'), 'utf8')).packages).toEqual({
    '': expect.anything(),
    'node_modules/saboteur': expect.anything(),
  });

  humanevalDemo = saboteur(['run', '--config', 'node_modules/saboteur/fixtures/demo/saboteur.yml', '--out', 'saboteur-out']);
  if (hasData)
    securityDemo = saboteur(['run', '--config', 'node_modules/saboteur/fixtures/demo/security.yml', '--out', 'security-out'], 480_000);
}, 300_000);

afterAll(async () => {
  // A case that failed before awaiting its demo leaves it running; the folder goes once it ends.
  await Promise.all([humanevalDemo, securityDemo]);
  await rm(work, { recursive: true, force: true });
}, 480_000);

describe('the packed package', () => {
  it('holds the CLI, the action, their notices, the schema and both demos, and nothing of the sources or tests', () => {
    for (const f of [
      'bin/saboteur.js',
      'dist/cli.js',
      'action.yml',
      'dist/index.js',
      'dist/post.js',
      'dist/demo/chain.js',
      'dist/demo/agentic.js',
      'dist/licenses.txt',
      'saboteur.schema.json',
      'LICENSE',
      'README.md',
      'fixtures/demo/saboteur.yml',
      'fixtures/demo/security.yml',
      'prompts/autotransform.md',
      // What init's comments and the README link to.
      'docs/configuration.md',
      'docs/pipeline-contract.md',
    ])
      expect(tarFiles).toContain(f);
    expect(tarFiles.filter((f) => /^(src|test|bench|scripts)\//.test(f))).toEqual([]);
    // Each bundle's licence comments, in the file the bundle links, are in the package.
    for (const bundle of tarFiles.filter((f) => /^dist\/.*\.js$/.test(f))) {
      const legal = /For license information please see (\S+?\.LEGAL\.txt)/.exec(readFileSync(path.join(installed, bundle), 'utf8'));
      if (legal) expect([bundle, existsSync(path.join(installed, path.dirname(bundle), legal[1]))]).toEqual([bundle, true]);
    }
    // The licence of every bundled package, the demos' openai client and MCP SDK among them.
    const licenses = readFileSync(path.join(installed, 'dist', 'licenses.txt'), 'utf8');
    expect(licenses).toMatch(/^Third-party software bundled in dist\/index\.js, .*dist\/demo\/agentic\.js\n/);
    for (const name of ['openai', '@modelcontextprotocol/sdk'])
      expect(licenses).toMatch(new RegExp(`^${name.replace('/', '\\/')}@\\d+\\.\\d+\\.\\d+ \\(`, 'm'));
  });

  it('npx saboteur --help works in a project that never cloned saboteur', async () => {
    const r = await saboteur(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('saboteur init');
    expect(r.stdout).toContain('saboteur data fetch|verify');
  });

  it("saboteur init writes a config the loader accepts and a workflow that runs the installed package's action", async () => {
    const r = await saboteur(['init', '--yes']);
    expect(r.code).toBe(0);
    const config = readFileSync(path.join(project, 'saboteur.yml'), 'utf8');
    expect(parseConfig(config, path.join(project, 'saboteur.yml')).model.kind).toBe('vllm');
    const ref = /\$schema=(\S+)/.exec(config)![1];
    expect(existsSync(path.join(project, ref))).toBe(true);
    const workflow = readFileSync(path.join(project, '.github', 'workflows', 'saboteur.yml'), 'utf8');
    expect(workflow).not.toContain('your-org');
    const steps = (parseYaml(workflow) as { jobs: Record<string, { steps: { uses?: string; run?: string }[] }> }).jobs.robustness.steps;
    const action = steps.findIndex((s) => s.uses === './node_modules/saboteur');
    // The install that puts the action there comes first (this project has a lockfile: npm ci).
    expect(action).toBeGreaterThan(steps.findIndex((s) => s.run === 'npm ci'));
    expect(existsSync(path.join(project, 'node_modules', 'saboteur', 'action.yml'))).toBe(true);
    expect((await saboteur(['init', '--yes'])).code).toBe(2);
  });

  it('action.yml at node_modules/saboteur runs as a runner starts it: main, then post, from the installed files', async () => {
    // As GitHub resolves `uses: ./node_modules/saboteur`: action.yml in that folder, runs.main and
    // runs.post relative to it, every input with a default given as INPUT_*.
    const action = parseYaml(await readFile(path.join(installed, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { default?: string }>;
      runs: { using: string; main: string; post: string };
    };
    expect(action.runs.using).toBe('node24');
    const main = path.join(installed, action.runs.main);
    const post = path.join(installed, action.runs.post);
    for (const file of [main, post]) expect([file, existsSync(file)]).toEqual([file, true]);

    const runner = path.join(work, 'runner');
    await mkdir(runner);
    const files = Object.fromEntries(['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'GITHUB_STATE'].map((v) => [v, path.join(runner, v)]));
    await Promise.all(Object.values(files).map((f) => writeFile(f, '')));
    const inputs: Record<string, string> = {
      ...Object.fromEntries(Object.entries(action.inputs).flatMap(([k, v]) => (v.default === undefined ? [] : [[k, v.default]]))),
      'github-token': 'ghs_notarealtoken000000000000000000000',
      config: 'node_modules/saboteur/fixtures/demo/saboteur.yml',
      limit: '2',
      'out-dir': 'action-out',
      'fail-on-gate': 'false',
    };
    const runnerEnv = cleanEnv({
      ...files,
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
      GITHUB_WORKSPACE: project,
      GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_EVENT_NAME: 'push',
      RUNNER_TEMP: runner,
      CI: 'true',
    });
    const r = await run(process.execPath, [main], project, runnerEnv);
    expect(r.stderr + r.stdout).not.toMatch(/::error::/);
    expect(r.code).toBe(0);
    const outputs = parseCommandFile(await readFile(files.GITHUB_OUTPUT, 'utf8'));
    expect(outputs.gate).toMatch(/^(pass|fail)$/);
    expect(outputs['report-path']).toBe(path.join(project, 'action-out', 'report.md'));
    expect(readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8')).toContain('# saboteur report');

    // The post step gets main's saved state as STATE_* variables.
    const state = parseCommandFile(await readFile(files.GITHUB_STATE, 'utf8'));
    const stateEnv = Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v]));
    const p = await run(process.execPath, [post], project, { ...runnerEnv, ...stateEnv });
    expect(p.stderr + p.stdout).not.toMatch(/::(error|warning)::/);
    expect(p.code).toBe(0);
  }, 240_000);

  it('runs the HumanEval demo with nothing else installed: the gate fails as the README says (exit 1), run.json and report.md written', async () => {
    const r = await humanevalDemo;
    expect(r.stderr).toContain('gate: FAILED: malicious drop +62.5 pts (allowed ≤ +10.0 pts)');
    expect(r.code).toBe(1);
    expect(existsSync(path.join(project, 'saboteur-out', 'run.json'))).toBe(true);
    expect(readFileSync(path.join(project, 'saboteur-out', 'report.md'), 'utf8')).toContain('pass@1');
  }, 300_000);

  (hasHumanEval ? it : it.skip)(
    "the README's first hour: init --yes --offline, then run, on a team's own openai pipeline in an empty git repository",
    async () => {
      const team = path.join(work, 'team');
      await mkdir(path.join(team, 'node_modules'), { recursive: true });
      // A checkout others can pass: as root, the pipeline runs as a uid of its own.
      await chmod(team, 0o755);
      await writeFile(path.join(team, 'package.json'), JSON.stringify({ name: 'team', private: true, type: 'module' }));
      await copyFile(path.join(repoRoot, 'fixtures/team-pipeline/pipeline.mjs'), path.join(team, 'pipeline.mjs'));
      // The installed package, and the team's own client: a copy as `npm install openai` leaves it
      // (a link would lead to a folder the fence may hide: this clone's, when it lives under /tmp).
      await symlink(installed, path.join(team, 'node_modules', 'saboteur'));
      await cp(path.join(repoRoot, 'node_modules', 'openai'), path.join(team, 'node_modules', 'openai'), { recursive: true });
      expect((await run('git', ['init', '-q'], team, env)).code).toBe(0);
      const cli = path.join(team, 'node_modules', 'saboteur', 'bin', 'saboteur.js');
      const init = await run(process.execPath, [cli, 'init', '--yes', '--offline', '--run', 'node pipeline.mjs'], team, env);
      expect(init.code).toBe(0);
      // A few tasks keep the case short; the config's own 40 are what the README times.
      const r = await run(process.execPath, [cli, 'run', '--limit', '4'], team, env);
      if (r.code !== 0 && r.code !== 1) throw new Error(`saboteur run exited ${r.code}:\n${r.stderr.slice(-3000)}`);
      expect(r.stderr).toMatch(/^pass@1 control 100\.0% \(4\/4\)/m);
      expect(r.stderr).toMatch(r.code === 0 ? /^gate: passed$/m : /^gate: FAILED: malicious drop/m);
      // Then into the history, in the team's repository, with no --sha.
      const git = (...args: string[]) => run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], team, env);
      expect((await git('add', 'pipeline.mjs')).code).toBe(0);
      expect((await git('commit', '-qm', 'pipeline')).code).toBe(0);
      const added = await run(process.execPath, [cli, 'history', 'add', 'saboteur-out/run.json', '--store', 'history'], team, env);
      expect(added.code).toBe(0);
      expect(existsSync(path.join(team, 'history', 'history.json'))).toBe(true);
    },
    240_000,
  );

  it('data fetch with no road to the data names SABOTEUR_DATA_DIR and keeps the failures short (exit 3)', async () => {
    // A closed port stands in for an unreachable upstream.
    const r = await saboteur(['data', 'fetch', 'humaneval', 'asb', '--dir', path.join(work, 'no-data'), '--mirror', 'http://127.0.0.1:9/']);
    expect(r.code).toBe(3);
    // Five failures named for a benchmark of many files, the rest counted.
    expect(r.stdout.match(/^ {2}failed: asb\//gm)).toHaveLength(5);
    expect(r.stdout).toMatch(/^ {2}… and \d+ more failed$/m);
    expect(r.stderr).toContain('point SABOTEUR_DATA_DIR (or --dir) at it');
  });

  (hasData ? it : it.skip)(
    'runs the security demo with nothing else installed: no defense and the taint validator side by side, exit 0 (no gate)',
    async () => {
      const r = await securityDemo!;
      expect(r.stderr).toContain('replay: 349 answered, 0 cassette misses');
      expect(r.code).toBe(0);
      const runLog = JSON.parse(readFileSync(path.join(project, 'security-out', 'run.json'), 'utf8')) as {
        status: string;
        sandbox: { isolation: string };
        instances: { defense: string }[];
      };
      expect(runLog.status).toBe('completed');
      expect([...new Set(runLog.instances.map((i) => i.defense))].sort()).toEqual(['none', 'taint']);
      // docs/benchmarks.md's figures; without bubblewrap RedCode's code does not run, and its cases go ungraded.
      const figures = /^ASR \(none\) .* \(\d+\/\d+\), TCR .*; ASR \(taint\) .*$/m.exec(r.stderr)?.[0];
      if (runLog.sandbox.isolation === 'bwrap')
        expect(figures).toBe('ASR (none) 50.0% (10/20), TCR 88.2% (15/17); ASR (taint) 15.0% (3/20), TCR 64.7% (11/17)');
      else expect(figures).toBeDefined();
      expect(readFileSync(path.join(project, 'security-out', 'report.md'), 'utf8')).toContain('| ASR (taint) |');
    },
    480_000,
  );
});
