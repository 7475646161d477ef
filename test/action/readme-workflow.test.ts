/**
 * docs/models.md's "Running on a self-hosted GPU runner" section is copied into real repositories:
 * its workflow must be valid YAML that uses only inputs action.yml declares, its config must load,
 * and the config reference (docs/configuration.md) must document every model key the schema accepts.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { parseDocument, parse as parseYaml } from 'yaml';
import { parseConfig } from '../../src/config/load.js';
import { configFileSchema, MODEL_KINDS } from '../../src/config/schema.js';

const SECTION = '## Running on a self-hosted GPU runner';
let readme: string;
let reference: string;
let section: string;
let blocks: string[];
let action: { inputs: Record<string, unknown>; runs: Record<string, string> };

/** The section's ```yaml blocks, in order. */
function yamlBlocks(text: string): string[] {
  return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Parses YAML strictly: duplicate keys and syntax errors fail, as GitHub would refuse them. */
function strictYaml(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  expect(doc.warnings.map((e) => e.message)).toEqual([]);
  return doc.toJS();
}

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, unknown>; if?: string; name?: string };
type Workflow = { on: Record<string, unknown>; jobs: Record<string, { 'runs-on': string | string[]; steps: Step[]; if?: string }> };

beforeAll(async () => {
  readme = await readFile('docs/models.md', 'utf8');
  reference = await readFile('docs/configuration.md', 'utf8');
  const start = readme.indexOf(SECTION);
  expect(start).toBeGreaterThanOrEqual(0);
  const next = readme.indexOf('\n## ', start + SECTION.length);
  section = readme.slice(start, next < 0 ? undefined : next);
  blocks = yamlBlocks(section);
  action = parseYaml(await readFile('action.yml', 'utf8'));
});

describe('the GPU runner workflow (docs/models.md)', () => {
  let workflow: Workflow;
  let saboteurStep: Step;

  beforeAll(() => {
    const text = blocks.find((b) => /^jobs:/m.test(b));
    expect(text).toBeDefined();
    workflow = strictYaml(text!) as Workflow;
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    // The action from the package npm ci installed (a devDependency), after that install.
    const ours = steps.filter((s) => s.uses === './node_modules/saboteur');
    expect(ours).toHaveLength(1);
    saboteurStep = ours[0];
    expect(steps.findIndex((s) => s.run === 'npm ci')).toBeLessThan(steps.indexOf(saboteurStep));
    expect(text).not.toContain('your-org');
  });

  it('is valid YAML with triggers and a job on a self-hosted GPU runner', () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['pull_request']));
    const jobs = Object.values(workflow.jobs);
    expect(jobs).toHaveLength(1);
    const runsOn = ([] as string[]).concat(jobs[0]['runs-on']);
    expect(runsOn).toEqual(expect.arrayContaining(['self-hosted', 'gpu']));
    expect(jobs[0].if).toContain('github.event.pull_request.head.repo.full_name == github.repository');
    for (const step of jobs[0].steps) expect(step.uses !== undefined || step.run !== undefined).toBe(true);
  });

  it('uses only inputs that action.yml declares, as strings', () => {
    const declared = Object.keys(action.inputs);
    const used = Object.keys(saboteurStep.with ?? {});
    expect(used.length).toBeGreaterThan(0);
    for (const input of used) expect(declared).toContain(input);
    for (const value of Object.values(saboteurStep.with ?? {})) expect(typeof value).toBe('string');
    const kind = saboteurStep.with?.['model-kind'];
    if (kind !== undefined) expect(MODEL_KINDS).toContain(kind);
  });

  it('keeps the artifacts even when the run fails, and gives the token only to the saboteur step', () => {
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    const upload = steps.find((s) => (s.uses ?? '').startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('always()');
    expect(upload?.with?.path).toBe(`${saboteurStep.with?.['out-dir']}/`);
    for (const s of steps) if (s !== saboteurStep) expect(JSON.stringify(s.env ?? {})).not.toContain('secrets.');
  });

  it('comes with a saboteur.yml that loads, for the kind the workflow names', () => {
    const text = blocks.find((b) => /^model:/m.test(b) && /^pipeline:/m.test(b));
    expect(text).toBeDefined();
    strictYaml(text!);
    const config = parseConfig(text!, 'saboteur.yml');
    expect(config.model.kind).toBe(saboteurStep.with?.['model-kind'] ?? config.model.kind);
    expect(config.model.kind).toBe('vllm');
    expect(config.model.startupTimeoutMs).toBe(20 * 60_000);
  });
});

describe('the config reference (docs/configuration.md)', () => {
  it('documents every model key the schema accepts', () => {
    const keys = Object.keys((configFileSchema.in.shape.model.in as unknown as { shape: Record<string, unknown> }).shape);
    expect(keys.length).toBeGreaterThan(10);
    const missing = keys.filter((k) => !reference.includes(`\`model.${k}\``));
    expect(missing).toEqual([]);
  });

  it('lists every server kind in the GPU runner section', () => {
    for (const kind of MODEL_KINDS.filter((k) => k !== 'replay')) expect(section).toContain(`| \`${kind}\` |`);
  });
});
