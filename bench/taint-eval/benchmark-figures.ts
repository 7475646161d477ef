/**
 * ASR and TCR of the four security benchmarks under `none` and `taint` (the built-in policy), on
 * the obedient pipeline's recorded runs: the figures printed beside the evaluation set by
 * `npm run bench -- taint`, so that a gain on one cannot hide a regression on the other.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { evaluateDefenses, type DefenseRow, type OfflineCase } from '../../src/taint/compare-offline.js';
import { createTaintDefense } from '../../src/defenses/taint-defense.js';
import { defaultPolicy } from '../../src/taint/policy.js';
import { releaseAll } from '../../src/defenses/release-all.js';
import { agentHarmCases, asbCases, hasBenchmarkData, redCodeCases, safeArenaCases } from './benchmark-cases.js';

export interface BenchmarkFigures {
  rows: DefenseRow[];
  /** Why a benchmark is missing (no data). */
  skipped: string[];
}

/** Records the benchmarks' runs (every AgentHarm test_public pair, 2 ASB pairs per agent and attack, 40 RedCode records, SafeArena's test tasks) and decides them under none and taint. */
export async function benchmarkFigures(
  dataDir: string | undefined,
  opts: { quick?: boolean; safeArenaDir?: string } = {},
): Promise<BenchmarkFigures> {
  const skipped: string[] = [];
  const cases: OfflineCase[] = [];
  if (hasBenchmarkData(dataDir)) {
    cases.push(...(await asbCases(dataDir, opts.quick ? 1 : 2)));
    cases.push(...(await agentHarmCases(dataDir, opts.quick ? 20 : 176, opts.quick ? 8 : 1)));
    cases.push(...(await redCodeCases(dataDir, opts.quick ? 8 : 40, opts.quick ? 7 : 3)));
  } else skipped.push(`ASB, AgentHarm, RedCode: no benchmark data under ${dataDir ?? '(SABOTEUR_DATA_DIR is not set)'}`);
  const sa = opts.safeArenaDir ?? path.resolve('fixtures/safearena');
  if (existsSync(path.join(sa, 'harm.json'))) cases.push(...(await safeArenaCases(sa)));
  else skipped.push(`SafeArena: no harm.json under ${sa}`);
  const policy = defaultPolicy();
  const { rows } = await evaluateDefenses(
    cases,
    { none: () => releaseAll, taint: (traceSoFar) => createTaintDefense({ policy, traceSoFar }) },
    { concurrency: 4 },
  );
  return { rows, skipped };
}
