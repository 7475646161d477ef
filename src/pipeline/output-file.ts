/**
 * Reading the file a pipeline leaves at SABOTEUR_OUTPUT_FILE. The pipeline controls what is at
 * that name, so saboteur never follows a link there, reads only a regular file, at most `limit`
 * bytes, and gives up after `timeoutMs`: a link to a hidden file, a FIFO that never ends or a
 * device that never stops is the run's bad output, never text read on the pipeline's behalf
 * (docs/security.md, "Bounds").
 */
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

export type LeftFile = { kind: 'missing' } | { kind: 'text'; text: string } | { kind: 'refused'; why: string };

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'folder';
  if (st.isFIFO()) return 'FIFO';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  return 'special file';
}

async function readAtMost(handle: FileHandle, limit: number): Promise<Buffer | undefined> {
  const buf = Buffer.alloc(limit + 1);
  let got = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
    if (bytesRead === 0) return buf.subarray(0, got);
    got += bytesRead;
    if (got > limit) return undefined;
  }
}

async function readOpened(handle: FileHandle, limit: number): Promise<LeftFile> {
  const st = await handle.stat();
  if (!st.isFile()) return { kind: 'refused', why: `is a ${kindOf(st)}, not a regular file` };
  const over = { kind: 'refused', why: `is over the ${limit >> 20} MiB limit` } as const;
  if (st.size > limit) return { ...over, why: `is ${st.size} bytes, over the ${limit >> 20} MiB limit` };
  // The size can grow while it is read (a process still writing): the bound holds on what is read.
  const bytes = await readAtMost(handle, limit);
  if (!bytes) return over;
  const text = bytes.toString('utf8');
  return text.trim() === '' ? { kind: 'missing' } : { kind: 'text', text };
}

/** The file's text; `missing` when it is absent or empty; `refused` (with why) for anything else. */
export async function readLeftFile(file: string, limit: number, timeoutMs: number): Promise<LeftFile> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO with no writer returns at once (and is then refused as a FIFO).
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'refused', why: 'is a symbolic link; saboteur reads only a regular file the pipeline wrote' };
    return { kind: 'refused', why: `cannot be opened (${code ?? (err as Error).message})` };
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<LeftFile>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'refused', why: `could not be read within ${timeoutMs / 1000} s` }), timeoutMs);
  });
  try {
    return await Promise.race([readOpened(handle, limit), late]);
  } finally {
    clearTimeout(timer);
    await handle.close().catch(() => undefined);
  }
}
