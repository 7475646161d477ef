/**
 * The input files a config names, checked before anything starts: a cassette or a policy that is
 * not a regular file, too large or malformed is an input error (exit 2) naming the file and the
 * key, not a run that stops halfway as an infrastructure failure.
 */
import { stat } from 'node:fs/promises';
import type { Config } from './load.js';
import { loadCassette } from '../model/cassette.js';
import { loadPolicy } from '../taint/policy.js';
import { InputFileError, LIMITS } from '../util/input-file.js';

async function checkRegularFile(file: string, key: string, maxBytes: number): Promise<void> {
  const s = await stat(file).catch(() => undefined);
  // A missing file is the loader's to explain (it may be downloaded or cached instead).
  if (!s) return;
  if (!s.isFile()) throw new InputFileError(file, `${file} (${key}) must be a regular file`);
  if (s.size > maxBytes) throw new InputFileError(file, `${file} (${key}) is over the limit of ${maxBytes >> 20} MiB`);
}

/** Throws CassetteError, PolicyError or InputFileError for a named input that cannot be used. */
export async function preflightInputs(config: Config): Promise<void> {
  if (config.model.kind === 'replay' && config.model.cassette) loadCassette(config.model.cassette);
  if (config.policy) await loadPolicy(config.policy);
  if (config.benchmarks.humaneval?.path)
    await checkRegularFile(config.benchmarks.humaneval.path, 'benchmarks.humaneval.path', LIMITS.problems);
}
