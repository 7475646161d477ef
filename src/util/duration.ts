/** Durations in config are written like `120s`, `15m`, `1h`, `500ms` or a bare number of seconds. */

/** The longest duration a config may give (a timer past ~24.8 days overflows and fires at once). */
export const MAX_DURATION_MS = 24 * 3_600_000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  if (!match) return undefined;
  const unit = match[2] ?? 's';
  return Math.round(Number(match[1]) * UNIT_MS[unit]);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes}m${seconds.toString().padStart(2, '0')}s`;
}
