/**
 * The last phase of a run: the instance results in a stable order, the run log that holds them
 * with everything the report needs, and the two files written atomically (a reader never sees
 * half a run log).
 */
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/load.js';
import type { BenchmarkSuite } from '../benchmarks/suite.js';
import type { Isolation } from '../sandbox/index.js';
import { RUN_LOG_VERSION, type InstanceResult, type RunLog, type SabotageProfile } from '../runlog/schema.js';
import { summarizeSabotage } from '../scoring/sabotage.js';
import { renderReport } from '../report/markdown.js';
import { gateThresholdsOf } from '../scoring/gate.js';

export const VERSION = '0.1.0';

/** The dataset's order, control before malicious, defenses as configured: whatever order runs finished in. */
export function sortResults(instances: InstanceResult[], suites: readonly BenchmarkSuite[], defenses: readonly string[]): void {
  const order = new Map<string, number>();
  suites.forEach((s, si) => s.instances.forEach((t, ti) => order.set(`${s.info.id}/${t.id}`, si * 1e6 + ti)));
  const defenseRank = (d: string) => defenses.indexOf(d);
  instances.sort(
    (a, b) =>
      (order.get(`${a.benchmark}/${a.instanceId}`) ?? 0) - (order.get(`${b.benchmark}/${b.instanceId}`) ?? 0) ||
      a.variant.localeCompare(b.variant) ||
      defenseRank(a.defense) - defenseRank(b.defense),
  );
}

export interface RunFacts {
  runId: string;
  startedAt: string;
  abortReason?: string;
  git?: RunLog['git'];
  shard?: { index: number; count: number };
  concurrency?: number;
  model: RunLog['model'];
  judge?: RunLog['judge'];
  isolation: Isolation;
  suites: readonly BenchmarkSuite[];
  instances: InstanceResult[];
  notes: string[];
  /** AutoTransform's profiles, original and rewrite. */
  profiles?: SabotageProfile[];
}

export function assembleRunLog(config: Config, facts: RunFacts): RunLog {
  const { isolation } = facts;
  return {
    schemaVersion: RUN_LOG_VERSION,
    runId: facts.runId,
    tool: { name: 'saboteur', version: VERSION },
    startedAt: facts.startedAt,
    finishedAt: new Date().toISOString(),
    status: facts.abortReason ? 'aborted' : 'completed',
    ...(facts.abortReason ? { abortReason: facts.abortReason } : {}),
    config: { file: path.relative(process.cwd(), config.file) || config.file, hash: config.hash, seed: config.sample.seed },
    ...(facts.git ? { git: facts.git } : {}),
    ...(facts.shard ? { shard: facts.shard } : {}),
    model: facts.model,
    pipeline: {
      mode: config.pipeline.mode,
      command: config.pipeline.mode === 'process' ? config.pipeline.run : config.pipeline.serve ?? config.pipeline.url,
      concurrency: facts.concurrency ?? config.pipeline.concurrency,
      timeoutMs: config.pipeline.timeoutMs,
    },
    variants: { malicious: { ...config.variants.malicious } },
    sabotage: summarizeSabotage(facts.instances, config.variants.malicious.method, facts.profiles),
    defenses: [...config.defenses],
    gate: gateThresholdsOf(config),
    sandbox: { isolation: isolation.kind, degraded: isolation.degraded, note: isolation.note },
    ...(facts.judge ? { judge: facts.judge } : {}),
    benchmarks: facts.suites.map((s) => s.info),
    instances: facts.instances,
    notes: facts.notes,
  };
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/** run.json and report.md in `outDir`. */
export async function writeRunFiles(outDir: string, runLog: RunLog): Promise<{ runLogPath: string; reportPath: string }> {
  const runLogPath = path.join(outDir, 'run.json');
  const reportPath = path.join(outDir, 'report.md');
  await writeAtomic(runLogPath, `${JSON.stringify(runLog, null, 2)}\n`);
  await writeAtomic(reportPath, renderReport(runLog));
  return { runLogPath, reportPath };
}
