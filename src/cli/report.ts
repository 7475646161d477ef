/** `saboteur report RUN.json`: the Markdown report again, from a run log alone. */
import { writeFileAtomic } from '../runlog/write.js';
import { renderReport, summaryLine } from '../report/markdown.js';
import { methodReportOf } from '../inject/registry.js';
import { parseArgs, usageOf, UsageError, type FlagSpec } from './args.js';
import { EXIT, readRunLogFile, wantsHelp, type CliIo } from './io.js';

const FLAGS: FlagSpec = { out: { type: 'string', description: 'write the report here instead of stdout' } };

export async function reportCommand(argv: string[], io: CliIo): Promise<number> {
  const usage = usageOf('report RUN.json [--out FILE]', 'Renders the Markdown report from a run log.', FLAGS);
  if (wantsHelp(argv, usage, io)) return EXIT.ok;
  const { flags, positionals } = parseArgs(argv, FLAGS, usage);
  if (positionals.length !== 1) throw new UsageError(`name one run log\n\n${usage}`);
  const runLog = await readRunLogFile(positionals[0]);
  const method = methodReportOf(runLog.variants.malicious.method);
  const report = renderReport(runLog, { method });
  if (flags.out) {
    await writeFileAtomic(flags.out as string, report);
    io.stderr.write(`${summaryLine(runLog, method)}\nreport: ${flags.out}\n`);
  } else {
    io.stdout.write(report);
  }
  return EXIT.ok;
}
