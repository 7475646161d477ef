/**
 * The pull request and gate sections (README) and the history, shards and permissions sections
 * (docs/configuration.md) are copied into real
 * repositories: their workflows must be strict YAML using only inputs action.yml declares, with
 * the permissions the action needs, and their config snippets must load.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { parseDocument, parse as parseYaml } from 'yaml';
import { parseConfig } from '../../src/config/load.js';

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; if?: string };
type Job = {
  'runs-on': string | string[];
  steps: Step[];
  if?: string;
  needs?: string | string[];
  strategy?: { matrix: Record<string, unknown[]> };
};
type Workflow = { on?: Record<string, unknown>; permissions?: Record<string, string>; jobs: Record<string, Job> };

let readme: string;
let reference: string;
let action: { inputs: Record<string, unknown> };

const IN_README = new Set(['On pull requests', 'Gate']);

function section(title: string): string {
  const page = IN_README.has(title) ? readme : reference;
  const start = page.indexOf(`\n## ${title}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const next = page.indexOf('\n## ', start + 4);
  return page.slice(start, next < 0 ? undefined : next);
}

function strictYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  return doc.toJS();
}

const yamlBlocks = (text: string) => [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);

/** The steps that run the action: from the package `npm ci` installed, an earlier step of the same job. */
function saboteurSteps(w: Workflow): Step[] {
  return Object.values(w.jobs).flatMap((j) => {
    const ours = j.steps.filter((s) => /saboteur/.test(s.uses ?? ''));
    for (const step of ours) {
      expect(step.uses).toBe('./node_modules/saboteur');
      expect(j.steps.findIndex((s) => s.run?.startsWith('npm ci'))).toBeLessThan(j.steps.indexOf(step));
    }
    return ours;
  });
}

function checkInputs(step: Step): void {
  const declared = Object.keys(action.inputs);
  for (const [name, value] of Object.entries(step.with ?? {})) {
    expect(declared).toContain(name);
    expect(typeof value).toBe('string');
  }
}

beforeAll(async () => {
  readme = await readFile('README.md', 'utf8');
  reference = await readFile('docs/configuration.md', 'utf8');
  action = parseYaml(await readFile('action.yml', 'utf8'));
});

describe('README and docs/configuration.md: pull requests, gate, history, shards, permissions', () => {
  it('name no placeholder owner, and pin the action from GitHub only by a commit SHA, never a tag', () => {
    for (const page of [readme, reference]) {
      expect(page).not.toContain('your-org');
      expect(page).not.toMatch(/saboteur\/saboteur@(?!<)/);
    }
  });

  it('has the sections, linked from each other', () => {
    for (const title of ['On pull requests', 'Gate', 'History and dashboard', 'Shards', 'Permissions']) section(title);
    for (const anchor of ['#history-and-dashboard', '#permissions', '#shards'])
      expect(readme).toContain(`](docs/configuration.md${anchor})`);
  });

  it('the pull request workflow asks for the permissions the action needs and keeps the artifacts', () => {
    const blocks = yamlBlocks(section('On pull requests'));
    const workflow = strictYaml(blocks.find((b) => /^jobs:/m.test(b))!) as Workflow;
    expect(Object.keys(workflow.on!)).toEqual(['pull_request', 'push']);
    expect(workflow.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
    const [step] = saboteurSteps(workflow);
    checkInputs(step);
    const upload = Object.values(workflow.jobs)
      .flatMap((j) => j.steps)
      .find((s) => (s.uses ?? '').startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('always()');
    expect(upload?.with?.path).toBe(`${step.with?.['out-dir']}/`);
    // Every input in the table is declared.
    for (const m of section('On pull requests').matchAll(/^\| `([a-z-]+)` \|/gm)) expect(Object.keys(action.inputs)).toContain(m[1]);
  });

  it('the matrix workflow runs the shards, then one job merges them and publishes', () => {
    const workflow = strictYaml(yamlBlocks(section('Shards')).find((b) => /^jobs:/m.test(b))!) as Workflow;
    const { shard, report } = workflow.jobs;
    expect(shard.strategy?.matrix.shard).toEqual([1, 2, 3, 4]);
    const [shardStep, mergeStep] = saboteurSteps(workflow);
    checkInputs(shardStep);
    checkInputs(mergeStep);
    expect(shardStep.with?.shard).toBe('${{ matrix.shard }}/4');
    expect(shard.steps.find((s) => (s.uses ?? '').startsWith('actions/upload-artifact@'))?.if).toBe('always()');
    expect(report.needs).toBe('shard');
    expect(report.if).toContain('!cancelled()');
    expect(report.if).toContain('github.event.pull_request.head.repo.full_name == github.repository');
    expect(report.steps.find((s) => (s.uses ?? '').startsWith('actions/download-artifact@'))?.with).toEqual({
      pattern: 'saboteur-shard-*',
      path: 'shards',
    });
    expect(mergeStep.with?.['run-logs']).toBe('shards/*/run.json');
    expect(mergeStep.with?.shard).toBeUndefined();
  });

  it('the gate and history snippets load as saboteur.yml keys', () => {
    const head = 'model: { kind: replay, cassette: c.jsonl }\npipeline: { run: "true" }\nbenchmarks: { humaneval: {} }\n';
    const gate = parseConfig(head + yamlBlocks(section('Gate'))[0], 'saboteur.yml').gate;
    expect(gate).toEqual({
      maliciousDrop: { max: 0.1 },
      asr: { max: 0.15, defense: 'taint' },
      tcr: { min: 0.85, defense: 'taint' },
      regression: { maxIncrease: 0.03, significance: 0.05 },
      coverage: { maxLoss: 0.25 },
    });
    const history = parseConfig(head + yamlBlocks(section('History and dashboard'))[0], 'saboteur.yml').history;
    expect(history).toMatchObject({ store: 'branch', branch: 'saboteur-data', keep: 500 });
  });
});
