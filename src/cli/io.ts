/** What every command shares: the exit codes, the streams it writes to, its log, and reading a run log named on the command line. */
import { parseRunLog, type RunLog } from '../runlog/schema.js';
import { LIMITS, readInputText } from '../util/input-file.js';
import type { Log } from '../util/log.js';

/**
 * 0 success, 1 the run finished but its gate failed, 2 usage, config or input error, 3 infrastructure
 * failure (a run that stopped early or scored no instance among them); a cancelled run exits 130
 * (SIGINT) or 143 (SIGTERM).
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, infrastructure: 3 } as const;

export interface CliIo {
  /** Only `saboteur init` reads it, and only on a terminal. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WriteStream | { write(s: string): boolean; isTTY?: boolean };
  stderr: NodeJS.WriteStream | { write(s: string): boolean; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export function cliLog(io: CliIo, verbose: boolean): Log {
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

/** Reads and validates a run log: a regular file under the limit (InputFileError, exit 2, naming it), then its schema (RunLogError). */
export async function readRunLogFile(file: string): Promise<RunLog> {
  return parseRunLog(await readInputText(file, { what: 'the run log', maxBytes: LIMITS.runLog }), file);
}

/** `--help` anywhere: the usage on stdout, exit 0. */
export function wantsHelp(argv: readonly string[], usage: string, io: CliIo): boolean {
  if (!argv.includes('--help')) return false;
  io.stdout.write(`${usage}\n`);
  return true;
}
