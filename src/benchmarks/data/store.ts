/**
 * The benchmark data folder: every pinned file checked against its SHA-256, missing or wrong files
 * downloaded from their pinned address, checked before they are written, and written under a
 * temporary name then renamed, so a reader never sees half a file. A file that fails leaves the
 * others as they are (docs/benchmarks.md, "Benchmark data").
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { makeDir } from '../../util/make-dir.js';
import path from 'node:path';
import type { Log } from '../../util/log.js';
import { DATA_PINS } from './pins.js';
import type { FetchReport, FileState, PinnedFile } from './types.js';

export type PinnedBenchmark = keyof typeof DATA_PINS;
export const PINNED_BENCHMARKS = Object.keys(DATA_PINS) as PinnedBenchmark[];

export class DataError extends Error {}

export function isPinnedBenchmark(id: string): id is PinnedBenchmark {
  return Object.hasOwn(DATA_PINS, id);
}

/**
 * The pinned files of one benchmark. `mirror`: an address serving the data folder's own layout
 * (`<mirror>/<path>`), used instead of the upstream addresses.
 */
export function pinnedFiles(id: PinnedBenchmark, mirror?: string): PinnedFile[] {
  const pin = DATA_PINS[id];
  return pin.files.map(([upstream, bytes, sha256]) => {
    const local = `${pin.local}${upstream}`;
    return { benchmark: id, path: local, url: mirror ? `${mirror.replace(/\/+$/, '')}/${local}` : `${pin.base}${upstream}`, bytes, sha256 };
  });
}

/** The data folder inside saboteur's cache folder. */
export function dataCacheDir(cacheDir: string): string {
  return path.join(cacheDir, 'data');
}

async function hashFile(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

export async function checkFile(folder: string, file: PinnedFile): Promise<FileState> {
  const at = path.join(folder, file.path);
  if (!existsSync(at)) return { file, state: 'missing' };
  const { sha256, bytes } = await hashFile(at);
  return sha256 === file.sha256 ? { file, state: 'ok' } : { file, state: 'mismatch', actual: sha256, bytes };
}

/** The state of every pinned file of the benchmarks under `folder`. */
export async function verifyData(folder: string, ids: readonly PinnedBenchmark[]): Promise<FileState[]> {
  const states: FileState[] = [];
  for (const id of ids) for (const file of pinnedFiles(id)) states.push(await checkFile(folder, file));
  return states;
}

export interface Download {
  fetch?: typeof globalThis.fetch;
  /** Sent as a bearer token to huggingface.co only (gated datasets); never logged. */
  hfToken?: string;
  /** Per file; a stalled download is given up after it. */
  timeoutMs?: number;
}

/** Reads the body, refusing more bytes than the pin names and fewer than it (a cut download). */
async function readBounded(res: Response, file: PinnedFile): Promise<Buffer> {
  if (!res.body) throw new Error('the answer has no body');
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > file.bytes) throw new Error(`the answer is longer than the pinned ${file.bytes} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  if (total < file.bytes) throw new Error(`the download ended after ${total} of ${file.bytes} bytes`);
  return Buffer.concat(chunks);
}

async function download(file: PinnedFile, opts: Download): Promise<Buffer> {
  const headers: Record<string, string> = {};
  if (opts.hfToken && new URL(file.url).hostname === 'huggingface.co') headers.Authorization = `Bearer ${opts.hfToken}`;
  const res = await (opts.fetch ?? globalThis.fetch)(file.url, {
    headers,
    redirect: 'follow',
    signal: AbortSignal.timeout(opts.timeoutMs ?? 120_000),
  });
  if (!res.ok) {
    const gated = (res.status === 401 || res.status === 403) && new URL(file.url).hostname === 'huggingface.co';
    throw new Error(
      `HTTP ${res.status} ${res.statusText}`.trim() +
        (gated ? ' (a gated dataset: set HF_TOKEN to a token whose account accepted its terms)' : ''),
    );
  }
  const bytes = await readBounded(res, file);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== file.sha256) throw new Error(`its SHA-256 is ${actual}, the pin is ${file.sha256}`);
  return bytes;
}

async function writeAtomically(target: string, bytes: Buffer): Promise<void> {
  await makeDir(path.dirname(target));
  const partial = `${target}.${process.pid}.partial`;
  try {
    await writeFile(partial, bytes);
    await rename(partial, target);
  } finally {
    await rm(partial, { force: true });
  }
}

/** Downloads at once; a few lanes keep the first fill short without flooding the source. */
const LANES = 4;

/** Fills `folder` with the pinned files of the benchmarks: what is there and right is kept, the rest downloaded. */
export async function fetchData(
  folder: string,
  ids: readonly PinnedBenchmark[],
  opts: Download & { mirror?: string; log?: Log } = {},
): Promise<FetchReport> {
  const report: FetchReport = { kept: [], fetched: [], failed: [] };
  const files = ids.flatMap((id) => pinnedFiles(id, opts.mirror));
  const one = async (file: PinnedFile) => {
    const state = await checkFile(folder, file);
    if (state.state === 'ok') return void report.kept.push(file);
    if (state.state === 'mismatch')
      opts.log?.warn(`${file.benchmark}: ${file.path} has SHA-256 ${state.actual}, not the pinned ${file.sha256}; downloading it again`);
    try {
      await writeAtomically(path.join(folder, file.path), await download(file, opts));
      report.fetched.push(file);
      opts.log?.debug(`${file.benchmark}: ${file.path} verified and written`);
    } catch (e) {
      const err = e as Error;
      const reason = err.name === 'TimeoutError' ? `no complete answer within ${(opts.timeoutMs ?? 120_000) / 1000} s` : err.message;
      report.failed.push({ file, reason: `${file.url}: ${reason}` });
    }
  };
  let next = 0;
  const lane = async () => {
    while (next < files.length) await one(files[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(LANES, files.length) }, lane));
  return report;
}

/**
 * The data folder a run reads a pinned benchmark from when its config names no path:
 * SABOTEUR_DATA_DIR as it is (offline, nothing downloaded), else the cache, filled first.
 */
export async function benchmarkDataDir(
  id: PinnedBenchmark,
  ctx: { cacheDir: string; env: NodeJS.ProcessEnv; log: Log; fetch?: typeof globalThis.fetch },
): Promise<string> {
  const given = ctx.env.SABOTEUR_DATA_DIR;
  if (given) return path.resolve(given);
  const folder = dataCacheDir(ctx.cacheDir);
  const report = await fetchData(folder, [id], {
    fetch: ctx.fetch,
    hfToken: ctx.env.HF_TOKEN ?? ctx.env.HUGGING_FACE_HUB_TOKEN,
    log: ctx.log,
  });
  if (report.fetched.length) ctx.log.info(`${id}: ${report.fetched.length} data files downloaded, verified and cached in ${folder}`);
  if (report.failed.length) {
    throw new DataError(
      `${id}: ${report.failed.length} of ${pinnedFiles(id).length} data files could not be fetched (${report.failed[0].reason}). ` +
        `Run "saboteur data fetch ${id}" where the network is reachable, or set SABOTEUR_DATA_DIR or benchmarks.${id}.path to a folder holding ${DATA_PINS[id].local}`,
    );
  }
  return folder;
}
