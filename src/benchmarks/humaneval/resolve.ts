/**
 * Where the HumanEval problems come from (docs/benchmarks.md, "Running on the real HumanEval"): an explicit path, then the data folder
 * (SABOTEUR_DATA_DIR), then the data cache (the folder `saboteur data fetch` fills), then a download
 * from upstream checked against the pinned SHA-256.
 */
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { makeDir } from '../../util/make-dir.js';
import { dirname, join, resolve } from 'node:path';
import type { Log } from '../../util/log.js';
import { sha256Hex } from './load.js';
import { dataCacheDir, pinnedFiles } from '../data/store.js';

const PIN = pinnedFiles('humaneval')[0];
/** SHA-256 of upstream `data/HumanEval.jsonl.gz` (openai/human-eval, 44,877 bytes, 164 problems). */
export const HUMANEVAL_SHA256 = PIN.sha256;
/** The file at the pinned upstream commit. */
export const HUMANEVAL_URL = PIN.url;
/** The file's place under a data folder, as in the upstream repository. */
export const HUMANEVAL_DATA_PATH = join(...PIN.path.split('/'));

/** SABOTEUR_DATA_DIR when set (resolved against the working directory); there is no other default. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string | undefined {
  return env.SABOTEUR_DATA_DIR ? resolve(cwd, env.SABOTEUR_DATA_DIR) : undefined;
}

export interface ResolveHumanEvalOptions {
  explicitPath?: string;
  /** Data folder; undefined: `defaultDataDir()`; null: none. */
  dataDir?: string | null;
  cacheDir: string;
  fetch?: typeof globalThis.fetch;
  /** Download address (tests serve the file from 127.0.0.1). */
  url?: string;
  /** Expected SHA-256 of the downloaded file. */
  sha256?: string;
  log: Log;
}

/** Returns the path of the problems file to load. */
export async function resolveHumanEvalFile(opts: ResolveHumanEvalOptions): Promise<string> {
  const { log } = opts;
  const expected = opts.sha256 ?? HUMANEVAL_SHA256;
  if (opts.explicitPath) {
    const path = resolve(opts.explicitPath);
    if (!existsSync(path)) throw new Error(`HumanEval problems file ${path} (benchmarks.humaneval.path) does not exist`);
    return path;
  }

  const dataDir = opts.dataDir === undefined ? defaultDataDir() : opts.dataDir;
  if (dataDir) {
    const path = join(dataDir, HUMANEVAL_DATA_PATH);
    if (existsSync(path)) {
      const actual = sha256Hex(await readFile(path));
      if (actual !== expected) {
        log.warn(`HumanEval: ${path} has SHA-256 ${actual}, not the pinned upstream ${expected}; using it as given`);
      }
      log.debug(`HumanEval: using ${path} from the data folder`);
      return path;
    }
  }

  const cached = join(dataCacheDir(opts.cacheDir), HUMANEVAL_DATA_PATH);
  if (existsSync(cached)) {
    const actual = sha256Hex(await readFile(cached));
    if (actual === expected) {
      log.debug(`HumanEval: using cached ${cached}`);
      return cached;
    }
    log.warn(`HumanEval: cached ${cached} has SHA-256 ${actual}, expected ${expected}; downloading it again`);
  }

  const url = opts.url ?? HUMANEVAL_URL;
  const fetchFn = opts.fetch ?? globalThis.fetch;
  log.info(`HumanEval: downloading ${url}`);
  let bytes: Buffer;
  try {
    const res = await fetchFn(url);
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
    bytes = Buffer.from(await res.arrayBuffer());
  } catch (e) {
    throw new Error(
      `HumanEval: could not download ${url}: ${(e as Error).message}. Set benchmarks.humaneval.path, or SABOTEUR_DATA_DIR to a folder holding ${HUMANEVAL_DATA_PATH}`,
    );
  }
  const actual = sha256Hex(bytes);
  if (actual !== expected) {
    throw new Error(`HumanEval: the file downloaded from ${url} has SHA-256 ${actual}, expected ${expected}; not using it`);
  }
  await makeDir(dirname(cached));
  // Written under a temporary name and renamed, so a concurrent reader never sees half a file.
  const partial = `${cached}.${process.pid}.partial`;
  try {
    await writeFile(partial, bytes);
    await rename(partial, cached);
  } finally {
    await rm(partial, { force: true });
  }
  log.info(`HumanEval: verified and cached at ${cached}`);
  return cached;
}
