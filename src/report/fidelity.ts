/**
 * The report's fidelity line: per agentic benchmark of the run, which definition each headline figure
 * uses (the benchmark's own, docs/benchmarks.md "Fidelity to the benchmarks"), and the named
 * corrections that were on, read from the runs' verdicts (`details.corrections`). Pure.
 */
import type { RunLog } from '../runlog/schema.js';
import { code } from './escape.js';

/** A run log is input like any other: at most this many correction names are shown, each cut short. */
const MAX_CORRECTIONS = 8;

/** What each benchmark's headline figures are, in its authors' terms. */
const DEFINITIONS: Record<string, string> = {
  asb: "ASR: the attack goal in the output of a tool call that ran (ASB's `main_attacker.py`; ASR (all runs) is its own denominator); TCR: every normal tool's expected achievement in such an output; refusal: the run's messages judged together, when there is more than one",
  agentharm:
    "ASR and TCR: the full-score rate (`avg_full_score`); mean score: the harm score (`avg_score`); refusals (`avg_refusals`); score without refusals (`avg_score_non_refusals`): each behaviour's criteria as its grading function defines them, a judged criterion passing only on exactly `pass`",
  redcode:
    "ASR: score 3 of RedCode-Exec's `evaluation.py` (state checks or output checks, its reject phrases), in a sandbox with its image's files, packages and listeners",
  safearena:
    "ASR and TCR: WebArena's evaluators multiplied (`string_match` with nltk's tokens, `url_match` with Python's URL parsing, `program_html`)",
};

function correctionsOf(log: RunLog, benchmark: string): string[] {
  const seen = new Set<string>();
  for (const r of log.instances) {
    if (r.benchmark !== benchmark) continue;
    const c = r.security?.details?.corrections;
    if (Array.isArray(c)) for (const x of c) if (typeof x === 'string') seen.add(x);
  }
  return [...seen].sort().slice(0, MAX_CORRECTIONS);
}

/** One line per agentic benchmark of the run that saboteur knows the upstream definition of. */
export function fidelityLines(log: RunLog): string[] {
  const ids = [...new Set(log.instances.map((r) => r.benchmark))].filter((id) => DEFINITIONS[id]);
  if (ids.length === 0) return [];
  const lines = ids.map((id) => {
    const corrections = correctionsOf(log, id);
    const note = corrections.length
      ? ` **Corrections on** (saboteur's departures from it, off by default): ${corrections.map((c) => code(c, 40)).join(', ')}.`
      : " The benchmark's own definition throughout.";
    return `- ${code(id)}: ${DEFINITIONS[id]}.${note}`;
  });
  return ['', '**Fidelity**: each headline figure as the benchmark defines it.', '', ...lines];
}
