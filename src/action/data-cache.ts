/**
 * The benchmark data folder kept between workflow runs in the GitHub Actions cache: restored before
 * the run, saved after it when the run completed more benchmarks' data than the restored entry held.
 * The key carries a hash of every pin, so a changed pin never restores old files; only files whose
 * SHA-256 matched their pin are ever in the folder. A cache that fails is a warning, never a failed job.
 */
import { createHash } from 'node:crypto';
import type { Log } from '../util/log.js';
import { DATA_PINS, PINNED_BENCHMARKS, verifyData, type PinnedBenchmark } from '../benchmarks/data/index.js';

/** The part of @actions/cache this uses (the real one in the action, a fake in tests). */
export interface CacheApi {
  isFeatureAvailable(): boolean;
  restoreCache(paths: string[], primaryKey: string, restoreKeys?: string[]): Promise<string | undefined>;
  saveCache(paths: string[], key: string): Promise<number>;
}

const PREFIX = `saboteur-data-${createHash('sha256').update(JSON.stringify(DATA_PINS)).digest('hex').slice(0, 16)}-`;

export function dataCacheKey(benchmarks: readonly string[]): string {
  return `${PREFIX}${[...benchmarks].sort().join('+') || 'none'}`;
}

export interface DataCacheState {
  folder: string;
  /** The key restored, exact or by prefix; undefined on a miss or when the cache is off. */
  restored?: string;
  enabled: boolean;
}

/**
 * Restores the folder for the benchmarks the run reads from the cache. Off when SABOTEUR_DATA_DIR
 * names the data (nothing is downloaded then) or the runner has no cache service.
 */
export async function restoreDataCache(
  api: CacheApi,
  folder: string,
  wanted: readonly string[],
  env: NodeJS.ProcessEnv,
  log: Log,
): Promise<DataCacheState> {
  const pinned = wanted.filter((b): b is PinnedBenchmark => (PINNED_BENCHMARKS as readonly string[]).includes(b));
  if (env.SABOTEUR_DATA_DIR || pinned.length === 0) return { folder, enabled: false };
  try {
    if (!api.isFeatureAvailable()) {
      log.debug('data cache: the Actions cache service is not available on this runner');
      return { folder, enabled: false };
    }
    const restored = await api.restoreCache([folder], dataCacheKey(pinned), [PREFIX]);
    log.info(restored ? `data cache: restored ${restored}` : 'data cache: nothing cached yet; the data is downloaded and verified');
    return { folder, restored, enabled: true };
  } catch (e) {
    log.warn(`data cache: could not restore (${(e as Error).message}); the data is downloaded instead`);
    return { folder, enabled: false };
  }
}

/** Saves the folder under the benchmarks whose pinned files are all there, when that is news to the cache. */
export async function saveDataCache(api: CacheApi, state: DataCacheState, log: Log): Promise<string | undefined> {
  if (!state.enabled) return undefined;
  try {
    const states = await verifyData(state.folder, PINNED_BENCHMARKS);
    const complete = PINNED_BENCHMARKS.filter((id) => states.every((s) => s.file.benchmark !== id || s.state === 'ok'));
    if (complete.length === 0) return undefined;
    const key = dataCacheKey(complete);
    if (key === state.restored) return undefined;
    await api.saveCache([state.folder], key);
    log.info(`data cache: saved ${key}`);
    return key;
  } catch (e) {
    log.warn(`data cache: could not save (${(e as Error).message})`);
    return undefined;
  }
}
