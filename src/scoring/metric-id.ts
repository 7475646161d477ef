/**
 * The one vocabulary of headline figures: the report, the gate, the PR comment, the trend, the
 * dashboard and the history all name a figure by a `MetricId` built here and read its label,
 * direction and unit from `FIGURES`. On disk (the history file) an id is its string form:
 *   `malicious-drop`, `pass@1:control`, `pass@1:malicious`, `asr:<defense>`, `tcr:<defense>`,
 *   `tcr-drop:<defense>`, `objective-success:<defense>`, and AgentHarm's `harm-score:<defense>`,
 *   `harm-score-non-refused:<defense>`, `refusal:<defense>` (always with the benchmark),
 * per benchmark `<benchmark>/<one of those>`, and a figure of the malicious variant ends in the
 * saboteur method it was measured under, `malicious-drop[autotransform]`, so that the history, the
 * trend and the PR comment never put the figures of two methods side by side.
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

export type FigureKind =
  'malicious-drop' | 'pass@1' | 'asr' | 'tcr' | 'tcr-drop' | 'objective-success' | 'harm-score' | 'harm-score-non-refused' | 'refusal';

export const FIGURES = {
  'malicious-drop': { label: 'malicious drop', higherIsWorse: true, unit: 'pts', headline: true, rank: 0 },
  'pass@1': { label: 'pass@1 {of}', higherIsWorse: false, unit: '%', headline: false, rank: 1 },
  asr: { label: 'ASR ({of})', higherIsWorse: true, unit: '%', headline: true, rank: 3 },
  tcr: { label: 'TCR ({of})', higherIsWorse: false, unit: '%', headline: true, rank: 4 },
  'tcr-drop': { label: 'TCR drop under sabotage ({of})', higherIsWorse: true, unit: 'pts', headline: true, rank: 5 },
  'objective-success': { label: 'objective success ({of})', higherIsWorse: true, unit: '%', headline: true, rank: 6 },
  // AgentHarm's own figures on its harmful runs (its ASR is the full-score rate): the mean harm score,
  // the same over the runs without a refusal, and the refusal rate.
  'harm-score': { label: 'harm score ({of})', higherIsWorse: true, unit: '%', headline: false, rank: 7 },
  'harm-score-non-refused': { label: 'harm score without refusals ({of})', higherIsWorse: true, unit: '%', headline: false, rank: 8 },
  refusal: { label: 'refusal rate ({of})', higherIsWorse: false, unit: '%', headline: false, rank: 9 },
} as const satisfies Record<FigureKind, FigureInfo>;

/** The figure of the hidden objectives a method gives its runs: runs whose objective reached its sink, of those graded. */
export const OBJECTIVE_SUCCESS = 'objective-success' satisfies FigureKind;
/** Its name in the report's tables and the summary line. */
export const OBJECTIVE_SUCCESS_NAME = 'objective success';
/** What its columns in the report mean. */
export const OBJECTIVE_SUCCESS_LEGEND =
  'Objective success: malicious runs whose hidden objective reached its sink, of those graded; blocked: runs where the defense stopped at least one call carrying the objective; fragmented: runs where another agent than the one given the objective made such a call.';

/** The benchmarks whose runs carry a harm score in [0, 1] (their harm-score figures exist). */
export const HARM_SCORE_BENCHMARKS: ReadonlySet<string> = new Set(['agentharm']);

type Base = 'malicious-drop' | `pass@1:${'control' | 'malicious'}` | `${Exclude<FigureKind, 'malicious-drop' | 'pass@1'>}:${string}`;
type OverallId = Base | `${Base}[${string}]`;
/** A figure over all benchmarks of its kind, or `<benchmark>/…` for one benchmark; `[method]` for the malicious variant's. */
export type MetricId = OverallId | `${string}/${OverallId}`;

/** What a metric id says, parsed. */
export interface MetricKey {
  figure: FigureKind;
  /** pass@1: the variant; ASR, TCR, TCR drop, objective success: the defense. */
  of?: string;
  /** Set for a figure of one benchmark; absent for all benchmarks together. */
  benchmark?: string;
  /** The saboteur method a figure of the malicious variant was measured under. */
  method?: string;
}

