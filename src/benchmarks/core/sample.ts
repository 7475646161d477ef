/**
 * The fixed, documented slice of a benchmark: the same seed and limit over the same data give
 * the same instances, on any machine. Selected ids keep the dataset's own order, so reports
 * read naturally and shards cut the same list.
 */
import { rngFor } from '../../util/random.js';

export function sampleIds(ids: readonly string[], opts: { seed: number; limit?: number; benchmark: string }): string[] {
  if (opts.limit === undefined || opts.limit >= ids.length) return [...ids];
  const rand = rngFor(opts.seed, opts.benchmark);
  const order = ids.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const chosen = order.slice(0, opts.limit).sort((a, b) => a - b);
  return chosen.map((i) => ids[i]);
}

/** Reads a shard spec `i/N` (1 ≤ i ≤ N); undefined when the text is not one. */
export function parseShardSpec(text: string): { index: number; count: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && count <= 10_000 && index >= 1 && index <= count ? { index, count } : undefined;
}

/** Deterministic shard `index` (1-based) of `count` over an ordered list: round-robin, so shards stay balanced. */
export function shardSlice<T>(items: readonly T[], index: number, count: number): T[] {
  return items.filter((_, i) => i % count === index - 1);
}

/**
 * A fixed slice stratified by category: `limit` split over the strata in proportion to their
 * sizes (largest remainders, every stratum at least one while the limit allows), then a seeded
 * draw inside each stratum. Returns ids in dataset order and the count taken per stratum.
 */
export function stratifiedSample(
  items: readonly { id: string; stratum: string }[],
  opts: { seed: number; limit?: number; benchmark: string },
): { ids: string[]; strata: Record<string, number> } {
  const groups = new Map<string, string[]>();
  for (const item of items) {
    const g = groups.get(item.stratum) ?? [];
    g.push(item.id);
    groups.set(item.stratum, g);
  }
  const total = items.length;
  const limit = opts.limit === undefined || opts.limit >= total ? total : opts.limit;
  const names = [...groups.keys()].sort();
  const quota = new Map<string, number>();
  if (limit === total) {
    for (const n of names) quota.set(n, groups.get(n)!.length);
  } else {
    const floorShare = names.map((n) => ({ n, exact: (groups.get(n)!.length * limit) / total }));
    let given = 0;
    for (const { n, exact } of floorShare) {
      const q = Math.min(groups.get(n)!.length, Math.floor(exact));
      quota.set(n, q);
      given += q;
    }
    // Empty strata first (so every category shows up while the limit allows), then largest remainders.
    const order = [...floorShare].sort(
      (a, b) =>
        (quota.get(a.n) === 0 ? -1 : 0) - (quota.get(b.n) === 0 ? -1 : 0) || (b.exact % 1) - (a.exact % 1) || a.n.localeCompare(b.n),
    );
    for (let i = 0; given < limit && i < order.length * 2; i++) {
      const n = order[i % order.length].n;
      if (quota.get(n)! < groups.get(n)!.length) {
        quota.set(n, quota.get(n)! + 1);
        given++;
      }
    }
  }
  const chosen = new Set<string>();
  const strata: Record<string, number> = {};
  for (const n of names) {
    const picked = sampleIds(groups.get(n)!, { seed: opts.seed, limit: quota.get(n), benchmark: `${opts.benchmark}/${n}` });
    for (const id of picked) chosen.add(id);
    strata[n] = picked.length;
  }
  return { ids: items.map((i) => i.id).filter((id) => chosen.has(id)), strata };
}
