/**
 * `saboteur init`: the files it writes load with the project's own config loader and pass the JSON
 * Schema, for every model kind and benchmark; the workflow holds what a pull-request run needs; it
 * asks on a terminal, takes flags, and refuses to overwrite without --force.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'yaml';
import { BENCHMARK_IDS } from '../../src/benchmarks/registry.js';
import { ACTION_REPOSITORY } from '../../src/cli/init.js';
import { main } from '../../src/cli/main.js';
import { parseConfig } from '../../src/config/load.js';
import { MODEL_KIND_IDS } from '../../src/model/registry.js';
import { VERSION } from '../../src/run/job.js';

const validate = new Ajv2020({ allErrors: true, validateFormats: false, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync('saboteur.schema.json', 'utf8')),
);

let root: string;
let n = 0;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'saboteur-init-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function repo(files: Record<string, string> = {}): Promise<string> {
  const dir = path.join(root, `repo-${++n}`);
  await mkdir(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) await writeFile(path.join(dir, f), text);
  return dir;
}

function cli(stdin?: PassThrough & { isTTY?: boolean }) {
  const out: string[] = [];
  const err: string[] = [];
  // Told of each write to stderr, where the questions go.
  let wake = () => {};
  const io = {
    stdin,
    stdout: { write: (s: string) => out.push(s) > 0 },
    stderr: {
      write: (s: string) => {
        err.push(s);
        wake();
        return true;
      },
    },
    env: {},
  };
  /** The questions asked so far (each prompt ends in `]: `). */
  const questions = () => err.filter((s) => s.endsWith(']: '));
  /** Resolves once the `n`th question has been asked. */
  const asked = async (n: number): Promise<void> => {
    while (questions().length < n) await new Promise<void>((resolve) => (wake = resolve));
  };
  return { run: (...argv: string[]) => main(['init', ...argv], io), out: () => out.join(''), err: () => err.join(''), questions, asked };
}

const written = (dir: string) => ({
  config: readFileSync(path.join(dir, 'saboteur.yml'), 'utf8'),
  workflow: readFileSync(path.join(dir, '.github', 'workflows', 'saboteur.yml'), 'utf8'),
});

