/**
 * Reading an input file (a config, a policy, a cassette, samples, a problems file, a run log, a
 * trace) with bounds (docs/security.md, "Security": bounded inputs): it must be a regular file (not
 * /dev/zero, a FIFO or a folder) of at most a documented size, read without ever holding more
 * than that, and what goes wrong is said with the file and the limit, never with its content.
 */
import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { limitText } from './body-limit.js';
import { InputError } from './input-error.js';

const MIB = 1024 * 1024;

/** The size limits of each kind of input (docs/security.md, "Security"). */
export const LIMITS = {
  config: 1 * MIB,
  policy: 1 * MIB,
  cassette: 256 * MIB,
  samples: 256 * MIB,
  problems: 64 * MIB,
  benchmarkData: 64 * MIB,
  runLog: 256 * MIB,
  trace: 256 * MIB,
  toolList: 16 * MIB,
} as const;

/** An input file that cannot be used: a usage error (exit 2) naming the file. */
export class InputFileError extends InputError {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'InputFileError';
  }
}

const mib = limitText;

function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isFIFO()) return 'a named pipe';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

function cannotRead(file: string, what: string, err: unknown): InputFileError {
  if (err instanceof InputFileError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  return new InputFileError(
    file,
    `${file}: cannot read ${what} (${code === 'ENOENT' ? 'ENOENT: no such file' : (code ?? (err as Error).message)})`,
  );
}

function refuseUnlessBounded(file: string, s: Stats, what: string, maxBytes: number): void {
  if (!s.isFile()) throw new InputFileError(file, `${file}: ${what} must be a regular file; this is ${kindOf(s)}`);
  if (s.size > maxBytes) throw new InputFileError(file, `${file}: ${what} is ${mib(s.size)}, over the limit of ${mib(maxBytes)}`);
}

/** The chunks read so far; one byte past the limit is refused, whatever the file's size said. */
class BoundedChunks {
  private readonly chunks: Buffer[] = [];
  private total = 0;

  constructor(
    private readonly file: string,
    private readonly what: string,
    private readonly maxBytes: number,
  ) {}

  /** A buffer for the next read, at most one byte past the limit. */
  buffer(): Buffer {
    return Buffer.allocUnsafe(Math.min(1 * MIB, this.maxBytes + 1 - this.total));
  }

  add(buf: Buffer, n: number): void {
    this.total += n;
    if (this.total > this.maxBytes)
      throw new InputFileError(this.file, `${this.file}: ${this.what} is over the limit of ${mib(this.maxBytes)}`);
    this.chunks.push(n === buf.length ? buf : buf.subarray(0, n));
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.total);
  }
}

/**
 * The bytes of `file`, which must be a regular file of at most `maxBytes` (checked before and
 * while reading: a file that grows, or a /proc file that says 0, cannot slip past).
 */
export async function readInputBytes(file: string, opts: { what: string; maxBytes: number }): Promise<Buffer> {
  const { what, maxBytes } = opts;
  const s = await stat(file).catch((err: unknown) => {
    throw cannotRead(file, what, err);
  });
  refuseUnlessBounded(file, s, what, maxBytes);
  const handle = await open(file, 'r').catch((err: unknown) => {
    throw cannotRead(file, what, err);
  });
  try {
    const read = new BoundedChunks(file, what, maxBytes);
    for (;;) {
      const buf = read.buffer();
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return read.bytes();
      read.add(buf, bytesRead);
    }
  } catch (err) {
    throw cannotRead(file, what, err);
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
  let s: Stats;
  let fd: number;
  try {
    s = statSync(file);
    refuseUnlessBounded(file, s, what, maxBytes);
    fd = openSync(file, 'r');
  } catch (err) {
    throw cannotRead(file, what, err);
  }
  try {
    const read = new BoundedChunks(file, what, maxBytes);
    for (;;) {
      const buf = read.buffer();
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) return read.bytes().toString('utf8');
      read.add(buf, n);
    }
  } catch (err) {
    throw cannotRead(file, what, err);
  } finally {
    closeSync(fd);
  }
}
