/**
 * The `saboteur` command line: the same code the action runs, for laptops and CI alike.
 * Exit codes: 0 success, 1 the run finished but something failed (gate, aborted run),
 * 2 usage or config error, 3 infrastructure failure (model server, pipeline start).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, ConfigError } from '../config/load.js';
import { parseRunLog, RunLogError } from '../runlog/schema.js';
import { renderReport, summaryLine } from '../report/markdown.js';
import { runJob, VERSION } from '../run/job.js';
import { lineProgress, ttyProgress } from '../run/progress.js';
import { parseArgs, usageOf, UsageError, type FlagSpec } from './args.js';
import { humanevalScore } from './humaneval-score.js';
import { validateCommand } from './validate.js';
import { parseShardSpec } from '../benchmarks/sample.js';
import { PolicyError, TraceInputError } from '../taint/index.js';
import { expandRunLogPaths, mergeRunLogFiles } from '../runlog/merge.js';
import { compareRunLogs } from './compare.js';
import type { Log } from '../util/log.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, infrastructure: 3 } as const;

export interface CliIo {
  stdout: NodeJS.WriteStream | { write(s: string): boolean; isTTY?: boolean };
  stderr: NodeJS.WriteStream | { write(s: string): boolean; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

function cliLog(io: CliIo, verbose: boolean): Log {
  return {
    info: (m) => void io.stderr.write(`${m}\n`),
    warn: (m) => void io.stderr.write(`warning: ${m}\n`),
    debug: (m) => {
      if (verbose) io.stderr.write(`debug: ${m}\n`);
    },
    group: async (name, fn) => {
      io.stderr.write(`▸ ${name}\n`);
      return fn();
    },
  };
}

const RUN_FLAGS: FlagSpec = {
  config: { type: 'string', description: 'path of saboteur.yml (default: saboteur.yml)' },
  out: { type: 'string', description: 'folder for run.json and report.md (default: saboteur-out)' },
  limit: { type: 'number', description: 'at most this many instances per benchmark' },
  concurrency: { type: 'number', description: 'pipeline runs in flight (default: pipeline.concurrency)' },
  shard: { type: 'string', description: 'run one slice i/N of the instances, e.g. 2/8' },
  verbose: { type: 'boolean', description: 'print debug lines' },
};
const REPORT_FLAGS: FlagSpec = { out: { type: 'string', description: 'write the report here instead of stdout' } };
const MERGE_FLAGS: FlagSpec = {
  out: { type: 'string', description: 'folder for the merged run.json and report.md (default: saboteur-out)' },
  'run-id': { type: 'string', description: 'run id of the merged log (default: the first shard\'s, suffixed -merged)' },
};
const COMPARE_FLAGS: FlagSpec = {
  out: { type: 'string', description: 'write the comparison here instead of stdout' },
  'max-increase': { type: 'string', description: 'how much worse (0.03 = 3 points) a figure may get before it is a regression (default: 0.03)' },
  significance: { type: 'string', description: 'a regression must be significant at this level (default: 0.05)' },
};
const HUMANEVAL_FLAGS: FlagSpec = {
  problems: { type: 'string', description: 'HumanEval.jsonl(.gz) (default: the data dir or the cache)' },
  out: { type: 'string', description: 'results file (default: SAMPLES_results.jsonl)' },
  k: { type: 'string', description: 'pass@k values, comma separated (default: 1,10,100)' },
  concurrency: { type: 'number', description: 'sandboxed runs in parallel (default: the number of CPUs)' },
};

const HELP = `saboteur ${VERSION}: robustness CI for multi-agent LLM pipelines

commands:
  saboteur run --config saboteur.yml [--out DIR] [--limit N] [--concurrency N] [--shard i/N]
      run the pipeline in the control and malicious variants; writes run.json and report.md
  saboteur report RUN.json [--out FILE]
      render the report again from a run log
  saboteur merge SHARD.json... [--out DIR]
      join the run logs of the shards of one run (--shard i/N) into one run log and report
  saboteur compare BASE.json HEAD.json [--out FILE] [--max-increase 0.03] [--significance 0.05]
      compare two run logs: headline figures side by side, regressions tested (exit 1 on one)
  saboteur humaneval score SAMPLES.jsonl [--problems FILE] [--out RESULTS.jsonl] [--k 1,10]
      score HumanEval samples (task_id, completion) in the sandbox, official results format
  saboteur validate --trace FILE [--policy FILE] [--format md|json]
      taint-validate a recorded trace offline (exit 1 when a sink would be blocked or is unverifiable)

saboteur COMMAND --help shows the options of a command.`;

function parseShard(value: string | undefined): { index: number; count: number } | undefined {
  if (value === undefined) return undefined;
  const shard = parseShardSpec(value);
  if (!shard) throw new UsageError(`--shard must look like 2/8 (shard 2 of 8), got "${value}"`);
  return shard;
}

async function cmdRun(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf('run --config saboteur.yml [options]', 'Runs the pipeline in the control and malicious variants and writes run.json and report.md.', RUN_FLAGS);
  if (argv.includes('--help')) {
    io.stdout.write(`${usage}\n`);
    return EXIT.ok;
  }
  const { flags, positionals } = parseArgs(argv, RUN_FLAGS, usage);
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"\n\n${usage}`);
  const log = cliLog(io, flags.verbose === true);
  const config = await loadConfig((flags.config as string | undefined) ?? 'saboteur.yml');
  log.debug(`config: ${JSON.stringify(config)}`);
  const outDir = path.resolve((flags.out as string | undefined) ?? 'saboteur-out');
  const progress = io.stderr.isTTY ? ttyProgress(io.stderr as NodeJS.WriteStream) : lineProgress((l) => log.info(l));
  const { runLog } = await runJob(config, {
    outDir,
    log,
    progress,
    limit: flags.limit as number | undefined,
    concurrency: flags.concurrency as number | undefined,
    shard: parseShard(flags.shard as string | undefined),
    cacheDir: path.join(io.env.XDG_CACHE_HOME ?? path.join(io.env.HOME ?? outDir, '.cache'), 'saboteur'),
  });
  if (runLog.status === 'aborted') {
    log.warn(`the run stopped early: ${runLog.abortReason}`);
    return EXIT.infrastructure;
  }
  return EXIT.ok;
}

async function cmdReport(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf('report RUN.json [--out FILE]', 'Renders the Markdown report from a run log.', REPORT_FLAGS);
  if (argv.includes('--help')) {
    io.stdout.write(`${usage}\n`);
    return EXIT.ok;
  }
  const { flags, positionals } = parseArgs(argv, REPORT_FLAGS, usage);
  if (positionals.length !== 1) throw new UsageError(`name one run log\n\n${usage}`);
  const file = positionals[0];
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new RunLogError(`${file}: cannot read the run log (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const runLog = parseRunLog(text, file);
  const report = renderReport(runLog);
  if (flags.out) {
    await writeFile(flags.out as string, report);
    io.stderr.write(`${summaryLine(runLog)}\nreport: ${flags.out}\n`);
  } else {
    io.stdout.write(report);
  }
  return EXIT.ok;
}

async function cmdMerge(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf('merge SHARD.json... [--out DIR]', 'Joins the run logs of the shards of one run into one run log (run.json) and report (report.md).', MERGE_FLAGS);
  if (argv.includes('--help')) {
    io.stdout.write(`${usage}\n`);
    return EXIT.ok;
  }
  const { flags, positionals } = parseArgs(argv, MERGE_FLAGS, usage);
  if (positionals.length === 0) throw new UsageError(`name the shards' run logs\n\n${usage}`);
  const files = await expandRunLogPaths(positionals);
  const { runLog, warnings } = await mergeRunLogFiles(files, flags['run-id'] as string | undefined);
  for (const w of warnings) io.stderr.write(`warning: ${w}\n`);
  const outDir = path.resolve((flags.out as string | undefined) ?? 'saboteur-out');
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, 'run.json'), `${JSON.stringify(runLog, null, 2)}\n`);
  await writeFile(path.join(outDir, 'report.md'), renderReport(runLog));
  io.stderr.write(`merged ${files.length} run logs, ${runLog.instances.length} instance runs\n${summaryLine(runLog)}\nrun log: ${path.join(outDir, 'run.json')}\nreport: ${path.join(outDir, 'report.md')}\n`);
  return runLog.status === 'aborted' ? EXIT.failed : EXIT.ok;
}

function fraction(value: unknown, name: string, fallback: number, usage: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n >= 1) throw new UsageError(`--${name} must be a number between 0 and 1, got "${value}"\n\n${usage}`);
  return n;
}

async function cmdCompare(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf('compare BASE.json HEAD.json [options]', 'Compares two run logs: the headline figures of HEAD beside BASE, with the regression test.', COMPARE_FLAGS);
  if (argv.includes('--help')) {
    io.stdout.write(`${usage}\n`);
    return EXIT.ok;
  }
  const { flags, positionals } = parseArgs(argv, COMPARE_FLAGS, usage);
  if (positionals.length !== 2) throw new UsageError(`name two run logs: the base, then the head\n\n${usage}`);
  const settings = { maxIncrease: fraction(flags['max-increase'], 'max-increase', 0.03, usage), significance: fraction(flags.significance, 'significance', 0.05, usage) };
  const [base, head] = await Promise.all(
    positionals.map(async (file) => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new RunLogError(`${file}: cannot read the run log (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
      return { file, log: parseRunLog(text, file) };
    }),
  );
  const result = compareRunLogs(base, head, settings);
  if (flags.out) await writeFile(flags.out as string, result.text);
  else io.stdout.write(result.text);
  for (const r of result.regressions) io.stderr.write(`regression: ${r.metric}: ${r.why}\n`);
  return result.regressions.length ? EXIT.failed : EXIT.ok;
}

async function cmdHumaneval(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf('humaneval score SAMPLES.jsonl [options]', 'Scores HumanEval samples in the sandbox and writes the official results format.', HUMANEVAL_FLAGS);
  if (argv[0] !== 'score' || argv.includes('--help')) {
    io.stdout.write(`${usage}\n`);
    return argv[0] === 'score' ? EXIT.ok : EXIT.usage;
  }
  const { flags, positionals } = parseArgs(argv.slice(1), HUMANEVAL_FLAGS, usage);
  if (positionals.length !== 1) throw new UsageError(`name one samples file\n\n${usage}`);
  const samples = positionals[0];
  const k = ((flags.k as string | undefined) ?? '1,10,100').split(',').map((s) => Number(s.trim()));
  if (k.some((x) => !Number.isInteger(x) || x < 1)) throw new UsageError(`--k must be whole numbers like 1,10,100, got "${flags.k}"`);
  const out = (flags.out as string | undefined) ?? `${samples.replace(/\.jsonl(\.gz)?$/, '')}_results.jsonl`;
  const result = await humanevalScore({ samples, problems: flags.problems as string | undefined, out, k, concurrency: flags.concurrency as number | undefined, log: cliLog(io, false) });
  return result.total > 0 ? EXIT.ok : EXIT.failed;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'run':
        return await cmdRun(rest, io);
      case 'report':
        return await cmdReport(rest, io);
      case 'merge':
        return await cmdMerge(rest, io);
      case 'compare':
        return await cmdCompare(rest, io);
      case 'humaneval':
        return await cmdHumaneval(rest, io);
      case 'validate':
        return await validateCommand(rest, io.stdout);
      case '--version':
      case 'version':
        io.stdout.write(`${VERSION}\n`);
        return EXIT.ok;
      case undefined:
      case '--help':
      case 'help':
        io.stdout.write(`${HELP}\n`);
        return command === undefined ? EXIT.usage : EXIT.ok;
      default:
        io.stderr.write(`unknown command "${command}"\n\n${HELP}\n`);
        return EXIT.usage;
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError || err instanceof RunLogError || err instanceof PolicyError || err instanceof TraceInputError) {
      io.stderr.write(`error: ${err.message}\n`);
      return EXIT.usage;
    }
    io.stderr.write(`error: ${(err as Error).message}\n`);
    return EXIT.infrastructure;
  }
}
