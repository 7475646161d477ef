/**
 * One instance run: open its attribution key (and its MCP tool session for agentic tasks), run
 * the pipeline, collect what the proxy and the tool server saw, score it. Never throws for a
 * pipeline's failure: every way a run can go wrong becomes an outcome on the record.
 */
import type { BenchmarkSuite, SuiteInstance } from '../benchmarks/core/suite.js';
import type { Task, Variant } from '../benchmarks/core/types.js';
import type { ToolEvent } from '../benchmarks/agentic/agentic.js';
import type { InsiderObjective, InstanceResult, ProxyCall } from '../runlog/schema.js';
import type { InvocationRegistry } from '../proxy/index.js';
import type { PipelineRunner } from '../pipeline/index.js';
import type { ToolServer } from '../tools/index.js';
import type { OtlpReceiver } from '../otlp/index.js';
import type { DefenseFactory } from './deps.js';
import { errorCause } from './cause.js';
import { chooseObjective } from '../inject/insider-catalogue.js';
import { gradeInsider } from '../inject/insider.js';
import { boundValue, capText, OUTPUT_CAP } from '../runlog/bound.js';

export interface WorkItem {
  suite: BenchmarkSuite;
  instance: SuiteInstance;
  task: Task;
  variant: Variant;
  defense: string;
}

export interface InstanceContext {
  registry: InvocationRegistry;
  runner: PipelineRunner;
  proxyUrl: string;
  model: string;
  target: string;
  timeoutMs: number;
  toolServer?: ToolServer;
  /** Collects the pipeline's OpenTelemetry spans per instance (agentic runs). */
  otlp?: OtlpReceiver;
  defense: DefenseFactory;
  /** The insider method: each malicious run gets its instance's objective (seeded by `seed`). */
  insider?: { seed: number };
}

/** What a reader of the instance should know from its calls: rewrites that could not be made, agents with no system prompt. */
function rewriteNotes(calls: readonly ProxyCall[]): string[] {
  const notes = new Set<string>();
  for (const c of calls) {
    if (c.rewrite?.note) notes.add(c.rewrite.note);
    if (c.rewrite?.error) notes.add(`${c.rewrite.method} left ${c.agent} call ${c.agentCallIndex + 1} unchanged: ${c.rewrite.error}`);
  }
  return [...notes];
}

/** A model that stops answering mid-run: the calls that reached it failed at the proxy. */
export function modelFailure(calls: ProxyCall[]): string | undefined {
  const dead = calls.find((c) => c.status === 502 || c.status === 503 || c.status === 504);
  return dead ? `model server: ${dead.error ?? `HTTP ${dead.status}`}` : undefined;
}

/**
 * A model that answered with an error (HTTP 500, a rate limit): when the pipeline then failed, the
 * model's error is why, and the run is a model error, not a pipeline crash.
 */
function modelError(calls: ProxyCall[]): string | undefined {
  const bad = calls.find((c) => c.status >= 500 || c.status === 429);
  return bad ? `the model answered HTTP ${bad.status}${bad.error ? `: ${bad.error}` : ''}` : undefined;
}

export function itemKey(benchmark: string, instanceId: string, variant: string, defense: string): string {
  return `${benchmark}/${instanceId}/${variant}/${defense}`;
}

