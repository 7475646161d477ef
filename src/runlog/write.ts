/**
 * Writing run.json, report.md and the other files a command leaves: atomically (a temp file in the
 * same folder, renamed into place), in chunks (a run log is never one giant string), and on
 * failure with an error that names the file and says why (ENOSPC: the disk is full), with the temp
 * file removed, so a full disk or a read-only folder never leaves half a file or litter behind.
 */
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { jsonChunks } from './bound.js';

const WHY: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  EROFS: 'the file system is read-only',
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EIO: 'an input/output error',
};

/** A file saboteur could not write: names the file and the reason. */
export class OutputWriteError extends Error {
  constructor(
    readonly file: string,
    readonly code: string | undefined,
    detail?: string,
  ) {
    super(`cannot write ${file}: ${code ? `${code} (${WHY[code] ?? detail ?? 'write failed'})` : (detail ?? 'write failed')}`);
    this.name = 'OutputWriteError';
  }
}

export function writeErrorOf(file: string, err: unknown): OutputWriteError {
  if (err instanceof OutputWriteError) return err;
  const e = err as NodeJS.ErrnoException;
  return new OutputWriteError(file, e?.code, e?.message);
}

/** Writes `content` (a string or its chunks) to `file` atomically; throws OutputWriteError. */
export async function writeFileAtomic(file: string, content: string | Iterable<string>): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(tmp, 'wx', 0o644);
    if (typeof content === 'string') await handle.writeFile(content);
    else for (const chunk of content) await handle.write(chunk);
    await handle.close();
    handle = undefined;
    await rename(tmp, file);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw writeErrorOf(file, err);
  }
}

/** `value` as pretty JSON (what JSON.stringify(value, null, 2) gives, plus a newline), written atomically. */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  function* withNewline(): Generator<string> {
    yield* jsonChunks(value, 2);
    yield '\n';
  }
  await writeFileAtomic(file, withNewline());
}
