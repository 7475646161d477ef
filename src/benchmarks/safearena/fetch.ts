/**
 * Downloads SafeArena's `harm.json` and `safe.json` from the gated Hugging Face dataset
 * McGill-NLP/safearena with the user's own token (the files may not be redistributed, so they never
 * ship with saboteur), checks that they parse, and caches them. A cached pair is used without
 * network or token. The token is sent only as an Authorization header and never logged.
 */
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { makeDir } from '../../util/make-dir.js';
import { join } from 'node:path';
import type { Log } from '../../util/log.js';
import { sha256Hex } from '../humaneval/load.js';
import { parseSafeArena, SAFEARENA_FILES, type SafeArenaKind } from './load.js';

export const SAFEARENA_DATASET = 'McGill-NLP/safearena';
export const SAFEARENA_BASE_URL = `https://huggingface.co/datasets/${SAFEARENA_DATASET}/resolve/main`;

export class SafeArenaAccessError extends Error {}

const HOW_TO =
  `SafeArena's data is gated on Hugging Face: sign in, accept the dataset's terms at https://huggingface.co/datasets/${SAFEARENA_DATASET}, ` +
  'create a read token (https://huggingface.co/settings/tokens) and pass it as HF_TOKEN (in a workflow: env: HF_TOKEN: ${{ secrets.HF_TOKEN }}).';

export interface FetchSafeArenaOptions {
  token?: string;
  /** The files go to `<cacheDir>/safearena/`. */
  cacheDir: string;
  fetch?: typeof globalThis.fetch;
  /** Where the files are served (default: the dataset's main branch on huggingface.co). */
  baseUrl?: string;
  log?: Log;
}

async function cachedValid(path: string, kind: SafeArenaKind): Promise<boolean> {
  if (!existsSync(path)) return false;
  try {
    parseSafeArena(await readFile(path, 'utf8'), path, kind);
    return true;
  } catch {
    return false;
  }
}

export async function fetchSafeArena(opts: FetchSafeArenaOptions): Promise<{ dir: string; files: { path: string; sha256: string }[] }> {
  const dir = join(opts.cacheDir, 'safearena');
  const kinds: SafeArenaKind[] = ['harm', 'safe'];
  const paths = kinds.map((k) => join(dir, SAFEARENA_FILES[k]));
  if ((await Promise.all(kinds.map((k, i) => cachedValid(paths[i], k)))).every(Boolean)) {
    opts.log?.debug(`SafeArena: using the cached ${paths.join(' and ')}`);
    const files = await Promise.all(paths.map(async (path) => ({ path, sha256: sha256Hex(await readFile(path)) })));
    return { dir, files };
  }
  const token = opts.token?.trim();
  if (!token) throw new SafeArenaAccessError(`SafeArena: no Hugging Face token given. ${HOW_TO}`);
  const fetchFn = opts.fetch ?? globalThis.fetch;
  const base = (opts.baseUrl ?? SAFEARENA_BASE_URL).replace(/\/+$/, '');
  await makeDir(dir);
  const files: { path: string; sha256: string }[] = [];
  for (const [i, kind] of kinds.entries()) {
    const url = `${base}/${SAFEARENA_FILES[kind]}`;
    opts.log?.info(`SafeArena: downloading ${url}`);
    let res: Response;
    try {
      res = await fetchFn(url, { headers: { Authorization: `Bearer ${token}` }, redirect: 'follow' });
    } catch (e) {
      throw new Error(`SafeArena: could not download ${url}: ${(e as Error).message}`);
    }
    if (res.status === 401 || res.status === 403) {
      throw new SafeArenaAccessError(
        `SafeArena: ${url} answered HTTP ${res.status}: the token was refused or its account has not accepted the dataset's terms. ${HOW_TO}`,
      );
    }
    if (!res.ok) throw new Error(`SafeArena: could not download ${url}: HTTP ${res.status} ${res.statusText}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    // Checked before it is cached: a login page or an error document must not pass for the data.
    parseSafeArena(bytes.toString('utf8'), url, kind);
    const partial = `${paths[i]}.${process.pid}.partial`;
    try {
      await writeFile(partial, bytes);
      await rename(partial, paths[i]);
    } finally {
      await rm(partial, { force: true });
    }
    files.push({ path: paths[i], sha256: sha256Hex(bytes) });
  }
  return { dir, files };
}
