/**
 * Reading an input file (a config, a policy, a cassette, samples, a problems file, a run log, a
 * trace) with bounds (README "Security": bounded inputs): it must be a regular file (not
 * /dev/zero, a FIFO or a folder) of at most a documented size, read without ever holding more
 * than that, and what goes wrong is said with the file and the limit, never with its content.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';

const MIB = 1024 * 1024;

/** The size limits of each kind of input (README "Security"). */
export const LIMITS = {
  config: 1 * MIB,
  policy: 1 * MIB,
  cassette: 256 * MIB,
  samples: 256 * MIB,
  problems: 64 * MIB,
  runLog: 256 * MIB,
  trace: 256 * MIB,
} as const;

/** An input file that cannot be used: a usage error (exit 2) naming the file. */
export class InputFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'InputFileError';
  }
}

function mib(bytes: number): string {
  return bytes >= MIB ? `${Math.round((bytes / MIB) * 10) / 10} MiB` : `${bytes} bytes`;
}

function kindOf(s: import('node:fs').Stats): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isFIFO()) return 'a named pipe';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The bytes of `file`, which must be a regular file of at most `maxBytes` (checked before and
 * while reading: a file that grows, or a /proc file that says 0, cannot slip past).
 */
export async function readInputBytes(file: string, opts: { what: string; maxBytes: number }): Promise<Buffer> {
  const { what, maxBytes } = opts;
  let s;
  try {
    s = await stat(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputFileError(file, `${file}: cannot read ${what} (${code === 'ENOENT' ? 'ENOENT: no such file' : (code ?? (err as Error).message)})`);
  }
  if (!s.isFile()) throw new InputFileError(file, `${file}: ${what} must be a regular file; this is ${kindOf(s)}`);
  if (s.size > maxBytes) throw new InputFileError(file, `${file}: ${what} is ${mib(s.size)}, over the limit of ${mib(maxBytes)}`);
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw new InputFileError(file, `${file}: cannot read ${what} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(1 * MIB, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw new InputFileError(file, `${file}: ${what} is over the limit of ${mib(maxBytes)}`);
      chunks.push(bytesRead === buf.length ? buf : buf.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } catch (err) {
    if (err instanceof InputFileError) throw err;
    throw new InputFileError(file, `${file}: cannot read ${what} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  } finally {
    await handle.close();
  }
}

/** The text of `file` (UTF-8) within the bounds of readInputBytes. */
export async function readInputText(file: string, opts: { what: string; maxBytes: number }): Promise<string> {
  return (await readInputBytes(file, opts)).toString('utf8');
}

/** Gunzips `bytes` when they are gzip, refusing more than `maxBytes` once inflated (a gzip bomb). */
export function gunzipBounded(bytes: Buffer, file: string, what: string, maxBytes: number): Buffer {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_BUFFER_TOO_LARGE' || /Cannot create a Buffer larger|maxOutputLength/i.test(e.message)) {
      throw new InputFileError(file, `${file}: ${what} inflates to more than ${mib(maxBytes)}, over the limit`);
    }
    throw new InputFileError(file, `${file}: not a valid gzip file (${e.message})`);
  }
}

/**
 * What JSON.parse found wrong, without the piece of the input V8 quotes in its message (the
 * input may be any file: /etc/shadow named as a cassette must not end up in a log).
 */
export function jsonProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const quoted = /^(Unexpected token .{1,4}?), (?:"|\.\.\.").*$/s.exec(message);
  if (quoted) return quoted[1];
  return message.replace(/"[^"]*"(\.\.\.)? is not valid JSON/s, 'is not valid JSON').slice(0, 200);
}

/** readInputText for the few readers that must stay synchronous (the replay cassette). */
export function readInputTextSync(file: string, opts: { what: string; maxBytes: number }): string {
  const { what, maxBytes } = opts;
  let s;
  try {
    s = statSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputFileError(file, `${file}: cannot read ${what} (${code === 'ENOENT' ? 'ENOENT: no such file' : (code ?? (err as Error).message)})`);
  }
  if (!s.isFile()) throw new InputFileError(file, `${file}: ${what} must be a regular file; this is ${kindOf(s)}`);
  if (s.size > maxBytes) throw new InputFileError(file, `${file}: ${what} is ${mib(s.size)}, over the limit of ${mib(maxBytes)}`);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw new InputFileError(file, `${file}: cannot read ${what} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(1 * MIB, maxBytes + 1 - total));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw new InputFileError(file, `${file}: ${what} is over the limit of ${mib(maxBytes)}`);
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
