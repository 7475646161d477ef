/**
 * The one vocabulary of headline figures: the report, the gate, the PR comment, the trend, the
 * dashboard and the history all name a figure by a `MetricId` built here and read its label,
 * direction and unit from `FIGURES`. On disk (the history file) an id is its string form:
 *   `malicious-drop`, `pass@1:control`, `pass@1:malicious`, `asr:<defense>`, `tcr:<defense>`,
 * and per benchmark `<benchmark>/<one of those>`.
 */

/** How one kind of figure reads. */
export interface FigureInfo {
  /** The label; `{of}` is replaced by the variant (pass@1) or the defense (ASR, TCR). */
  label: string;
  /** Whether a rise is bad (the direction a regression goes). */
  higherIsWorse: boolean;
  /** 'pts' for differences (shown as signed points), '%' for rates. */
  unit: 'pts' | '%';
  /** Gated by the regression test when over all benchmarks (the headline figures). */
  headline: boolean;
  /** Display order among the figures of one benchmark. */
  rank: number;
}

export type FigureKind = 'malicious-drop' | 'pass@1' | 'asr' | 'tcr';

export const FIGURES = {
  'malicious-drop': { label: 'malicious drop', higherIsWorse: true, unit: 'pts', headline: true, rank: 0 },
  'pass@1': { label: 'pass@1 {of}', higherIsWorse: false, unit: '%', headline: false, rank: 1 },
  asr: { label: 'ASR ({of})', higherIsWorse: true, unit: '%', headline: true, rank: 3 },
  tcr: { label: 'TCR ({of})', higherIsWorse: false, unit: '%', headline: true, rank: 4 },
} as const satisfies Record<FigureKind, FigureInfo>;

type OverallId = 'malicious-drop' | `pass@1:${'control' | 'malicious'}` | `${'asr' | 'tcr'}:${string}`;
/** A figure over all benchmarks of its kind, or `<benchmark>/…` for one benchmark. */
export type MetricId = OverallId | `${string}/${OverallId}`;

/** What a metric id says, parsed. */
export interface MetricKey {
  figure: FigureKind;
  /** pass@1: the variant; ASR and TCR: the defense. */
  of?: string;
  /** Set for a figure of one benchmark; absent for all benchmarks together. */
  benchmark?: string;
}

export function metricId(key: MetricKey): MetricId {
  const base = key.figure === 'malicious-drop' ? 'malicious-drop' : `${key.figure}:${key.of ?? ''}`;
  return (key.benchmark ? `${key.benchmark}/${base}` : base) as MetricId;
}

/** Reads the string form (a history file's key); undefined for an id this build does not know. */
export function parseMetricId(id: string): MetricKey | undefined {
  const slash = id.indexOf('/');
  const benchmark = slash >= 0 ? id.slice(0, slash) : undefined;
  const base = slash >= 0 ? id.slice(slash + 1) : id;
  const where = benchmark !== undefined ? { benchmark } : {};
  if (base === 'malicious-drop') return { figure: 'malicious-drop', ...where };
  const colon = base.indexOf(':');
  const figure = colon > 0 ? base.slice(0, colon) : '';
  const of = base.slice(colon + 1);
  if ((figure === 'pass@1' || figure === 'asr' || figure === 'tcr') && of !== '') return { figure, of, ...where };
  return undefined;
}

/** How a metric reads: its label, whether a rise is bad, and how its value is shown. */
export interface MetricInfo {
  id: string;
  label: string;
  benchmark?: string;
  higherIsWorse: boolean;
  unit: 'pts' | '%';
  /** Gated by the regression test (the headline figures). */
  headline: boolean;
}

export function metricInfo(id: string): MetricInfo {
  const key = parseMetricId(id);
  const benchmark = key ? key.benchmark : id.includes('/') ? id.slice(0, id.indexOf('/')) : undefined;
  if (!key) return { id, label: id, benchmark, higherIsWorse: true, unit: '%', headline: false };
  const f: FigureInfo = FIGURES[key.figure];
  const prefix = benchmark ? `${benchmark}: ` : '';
  return { id, label: `${prefix}${f.label.replace('{of}', key.of ?? '')}`, benchmark, higherIsWorse: f.higherIsWorse, unit: f.unit, headline: f.headline && benchmark === undefined };
}

/** Display order: headline figures first, then per benchmark, each in a fixed order. */
export function sortMetricIds(ids: Iterable<string>): string[] {
  const rank = (id: string): number => {
    const key = parseMetricId(id);
    if (!key) return 5;
    return key.figure === 'pass@1' && key.of === 'malicious' ? 2 : key.figure === 'pass@1' && key.of !== 'control' ? 5 : FIGURES[key.figure].rank;
  };
  const key = (id: string) => {
    const info = metricInfo(id);
    return { group: info.benchmark === undefined ? 0 : 1, benchmark: info.benchmark ?? '', rank: rank(id) };
  };
  return [...new Set(ids)].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka.group - kb.group || ka.benchmark.localeCompare(kb.benchmark) || ka.rank - kb.rank || a.localeCompare(b);
  });
}
