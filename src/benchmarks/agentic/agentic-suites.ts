/**
 * The shared half of the agentic security benchmarks (ASB, AgentHarm, RedCode-Exec, SafeArena):
 * native files → paired instances (benign twin for control, harmful instance for malicious) → a
 * stratified fixed slice → simulated tools over MCP → the benchmark's own grading of the recorded
 * tool events. A benchmark folder supplies only its loader, tools and grader (`AgenticModule`);
 * `agenticBenchmark` makes the registry entry of it.
 */
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { AgenticTask, GradedRun, SecurityVerdict, ToolEvent, ToolHandler } from './agentic.js';
import type { Ask } from '../../util/ask.js';
import { defaultDataDir } from '../humaneval/index.js';
import { benchmarkDataDir, isPinnedBenchmark } from '../data/store.js';
import { displayPath } from '../humaneval-suite.js';
import { assistantMessages } from './refusal.js';
import { stratifiedSample } from '../core/sample.js';
import { defineBenchmark, type BenchmarkDefinition, type BenchmarkLoadContext, type TraceToolSpec } from '../core/definition.js';
import type { BenchmarkSuite, SuiteInstance, Verdict } from '../core/suite.js';
import type { Task } from '../core/types.js';

/** What every agentic benchmark's settings have. */
export interface AgenticSettings {
  limit?: number;
  path?: string;
}

/**
 * What a loader returns: the tasks (harmful and benign, paired by `pairId`, or by the harmful task's
 * `twinId` when pairs share a benign task) and the files they came from.
 */
export interface LoadedTasks {
  tasks: AgenticTask[];
  total: number;
  files: { path: string; sha256: string }[];
  /** The folder the data came from, when the loader found it itself (`data: 'own'`). */
  dir?: string;
  /** What the loader found worth a warning (SafeArena: pairs its ids and positions disagree on; RedCode: a missing package). */
  notes?: string[];
}

export interface AgenticModule<Settings extends AgenticSettings, FileSettings> {
  id: string;
  description: string;
  schema: BenchmarkDefinition<Settings, FileSettings>['schema'];
  example: string;
  configure: BenchmarkDefinition<Settings, FileSettings>['configure'];
  /**
   * `data-dir` (default): the data sits in `<dir>/<id>/`, `dir` being `benchmarks.<id>.path` or
   * SABOTEUR_DATA_DIR. `own`: the loader finds its data itself (a download) and `dir` is empty.
   */
  data?: 'data-dir' | 'own';
  load(dir: string, settings: Settings, ctx: BenchmarkLoadContext): Promise<LoadedTasks>;
  /** The simulated tools of one task: pure simulations, never a real side effect. */
  tools(task: AgenticTask): Record<string, ToolHandler>;
  grade(task: AgenticTask, run: GradedRun, judge?: Ask): Promise<SecurityVerdict>;
  /** Whether the configured model grades (default: yes, when there is one). */
  judge?(settings: Settings): boolean;
  traceToolSpecs?(tools: readonly ToolEvent[]): TraceToolSpec[];
}

/** `benchmarks.<id>.path`, else SABOTEUR_DATA_DIR, else (a benchmark with pinned data) the data cache, filled first. */
async function dataDirFor(id: string, explicit: string | undefined, ctx: BenchmarkLoadContext, env: NodeJS.ProcessEnv): Promise<string> {
  if (explicit) return explicit;
  if (isPinnedBenchmark(id)) return benchmarkDataDir(id, { cacheDir: ctx.cacheDir, env, log: ctx.log });
  const dir = defaultDataDir(env);
  if (!dir) {
    throw new Error(
      `benchmarks.${id}: no data folder; set benchmarks.${id}.path or SABOTEUR_DATA_DIR to the folder that holds ${id}/ (see the docs/benchmarks.md, "Security benchmarks")`,
    );
  }
  return dir;
}

/** What the pipeline may see of a task: never its role, pair or grading (they would give the test away). */
export function publicTask(task: AgenticTask): Task {
  return {
    id: task.id,
    benchmark: task.benchmark,
    kind: 'agentic',
    prompt: task.prompt,
    tools: task.toolSpecs.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    metadata: task.metadata,
  };
}

/**
 * The run's outcome: a reached goal is `passed` whatever else the agent said (refusal is recorded in
 * the verdict apart, never instead of an attack that happened); otherwise `refused` or `failed`.
 */
export function outcomeOf(v: SecurityVerdict): Verdict['outcome'] {
  if (v.notGraded) return 'not-graded';
  const reached = v.role === 'harmful' ? v.attackSucceeded : v.taskCompleted;
  if (reached) return 'passed';
  return v.refused ? 'refused' : 'failed';
}

interface Pair {
  harmful?: AgenticTask;
  benign?: AgenticTask;
  category: string;
}

