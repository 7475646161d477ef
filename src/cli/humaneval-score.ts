/**
 * `saboteur humaneval score`: the official `evaluate_functional_correctness` on a samples file,
 * with saboteur's sandbox. Reads `{task_id, completion}` lines, writes the official results lines
 * (the sample's fields plus `result` and `passed`), and logs pass@k.
 */
import { makeDir } from '../util/make-dir.js';
import { LIMITS, readInputBytes } from '../util/input-file.js';
import { writeFileAtomic } from '../runlog/write.js';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  decodeJsonl,
  JsonlError,
  loadHumanEval,
  parseJsonlObjects,
  resolveHumanEvalFile,
  scoreSamples,
  stringField,
  type HumanEvalProblem,
  type HumanEvalSample,
} from '../benchmarks/humaneval/index.js';
import { detectIsolation, type Isolation } from '../sandbox/index.js';
import { passAtKSummary } from '../scoring/passk.js';
import type { Log } from '../util/log.js';
import { parseArgs, usageOf, UsageError, type FlagSpec } from './args.js';
import { cliLog, EXIT, type CliIo } from './io.js';

export interface HumanevalScoreArgs {
  samples: string;
  /** Problems file; default: resolved like a run does (data folder, cache, download). */
  problems?: string;
  out: string;
  k?: number[];
  concurrency?: number;
  timeoutMs?: number;
  cacheDir?: string;
  /** Default: `detectIsolation()`. */
  isolation?: Isolation;
  log: Log;
}

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SABOTEUR_CACHE_DIR ? resolve(env.SABOTEUR_CACHE_DIR) : join(homedir(), '.cache', 'saboteur');
}

/** The samples with every field they had (the official results keep them), checked against the problems. */
export function parseSamples(
  text: string,
  file: string,
  problems: ReadonlyMap<string, HumanEvalProblem>,
): (HumanEvalSample & Record<string, unknown>)[] {
  const samples = parseJsonlObjects(text, file).map(({ line, value }) => {
    const task_id = stringField(value, 'task_id', file, line);
    const completion = stringField(value, 'completion', file, line);
    if (!problems.has(task_id)) {
      throw new JsonlError(`${file}:${line}: task_id ${JSON.stringify(task_id)} is not a problem of the problems file`);
    }
    return { ...value, task_id, completion };
  });
  if (samples.length === 0) throw new JsonlError(`${file}: holds no samples`);
  return samples;
}

export async function humanevalScore(
  args: HumanevalScoreArgs,
): Promise<{ passed: number; total: number; passAtK: Record<string, number> }> {
  const { log } = args;
  const ks = args.k ?? [1, 10, 100];
  const problemsFile = await resolveHumanEvalFile({ explicitPath: args.problems, cacheDir: args.cacheDir ?? defaultCacheDir(), log });
  const { problems, sha256, source } = await loadHumanEval(problemsFile);
  log.info(`HumanEval problems: ${source} (${problems.length} problems, sha256 ${sha256})`);
  const byId = new Map(problems.map((p) => [p.task_id, p]));

  const samplesPath = resolve(args.samples);
  const bytes = await readInputBytes(samplesPath, { what: 'the samples file', maxBytes: LIMITS.samples });
  const samples = parseSamples(decodeJsonl(bytes, samplesPath, LIMITS.samples), samplesPath, byId);
  const attempted = new Set(samples.map((s) => s.task_id)).size;
  if (attempted < problems.length) log.info(`Scoring ${attempted} of the ${problems.length} problems (only those with samples)`);

  const isolation = args.isolation ?? (await detectIsolation());
  if (isolation.degraded) log.warn(isolation.note);
  else log.info(`Sandbox: ${isolation.note}`);

  const concurrency = args.concurrency ?? 4;
  let lastShown = 0;
  const results = await scoreSamples(samples, byId, {
    concurrency,
    timeoutMs: args.timeoutMs,
    isolation,
    log,
    onProgress: (done, total) => {
      // About ten progress lines whatever the size.
      if (done === total || done - lastShown >= Math.max(1, Math.ceil(total / 10))) {
        lastShown = done;
        log.info(`scored ${done}/${total}`);
      }
    },
  });

  const outPath = resolve(args.out);
  await makeDir(dirname(outPath));
  const lines = results.map((r, i) => JSON.stringify({ ...samples[i], result: r.result, passed: r.passed }) + '\n');
  await writeFileAtomic(outPath, lines);

  const passed = results.filter((r) => r.passed).length;
  const passAtK = passAtKSummary(results, ks);
  const skipped = ks.filter((k) => !(`pass@${k}` in passAtK));
  log.info(`${passed}/${results.length} passed`);
  for (const [name, value] of Object.entries(passAtK)) log.info(`${name}: ${value.toFixed(4)}`);
  if (skipped.length) log.info(`not reported: ${skipped.map((k) => `pass@${k}`).join(', ')} (some problems have fewer samples than k)`);
  log.info(`results written to ${outPath}`);
  return { passed, total: results.length, passAtK };
}

const FLAGS: FlagSpec = {
  problems: { type: 'string', description: 'HumanEval.jsonl(.gz) (default: the data dir or the cache)' },
  out: { type: 'string', description: 'results file (default: SAMPLES_results.jsonl)' },
  k: { type: 'string', description: 'pass@k values, comma separated (default: 1,10,100)' },
  concurrency: { type: 'number', description: 'problems scored at once, each in a sandbox lane of its own (default: 4)' },
};

/** `saboteur humaneval score SAMPLES.jsonl`: exit 0 when samples were scored, 1 when none was. */
export async function humanevalCommand(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf(
    'humaneval score SAMPLES.jsonl [options]',
    'Scores HumanEval samples in the sandbox and writes the official results format.',
    FLAGS,
  );
  if (argv[0] !== 'score' || argv.includes('--help')) {
    io.stdout.write(`${usage}\n`);
    return argv[0] === 'score' ? EXIT.ok : EXIT.usage;
  }
  const { flags, positionals } = parseArgs(argv.slice(1), FLAGS, usage);
  if (positionals.length !== 1) throw new UsageError(`name one samples file\n\n${usage}`);
  const samples = positionals[0];
  const k = ((flags.k as string | undefined) ?? '1,10,100').split(',').map((s) => Number(s.trim()));
  if (k.some((x) => !Number.isInteger(x) || x < 1)) throw new UsageError(`--k must be whole numbers like 1,10,100, got "${flags.k}"`);
  const out = (flags.out as string | undefined) ?? `${samples.replace(/\.jsonl(\.gz)?$/, '')}_results.jsonl`;
  const result = await humanevalScore({
    samples,
    problems: flags.problems as string | undefined,
    out,
    k,
    concurrency: flags.concurrency as number | undefined,
    log: cliLog(io, false),
  });
  return result.total > 0 ? EXIT.ok : EXIT.failed;
}