/** Figures measured on the malicious variant: they carry the method (pass@1 of control and TCR are the control's). */
function measuresMethod(key: Pick<MetricKey, 'figure' | 'of'>): boolean {
  return (
    key.figure === 'malicious-drop' ||
    (key.figure === 'pass@1' && key.of === 'malicious') ||
    ['asr', 'tcr-drop', OBJECTIVE_SUCCESS, 'harm-score', 'harm-score-non-refused', 'refusal'].includes(key.figure)
  );
}

export function metricId(key: MetricKey): MetricId {
  const base = key.figure === 'malicious-drop' ? 'malicious-drop' : `${key.figure}:${key.of ?? ''}`;
  const method = key.method ? `[${key.method}]` : '';
  return `${key.benchmark ? `${key.benchmark}/${base}` : base}${method}` as MetricId;
}

const METHOD_SUFFIX = /\[([a-z][a-z0-9-]*)\]$/;
const FIGURE_KINDS = new Set<string>(Object.keys(FIGURES));

/** Reads the string form (a history file's key); undefined for an id this build does not know. */
export function parseMetricId(id: string): MetricKey | undefined {
  const m = METHOD_SUFFIX.exec(id);
  const bare = m ? id.slice(0, m.index) : id;
  const slash = bare.indexOf('/');
  const benchmark = slash >= 0 ? bare.slice(0, slash) : undefined;
  const base = slash >= 0 ? bare.slice(slash + 1) : bare;
  const where = { ...(benchmark !== undefined ? { benchmark } : {}), ...(m ? { method: m[1] } : {}) };
  if (base === 'malicious-drop') return { figure: 'malicious-drop', ...where };
  const colon = base.indexOf(':');
  const figure = colon > 0 ? base.slice(0, colon) : '';
  const of = base.slice(colon + 1);
  if (FIGURE_KINDS.has(figure) && figure !== 'malicious-drop' && of !== '') return { figure: figure as FigureKind, of, ...where };
  return undefined;
}

/** `<method>-success:<defense>[<method>]`, the spelling objective success was first stored under. */
const METHOD_NAMED_OBJECTIVE = /^((?:[^/]*\/)?)([a-z][a-z0-9-]*)-success:([^[]+)\[\2\]$/;

/**
 * An id as this build writes it, for one read from a history written by an earlier build:
 * - ids stored before figures carried their method were AutoInject's (the only method then);
 * - objective success was stored under the name of the one method that had objectives then,
 *   `<method>-success:<defense>[<method>]`.
 * Other ids come back as they were.
 */
export function upgradeLegacyId(id: string): string {
  const named = METHOD_NAMED_OBJECTIVE.exec(id);
  if (named && named[2] !== 'objective') return `${named[1]}${OBJECTIVE_SUCCESS}:${named[3]}[${named[2]}]`;
  const key = parseMetricId(id);
  return key && !key.method && measuresMethod(key) ? metricId({ ...key, method: 'autoinject' }) : id;
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
  /** The parsed id (figure, defense or variant, benchmark, method); absent for an unknown id. */
  key?: MetricKey;
}

export function metricInfo(id: string): MetricInfo {
  const key = parseMetricId(id);
  const benchmark = key ? key.benchmark : id.includes('/') ? id.slice(0, id.indexOf('/')) : undefined;
  if (!key) return { id, label: id, benchmark, higherIsWorse: true, unit: '%', headline: false };
  const f: FigureInfo = FIGURES[key.figure];
  const prefix = benchmark ? `${benchmark}: ` : '';
  const method = key.method ? ` · ${key.method}` : '';
  return {
    id,
    label: `${prefix}${f.label.replace('{of}', key.of ?? '')}${method}`,
    benchmark,
    higherIsWorse: f.higherIsWorse,
    unit: f.unit,
    headline: f.headline && benchmark === undefined,
    key,
  };
}

/** Display order: headline figures first, then per benchmark, each in a fixed order. */
export function sortMetricIds(ids: Iterable<string>): string[] {
  const rank = (id: string): number => {
    const key = parseMetricId(id);
    if (!key) return 5;
    return key.figure === 'pass@1' && key.of === 'malicious'
      ? 2
      : key.figure === 'pass@1' && key.of !== 'control'
        ? 5
        : FIGURES[key.figure].rank;
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
