/**
 * The `saboteur` command line: the same code the action runs, for laptops and CI alike. One file
 * per command beside this one; here only the dispatch and the mapping of errors to exit codes:
 * 0 success, 1 the run finished but something failed (gate),
 * 2 usage or config error, 3 infrastructure failure (model server, pipeline start, a run that
 * stopped early or scored no instance).
 */
import { VERSION } from '../run/job.js';
import { InputError } from '../util/input-error.js';
import { compareCommand } from './compare.js';
import { dataCommand } from './data.js';
import { initCommand } from './init.js';
import { humanevalCommand } from './humaneval-score.js';
import { EXIT, type CliIo } from './io.js';
import { mergeCommand } from './merge.js';
import { policyCommand } from './policy.js';
import { dashboardCommand, historyCommand } from './history.js';
import { reportCommand } from './report.js';
import { runCommand } from './run.js';
import { validateCommand } from './validate.js';

export { EXIT, type CliIo } from './io.js';

const HELP = `saboteur ${VERSION}: robustness CI for multi-agent LLM pipelines

commands:
  saboteur init [--yes] [--force] [--run CMD] [--model-kind KIND] [--benchmarks LIST]
      write a commented saboteur.yml and the pull-request workflow for this repository
  saboteur run --config saboteur.yml [--out DIR] [--limit N] [--concurrency N] [--shard i/N]
      run the pipeline in the control and malicious variants; writes run.json and report.md
      (exit 1 when the gate of saboteur.yml fails, 3 when no instance could be scored)
  saboteur report RUN.json [--out FILE]
      render the report again from a run log
  saboteur merge SHARD.json... [--out DIR]
      join the run logs of the shards of one run (--shard i/N) into one run log and report
      (exit 1 when the gate fails)
  saboteur compare BASE.json HEAD.json [--out FILE] [--max-increase 0.03] [--significance 0.05]
      compare two run logs: headline figures side by side, regressions tested (exit 1 on one)
  saboteur history add RUN.json --store DIR [--sha SHA] [--branch NAME] [--pr N]
      add the run log to the history in DIR (history.json, one entry per commit)
  saboteur dashboard --store DIR [--out DIR]
      write the dashboard of the history in DIR (index.html)
  saboteur humaneval score SAMPLES.jsonl [--problems FILE] [--out RESULTS.jsonl] [--k 1,10]
      score HumanEval samples (task_id, completion) in the sandbox, official results format
  saboteur validate --trace FILE [--policy FILE] [--tools FILE] [--format md|json] [--explain]
      taint-validate a recorded trace offline (exit 1 when a sink would be blocked or is unverifiable);
      --explain shows, per sink, the request, where each argument came from, the labels and the decision
  saboteur policy suggest --trace FILE [--policy FILE] [--tools FILE] [--out FILE] [--format md|json]
      list every tool of a trace with what the validator infers it does and why; write a policy that
      pins each one (guesses from names or descriptions marked for review)
  saboteur data fetch|verify [BENCHMARK...] [--dir DIR]
      download the pinned benchmark files into the data folder and check their SHA-256
      (verify: exit 1 when a file is missing or differs)

saboteur COMMAND --help shows the options of a command.`;

const COMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<number>> = {
  run: runCommand,
  report: reportCommand,
  merge: mergeCommand,
  compare: compareCommand,
  humaneval: humanevalCommand,
  history: historyCommand,
  dashboard: dashboardCommand,
  validate: (argv, io) => validateCommand(argv, io.stdout),
  policy: policyCommand,
  data: dataCommand,
  init: initCommand,
};

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === 'version') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (command === undefined || command === '--help' || command === 'help') {
    io.stdout.write(`${HELP}\n`);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!handler) {
    io.stderr.write(`unknown command "${command}"\n\n${HELP}\n`);
    return EXIT.usage;
  }
  try {
    return await handler(rest, io);
  } catch (err) {
    io.stderr.write(`error: ${(err as Error).message}\n`);
    // What the user gave (arguments, config, run log, policy, trace, cassette, samples, an input file, a held --out).
    return err instanceof InputError ? EXIT.usage : EXIT.infrastructure;
  }
}
