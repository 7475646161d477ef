/**
 * (g) AutoInject's strength per hit message: the HumanEval canonical solutions (the honest answers)
 * as the target agent's messages, in three answer shapes (a bare function body, the whole function
 * in a fenced block, prose around a fenced block), corrupted by each deterministic mode at Pm, Pe
 * over several seeds, then scored by the project's sandboxed HumanEval scorer. Per mode and shape:
 * the hit rate, units drawn (against Pe), units changed, drawn units no rule fits, hit messages left
 * unchanged, per-hit failure (hit messages whose program fails its tests) and the syntax-error rate
 * (hit messages whose program Python cannot parse). Two more rows per shape: the paper's unit
 * structure with the same rules, and what the paper's released code does to the same messages by
 * rejoining them alone. Figures: docs/methods.md.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createAutoInjector } from '../src/inject/autoinject.js';
import { corruptUnit } from '../src/inject/logic-edit.js';
import { rngFor } from '../src/inject/prng.js';
import type { CorruptionMode } from '../src/runlog/schema.js';
import {
  defaultDataDir,
  HUMANEVAL_DATA_PATH,
  HumanEvalScorer,
  loadHumanEval,
  type HumanEvalProblem,
} from '../src/benchmarks/humaneval/index.js';
import { detectIsolation } from '../src/sandbox/index.js';
import { runPool } from '../src/util/pool.js';

/** How the honest answer is written, and how the program is read back from the delivered message. */
export interface AnswerShape {
  name: string;
  message(p: HumanEvalProblem): string;
  completion(delivered: string): string;
}

const FENCED_CODE = /```python\n([\s\S]*?)```/;

export const SHAPES: AnswerShape[] = [
  { name: 'bare body', message: (p) => p.canonical_solution, completion: (d) => d },
  {
    name: 'whole function, fenced',
    message: (p) => `\`\`\`python\n${p.prompt}${p.canonical_solution}\`\`\`\n`,
    completion: (d) => FENCED_CODE.exec(d)?.[1] ?? d,
  },
  {
    name: 'prose and code',
    message: (p) =>
      `Here is ${p.entry_point}, written to pass every example in the docstring.\n\n\`\`\`python\n${p.prompt}${p.canonical_solution}\`\`\`\n\nIt handles the empty input too. The result is returned, not printed.\n`,
    completion: (d) => FENCED_CODE.exec(d)?.[1] ?? d,
  },
];

export const MODES: CorruptionMode[] = ['logic-edit', 'syntax-error'];

/** The paper's released code rejoining a hit message, with no unit edited (see paperRejoin). */
export const PAPER_REJOIN = 'paper rejoin, no edit';
/** The paper's units (comma pieces of lines) with the logic-edit rules, joined back as they were. */
export const PAPER_UNITS = 'paper units, logic-edit';

export interface AutoInjectFigures {
  mode: CorruptionMode | typeof PAPER_REJOIN | typeof PAPER_UNITS;
  shape: string;
  messages: number;
  hits: number;
  units: number;
  drawn: number;
  changed: number;
  /** Drawn units no rule of the mode fits (left as they were). */
  noRule: number;
  /** Hit messages delivered exactly as the model wrote them. */
  unchangedHits: number;
  /** Hit messages whose program fails the official tests. */
  failedHits: number;
  /** Hit messages whose program does not parse. */
  syntaxErrors: number;
  /** Rules used on code lines and how often. */
  rules: Record<string, number>;
}

interface Corrupted {
  figures: AutoInjectFigures;
  programs: { problem: HumanEvalProblem; completion: string; figures: AutoInjectFigures }[];
}

/** Pure: every problem × seed in one mode and shape, corrupted; the programs to score. */
/** A row of figures with every count at zero. */
function emptyFigures(mode: AutoInjectFigures['mode'], shape: string): AutoInjectFigures {
  return {
    mode,
    shape,
    messages: 0,
    hits: 0,
    units: 0,
    drawn: 0,
    changed: 0,
    noRule: 0,
    unchangedHits: 0,
    failedHits: 0,
    syntaxErrors: 0,
    rules: {},
  };
}

