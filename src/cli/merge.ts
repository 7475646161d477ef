/** `saboteur merge SHARD.json...`: the run logs of the shards of one run joined into one run log and report. */
import path from 'node:path';
import { lockOutDir } from '../run/out-lock.js';
import { writeRunFiles, type RunFiles } from '../run/assemble.js';
import { runVerdict } from '../run/verdict.js';
import { summaryLine } from '../report/markdown.js';
import { methodReportOf } from '../inject/registry.js';
import { expandRunLogPaths, mergeRunLogFiles } from '../run/merge-logs.js';
import { parseArgs, usageOf, UsageError, type FlagSpec } from './args.js';
import { EXIT, wantsHelp, type CliIo } from './io.js';
import { evaluateGate } from '../scoring/gate.js';

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
  const verdict = runVerdict({ files: written, frontEnd: 'merge', gate: evaluateGate(runLog, runLog.gate ?? {}) });
  if (verdict.showReport) {
    // The files are lost, the report is not: it goes to stderr (as `saboteur run` does).
    io.stderr.write(`\n${written.report}\n`);
  } else {
    io.stderr.write(
      `merged ${files.length} run logs, ${runLog.instances.length} instance runs\n${summaryLine(runLog, methodReportOf(runLog.variants.malicious.method))}\nrun log: ${written.runLogPath}\nreport: ${written.reportPath}\n`,
    );
  }
  for (const line of verdict.lines) io.stderr.write(`${line.level === 'warning' ? 'warning: ' : ''}${line.text}\n`);
  return verdict.exitCode;
}
