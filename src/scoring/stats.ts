/** Interval estimates and exact tests used by every metric (docs/benchmarks.md, "Metrics"). Pure functions. */

export interface Interval {
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/** Wilson score interval for `successes` out of `n`; [0, 1] when n is 0 (nothing is known). */
export function wilson(successes: number, n: number, z = Z95): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * 95% interval of a mean of scores in [0, 1] (AgentHarm's harm score): the Wilson interval of the
 * score mass (the sum of the scores) over n. A score in [0, 1] varies at most as much as a 0/1
 * outcome with the same mean, so the interval is never narrower than the evidence allows.
 */
export function meanScoreInterval(scores: readonly number[], z = Z95): Interval {
  return wilson(
    scores.reduce((a, b) => a + b, 0),
    scores.length,
    z,
  );
}

const LANCZOS = [
  676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** log Γ(x) for x > 0 (Lanczos, g = 7): about 15 significant digits, constant time. */
function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = 0.99999999999980993;
  const t = z + 7.5;
  for (let i = 0; i < LANCZOS.length; i++) a += LANCZOS[i] / (z + i + 1);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** log(n choose k) in constant time, so exact tests over thousands of pairs stay linear. */
function logChoose(n: number, k: number): number {
  if (k < 0 || k > n) return -Infinity;
  if (k === 0 || k === n) return 0;
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
}

/** Binomial(n, 1/2) probability mass at k. */
function halfBinomialPmf(n: number, k: number): number {
  return Math.exp(logChoose(n, k) - n * Math.LN2);
}

/**
 * Exact McNemar test (two-sided) on discordant pairs: `b` pairs where only the first passed,
 * `c` pairs where only the second passed. Under H0 each discordant pair is a fair coin.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += halfBinomialPmf(n, i);
  return Math.min(1, 2 * tail);
}

/**
 * 95% interval for a paired difference of proportions (control − malicious) from discordant
 * counts: Newcombe's method 10 (hybrid score interval with the phi correction).
 */
export function pairedDifferenceInterval(pairs: { a: boolean; b: boolean }[]): Interval {
  const n = pairs.length;
  if (n === 0) return { low: -1, high: 1 };
  let both = 0;
  let onlyA = 0;
  let onlyB = 0;
  let neither = 0;
  for (const p of pairs) {
    if (p.a && p.b) both++;
    else if (p.a) onlyA++;
    else if (p.b) onlyB++;
    else neither++;
  }
  const p1 = (both + onlyA) / n;
  const p2 = (both + onlyB) / n;
  const d = p1 - p2;
  const w1 = wilson(both + onlyA, n);
  const w2 = wilson(both + onlyB, n);
  const r1 = both + onlyA;
  const s1 = onlyB + neither;
  const r2 = both + onlyB;
  const s2 = onlyA + neither;
  const denom = r1 * s1 * r2 * s2;
  let phi = 0;
  if (denom > 0) {
    const num = both * neither - onlyA * onlyB;
    const adjusted = num > 0 ? Math.max(num - n / 2, 0) : num;
    phi = adjusted / Math.sqrt(denom);
  }
  const dl = Math.sqrt((p1 - w1.low) ** 2 - 2 * phi * (p1 - w1.low) * (w2.high - p2) + (w2.high - p2) ** 2);
  const du = Math.sqrt((w1.high - p1) ** 2 - 2 * phi * (w1.high - p1) * (p2 - w2.low) + (p2 - w2.low) ** 2);
  return { low: Math.max(-1, d - dl), high: Math.min(1, d + du) };
}

/** One-sided exact binomial (two-proportion) test used for regressions against a stored base: Fisher's exact test. */
export function fisherExactGreater(aFail: number, aN: number, bFail: number, bN: number): number {
  // P(X >= aFail) for the hypergeometric with the margins fixed: a is the new run, b the base.
  const total = aN + bN;
  const fails = aFail + bFail;
  const logDen = logChoose(total, aN);
  let p = 0;
  const maxX = Math.min(aN, fails);
  for (let x = aFail; x <= maxX; x++) {
    p += Math.exp(logChoose(fails, x) + logChoose(total - fails, aN - x) - logDen);
  }
  return Math.min(1, p);
}

/**
 * Wilson interval for a proportion whose units come in clusters (several runs that share one task):
 * the cluster-robust variance of the mean gives a design effect, and the interval is Wilson's at the
 * effective sample size n / deff (deff never below 1). One unit per cluster is plain Wilson.
 */
export function clusteredWilson(units: readonly { hit: boolean; cluster: string }[], z = Z95): Interval {
  const n = units.length;
  if (n === 0) return { low: 0, high: 1 };
  const hits = units.filter((u) => u.hit).length;
  const p = hits / n;
  const clusters = new Map<string, { n: number; hits: number }>();
  for (const u of units) {
    const c = clusters.get(u.cluster) ?? { n: 0, hits: 0 };
    c.n++;
    if (u.hit) c.hits++;
    clusters.set(u.cluster, c);
  }
  const k = clusters.size;
  const srs = (p * (1 - p)) / n;
  if (k === n || k < 2 || srs === 0) return wilson(hits, n, z);
  let sum = 0;
  for (const c of clusters.values()) sum += (c.hits - p * c.n) ** 2;
  const robust = ((k / (k - 1)) * sum) / (n * n);
  const deff = Math.max(1, robust / srs);
  const nEff = n / deff;
  return wilson(p * nEff, nEff, z);
}
