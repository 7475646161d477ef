/**
 * (e) HumanEval scoring speed: the sandboxed scorer (warm judge/worker lanes, every isolation
 * property on) against the reference in reference-scorer.ts (one plain python3 per problem, no
 * sandbox), both on the same completions, the same number of lanes/threads, in the same process,
 * alternating, several rounds. The sandboxed figure includes starting its lanes. The completions:
 * 164 generated from the canonical solutions (generated-completions.ts, seed 1: a pass/fail mix
 * like a small code model's), or the recorded official results SABOTEUR_HUMANEVAL_RECORDED names.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  defaultDataDir,
  HUMANEVAL_DATA_PATH,
  loadHumanEval,
  scoreSamples,
  type HumanEvalResult,
  type HumanEvalSample,
} from '../src/benchmarks/humaneval/index.js';
import { detectIsolation } from '../src/sandbox/index.js';
import { generateCompletions } from './generated-completions.js';
import { RECORDED_ENV, readRecordedResults } from './recorded-results.js';
import { referenceScore } from './reference-scorer.js';

/** The seed of the bench's generated completions (fixed: every machine measures the same set). */
export const BENCH_SEED = 1;

/**
 * CPU (ms) of this process and everything it starts, sandboxes included: a cgroup v1 cpuacct group
 * of its own where the machine lets us make one (a sandbox's processes are not reaped by this
 * process, so /proc/self/stat's cutime would miss them). Undefined where it cannot.
 */
function cpuMeter(): (() => number) | undefined {
  const group = `/sys/fs/cgroup/cpuacct/saboteur-bench-${process.pid}`;
  try {
    if (!existsSync(group)) mkdirSync(group);
    writeFileSync(`${group}/cgroup.procs`, String(process.pid));
    return () => Number(readFileSync(`${group}/cpuacct.usage`, 'utf8')) / 1e6;
  } catch {
    return undefined;
  }
}

export interface ScorerRound {
  sandboxedMs: number;
  referenceMs: number;
  ratio: number;
  /** Undefined where no cpuacct group could be made. */
  sandboxedCpuMs?: number;
  referenceCpuMs?: number;
}

export interface ScorerFigures {
  /** What was scored, in words. */
  source: string;
  completions: number;
  lanes: number;
  isolation: string;
  rounds: ScorerRound[];
  median: ScorerRound;
  /** `recorded`: the official verdicts' count, when recorded results were scored. */
  passed: { sandboxed: number; reference: number; recorded?: number };
  /** Completions whose result string differs between the two (the same interpreter: none expected). */
  differ: string[];
}

async function timed(
  run: () => Promise<HumanEvalResult[]>,
  cpu: (() => number) | undefined,
): Promise<{ ms: number; cpuMs?: number; results: HumanEvalResult[] }> {
  const cpu0 = cpu?.();
  const t0 = performance.now();
  const results = await run();
  const ms = performance.now() - t0;
  return { ms, cpuMs: cpu && cpu0 !== undefined ? cpu() - cpu0 : undefined, results };
}

/** The generated completions, or the recorded results at `recordedPath` (a folder of *.jsonl or one file). */
function benchSamples(
  problems: Parameters<typeof generateCompletions>[0],
  recordedPath: string | undefined,
): { source: string; samples: HumanEvalSample[]; recordedPassed?: number } {
  if (!recordedPath) {
    const generated = generateCompletions(problems, BENCH_SEED);
    const kinds = new Map<string, number>();
    for (const g of generated) kinds.set(g.kind, (kinds.get(g.kind) ?? 0) + 1);
    const mix = [...kinds].map(([k, n]) => `${n} ${k}`).join(', ');
    return {
      source: `completions generated from the canonical solutions (seed ${BENCH_SEED}: ${mix})`,
      samples: generated.map(({ task_id, completion }) => ({ task_id, completion })),
    };
  }
  const files = readRecordedResults(recordedPath);
  const recorded = files.flatMap((f) => f.results);
  const known = new Set(problems.map((p) => p.task_id));
  const unknown = recorded.find((r) => !known.has(r.task_id));
  if (unknown) throw new Error(`${RECORDED_ENV}: task_id ${JSON.stringify(unknown.task_id)} is not a HumanEval problem`);
  return {
    source: `recorded completions (${files.map((f) => f.name).join(', ')})`,
    samples: recorded.map(({ task_id, completion }) => ({ task_id, completion })),
    recordedPassed: recorded.filter((r) => r.passed).length,
  };
}

export async function benchScorer(opts: { rounds: number; lanes: number; recordedPath?: string }): Promise<ScorerFigures> {
  const dataDir = defaultDataDir();
  if (!dataDir) throw new Error('bench scorer: no HumanEval data (set SABOTEUR_DATA_DIR to a data folder; saboteur data fetch fills one)');
  const { problems } = await loadHumanEval(path.join(dataDir, HUMANEVAL_DATA_PATH));
  const byId = new Map(problems.map((p) => [p.task_id, p]));
  const { source, samples, recordedPassed } = benchSamples(problems, opts.recordedPath);
  const isolation = await detectIsolation();
  const cpu = cpuMeter();

  const rounds: ScorerRound[] = [];
  let last: { sandboxed: HumanEvalResult[]; reference: HumanEvalResult[] } | undefined;
  for (let r = 0; r < opts.rounds; r++) {
    const sandboxed = () => timed(() => scoreSamples(samples, byId, { concurrency: opts.lanes, isolation }), cpu);
    const reference = () =>
      timed(() => referenceScore(samples, byId, { python: isolation.python, threads: opts.lanes, timeoutMs: 3000 }), cpu);
    // Alternate which goes first, so a machine that slows down or speeds up favours neither.
    let ref: Awaited<ReturnType<typeof reference>>;
    let sbx: Awaited<ReturnType<typeof sandboxed>>;
    if (r % 2 === 0) {
      ref = await reference();
      sbx = await sandboxed();
    } else {
      sbx = await sandboxed();
      ref = await reference();
    }
    rounds.push({ sandboxedMs: sbx.ms, referenceMs: ref.ms, ratio: sbx.ms / ref.ms, sandboxedCpuMs: sbx.cpuMs, referenceCpuMs: ref.cpuMs });
    last = { sandboxed: sbx.results, reference: ref.results };
  }
  const median = [...rounds].sort((x, y) => x.ratio - y.ratio)[Math.floor(rounds.length / 2)];
  const { sandboxed, reference } = last!;
  return {
    source,
    completions: samples.length,
    lanes: opts.lanes,
    isolation: isolation.kind + (isolation.degraded ? ' (degraded)' : ''),
    rounds,
    median,
    passed: {
      sandboxed: sandboxed.filter((x) => x.passed).length,
      reference: reference.filter((x) => x.passed).length,
      ...(recordedPassed !== undefined ? { recorded: recordedPassed } : {}),
    },
    differ: samples.flatMap((s, i) =>
      sandboxed[i].result === reference[i].result ? [] : [`${s.task_id}: ${sandboxed[i].result} | ${reference[i].result}`],
    ),
  };
}
