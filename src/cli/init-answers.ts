/** What `saboteur init` asks, its defaults, and the checks on each answer (pure). */
import { BENCHMARK_IDS, type BenchmarkId } from '../benchmarks/registry.js';
import { MODEL_KIND_IDS, type ModelKind } from '../model/registry.js';
import { InputError } from '../util/input-error.js';

export interface InitAnswers {
  /** The command that runs the pipeline on one task. */
  run: string;
  modelKind: ModelKind;
  model: string;
  baseUrl?: string;
  cassette?: string;
  benchmarks: BenchmarkId[];
  /** The agent the malicious variant corrupts. */
  target: string;
  runnerLabels: string[];
  /** The action's repository, `owner/name`. */
  action: string;
  /** The release the workflow pins the action to. */
  version: string;
  /** The default branch (its runs keep the history). */
  branch: string;
  /** The workflow step that installs the pipeline's dependencies, when the repository shows one. */
  install?: string;
  /** `--offline`: model kind reference, and a first run small enough for a laptop. */
  offline?: boolean;
}

export const AGENTIC_DEFAULTS = { limit: 50 };
/** HumanEval tasks of an `--offline` config: a first run of a few minutes on a laptop's cores. */
export const OFFLINE_HUMANEVAL_LIMIT = 40;

/** What the repository's files suggest: a Python or a Node pipeline, and how its dependencies install. */
export function guessFromFiles(has: (file: string) => boolean): Pick<InitAnswers, 'run' | 'install'> {
  if (has('requirements.txt')) return { run: 'python3 -m my_pipeline.run', install: 'python3 -m pip install -r requirements.txt' };
  if (has('pyproject.toml')) return { run: 'python3 -m my_pipeline.run', install: 'python3 -m pip install .' };
  if (has('package-lock.json')) return { run: 'node pipeline.mjs', install: 'npm ci' };
  if (has('package.json')) return { run: 'node pipeline.mjs', install: 'npm install' };
  return { run: 'python3 -m my_pipeline.run' };
}

export class AnswerError extends InputError {}

const NAME = /^[A-Za-z0-9_.-]+$/;

/** Every answer checked: one line each, names from the registries, labels and the action's name in their GitHub form. */
export function checkAnswers(a: InitAnswers): InitAnswers {
  const fail = (what: string, value: string, rule: string) => {
    throw new AnswerError(`${what} "${value}" ${rule}`);
  };
  for (const [what, value] of [
    ['the pipeline command (--run)', a.run],
    ['the model (--model)', a.model],
    ['the install step', a.install ?? ''],
  ] as const) {
    if (/[\r\n\0]/.test(value)) fail(what, value, 'must be one line');
    if (value.length > 500) fail(what, value.slice(0, 40), 'is longer than 500 characters');
  }
  if (!a.run.trim()) fail('the pipeline command (--run)', a.run, 'is empty');
  if (!MODEL_KIND_IDS.includes(a.modelKind))
    fail('the model kind (--model-kind)', a.modelKind, `is not one of ${MODEL_KIND_IDS.join(', ')}`);
  if (!a.benchmarks.length) fail('the benchmarks (--benchmarks)', '', `name at least one of ${BENCHMARK_IDS.join(', ')}`);
  for (const b of a.benchmarks) if (!BENCHMARK_IDS.includes(b)) fail('the benchmark', b, `is not one of ${BENCHMARK_IDS.join(', ')}`);
  if (!NAME.test(a.target)) fail('the target agent (--target)', a.target, 'may hold only letters, digits, _ . -');
  if (!a.runnerLabels.length) fail('the runner labels (--runner-labels)', '', 'name at least one label');
  for (const l of a.runnerLabels) if (!NAME.test(l)) fail('the runner label', l, 'may hold only letters, digits, _ . -');
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(a.action)) fail('the action (--action)', a.action, 'is not owner/name');
  if (!/^[A-Za-z0-9_./-]+$/.test(a.branch)) fail('the default branch (--branch)', a.branch, 'is not a branch name');
  return a;
}
