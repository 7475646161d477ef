/**
 * The fixed, documented slice of a benchmark: the same seed and limit over the same data give
 * the same instances, on any machine. Selected ids keep the dataset's own order, so reports
 * read naturally and shards cut the same list.
 */
import { prng, seedFrom } from '../util/random.js';

export function sampleIds(ids: readonly string[], opts: { seed: number; limit?: number; benchmark: string }): string[] {
  if (opts.limit === undefined || opts.limit >= ids.length) return [...ids];
  const rand = prng(seedFrom(opts.seed, opts.benchmark));
  const order = ids.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const chosen = order.slice(0, opts.limit).sort((a, b) => a - b);
  return chosen.map((i) => ids[i]);
}

/** Deterministic shard `index` (1-based) of `count` over an ordered list: round-robin, so shards stay balanced. */
export function shardSlice<T>(items: readonly T[], index: number, count: number): T[] {
  return items.filter((_, i) => i % count === index - 1);
}