export async function corruptMessages(
  problems: readonly HumanEvalProblem[],
  mode: CorruptionMode,
  shape: AnswerShape,
  opts: { seeds: readonly number[]; messageRate: number; errorRate: number },
): Promise<Corrupted> {
  const figures = emptyFigures(mode, shape.name);
  const programs: Corrupted['programs'] = [];
  for (const seed of opts.seeds) {
    const injector = createAutoInjector({
      target: 'coder',
      messageRate: opts.messageRate,
      errorRate: opts.errorRate,
      corruption: mode,
      seed,
    });
    for (const problem of problems) {
      const ctx = { instanceId: problem.task_id, variant: 'malicious' as const, agent: 'coder', agentCallIndex: 0 };
      figures.messages++;
      if (!injector.decide(ctx)) continue;
      figures.hits++;
      const content = shape.message(problem);
      const { hit, delivered, corruption } = await injector.corrupt!({ content, toolCalls: [] }, ctx);
      figures.units += hit.units;
      figures.drawn += hit.drawn;
      figures.changed += hit.changed;
      figures.noRule += hit.drawn - hit.changed;
      if (delivered.content === content) figures.unchangedHits++;
      for (const u of corruption?.units ?? []) if (u.kind === 'line') figures.rules[u.rule] = (figures.rules[u.rule] ?? 0) + 1;
      programs.push({ problem, completion: shape.completion(delivered.content), figures });
    }
  }
  return { figures, programs };
}

/**
 * What the paper's released code does to a hit code message before any rewrite: it splits the
 * message at newlines and then every line at each comma, and joins all the pieces back with
 * newlines, so every comma becomes a line break. No unit is edited here; the row shows what that
 * rejoining alone does to the honest answers (docs/methods.md).
 */
export function paperRejoin(message: string): string {
  return message
    .split('\n')
    .flatMap((line) => line.split(','))
    .join('\n');
}

/** The paper code's rejoining alone, as a row of the table (every message is hit at Pm = 1). */
export function rejoinMessages(problems: readonly HumanEvalProblem[], shape: AnswerShape, seeds: readonly number[]): Corrupted {
  const figures: AutoInjectFigures = {
    mode: PAPER_REJOIN,
    shape: shape.name,
    messages: 0,
    hits: 0,
    units: 0,
    drawn: 0,
    changed: 0,
    noRule: 0,
    unchangedHits: 0,
    failedHits: 0,
    syntaxErrors: 0,
    rules: {},
  };
  const programs: Corrupted['programs'] = [];
  for (const problem of problems) {
    const content = shape.message(problem);
    const after = paperRejoin(content);
    // Deterministic: every seed gives the same message, counted once per seed like the other rows.
    figures.messages += seeds.length;
    figures.hits += seeds.length;
    if (after === content) figures.unchangedHits += seeds.length;
    for (let i = 0; i < seeds.length; i++) programs.push({ problem, completion: shape.completion(after), figures });
  }
  return { figures, programs };
}

/**
 * The paper's unit structure with saboteur's logic-edit rules: every non-empty comma piece of every
 * line is a unit drawn with Pe, edited by the main rules when one fits, and the pieces are joined
 * back with the commas and newlines they were split at (without the paper code's rejoining).
 */
export function paperUnitMessages(
  problems: readonly HumanEvalProblem[],
  shape: AnswerShape,
  opts: { seeds: readonly number[]; errorRate: number },
): Corrupted {
  const figures = emptyFigures(PAPER_UNITS, shape.name);
  const programs: Corrupted['programs'] = [];
  for (const seed of opts.seeds) {
    for (const problem of problems) {
      const content = shape.message(problem);
      const draw = rngFor('bench-paper-units', seed, problem.task_id);
      const lines = content.split('\n').map((line) =>
        line.split(',').map((piece) => {
          if (piece.trim() === '') return piece;
          figures.units++;
          if (draw() >= opts.errorRate) return piece;
          figures.drawn++;
          const edit = corruptUnit(piece, 'line', draw);
          if (!edit) return piece;
          figures.changed++;
          figures.rules[edit.rule] = (figures.rules[edit.rule] ?? 0) + 1;
          return edit.after;
        }),
      );
      const after = lines.map((pieces) => pieces.join(',')).join('\n');
      figures.messages++;
      figures.hits++;
      figures.noRule = figures.drawn - figures.changed;
      if (after === content) figures.unchangedHits++;
      programs.push({ problem, completion: shape.completion(after), figures });
    }
  }
  return { figures, programs };
}

