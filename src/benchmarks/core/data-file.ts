/**
 * A benchmark's data file, read within LIMITS.benchmarkData through the bounded reader (a regular
 * file, never a device or a FIFO a data folder may hold instead): its text and sha256 for the run
 * log. The error names the benchmark and the file.
 */
import { basename } from 'node:path';
import { LIMITS, readInputBytes } from '../../util/input-file.js';
import { sha256Hex } from '../humaneval/load.js';

export interface DataFile {
  path: string;
  text: string;
  sha256: string;
}

/** `makeError` turns the message into the loader's own error; `hint` is added to it (e.g. where the data comes from). */
export async function readDataFile(path: string, label: string, makeError: (message: string) => Error, hint = ''): Promise<DataFile> {
  try {
    const bytes = await readInputBytes(path, { what: `the ${label} data file ${basename(path)}`, maxBytes: LIMITS.benchmarkData });
    return { path, text: bytes.toString('utf8'), sha256: sha256Hex(bytes) };
  } catch (e) {
    throw makeError(`${label}: ${(e as Error).message}${hint}`);
  }
}