/**
 * Pairs each harmful task with its benign twin (the task its twinId names, else the benign task with
 * the same pairId); benign tasks no harmful task names stand alone. Keys are the pair ids.
 */
export function pairTasks(tasks: readonly AgenticTask[]): Map<string, Pair> {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const benignByPair = new Map(tasks.filter((t) => t.role === 'benign').map((t) => [t.pairId, t]));
  const pairs = new Map<string, Pair>();
  const twins = new Set<string>();
  for (const h of tasks.filter((t) => t.role === 'harmful')) {
    const twin = h.twinId !== undefined ? byId.get(h.twinId) : benignByPair.get(h.pairId);
    if (h.twinId !== undefined && !twin) throw new Error(`${h.benchmark}: task ${h.id} names the twin ${h.twinId}, which does not exist`);
    if (twin) twins.add(twin.id);
    pairs.set(h.pairId, { harmful: h, benign: twin, category: h.category });
  }
  for (const b of tasks.filter((t) => t.role === 'benign' && !twins.has(t.id))) pairs.set(b.pairId, { benign: b, category: b.category });
  return pairs;
}

function combinedSha(files: { sha256: string }[]): string {
  return createHash('sha256')
    .update(files.map((f) => f.sha256).join('\n'))
    .digest('hex');
}

export async function agenticSuite<S extends AgenticSettings>(
  mod: AgenticModule<S, unknown>,
  settings: S,
  ctx: BenchmarkLoadContext,
): Promise<BenchmarkSuite> {
  const id = mod.id;
  const env = ctx.env ?? process.env;
  const ownData = mod.data === 'own';
  const dir = ownData ? '' : await dataDirFor(id, settings.path, ctx, env);
  const loaded = await mod.load(dir, settings, ctx);
  for (const note of loaded.notes ?? []) ctx.log.warn(`${id}: ${note}`);
  const root = loaded.dir ?? dir;
  const judge = mod.judge && !mod.judge(settings) ? undefined : ctx.judge;

  // An instance is a pair (or a lone task); a benign twin shared by several pairs runs once, with the first of them.
  const pairs = pairTasks(loaded.tasks);
  const all = [...pairs.entries()].map(([pairId, p]) => ({ id: pairId, stratum: p.category }));
  const limit = ctx.limit ?? settings.limit;
  const { ids, strata } = stratifiedSample(all, { seed: ctx.seed, limit, benchmark: id });
  const byTaskId = new Map(loaded.tasks.map((t) => [t.id, t]));
  const controlled = new Set<string>();
  const instances: SuiteInstance[] = ids.map((pairId) => {
    const p = pairs.get(pairId)!;
    const control = p.benign && !controlled.has(p.benign.id) ? publicTask(p.benign) : undefined;
    if (p.benign) controlled.add(p.benign.id);
    return { id: pairId, category: p.category, control, malicious: p.harmful && publicTask(p.harmful) };
  });
  const full = (task: Task): AgenticTask => {
    const t = byTaskId.get(task.id);
    if (!t) throw new Error(`${id}: unknown task ${task.id}`);
    return t;
  };
  return {
    info: {
      id,
      kind: 'agentic',
      source: displayPath(loaded.files.length === 1 ? loaded.files[0].path : path.join(root, ownData ? '' : id)),
      sha256: combinedSha(loaded.files),
      total: pairs.size,
      selected: instances.length,
      limit,
      seed: ctx.seed,
      instanceIds: ids,
      strata,
    },
    instances,
    tools: (task) => {
      const t = full(task);
      return { task: t, handlers: mod.tools(t) };
    },
    async score(task, output, scoreCtx) {
      const run: GradedRun = {
        events: scoreCtx.tools,
        answer: output.answer ?? output.completion,
        messages: assistantMessages(scoreCtx.calls),
      };
      const verdict = await mod.grade(full(task), run, judge);
      const result = verdict.notGraded
        ? `not graded: ${verdict.notGraded}`
        : verdict.score !== undefined
          ? `score ${verdict.score}`
          : undefined;
      return { outcome: outcomeOf(verdict), security: verdict, ...(result ? { result } : {}) };
    },
  };
}

/** The registry entry of an agentic benchmark. */
export function agenticBenchmark<S extends AgenticSettings, F>(mod: AgenticModule<S, F>): BenchmarkDefinition<S, F> {
  return defineBenchmark<S, F>({
    id: mod.id,
    kind: 'agentic',
    description: mod.description,
    schema: mod.schema,
    example: mod.example,
    configure: mod.configure,
    load: (settings, ctx) => agenticSuite(mod as AgenticModule<S, unknown>, settings, ctx),
    ...(mod.traceToolSpecs ? { traceToolSpecs: mod.traceToolSpecs } : {}),
  });
}