/** Which programs Python's parser accepts, in one python3 process. */
function parses(programs: readonly string[]): boolean[] {
  const script =
    'import ast, json, sys\nout = []\nfor p in json.load(sys.stdin):\n    try:\n        ast.parse(p)\n        out.append(True)\n    except (SyntaxError, ValueError):\n        out.append(False)\nprint(json.dumps(out))';
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(programs), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as boolean[];
}

export interface AutoInjectBenchOptions {
  seeds: readonly number[];
  messageRate: number;
  errorRate: number;
  lanes: number;
  /** The first `limit` problems (all 164 when absent). */
  limit?: number;
}

export async function benchAutoInject(
  opts: AutoInjectBenchOptions,
): Promise<{ figures: AutoInjectFigures[]; problems: number; isolation: string; scored: number }> {
  const dataDir = defaultDataDir();
  if (!dataDir) throw new Error('bench autoinject: no HumanEval data (set SABOTEUR_DATA_DIR or place shared/datasets beside the repo)');
  const all = (await loadHumanEval(path.join(dataDir, HUMANEVAL_DATA_PATH))).problems;
  const problems = all.slice(0, opts.limit ?? all.length);
  const runs: Corrupted[] = [];
  for (const mode of MODES) for (const shape of SHAPES) runs.push(await corruptMessages(problems, mode, shape, opts));
  runs.push(...SHAPES.map((shape) => paperUnitMessages(problems, shape, opts)));
  runs.push(...SHAPES.map((shape) => rejoinMessages(problems, shape, opts.seeds)));

  // The same program is scored once, whichever mode, shape or seed produced it.
  const programs = runs.flatMap((r) => r.programs);
  const key = (p: (typeof programs)[number]) => `${p.problem.task_id}\u0000${p.completion}`;
  const distinct = [...new Map(programs.map((p) => [key(p), p])).values()];
  const parsed = parses(distinct.map((p) => p.problem.prompt + p.completion));
  const isolation = await detectIsolation();
  const scorer = new HumanEvalScorer({ isolation, lanes: opts.lanes });
  const verdicts = new Map<string, { passed: boolean; parses: boolean }>();
  try {
    await runPool(distinct, opts.lanes, async (p, i) => {
      const v = parsed[i] ? await scorer.score(p.problem, p.completion) : { passed: false };
      verdicts.set(key(p), { passed: v.passed, parses: parsed[i] });
    });
  } finally {
    await scorer.close();
  }
  for (const p of programs) {
    const v = verdicts.get(key(p))!;
    if (!v.passed) p.figures.failedHits++;
    if (!v.parses) p.figures.syntaxErrors++;
  }
  return {
    figures: runs.map((r) => r.figures),
    problems: problems.length,
    isolation: isolation.kind + (isolation.degraded ? ' (degraded)' : ''),
    scored: distinct.length,
  };
}

const pct = (n: number, d: number) => (d === 0 ? '   n/a' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);

/** The table `npm run bench -- autoinject` prints. */
export function renderAutoInject(figures: readonly AutoInjectFigures[], errorRate: number): string {
  const lines = [
    `mode                    shape                    hit rate  drawn/units (Pe ${errorRate})  changed/drawn  no rule  unchanged hits  per-hit failure  syntax errors`,
  ];
  for (const f of figures) {
    lines.push(
      `${f.mode.padEnd(23)} ${f.shape.padEnd(24)} ${pct(f.hits, f.messages)}    ${pct(f.drawn, f.units)}                ${pct(f.changed, f.drawn)}         ${pct(f.noRule, f.drawn)}   ${pct(f.unchangedHits, f.hits)}          ${pct(f.failedHits, f.hits)}           ${pct(f.syntaxErrors, f.hits)}`,
    );
  }
  const rules = new Map<string, number>();
  for (const f of figures) if (f.mode === 'logic-edit') for (const [r, n] of Object.entries(f.rules)) rules.set(r, (rules.get(r) ?? 0) + n);
  lines.push(
    `logic-edit rules on code lines: ${[...rules]
      .sort((a, b) => b[1] - a[1])
      .map(([r, n]) => `${r} ${n}`)
      .join(', ')}`,
  );
  return lines.join('\n');
}
