/**
 * The action's data cache: restored for the benchmarks the run downloads, saved when the run
 * completed more benchmarks' data than the restored entry held, off when SABOTEUR_DATA_DIR names the
 * data, and a failing cache service is a warning only. The cache service is a fake that keeps real
 * copies of the folder; the folder holds real pinned files.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dataCacheKey, restoreDataCache, saveDataCache, type CacheApi } from '../../src/action/data-cache.js';
import { DATA_PINS, pinnedFiles } from '../../src/benchmarks/data/index.js';
import { defaultDataDir } from '../../src/benchmarks/humaneval/resolve.js';
import { memoryLog } from '../../src/util/log.js';
import { requireData } from '../helpers/benchmark-data.js';

const dataDir = defaultDataDir();
const hasData =
  dataDir !== undefined && existsSync(path.join(dataDir, DATA_PINS.asb.local)) && existsSync(path.join(dataDir, DATA_PINS.humaneval.local));
requireData(hasData, 'data-cache.test: the cache of real pinned files');
const withData = hasData ? describe : describe.skip;

/** A cache service that stores copies of the folder by key and restores by exact key, then by prefix (newest first). */
function fakeCache(store: string, available = true) {
  const entries: string[] = [];
  const calls: string[] = [];
  const api: CacheApi = {
    isFeatureAvailable: () => available,
    async restoreCache([folder], key, prefixes = []) {
      calls.push(`restore ${key}`);
      const hit = entries.includes(key) ? key : [...entries].reverse().find((k) => prefixes.some((p) => k.startsWith(p)));
      if (hit) await cp(path.join(store, hit), folder, { recursive: true });
      return hit;
    },
    async saveCache([folder], key) {
      calls.push(`save ${key}`);
      if (entries.includes(key)) throw new Error(`Unable to reserve cache with key ${key}`);
      await cp(folder, path.join(store, key), { recursive: true });
      entries.push(key);
      return 1;
    },
  };
  return { api, calls, entries };
}

async function copyPinned(folder: string, id: 'asb' | 'humaneval'): Promise<void> {
  for (const f of pinnedFiles(id)) {
    await mkdir(path.dirname(path.join(folder, f.path)), { recursive: true });
    await cp(path.join(dataDir!, f.path), path.join(folder, f.path));
  }
}

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'saboteur-data-cache-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the data cache key', () => {
  it('names the benchmarks in a fixed order and changes with the pins', () => {
    expect(dataCacheKey(['humaneval', 'asb'])).toBe(dataCacheKey(['asb', 'humaneval']));
    expect(dataCacheKey(['asb'])).toMatch(/^saboteur-data-[0-9a-f]{16}-asb$/);
  });

  it('is off with SABOTEUR_DATA_DIR, for benchmarks without pins, and without a cache service', async () => {
    const { api, calls } = fakeCache(path.join(work, 'unused'));
    const log = memoryLog();
    expect((await restoreDataCache(api, path.join(work, 'x'), ['asb'], { SABOTEUR_DATA_DIR: '/data' }, log)).enabled).toBe(false);
    expect((await restoreDataCache(api, path.join(work, 'x'), ['safearena'], {}, log)).enabled).toBe(false);
    expect((await restoreDataCache(fakeCache(work, false).api, path.join(work, 'x'), ['asb'], {}, log)).enabled).toBe(false);
    expect(calls).toEqual([]);
  });

  it('a cache service that fails is a warning, and the run goes on', async () => {
    const broken: CacheApi = {
      isFeatureAvailable: () => true,
      restoreCache: async () => Promise.reject(new Error('503 from the cache service')),
      saveCache: async () => 0,
    };
    const log = memoryLog();
    const state = await restoreDataCache(broken, path.join(work, 'y'), ['asb'], {}, log);
    expect(state.enabled).toBe(false);
    expect(log.lines.some((l) => l.startsWith('warning:') && l.includes('503 from the cache service'))).toBe(true);
  });
});

withData('the data cache between runs', () => {
  it('saves what a run completed, restores it in the next run, and saves again only when more is complete', async () => {
    const store = path.join(work, 'store');
    const cache = fakeCache(store);
    const log = memoryLog();

    // Run 1: nothing cached; the run downloads ASB (copied here), and a half-written HumanEval is not complete.
    const first = path.join(work, 'runner-1', 'data');
    const s1 = await restoreDataCache(cache.api, first, ['asb', 'humaneval'], {}, log);
    expect(s1.restored).toBeUndefined();
    await copyPinned(first, 'asb');
    await mkdir(path.join(first, 'humaneval', 'data'), { recursive: true });
    await writeFile(path.join(first, 'humaneval', 'data', 'HumanEval.jsonl.gz'), 'cut short');
    expect(await saveDataCache(cache.api, s1, log)).toBe(dataCacheKey(['asb']));

    // Run 2 on a fresh runner: ASB comes back from the cache; the run completes HumanEval; saved as both.
    const second = path.join(work, 'runner-2', 'data');
    const s2 = await restoreDataCache(cache.api, second, ['asb', 'humaneval'], {}, log);
    expect(s2.restored).toBe(dataCacheKey(['asb']));
    expect(existsSync(path.join(second, pinnedFiles('asb')[0].path))).toBe(true);
    await copyPinned(second, 'humaneval');
    expect(await saveDataCache(cache.api, s2, log)).toBe(dataCacheKey(['asb', 'humaneval']));

    // Run 3: an exact hit, nothing new: no save.
    const third = path.join(work, 'runner-3', 'data');
    const s3 = await restoreDataCache(cache.api, third, ['humaneval', 'asb'], {}, log);
    expect(s3.restored).toBe(dataCacheKey(['asb', 'humaneval']));
    expect(await saveDataCache(cache.api, s3, log)).toBeUndefined();
    expect(cache.entries).toEqual([dataCacheKey(['asb']), dataCacheKey(['asb', 'humaneval'])]);
  });
});
