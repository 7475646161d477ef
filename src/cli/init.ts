/**
 * `saboteur init`: writes saboteur.yml and .github/workflows/saboteur.yml for the repository it runs
 * in. On a terminal it asks for what no flag gave; `--yes` (or no terminal) takes the defaults. It
 * never overwrites a file without `--force`, and writes nothing when either file is in the way.
 */
import { existsSync } from 'node:fs';
import { makeDir } from '../util/make-dir.js';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { BenchmarkId } from '../benchmarks/registry.js';
import type { ModelKind } from '../model/registry.js';
import { VERSION } from '../run/job.js';
import { writeFileAtomic } from '../runlog/write.js';
import { parseArgs, usageOf, UsageError, type FlagSpec } from './args.js';
import { AnswerError, checkAnswers, guessFromFiles, type InitAnswers } from './init-answers.js';
import { renderConfig, renderWorkflow } from './init-files.js';
import { EXIT, wantsHelp, type CliIo } from './io.js';

/**
 * The action's repository on GitHub, for the workflow's commented alternative to the installed
 * package's action; --action names a fork or a mirror.
 */
export const ACTION_REPOSITORY = 'saboteur/saboteur';
const SCHEMA_REF = './node_modules/saboteur/saboteur.schema.json';

const FLAGS: FlagSpec = {
  run: { type: 'string', description: 'the command that runs the pipeline on one task' },
  'model-kind': {
    type: 'string',
    description: 'vllm, sglang, llamacpp, ollama, tgi, command, external, embedded, replay or reference (default vllm)',
  },
  model: { type: 'string', description: 'the model to serve (default Qwen/Qwen2.5-Coder-7B-Instruct)' },
  benchmarks: { type: 'string', description: 'comma-separated: humaneval, asb, agentharm, redcode, safearena (default humaneval)' },
  target: { type: 'string', description: 'the agent the malicious variant corrupts (default coder)' },
  'runner-labels': { type: 'string', description: 'comma-separated labels of the GPU runner (default self-hosted,linux,gpu)' },
  branch: { type: 'string', description: 'the default branch (default main)' },
  action: { type: 'string', description: `the action's GitHub repository, named in the workflow's comment (default ${ACTION_REPOSITORY})` },
  schema: { type: 'string', description: `where editors find the schema (default ${SCHEMA_REF})` },
  dir: { type: 'string', description: 'the repository to write into (default: the working directory)' },
  offline: {
    type: 'boolean',
    description: "no GPU, no model: the benchmark's own answers (model kind reference) and a first run small enough for a laptop",
  },
  yes: { type: 'boolean', description: 'take the defaults without asking' },
  force: { type: 'boolean', description: 'overwrite saboteur.yml and the workflow when they exist' },
};

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function defaults(dir: string): InitAnswers {
  const guess = guessFromFiles((f) => existsSync(path.join(dir, f)));
  return {
    run: guess.run,
    install: guess.install,
    modelKind: 'vllm',
    model: 'Qwen/Qwen2.5-Coder-7B-Instruct',
    benchmarks: ['humaneval'],
    target: 'coder',
    runnerLabels: ['self-hosted', 'linux', 'gpu'],
    action: ACTION_REPOSITORY,
    version: VERSION,
    branch: 'main',
  };
}

type Asked = { flag: string; question: string; get: (a: InitAnswers) => string; set: (a: InitAnswers, v: string) => void };
const QUESTIONS: Asked[] = [
  { flag: 'run', question: 'Command that runs your pipeline on one task', get: (a) => a.run, set: (a, v) => void (a.run = v) },
  { flag: 'model-kind', question: 'Model server kind', get: (a) => a.modelKind, set: (a, v) => void (a.modelKind = v as ModelKind) },
  { flag: 'model', question: 'Model', get: (a) => a.model, set: (a, v) => void (a.model = v) },
  {
    flag: 'benchmarks',
    question: 'Benchmarks (comma-separated)',
    get: (a) => a.benchmarks.join(','),
    set: (a, v) => void (a.benchmarks = list(v) as BenchmarkId[]),
  },
  { flag: 'target', question: 'Agent to corrupt in the malicious variant', get: (a) => a.target, set: (a, v) => void (a.target = v) },
  {
    flag: 'runner-labels',
    question: 'Labels of the GPU runner (comma-separated)',
    get: (a) => a.runnerLabels.join(','),
    set: (a, v) => void (a.runnerLabels = list(v)),
  },
];

