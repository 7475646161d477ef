/**
 * RedCode's one tool: execute_code(language, code), run for real in the sandbox (execute.ts). It is
 * a hard sink (CODE_EXEC): the defense stages it like any other. Each call replays the earlier
 * calls of the same run first, so files written or deleted by one call are seen by the next, as in
 * upstream's container.
 */
import { tookEffect as tookEffectOf } from '../agentic/agentic.js';
import type { AgenticTask, ToolEvent, ToolHandler, ToolSpec } from '../agentic/agentic.js';
import type { DriverRun } from './driver.js';
import { executeRedCode, REDCODE_RUN_TIMEOUT_SEC, RedCodeSandboxError } from './execute.js';
import type { RedCodeGrading } from './load.js';

export const EXECUTE_CODE_SPEC: ToolSpec = {
  name: 'execute_code',
  description: 'Run a Python or Bash program on the machine and return what it printed (stdout, then stderr).',
  inputSchema: {
    type: 'object',
    properties: {
      language: { type: 'string', enum: ['python', 'bash'], description: 'The language of the program' },
      code: { type: 'string', description: 'The full program to run' },
    },
    required: ['language', 'code'],
    additionalProperties: false,
  },
  sinks: ['CODE_EXEC'],
};

/** How execute_code starts its answer when the code could not run at all (no sandbox, a sandbox that failed). */
export const EXECUTION_UNAVAILABLE = 'execute_code is unavailable: ';

export function redcodeGrading(task: AgenticTask): RedCodeGrading {
  const g = task.grading as unknown as RedCodeGrading | undefined;
  if (!g || typeof g.scenario !== 'number')
    throw new Error(`RedCode: task ${task.id} has no RedCode grading data (was it built by loadRedCode?)`);
  return g;
}

export function tookEffect(e: ToolEvent): boolean {
  return tookEffectOf(e);
}

/** The language argument, tolerating common spellings; undefined when it is neither. */
export function normalizeLanguage(v: unknown): 'python' | 'bash' | undefined {
  if (typeof v !== 'string') return undefined;
  const l = v.trim().toLowerCase();
  if (['python', 'python3', 'py'].includes(l)) return 'python';
  if (['bash', 'sh', 'shell'].includes(l)) return 'bash';
  return undefined;
}

/** The run an earlier execute_code event stands for, or undefined if it did not take effect. */
export function runOf(e: ToolEvent): DriverRun | undefined {
  if (e.tool !== EXECUTE_CODE_SPEC.name || !tookEffect(e)) return undefined;
  const language = normalizeLanguage(e.arguments.language);
  const code = e.arguments.code;
  return language && typeof code === 'string' ? { language, code, timeoutSec: REDCODE_RUN_TIMEOUT_SEC } : undefined;
}

export function formatExecution(o: { stdout: string; stderr: string; exitCode: number | null; timedOut: boolean }): string {
  let text = o.stdout + (o.stderr ? (o.stdout && !o.stdout.endsWith('\n') ? '\n' : '') + o.stderr : '');
  if (o.timedOut) text += `${text && !text.endsWith('\n') ? '\n' : ''}[timed out after ${REDCODE_RUN_TIMEOUT_SEC} s]`;
  if (text.trim() === '') text = `(no output; exit status ${o.exitCode})`;
  return text;
}

export function toolHandlers(task: AgenticTask): Record<string, ToolHandler> {
  const g = redcodeGrading(task);
  return {
    [EXECUTE_CODE_SPEC.name]: async (args, ctx) => {
      const language = normalizeLanguage(args.language);
      if (!language) return { result: `language must be "python" or "bash", got ${JSON.stringify(args.language)}`, isError: true };
      if (typeof args.code !== 'string' || args.code.trim() === '') return { result: 'code must be a non-empty string', isError: true };
      const prior = ctx.events.map(runOf).filter((r): r is DriverRun => r !== undefined);
      try {
        const report = await executeRedCode({
          runs: [...prior, { language, code: args.code, timeoutSec: REDCODE_RUN_TIMEOUT_SEC }],
          report: 'last',
          checks: [],
          processes: g.processes,
        });
        return { result: formatExecution(report.outputs[0]) };
      } catch (e) {
        if (e instanceof RedCodeSandboxError) return { result: `${EXECUTION_UNAVAILABLE}${e.message}`, isError: true };
        throw e;
      }
    },
  };
}
