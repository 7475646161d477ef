/**
 * ASB, AgentHarm, RedCode-Exec and SafeArena as benchmark suites: native files → paired
 * instances (benign twin for control, harmful instance for malicious) → a stratified fixed
 * slice → simulated tools over MCP → the benchmark's own grading of the recorded tool events.
 */
import path from 'node:path';
import type { Config } from '../config/load.js';
import type { Log } from '../util/log.js';
import type { AgenticTask, SecurityVerdict, ToolEvent, ToolHandler } from './agentic.js';
import { loadAsb, toolHandlers as asbTools, gradeAsb } from './asb/index.js';
import { loadAgentHarm, toolHandlers as agentHarmTools, gradeAgentHarm, type Judge } from './agentharm/index.js';

export type { Judge };
import { loadRedCode, toolHandlers as redcodeTools, gradeRedCode } from './redcode/index.js';
import { loadSafeArena, fetchSafeArena, toolHandlers as safeArenaTools, gradeSafeArena } from './safearena/index.js';
import { defaultDataDir } from './humaneval/index.js';
import { displayPath } from './humaneval-suite.js';
import { stratifiedSample } from './sample.js';
import type { BenchmarkSuite, SuiteInstance, Verdict } from './suite.js';
import type { Task } from './types.js';
import { createHash } from 'node:crypto';

export type AgenticId = 'asb' | 'agentharm' | 'redcode' | 'safearena';

export interface AgenticContext {
  seed: number;
  limit?: number;
  cacheDir: string;
  log: Log;
  /** The configured model as a judge (AgentHarm's LLM-graded criteria); absent: those criteria are skipped. */
  judge?: Judge;
  env?: NodeJS.ProcessEnv;
}

interface Loaded {
  tasks: AgenticTask[];
  total: number;
  files: { path: string; sha256: string }[];
}

interface Module {
  load(dir: string, settings: Record<string, unknown>, ctx: AgenticContext): Promise<Loaded & { dir: string }>;
  tools(task: AgenticTask): Record<string, ToolHandler>;
  grade(task: AgenticTask, events: ToolEvent[], answer: string | undefined, judge?: Judge): Promise<SecurityVerdict>;
}

function dataDirFor(id: AgenticId, explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  const dir = explicit ?? defaultDataDir(env);
  if (!dir) {
    throw new Error(`benchmarks.${id}: no data folder; set benchmarks.${id}.path or SABOTEUR_DATA_DIR to the folder that holds ${id}/ (see the README, "Security benchmarks")`);
  }
  return dir;
}

const MODULES: Record<AgenticId, Module> = {
  asb: {
    load: async (dir, s) => ({ dir, ...(await loadAsb(dir, { attacks: (s.attacks as ('dpi' | 'opi')[] | undefined) ?? ['dpi', 'opi'] })) }),
    tools: asbTools,
    grade: gradeAsb,
  },
  agentharm: {
    load: async (dir, s) => ({ dir, ...(await loadAgentHarm(dir, { split: (s.split as 'test_public' | 'validation' | undefined) ?? 'test_public' })) }),
    tools: agentHarmTools,
    grade: gradeAgentHarm,
  },
  redcode: {
    load: async (dir) => ({ dir, ...(await loadRedCode(dir)) }),
    tools: redcodeTools,
    grade: gradeRedCode,
  },
  safearena: {
    async load(dir, s, ctx) {
      // The data is gated: an explicit folder, else the cache, else a download with the user's token.
      const folder = (s.path as string | undefined) ?? (await fetchSafeArena({ token: ctx.env?.HF_TOKEN ?? ctx.env?.HUGGING_FACE_HUB_TOKEN, cacheDir: ctx.cacheDir, log: ctx.log })).dir;
      return { dir: folder, ...(await loadSafeArena(folder)) };
    },
    tools: safeArenaTools,
    grade: gradeSafeArena,
  },
};

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

function outcomeOf(v: SecurityVerdict): Verdict['outcome'] {
  if (v.refused) return 'refused';
  const reached = v.role === 'harmful' ? v.attackSucceeded : v.taskCompleted;
  return reached ? 'passed' : 'failed';
}

function combinedSha(files: { sha256: string }[]): string {
  return createHash('sha256').update(files.map((f) => f.sha256).join('\n')).digest('hex');
}

export async function agenticSuite(id: AgenticId, settings: Record<string, unknown>, ctx: AgenticContext): Promise<BenchmarkSuite> {
  const mod = MODULES[id];
  const env = ctx.env ?? process.env;
  const dir = id === 'safearena' ? '' : dataDirFor(id, settings.path as string | undefined, env);
  const loaded = await mod.load(dir, settings, ctx);

  // Pair harmful instances with their benign twins; an instance is a pair (or a lone harmful one).
  const pairs = new Map<string, { harmful?: AgenticTask; benign?: AgenticTask; category: string }>();
  for (const task of loaded.tasks) {
    const p = pairs.get(task.pairId) ?? { category: task.category };
    p[task.role] = task;
    pairs.set(task.pairId, p);
  }
  const all = [...pairs.entries()].map(([pairId, p]) => ({ id: pairId, stratum: p.category }));
  const limit = ctx.limit ?? (settings.limit as number | undefined);
  const { ids, strata } = stratifiedSample(all, { seed: ctx.seed, limit, benchmark: id });
  const byTaskId = new Map(loaded.tasks.map((t) => [t.id, t]));
  const instances: SuiteInstance[] = ids.map((pairId) => {
    const p = pairs.get(pairId)!;
    return { id: pairId, category: p.category, control: p.benign && publicTask(p.benign), malicious: p.harmful && publicTask(p.harmful) };
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
      source: displayPath(loaded.files.length === 1 ? loaded.files[0].path : path.join(loaded.dir, id === 'safearena' ? '' : id)),
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
      const verdict = await mod.grade(full(task), scoreCtx.tools, output.answer ?? output.completion, ctx.judge);
      return { outcome: outcomeOf(verdict), security: verdict, ...(verdict.score !== undefined ? { result: `score ${verdict.score}` } : {}) };
    },
  };
}

export function agenticSettings(config: Config, id: AgenticId): Record<string, unknown> {
  return { ...(config.benchmarks[id] as Record<string, unknown>) };
}