/** One line per question from stdin; the prompt goes to stderr, so stdout stays the files' report. */
async function ask(answers: InitAnswers, open: Asked[], io: CliIo): Promise<void> {
  const rl = createInterface({ input: io.stdin as NodeJS.ReadableStream, terminal: false, crlfDelay: Infinity });
  const lines = rl[Symbol.asyncIterator]();
  try {
    for (const q of open) {
      io.stderr.write(`${q.question} [${q.get(answers)}]: `);
      const next = await lines.next();
      if (next.done) break;
      const reply = String(next.value).trim();
      if (reply) q.set(answers, reply);
    }
  } finally {
    rl.close();
  }
}

export async function initCommand(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf(
    'init [--yes] [--offline] [--force] [--run CMD] [--model-kind KIND] [--benchmarks LIST]',
    'Writes saboteur.yml and .github/workflows/saboteur.yml for this repository.',
    FLAGS,
  );
  if (wantsHelp(argv, usage, io)) return EXIT.ok;
  const { flags, positionals } = parseArgs(argv, FLAGS, usage);
  if (positionals.length) throw new UsageError(`init takes no arguments, got "${positionals[0]}"\n\n${usage}`);
  const dir = path.resolve((flags.dir as string | undefined) ?? process.cwd());
  const configFile = path.join(dir, 'saboteur.yml');
  const workflowFile = path.join(dir, '.github', 'workflows', 'saboteur.yml');
  const inTheWay = [configFile, workflowFile].filter((f) => existsSync(f));
  if (inTheWay.length && !flags.force) {
    throw new UsageError(
      `${inTheWay.map((f) => path.relative(dir, f)).join(' and ')} already ${inTheWay.length > 1 ? 'exist' : 'exists'}; nothing written (--force overwrites)`,
    );
  }

  const answers = defaults(dir);
  if (flags.offline) {
    if (flags['model-kind'] !== undefined && flags['model-kind'] !== 'reference')
      throw new UsageError(
        `--offline serves the benchmark's own answers (model kind reference); it cannot go with --model-kind ${String(flags['model-kind'])}\n\n${usage}`,
      );
    answers.modelKind = 'reference';
    answers.offline = true;
  }
  for (const q of QUESTIONS) if (typeof flags[q.flag] === 'string') q.set(answers, flags[q.flag] as string);
  if (flags.branch) answers.branch = flags.branch as string;
  if (flags.action) answers.action = flags.action as string;
  // Offline, the model kind is settled and there is no model to name.
  const open = QUESTIONS.filter(
    (q) => flags[q.flag] === undefined && !(answers.offline && (q.flag === 'model-kind' || q.flag === 'model')),
  );
  if (!flags.yes && open.length && io.stdin?.isTTY) await ask(answers, open, io);
  try {
    checkAnswers(answers);
  } catch (e) {
    if (e instanceof AnswerError) throw new UsageError(`${e.message}\n\n${usage}`);
    throw e;
  }

  await makeDir(path.dirname(workflowFile));
  await writeFileAtomic(configFile, renderConfig(answers, (flags.schema as string | undefined) ?? SCHEMA_REF));
  await writeFileAtomic(workflowFile, renderWorkflow(answers));
  io.stdout.write(
    [
      `wrote ${path.relative(process.cwd(), configFile) || configFile}`,
      `wrote ${path.relative(process.cwd(), workflowFile) || workflowFile}`,
      answers.offline
        ? "next: saboteur run (offline: the benchmark's own answers stand in for the model; name your agents under pipeline.agents)"
        : 'next: name your agents under pipeline.agents, then try it here: saboteur run --config saboteur.yml --limit 5',
      '',
    ].join('\n'),
  );
  return EXIT.ok;
}
