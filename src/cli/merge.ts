/** `saboteur merge SHARD.json...`: the run logs of the shards of one run joined into one run log and report. */
import path from 'node:path';
import { lockOutDir } from '../run/out-lock.js';
import { writeRunFiles, type RunFiles } from '../run/assemble.js';
import { summaryLine } from '../report/markdown.js';
import { methodReportOf } from '../inject/registry.js';
import { expandRunLogPaths, mergeRunLogFiles } from '../runlog/merge.js';
import { parseArgs, usageOf, UsageError, type FlagSpec } from './args.js';
import { EXIT, gateExit, wantsHelp, type CliIo } from './io.js';
import { evaluateGate } from '../scoring/gate.js';
import { unscoredReason } from '../scoring/unscored.js';

const FLAGS: FlagSpec = {
  out: { type: 'string', description: 'folder for the merged run.json and report.md (default: saboteur-out)' },
  'run-id': { type: 'string', description: "run id of the merged log (default: the first shard's, suffixed -merged)" },
};

export async function mergeCommand(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf(
    'merge SHARD.json... [--out DIR]',
    'Joins the run logs of the shards of one run into one run log (run.json) and report (report.md).',
    FLAGS,
  );
  if (wantsHelp(argv, usage, io)) return EXIT.ok;
  const { flags, positionals } = parseArgs(argv, FLAGS, usage);
  if (positionals.length === 0) throw new UsageError(`name the shards' run logs\n\n${usage}`);
  const files = await expandRunLogPaths(positionals);
  const merged = await mergeRunLogFiles(files, flags['run-id'] as string | undefined);
  const warnings = merged.warnings;
  for (const w of warnings) io.stderr.write(`warning: ${w}\n`);
  const outDir = path.resolve((flags.out as string | undefined) ?? 'saboteur-out');
  const lock = await lockOutDir(outDir, 'merge');
  let written: RunFiles;
  try {
    written = await writeRunFiles(outDir, merged.runLog);
  } finally {
    await lock.release();
  }
  const runLog = written.runLog;
  if (written.writeErrors.length) {
    // The files are lost, the report is not: it goes to stderr (as `saboteur run` does).
    io.stderr.write(`\n${written.report}\n`);
    for (const e of written.writeErrors) io.stderr.write(`warning: ${e.message}\n`);
    return EXIT.infrastructure;
  }
  io.stderr.write(
    `merged ${files.length} run logs, ${runLog.instances.length} instance runs\n${summaryLine(runLog, methodReportOf(runLog.variants.malicious.method))}\nrun log: ${written.runLogPath}\nreport: ${written.reportPath}\n`,
  );
  // A shard that did not finish leaves the run's figures incomplete: not a gate verdict but the
  // infrastructure failure (or cancel) behind that shard, as `saboteur run` would have reported it.
  if (runLog.status !== 'completed') {
    io.stderr.write(`the merged run did not finish (${runLog.status}): ${runLog.abortReason ?? ''}\n`);
    return EXIT.infrastructure;
  }
  const unscored = unscoredReason(runLog);
  if (unscored) {
    io.stderr.write(`${unscored}; report.md says why for each instance run\n`);
    return EXIT.infrastructure;
  }
  return gateExit(evaluateGate(runLog, runLog.gate ?? {}), (l) => void io.stderr.write(`${l}\n`));
}
