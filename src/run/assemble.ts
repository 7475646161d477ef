/**
 * The last phase of a run: the instance results in a stable order, the run log that holds them
 * with everything the report needs, and the two files written atomically and in chunks (a reader
 * never sees half a run log; a failed write names its file and leaves no temp file).
 */
import path from 'node:path';
import { createRedactor, secretValuesOf, type Redactor } from '../runlog/redact.js';
import type { Config } from '../config/load.js';
import type { BenchmarkSuite } from '../benchmarks/core/suite.js';
import type { Isolation } from '../sandbox/index.js';
import { RUN_LOG_VERSION, type InstanceResult, type RunLog, type SabotageProfile } from '../runlog/schema.js';
import { summarizeSabotage } from '../scoring/sabotage.js';
import { renderReport } from '../report/markdown.js';
import { methodReportOf } from '../inject/registry.js';
import { gateThresholdsOf } from '../scoring/gate.js';
import type { FenceInfo } from '../pipeline/fence.js';
import { writeErrorOf, writeFileAtomic, writeJsonAtomic, type OutputWriteError } from '../runlog/write.js';

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
  /** Set when SIGINT/SIGTERM cancelled the run ("cancelled by SIGTERM"): the run log is then `cancelled`. */
  cancelReason?: string;
  /** What fenced the pipeline in. */
  fence?: FenceInfo;
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
    status: facts.abortReason ? 'aborted' : facts.cancelReason ? 'cancelled' : 'completed',
    ...(facts.abortReason ? { abortReason: facts.abortReason } : facts.cancelReason ? { abortReason: facts.cancelReason } : {}),
    config: { file: path.relative(process.cwd(), config.file) || config.file, hash: config.hash, seed: config.sample.seed },
    ...(facts.git ? { git: facts.git } : {}),
    ...(facts.shard ? { shard: facts.shard } : {}),
    model: facts.model,
    pipeline: {
      mode: config.pipeline.mode,
      command: config.pipeline.mode === 'process' ? config.pipeline.run : (config.pipeline.serve ?? config.pipeline.url),
      concurrency: facts.concurrency ?? config.pipeline.concurrency,
      timeoutMs: config.pipeline.timeoutMs,
      ...(facts.fence ? { fence: { kind: facts.fence.kind, degraded: facts.fence.degraded, note: facts.fence.note } } : {}),
      ...(config.pipeline.secrets?.length ? { secrets: [...config.pipeline.secrets] } : {}),
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

export interface RunFiles {
  /** The run log as written: without the job's secrets and credentials of a known shape (runlog/redact.ts). */
  runLog: RunLog;
  runLogPath: string;
  reportPath: string;
  /** The report's text, whether or not report.md could be written. */
  report: string;
  /** Files that could not be written (a full disk, a read-only folder): each names its file. */
  writeErrors: OutputWriteError[];
}

/**
 * run.json and report.md in `outDir`; a file that cannot be written is reported, never thrown.
 * `redactor`: the run's (run/secrets.ts), which its live log shares; by default the job's secrets
 * and those the run log names (pipeline.secrets: a merge has no config), read from process.env.
 */
export async function writeRunFiles(outDir: string, unredacted: RunLog, redactor?: Redactor): Promise<RunFiles> {
  const redact = redactor ?? createRedactor(secretValuesOf(process.env, unredacted.pipeline.secrets ?? []));
  // Whatever way a secret got into the run (an answer, a trace, an error), it is not written, nor published.
  const runLog = redact.deep(unredacted);
  const runLogPath = path.join(outDir, 'run.json');
  const reportPath = path.join(outDir, 'report.md');
  const report = renderReport(runLog, { method: methodReportOf(runLog.variants.malicious.method) });
  const writeErrors: OutputWriteError[] = [];
  for (const [file, write] of [
    [runLogPath, () => writeJsonAtomic(runLogPath, runLog)],
    [reportPath, () => writeFileAtomic(reportPath, report)],
  ] as const) {
    try {
      await write();
    } catch (err) {
      writeErrors.push(writeErrorOf(file, err));
    }
  }
  return { runLog, runLogPath, reportPath, report, writeErrors };
}
