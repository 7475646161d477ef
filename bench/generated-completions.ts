/**
 * Realistic HumanEval completions made without anyone else's data: each problem's canonical
 * solution, changed the way a faulty agent changes code, drawn deterministically from a seed.
 *   'one edit' / 'two edits': AutoInject's syntactic rules (src/inject/syntactic.ts) on one or two
 *     code lines: a flipped comparison, an off-by-one, a swapped min/max, ... (wrong results,
 *     exceptions, endless loops, and edits that change nothing the tests see);
 *   'truncated': the solution cut at a random point, as a model's answer is cut at its token
 *     limit (syntax errors, missing returns). src/inject has no rule that breaks syntax, so this
 *     kind is the generator's own;
 *   'canonical': left as it is.
 * The same problems and seed always give the same completions, so the scorer's agreement test and
 * the scorer bench measure the same set on every machine.
 */
import type { HumanEvalProblem, HumanEvalSample } from '../src/benchmarks/humaneval/index.js';
import { applyRewrites, codeEdits, corruptUnit, rngFor, segment } from '../src/inject/index.js';

export type CompletionKind = 'canonical' | 'one edit' | 'two edits' | 'truncated';

export interface GeneratedCompletion extends HumanEvalSample {
  kind: CompletionKind;
  /** The syntactic rules applied, in line order (empty for the other kinds). */
  rules: string[];
}

/**
 * Share of each kind drawn (cumulative bounds): 30% canonical, 40% one edit, 15% two edits, 15%
 * truncated. A solution with a single line the rules apply to gets one edit where two were drawn,
 * and one with none is cut instead, so over the 164 problems about a third come out canonical, 43%
 * with one edit, 6% with two, 18% cut. About a third pass (some edits change nothing the tests
 * see), as for the small code models whose official results have been published.
 */
const KINDS: [CompletionKind, number][] = [
  ['canonical', 0.3],
  ['one edit', 0.7],
  ['two edits', 0.85],
  ['truncated', 1],
];

function drawKind(rng: () => number): CompletionKind {
  const r = rng();
  return KINDS.find(([, bound]) => r < bound)![0];
}

/** `count` code lines of the solution, each changed by one syntactic rule; undefined when no line has a rule that applies. */
function edited(solution: string, count: number, rng: () => number): { completion: string; rules: string[] } | undefined {
  const seg = segment(solution);
  if (seg.kind !== 'line') return undefined;
  const open = seg.units.filter((u) => codeEdits(u.text).length > 0);
  if (open.length === 0) return undefined;
  const chosen = new Map<number, { after: string; rule: string }>();
  while (chosen.size < Math.min(count, open.length)) {
    const unit = open[Math.floor(rng() * open.length)];
    if (!chosen.has(unit.index)) chosen.set(unit.index, corruptUnit(unit.text, 'line', rng)!);
  }
  const ordered = [...chosen.entries()].sort((a, b) => a[0] - b[0]);
  return { completion: applyRewrites(solution, seg.units, new Map(ordered.map(([i, e]) => [i, e.after]))), rules: ordered.map(([, e]) => e.rule) };
}

/** The solution cut between 20% and 90% of its length (never empty, never whole). */
function truncated(solution: string, rng: () => number): string {
  const at = Math.floor(solution.length * (0.2 + 0.7 * rng()));
  return solution.slice(0, Math.max(1, Math.min(at, solution.length - 1)));
}

/** One completion per problem for `seed`. */
export function generateCompletions(problems: readonly HumanEvalProblem[], seed: number): GeneratedCompletion[] {
  return problems.map((p) => {
    const rng = rngFor('humaneval-generated-completion', seed, p.task_id);
    const kind = drawKind(rng);
    const base = { task_id: p.task_id };
    if (kind === 'truncated') return { ...base, completion: truncated(p.canonical_solution, rng), kind, rules: [] };
    if (kind !== 'canonical') {
      const e = edited(p.canonical_solution, kind === 'one edit' ? 1 : 2, rng);
      if (e) return { ...base, completion: e.completion, kind: e.rules.length === 1 ? 'one edit' : 'two edits', rules: e.rules };
      // No rule applies to any line of this solution: cut it instead, so every draw is a change.
      return { ...base, completion: truncated(p.canonical_solution, rng), kind: 'truncated', rules: [] };
    }
    return { ...base, completion: p.canonical_solution, kind, rules: [] };
  });
}

/** The completions of several seeds, in seed order. */
export function generateCompletionSet(problems: readonly HumanEvalProblem[], seeds: readonly number[]): GeneratedCompletion[] {
  return seeds.flatMap((s) => generateCompletions(problems, s));
}