describe('saboteur init --yes', () => {
  it('writes a config the loader and the schema accept, and the pull-request workflow', async () => {
    const dir = await repo({ 'requirements.txt': 'openai\n' });
    const c = cli();
    expect(await c.run('--yes', '--dir', dir)).toBe(0);
    const { config, workflow } = written(dir);
    expect(config.startsWith('# yaml-language-server: $schema=./node_modules/saboteur/saboteur.schema.json\n')).toBe(true);
    const loaded = parseConfig(config, path.join(dir, 'saboteur.yml'));
    expect(loaded.model.kind).toBe('vllm');
    expect(loaded.pipeline.run).toBe('python3 -m my_pipeline.run');
    expect(validate(parse(config))).toBe(true);
    // Every file its comments point at is in the installed package (package.json `files`).
    const pointed = [...config.matchAll(/node_modules\/saboteur\/(\S+\.(?:md|json))/g)].map((m) => m[1]);
    expect(pointed).toEqual(expect.arrayContaining(['docs/configuration.md', 'docs/pipeline-contract.md']));
    const shipped = (JSON.parse(readFileSync('package.json', 'utf8')) as { files: string[] }).files;
    for (const f of pointed) {
      expect([f, existsSync(f)]).toEqual([f, true]);
      expect([f, shipped.some((entry) => f === entry || (entry.endsWith('/') && f.startsWith(entry)))]).toEqual([f, true]);
    }

    const wf = parse(workflow) as Record<string, any>;
    expect(Object.keys(wf.on)).toContain('pull_request');
    expect(wf.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
    expect(wf.concurrency['cancel-in-progress']).toBe(true);
    const job = wf.jobs.robustness;
    expect(job.if).toContain('github.event.pull_request.head.repo.full_name == github.repository');
    expect(job['runs-on']).toEqual(['self-hosted', 'linux', 'gpu']);
    const steps = job.steps as { uses?: string; run?: string; with?: Record<string, string> }[];
    // npm ci installs saboteur (a devDependency) from the lockfile; then the pipeline's own install.
    expect(steps.filter((s) => s.run).map((s) => s.run)).toEqual(['npm ci', 'python3 -m pip install -r requirements.txt']);
    expect(steps.some((s) => s.uses?.startsWith('actions/setup-node@'))).toBe(true);
    // The action runs from the installed package, after the install.
    const at = steps.findIndex((s) => s.uses === './node_modules/saboteur');
    expect(at).toBeGreaterThan(steps.findIndex((s) => s.run === 'npm ci'));
    expect(steps[at].with).toMatchObject({ config: 'saboteur.yml', 'allow-fork-prs': 'false' });
    // The GitHub form only as a comment, pinned by a release's commit (a tag can move), with its real owner.
    expect(steps.filter((s) => s.uses?.includes('saboteur'))).toHaveLength(1);
    expect(workflow).toContain(`# uses: ${ACTION_REPOSITORY}@<40-hex commit SHA>`);
    expect(workflow).toContain(`git ls-remote https://github.com/${ACTION_REPOSITORY} refs/tags/v${VERSION}^{}`);
    expect(ACTION_REPOSITORY).toBe('saboteur/saboteur');
    expect(workflow).not.toMatch(/your-org|saboteur@v\d/);
  });

  it.each(MODEL_KIND_IDS)('model kind %s: the config loads and passes the schema', async (kind) => {
    const dir = await repo();
    expect(await cli().run('--yes', '--dir', dir, '--model-kind', kind, '--benchmarks', BENCHMARK_IDS.join(','))).toBe(0);
    const { config } = written(dir);
    const loaded = parseConfig(config, path.join(dir, 'saboteur.yml'));
    expect(loaded.model.kind).toBe(kind);
    expect(Object.keys(loaded.benchmarks).sort()).toEqual([...BENCHMARK_IDS].sort());
    expect(loaded.defenses).toEqual(['none', 'taint']);
    expect(validate(parse(config))).toBe(true);
  });

  it('keeps hostile answers as text: a command with quotes, colons and a # stays one YAML string', async () => {
    const dir = await repo();
    const run = `sh -c 'echo "a: b" # not a comment' ; x: [1]`;
    expect(await cli().run('--yes', '--dir', dir, '--run', run)).toBe(0);
    expect(parseConfig(written(dir).config, path.join(dir, 'saboteur.yml')).pipeline.run).toBe(run);
  });

  it('--action names a fork in the commented GitHub form; the step still runs the installed package', async () => {
    const dir = await repo({ 'package-lock.json': '{}' });
    expect(await cli().run('--yes', '--dir', dir, '--action', 'our-team/saboteur-fork')).toBe(0);
    const { workflow } = written(dir);
    expect(workflow).toContain('# uses: our-team/saboteur-fork@<40-hex commit SHA>');
    const steps = (parse(workflow) as any).jobs.robustness.steps as { uses?: string }[];
    expect(steps.filter((s) => s.uses?.includes('saboteur')).map((s) => s.uses)).toEqual(['./node_modules/saboteur']);
  });

  it('refuses answers it cannot write: a multi-line command, an unknown kind or benchmark, a bad label (exit 2, nothing written)', async () => {
    for (const bad of [
      ['--run', 'a\nb'],
      ['--model-kind', 'vllmm'],
      ['--benchmarks', 'humaneval,humanevil'],
      ['--runner-labels', 'gpu,"x"'],
      ['--action', 'not a repo'],
    ]) {
      const dir = await repo();
      const c = cli();
      expect(await c.run('--yes', '--dir', dir, ...bad)).toBe(2);
      expect(existsSync(path.join(dir, 'saboteur.yml'))).toBe(false);
    }
  });

  it('refuses to overwrite either file without --force, and overwrites both with it', async () => {
    const dir = await repo();
    await mkdir(path.join(dir, '.github', 'workflows'), { recursive: true });
    await writeFile(path.join(dir, '.github', 'workflows', 'saboteur.yml'), 'mine\n');
    const c = cli();
    expect(await c.run('--yes', '--dir', dir)).toBe(2);
    expect(c.err()).toContain('.github/workflows/saboteur.yml already exists; nothing written (--force overwrites)');
    expect(existsSync(path.join(dir, 'saboteur.yml'))).toBe(false);
    expect(await cli().run('--yes', '--force', '--dir', dir)).toBe(0);
    expect(await readFile(path.join(dir, '.github', 'workflows', 'saboteur.yml'), 'utf8')).toContain('name: saboteur');
  });
});

describe('saboteur init on a terminal', () => {
  it('asks for what no flag gave, an empty reply keeping the default', async () => {
    const dir = await repo({ 'package-lock.json': '{}' });
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const c = cli(stdin);
    const done = c.run('--dir', dir, '--model-kind', 'external');
    // Each reply once its question is on the screen, as someone at the terminal gives it.
    const replies = ['node agents/run.mjs', '', 'humaneval,asb', 'writer', 'gpu-a100'];
    for (const [i, reply] of replies.entries()) {
      await c.asked(i + 1);
      stdin.write(`${reply}\n`);
    }
    expect(await done).toBe(0);
    // run, model, benchmarks, target, runner labels (the model kind came as a flag).
    expect(c.questions().map((q) => q.slice(0, q.indexOf(' [')))).toEqual([
      'Command that runs your pipeline on one task',
      'Model',
      'Benchmarks (comma-separated)',
      'Agent to corrupt in the malicious variant',
      'Labels of the GPU runner (comma-separated)',
    ]);
    expect(c.err()).toContain('Command that runs your pipeline on one task [node pipeline.mjs]: ');
    expect(c.err()).not.toContain('Model server kind');
    const loaded = parseConfig(written(dir).config, path.join(dir, 'saboteur.yml'));
    expect(loaded.pipeline.run).toBe('node agents/run.mjs');
    expect(loaded.model.kind).toBe('external');
    expect(Object.keys(loaded.benchmarks).sort()).toEqual(['asb', 'humaneval']);
    expect(loaded.variants.malicious.target).toBe('writer');
    expect((parse(written(dir).workflow) as any).jobs.robustness['runs-on']).toEqual(['gpu-a100']);
    // The repository's own npm install installs saboteur too: one install step.
    const steps = (parse(written(dir).workflow) as any).jobs.robustness.steps as { run?: string }[];
    expect(steps.filter((s) => s.run).map((s) => s.run)).toEqual(['npm ci']);
  });
});
