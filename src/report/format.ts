/** Number formats shared by the report, the security table and the PR comment. */
import type { Interval } from '../scoring/stats.js';

/** A rate as a percentage, one decimal: 0.875 → "87.5%"; null → "–". */
export function pct(x: number | null, digits = 1): string {
  return x === null ? '–' : `${(x * 100).toFixed(digits)}%`;
}

/** A difference in percentage points with its sign: 0.375 → "+37.5 pts". */
export function pts(x: number | null): string {
  if (x === null) return '–';
  const v = x * 100;
  return `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(1)} pts`;
}

/** An interval in percent (or signed points): "[52.9, 97.8]", "[−7.3, +67.8]". */
export function ci(i: Interval, signed = false): string {
  const f = (x: number) => (signed ? `${x < 0 ? '−' : x > 0 ? '+' : ''}${Math.abs(x * 100).toFixed(1)}` : (x * 100).toFixed(1));
  return `[${f(i.low)}, ${f(i.high)}]`;
}

export function pValue(p: number): string {
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/** A count with its noun, singular for one: plural(1, 'attack') → "1 attack", plural(3, 'instance run') → "3 instance runs". */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}
