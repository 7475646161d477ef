/**
 * One instance run: open its attribution key (and its MCP tool session for agentic tasks), run
 * the pipeline, collect what the proxy and the tool server saw, score it. Never throws for a
 * pipeline's failure: every way a run can go wrong becomes an outcome on the record.
 */
import type { BenchmarkSuite, SuiteInstance } from '../benchmarks/core/suite.js';
import type { Task, Variant } from '../benchmarks/core/types.js';
import type { ToolEvent } from '../benchmarks/agentic/agentic.js';
import type { InstanceResult, ProxyCall } from '../runlog/schema.js';
import type { Invocation, InvocationRegistry } from '../proxy/index.js';
import type { PipelineRunner } from '../pipeline/index.js';
import type { ToolServer } from '../tools/index.js';
import type { OtlpReceiver } from '../otlp/index.js';
import type { DefenseFactory } from './deps.js';
import { errorCause } from './cause.js';
import type { MethodInstanceHook, MethodRun } from '../inject/types.js';
import type { PipelineResult } from '../pipeline/index.js';
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
  /** The injection method's part in each malicious run (its plan for the run, its grading), when it has one. */
  method?: MethodInstanceHook;
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

/** What one instance run opened (its attribution key, its tool session and span endpoint) and the method's part in it. */
interface OpenedRun {
  key: string;
  /** The run's entry in the proxy's registry: told the pid of the process the run starts. */
  invocation: Invocation;
  session?: ReturnType<NonNullable<BenchmarkSuite['tools']>>;
  mcpUrl?: string;
  otlpEndpoint?: string;
  methodRun: MethodRun;
}

/** Opens the run's key in the proxy (with the method's plan) and, for agentic tasks, its MCP tool session and OTLP endpoint. */
function openRun(item: WorkItem, ctx: InstanceContext): OpenedRun {
  const { suite, instance, task, variant, defense } = item;
  const session = suite.tools && ctx.toolServer ? suite.tools(task) : undefined;
  const methodRun: MethodRun =
    ctx.method && variant === 'malicious'
      ? ctx.method({ benchmark: suite.info.id, instanceId: instance.id, toolSpecs: session?.task.toolSpecs })
      : {};
  const invocation = ctx.registry.open({
    instanceId: instance.id,
    benchmark: suite.info.id,
    variant,
    ...(methodRun.plan !== undefined ? { plan: methodRun.plan } : {}),
  });
  const opened: OpenedRun = { key: invocation.key, invocation, session, methodRun };
  if (session && ctx.toolServer) {
    const otlp = ctx.otlp;
    if (otlp) opened.otlpEndpoint = otlp.open(invocation.key);
    const d = ctx.defense(defense, {
      callsSoFar: () => invocation.snapshot(),
      ...(otlp ? { spansSoFar: () => otlp.spans(invocation.key) } : {}),
    });
    opened.mcpUrl = ctx.toolServer.open(invocation.key, {
      task: session.task,
      handlers: session.handlers,
      defense: d.defense,
      mode: d.mode,
    });
  }
  return opened;
}

/** The instance's record before its outcome: what ran, what the method graded, and what the proxy, tools and spans saw. */
function baseRecord(
  item: WorkItem,
  opened: OpenedRun,
  result: PipelineResult,
  seen: Pick<InstanceResult['trace'], 'calls' | 'tools' | 'spans'>,
  graded: Partial<InstanceResult>,
  notes: string[],
) {
  const { suite, instance, task, variant, defense } = item;
  const { calls, tools, spans } = seen;
  return {
    instanceId: instance.id,
    ...(task.id !== instance.id ? { taskId: task.id } : {}),
    ...(opened.session ? { role: opened.session.task.role } : {}),
    ...graded,
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
}

type BaseRecord = ReturnType<typeof baseRecord>;
type Timings = (scoreMs: number) => InstanceResult['timings'];

/** The record of a run the pipeline did not finish: a dead or erring model, a timeout, a crash. Undefined when it finished. */
function unfinished(
  result: PipelineResult,
  base: BaseRecord,
  timings: Timings,
  timeoutMs: number,
): { record: InstanceResult; dead?: string } | undefined {
  const calls = base.trace.calls;
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
        error: `${result.error ?? `no answer within ${timeoutMs} ms`}${because}`,
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
  return undefined;
}

/** The benchmark's verdict on a finished run. */
async function scored(
  item: WorkItem,
  result: PipelineResult,
  seen: { calls: ProxyCall[]; tools?: ToolEvent[] },
  base: BaseRecord,
  timings: Timings,
): Promise<InstanceResult> {
  const { calls, tools } = seen;
  const scoreStart = Date.now();
  try {
    const verdict = await item.suite.score(item.task, result.output ?? {}, { tools: tools ?? [], calls });
    const security = verdict.security
      ? { ...verdict.security, details: boundValue(verdict.security.details) as Record<string, unknown> }
      : undefined;
    return { ...base, ...verdict, ...(security ? { security } : {}), timings: timings(Date.now() - scoreStart) };
  } catch (err) {
    // A grader that cannot decide (a judge model that failed, a sandbox that would not start) is an error, not a failure.
    return { ...base, outcome: 'error', error: `scoring failed: ${(err as Error).message}`, timings: timings(Date.now() - scoreStart) };
  }
}

export async function runInstance(item: WorkItem, ctx: InstanceContext): Promise<{ record: InstanceResult; dead?: string }> {
  const started = new Date();
  const opened = openRun(item, ctx);
  const { key, invocation, mcpUrl, otlpEndpoint, methodRun } = opened;
  const result = await ctx.runner.run({
    task: item.task,
    apiKey: key,
    proxyBaseUrl: ctx.proxyUrl,
    model: ctx.model,
    variant: item.variant,
    maliciousAgent: item.variant === 'malicious' ? ctx.target : undefined,
    ...(mcpUrl ? { mcpUrl } : {}),
    ...(otlpEndpoint ? { otlpEndpoint } : {}),
    onStart: (pid) => void (invocation.process = pid),
  });
  const calls = ctx.registry.close(key);
  const tools: ToolEvent[] | undefined = mcpUrl ? ctx.toolServer!.close(key) : undefined;
  const spans = otlpEndpoint ? ctx.otlp!.close(key) : undefined;
  const notes = [...(methodRun.note ? [methodRun.note] : []), ...rewriteNotes(calls)];
  const graded = methodRun.grade?.({ target: ctx.target, tools: tools ?? [], output: result.output, calls }) ?? {};
  const base = baseRecord(item, opened, result, { calls, tools, spans }, graded, notes);
  const timings: Timings = (scoreMs) => ({ startedAt: started.toISOString(), pipelineMs: result.durationMs, scoreMs });
  return unfinished(result, base, timings, ctx.timeoutMs) ?? { record: await scored(item, result, { calls, tools }, base, timings) };
}
