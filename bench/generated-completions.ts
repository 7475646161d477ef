/**
 * Realistic HumanEval completions made without anyone else's data: each problem's canonical
 * solution, changed the way a faulty agent changes code (AutoInject's corruption modes,
 * src/inject/), drawn deterministically from a seed.
 *   'one logic edit' / 'two logic edits': the logic-edit rules (logic-edit.ts) on one or two code
 *     lines: a flipped comparison, an off-by-one, a swapped min/max, ... (wrong results,
 *     exceptions, endless loops, and edits that change nothing the tests see);
 *   'syntax error': the syntax-error mode (syntax-error.ts) on one code line: an unclosed bracket,
 *     a missing colon, comma or operator, a misspelt keyword, an unterminated string, a bad indent;
 *   'truncated': the solution cut at a random point, as a model's answer is cut at its token limit
 *     (syntax errors, names cut short, missing returns);
 *   'canonical': left as it is.
 * The same problems and seed always give the same completions, so the scorer's agreement test and
 * the scorer bench measure the same set on every machine.
 */
import type { HumanEvalProblem, HumanEvalSample } from '../src/benchmarks/humaneval/index.js';
import { applyRewrites, breakUnit, codeEdits, corruptUnit, rngFor, segment, type Unit } from '../src/inject/index.js';

export const COMPLETION_KINDS = ['canonical', 'one logic edit', 'two logic edits', 'syntax error', 'truncated'] as const;
export type CompletionKind = (typeof COMPLETION_KINDS)[number];

export interface GeneratedCompletion extends HumanEvalSample {
  kind: CompletionKind;
  /** The corruption rules applied, in line order (empty for 'canonical' and 'truncated'). */
  rules: string[];
}

/**
 * Share of each kind drawn (cumulative bounds): 30% canonical, 35% one logic edit, 10% two, 15%
 * syntax error, 10% truncated. A solution with a single line the logic rules fit gets one edit
 * where two were drawn, and one with none gets a syntax error instead. About a third pass (some
 * logic edits change nothing the tests see), as for the small code models whose official results
 * have been published.
 */
const KINDS: [CompletionKind, number][] = [
  ['canonical', 0.3],
  ['one logic edit', 0.65],
  ['two logic edits', 0.75],
  ['syntax error', 0.9],
  ['truncated', 1],
];

function drawKind(rng: () => number): CompletionKind {
  const r = rng();
  return KINDS.find(([, bound]) => r < bound)![0];
}

type UnitEdit = { after: string; rule: string };

function rewrite(solution: string, units: readonly Unit[], edits: Map<number, UnitEdit>): { completion: string; rules: string[] } {
  const ordered = [...edits.entries()].sort((a, b) => a[0] - b[0]);
  return {
    completion: applyRewrites(solution, units, new Map(ordered.map(([i, e]) => [i, e.after]))),
    rules: ordered.map(([, e]) => e.rule),
  };
}

/** `count` code lines, each changed by one logic-edit rule; undefined when no line has a rule that fits. */
function logicEdited(solution: string, count: number, rng: () => number): { completion: string; rules: string[] } | undefined {
  const seg = segment(solution);
  if (seg.kind !== 'line') return undefined;
  const open = seg.units.filter((u) => codeEdits(u.text).length > 0);
  if (open.length === 0) return undefined;
  const chosen = new Map<number, UnitEdit>();
  while (chosen.size < Math.min(count, open.length)) {
    const unit = open[Math.floor(rng() * open.length)];
    if (!chosen.has(unit.index)) chosen.set(unit.index, corruptUnit(unit.text, 'line', rng)!);
  }
  return rewrite(solution, seg.units, chosen);
}

/** One code line broken by the syntax-error mode (some edit fits every non-empty line). */
function syntaxBroken(solution: string, rng: () => number): { completion: string; rules: string[] } | undefined {
  const seg = segment(solution);
  if (seg.kind !== 'line' || seg.units.length === 0) return undefined;
  const unit = seg.units[Math.floor(rng() * seg.units.length)];
  const edit = breakUnit(unit.text, 'line', rng);
  return edit ? rewrite(solution, seg.units, new Map([[unit.index, edit]])) : undefined;
}

/** The solution cut between 20% and 90% of its length (never empty, never whole). */
function truncated(solution: string, rng: () => number): string {
  const at = Math.floor(solution.length * (0.2 + 0.7 * rng()));
  return solution.slice(0, Math.max(1, Math.min(at, solution.length - 1)));
}

function generateOne(p: HumanEvalProblem, seed: number): GeneratedCompletion {
  const rng = rngFor('humaneval-generated-completion', seed, p.task_id);
  const kind = drawKind(rng);
  const solution = p.canonical_solution;
  const made = (k: CompletionKind, c: { completion: string; rules: string[] }): GeneratedCompletion => ({
    task_id: p.task_id,
    completion: c.completion,
    kind: k,
    rules: c.rules,
  });
  if (kind === 'canonical') return made(kind, { completion: solution, rules: [] });
  if (kind === 'one logic edit' || kind === 'two logic edits') {
    const e = logicEdited(solution, kind === 'one logic edit' ? 1 : 2, rng);
    if (e) return made(e.rules.length === 1 ? 'one logic edit' : 'two logic edits', e);
    // No logic rule fits any line of this solution: break its syntax instead, so every draw is a change.
  }
  if (kind !== 'truncated') {
    const e = syntaxBroken(solution, rng);
    if (e) return made('syntax error', e);
  }
  return made('truncated', { completion: truncated(solution, rng), rules: [] });
}

/** One completion per problem for `seed`. */
export function generateCompletions(problems: readonly HumanEvalProblem[], seed: number): GeneratedCompletion[] {
  return problems.map((p) => generateOne(p, seed));
}

/** The completions of several seeds, in seed order. */
export function generateCompletionSet(problems: readonly HumanEvalProblem[], seeds: readonly number[]): GeneratedCompletion[] {
  return seeds.flatMap((s) => generateCompletions(problems, s));
}
