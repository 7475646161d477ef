/** HumanEval as a benchmark suite: code tasks, scored by running the official tests in the sandbox. */
import os from 'node:os';
import path from 'node:path';
import { HumanEvalScorer, loadHumanEval, resolveHumanEvalFile, type HumanEvalProblem } from './humaneval/index.js';
import { sampleIds } from './core/sample.js';
import type { BenchmarkSuite } from './core/suite.js';
import type { BenchmarkLoadContext } from './core/definition.js';
import type { Task } from './core/types.js';

/** Paths under the working directory are shown relative, so reports read the same on every machine. */
export function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

export function humanEvalTask(p: HumanEvalProblem): Task {
  return { id: p.task_id, benchmark: 'humaneval', kind: 'code', prompt: p.prompt, entryPoint: p.entry_point, metadata: {} };
}

/** `benchmarks.humaneval` as the run reads it. */
export interface HumanEvalSettings {
  limit?: number;
  path?: string;
  timeoutMs: number;
}

export async function humanEvalSuite(settings: HumanEvalSettings, ctx: BenchmarkLoadContext): Promise<BenchmarkSuite> {
  const file = await resolveHumanEvalFile({ explicitPath: settings.path, cacheDir: ctx.cacheDir, log: ctx.log });
  const { problems, sha256, source } = await loadHumanEval(file);
  const limit = ctx.limit ?? settings.limit;
  const ids = sampleIds(
    problems.map((p) => p.task_id),
    { seed: ctx.seed, limit, benchmark: 'humaneval' },
  );
  const byId = new Map(problems.map((p) => [p.task_id, p]));
  // Warm sandboxes, started when the first completion comes and closed with the run: one lane per core.
  let scorer: HumanEvalScorer | undefined;
  const lanes = Math.max(1, Math.min(os.availableParallelism(), 8));
  return {
    info: {
      id: 'humaneval',
      kind: 'code',
      source: displayPath(source),
      sha256,
      total: problems.length,
      selected: ids.length,
      limit,
      seed: ctx.seed,
      instanceIds: ids,
    },
    instances: ids.map((id) => {
      const task = humanEvalTask(byId.get(id)!);
      return { id, control: task, malicious: task };
    }),
    async score(task, output) {
      if (typeof output.completion !== 'string') {
        return {
          outcome: 'error',
          error: 'the pipeline returned no `completion` for a code task (write {"completion": "..."} to SABOTEUR_OUTPUT_FILE)',
        };
      }
      scorer ??= new HumanEvalScorer({ isolation: ctx.isolation, lanes, timeoutMs: settings.timeoutMs, log: ctx.log });
      const verdict = await scorer.score(byId.get(task.id)!, output.completion);
      // The official verdict stays as it is; why it failed (the test line, the exception) is the record's error.
      return {
        outcome: verdict.passed ? 'passed' : 'failed',
        result: verdict.result,
        ...(verdict.reason ? { error: verdict.reason } : {}),
      };
    },
    reference(task) {
      const p = byId.get(task.id);
      if (!p) return undefined;
      const code = `${p.prompt}${p.canonical_solution}`.trimEnd();
      return {
        taskId: p.task_id,
        prompt: p.prompt,
        anchors: [`def ${p.entry_point}(`],
        answer: `\`\`\`python\n${code}\n\`\`\``,
        continuation: p.canonical_solution,
      };
    },
    async close() {
      await scorer?.close();
    },
  };
}