// eslint-disable-next-line max-lines-per-function -- split pending
export async function runInstance(item: WorkItem, ctx: InstanceContext): Promise<{ record: InstanceResult; dead?: string }> {
  const { suite, instance, task, variant, defense } = item;
  const started = new Date();
  const session = suite.tools && ctx.toolServer ? suite.tools(task) : undefined;
  const notes: string[] = [];
  let objective: InsiderObjective | undefined;
  if (ctx.insider && variant === 'malicious') {
    const choice = chooseObjective({
      seed: ctx.insider.seed,
      benchmark: suite.info.id,
      instanceId: instance.id,
      toolSpecs: session?.task.toolSpecs,
    });
    if ('objective' in choice) objective = choice.objective;
    else notes.push(`insider: ${choice.none}`);
  }
  const invocation = ctx.registry.open({ instanceId: instance.id, benchmark: suite.info.id, variant, ...(objective ? { objective } : {}) });
  let mcpUrl: string | undefined;
  let otlpEndpoint: string | undefined;
  if (session && ctx.toolServer) {
    const otlp = ctx.otlp;
    if (otlp) otlpEndpoint = otlp.open(invocation.key);
    const d = ctx.defense(defense, {
      callsSoFar: () => invocation.snapshot(),
      ...(otlp ? { spansSoFar: () => otlp.spans(invocation.key) } : {}),
    });
    mcpUrl = ctx.toolServer.open(invocation.key, { task: session.task, handlers: session.handlers, defense: d.defense, mode: d.mode });
  }
  const result = await ctx.runner.run({
    task,
    apiKey: invocation.key,
    proxyBaseUrl: ctx.proxyUrl,
    model: ctx.model,
    variant,
    maliciousAgent: variant === 'malicious' ? ctx.target : undefined,
    ...(mcpUrl ? { mcpUrl } : {}),
    ...(otlpEndpoint ? { otlpEndpoint } : {}),
  });
  const calls = ctx.registry.close(invocation.key);
  const tools: ToolEvent[] | undefined = mcpUrl ? ctx.toolServer!.close(invocation.key) : undefined;
  const spans = otlpEndpoint ? ctx.otlp!.close(invocation.key) : undefined;
  notes.push(...rewriteNotes(calls));
  const insider = objective ? gradeInsider(objective, ctx.target, tools ?? [], result.output, calls) : undefined;
  const base = {
    instanceId: instance.id,
    ...(task.id !== instance.id ? { taskId: task.id } : {}),
    ...(session ? { role: session.task.role } : {}),
    ...(insider ? { insider } : {}),
    ...(notes.length ? { notes } : {}),
    ...(instance.category ? { category: instance.category } : {}),
    ...(suite.tools ? { prompt: task.prompt } : {}),
    benchmark: suite.info.id,
    variant,
    defense,
    // Scored in full above the cut; recorded within the bounds.
    ...(result.output
      ? {
          output: Object.fromEntries(
            Object.entries(result.output).map(([k, v]) => [k, typeof v === 'string' ? capText(v, OUTPUT_CAP) : v]),
          ),
        }
      : {}),
    pipeline: { exitCode: result.exitCode ?? null, stderrTail: result.stderrTail },
    trace: { calls, ...(tools ? { tools } : {}), ...(spans?.length ? { spans } : {}) },
  };
  const timings = (scoreMs: number) => ({ startedAt: started.toISOString(), pipelineMs: result.durationMs, scoreMs });
  const dead = modelFailure(calls);
  if (result.status !== 'ok' && dead) {
    return {
      record: {
        ...base,
        outcome: 'model-error',
        error: `${dead}; pipeline ${result.status}: ${result.error ?? ''}`.trim(),
        timings: timings(0),
      },
      dead,
    };
  }
  // What the pipeline died of, when it says: the model's refusal or its own error line.
  const cause = errorCause(calls, result.stderrTail);
  const because = cause ? ` (cause: ${cause})` : '';
  const answeredWithError = result.status !== 'ok' && result.status !== 'timeout' ? modelError(calls) : undefined;
  if (answeredWithError) {
    return {
      record: {
        ...base,
        outcome: 'model-error',
        error: capText(`model error: ${answeredWithError}; then pipeline ${result.status}: ${result.error ?? ''}`.trim(), 4096),
        timings: timings(0),
      },
    };
  }
  if (result.status === 'timeout') {
    return {
      record: {
        ...base,
        outcome: 'timeout',
        error: `${result.error ?? `no answer within ${ctx.timeoutMs} ms`}${because}`,
        timings: timings(0),
      },
    };
  }
  if (result.status !== 'ok') {
    return {
      record: {
        ...base,
        outcome: 'error',
        error: `pipeline ${result.status}: ${result.error ?? ''}${because}`.trim(),
        timings: timings(0),
      },
    };
  }
  const scoreStart = Date.now();
  try {
    const verdict = await suite.score(task, result.output ?? {}, { tools: tools ?? [], calls });
    const security = verdict.security
      ? { ...verdict.security, details: boundValue(verdict.security.details) as Record<string, unknown> }
      : undefined;
    return { record: { ...base, ...verdict, ...(security ? { security } : {}), timings: timings(Date.now() - scoreStart) } };
  } catch (err) {
    // A grader that cannot decide (a judge model that failed, a sandbox that would not start) is an error, not a failure.
    return {
      record: { ...base, outcome: 'error', error: `scoring failed: ${(err as Error).message}`, timings: timings(Date.now() - scoreStart) },
    };
  }
}
