/**
 * `saboteur validate --trace FILE [--policy FILE] [--tools FILE] [--format md|json]` (README: The taint
 * validator): the taint validator offline, on a run log (every instance's trace), on one trace
 * (`{"root": "...", "calls": [...], "tools": [...], "spans": [...], "toolDefinitions": [...]}`) or
 * on an OTLP JSON export of the pipeline's spans (GenAI conventions). Prints every staged sink's
 * decision with its attribution path; exit code 1 when any would be blocked or is unverifiable, so
 * it can gate recorded traces.
 *
 * It fails closed: an empty file, a file with nothing to validate (no spans, no tool calls), a
 * span without a valid trace or span id, and a call that cannot be placed in time are input
 * errors (exit 2) with the file and the place named, never "0 staged sinks".
 */
import { LIMITS, readInputText } from '../util/input-file.js';
import { BENCHMARKS } from '../benchmarks/registry.js';
import type { TraceToolSpec } from '../benchmarks/core/definition.js';
import { parseRunLog, proxyCallSchema, toolEventSchema, type ProxyCall } from '../runlog/schema.js';
import type { ToolEvent } from '../benchmarks/agentic/agentic.js';
import { z } from 'zod';
import { definitionOf } from './trace/tool-definitions.js';
import { adjudicateSink, formatPath, type SinkVerdict } from './adjudicate.js';
import { genAiView, isOtlpDocument, otlpSpanSchema, parseOtlpJson, OtlpInputError, type GenAiSpan, type OtlpSpan } from '../otlp/index.js';
import { SILENT_SETUPS, isOpaqueText, noLlmSpansHint } from './trace/readable.js';
import { joinConversations } from './trace/conversations.js';
import { loadPolicy, type Policy } from './policy.js';
import { propagate, type PathStep, type Propagation, type Scope } from './propagate.js';
import { buildTraceGraph, type BuiltTrace, type TraceInput } from './trace-graph.js';
import { checkOtlpText, checkSpans } from './trace-input-checks.js';
import { pushTo } from '../util/maps.js';
import { boundDepth } from '../runlog/bound.js';
import { InputError } from '../util/input-error.js';
import { explainTrace, explanationsMarkdown, type SinkExplanation } from './explain.js';
import { readToolList } from './tool-list.js';
import type { ToolDefinition } from './tool-profile.js';

export interface ValidateOptions {
  traceFile: string;
  policyFile?: string;
  format?: 'md' | 'json';
  scope?: Scope;
  propagate?: boolean;
  /** Per staged sink, the chain request → values → decision (explain.ts). */
  explain?: boolean;
  /** The team's tool list (`--tools`, tool-list.ts), for traces that carry no definitions. */
  toolsFile?: string;
}

export interface ValidatedSink {
  toolCallId: string;
  tool: string;
  agent?: string;
  decision: SinkVerdict['decision'];
  labels: string[];
  path: PathStep[];
  reason: string;
  /** Which trace of the file: the run log instance, or the OTLP trace id. */
  trace: string;
  /** What the defense of the recorded run decided, when the trace says. */
  recorded?: { decision: string; defense: string };
}

export class TraceInputError extends InputError {}

const bareTraceSchema = z.object({
  root: z.string(),
  calls: z.array(proxyCallSchema).default([]),
  tools: z.array(toolEventSchema).default([]),
  spans: z.array(otlpSpanSchema).optional(),
  /** Tool definitions (MCP tools/list or OpenAI function shape): descriptions, schemas, annotations. */
  toolDefinitions: z.array(z.record(z.string(), z.unknown())).optional(),
});

/** One trace of a file: a run log instance, an OTLP trace id, or the bare trace. */
export interface NamedTrace {
  name: string;
  input: TraceInput;
}

/** Declared tool labels of the registered benchmarks, so a run log validates as the live run saw it. */
function benchmarkSpecs(benchmark: string, tools: readonly ToolEvent[]): TraceToolSpec[] {
  const def = Object.hasOwn(BENCHMARKS, benchmark) ? BENCHMARKS[benchmark as keyof typeof BENCHMARKS] : undefined;
  return def?.traceToolSpecs?.(tools) ?? [];
}

/** The request of a recorded instance: its `prompt` when the run log keeps it, else the first user message the pipeline sent. */
function recoverRoot(rawInstance: unknown, calls: readonly ProxyCall[]): string {
  const prompt =
    (rawInstance as { prompt?: unknown; task?: { prompt?: unknown } })?.prompt ??
    (rawInstance as { task?: { prompt?: unknown } })?.task?.prompt;
  if (typeof prompt === 'string' && prompt !== '') return prompt;
  const first = [...calls]
    .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))
    .find((c) => c.request.messages?.some((m) => m.role === 'user') || c.request.prompt);
  return first?.request.messages?.find((m) => m.role === 'user')?.content ?? first?.request.prompt ?? '';
}

function spansOf(raw: unknown, where: string): OtlpSpan[] | undefined {
  if (raw === undefined) return undefined;
  const parsed = z.array(otlpSpanSchema).safeParse(raw);
  if (!parsed.success) throw new TraceInputError(`${where}: trace.spans is not a list of spans (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

function asInputError(check: () => void): void {
  try {
    check();
  } catch (err) {
    throw new TraceInputError((err as Error).message);
  }
}

/**
 * The root request of an OTLP trace: the first user message of its earliest top-level span; when
 * that is empty or opaque (an agent decorator called with no arguments records `{}`), or is a later
 * turn of the conversation its LLM calls carry (an agent run on the user's latest message), of its
 * earliest LLM call; else of its earliest span with one.
 */
function otlpRoot(spans: readonly OtlpSpan[]): string {
  const sorted = [...spans].sort((a, b) => a.startMs - b.startMs);
  // Views are read as needed: the request is nearly always in the first span or two.
  const memo = new Map<OtlpSpan, GenAiSpan>();
  const view = (s: OtlpSpan) => memo.get(s) ?? memo.set(s, genAiView(s)).get(s)!;
  const firstUser = (keep: (s: OtlpSpan) => boolean) => {
    for (const s of sorted) {
      if (!keep(s)) continue;
      const text = view(s).input.find((m) => m.role === 'user' && !isOpaqueText(m.text))?.text;
      if (text !== undefined) return text;
    }
    return undefined;
  };
  const top = firstUser((s) => !s.parentSpanId);
  const llm = firstUser((s) => view(s).op === 'chat');
  // A later run of a conversation: the agent was called with the user's latest turn, and its LLM
  // calls carry the whole conversation, which the request opened.
  if (top !== undefined && llm !== undefined && top !== llm && laterTurnOf(sorted, view, top)) return llm;
  return top ?? llm ?? firstUser(() => true) ?? '';
}

/** Whether `text` is a later user message (not the first) of an LLM call of the trace. */
function laterTurnOf(sorted: readonly OtlpSpan[], view: (s: OtlpSpan) => GenAiSpan, text: string): boolean {
  for (const s of sorted) {
    const v = view(s);
    if (v.op !== 'chat') continue;
    const users = v.input.filter((m) => m.role === 'user');
    if (users.slice(1).some((m) => m.text === text)) return true;
  }
  return false;
}

/**
 * OTLP spans alone (any dialect), one trace per trace id, each rooted at its request. Spans are
 * grouped in one pass; traces of LLM calls alone that continue one conversation are joined
 * (trace/conversations.ts).
 */
export function tracesOfSpans(spans: readonly OtlpSpan[]): NamedTrace[] {
  const byTrace = new Map<string, OtlpSpan[]>();
  for (const s of spans) {
    pushTo(byTrace, s.traceId, s);
  }
  return joinConversations(byTrace, genAiView).map(({ ids, spans: ss }) => ({
    name: ids.length === 1 ? `trace ${ids[0]}` : `trace ${ids[0]} and ${ids.length - 1} more of the same conversation`,
    input: { root: otlpRoot(ss), spans: ss },
  }));
}

export function tracesOfDocument(text: string, file: string): NamedTrace[] {
  if (text.trim() === '') throw new TraceInputError(`${file}: the file is empty: there is no trace to validate`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    // Not one JSON value: OTLP JSON lines (the collector's file exporter) is the one such format read here.
    doc = undefined;
  }
  if (doc === undefined || isOtlpDocument(doc)) {
    let spans: OtlpSpan[];
    try {
      checkOtlpText(text, file);
      spans = parseOtlpJson(text, file);
    } catch (err) {
      if (err instanceof OtlpInputError && doc === undefined)
        throw new TraceInputError(`${file}: neither a JSON document nor OTLP JSON lines: ${err.message}`);
      throw new TraceInputError(err instanceof Error ? err.message : String(err));
    }
    if (spans.length === 0)
      throw new TraceInputError(
        `${file}: the OTLP export holds no spans: there is nothing to validate (did the pipeline export its spans before the file was written? ${SILENT_SETUPS})`,
      );
    return tracesOfSpans(spans);
  }
  const o = doc as Record<string, unknown>;
  if (o && typeof o === 'object' && 'schemaVersion' in o && 'instances' in o) {
    const log = parseRunLog(text, file);
    const raw = (o.instances as unknown[]) ?? [];
    const traces = log.instances
      .map((inst, i) => ({ inst, raw: raw[i] }))
      .filter(({ inst }) => (inst.trace.tools?.length ?? 0) > 0 || (inst.trace as { spans?: unknown }).spans !== undefined)
      .map(({ inst, raw: r }) => {
        const tools = inst.trace.tools ?? [];
        const where = `${file}: instances ${inst.benchmark}/${inst.instanceId} (${inst.variant}, ${inst.defense})`;
        const spans = spansOf(((r as { trace?: { spans?: unknown } })?.trace ?? {}).spans, where);
        if (spans) asInputError(() => checkSpans(spans, where));
        return {
          name: `${inst.benchmark} ${inst.taskId ?? inst.instanceId} (${inst.variant}, defense ${inst.defense})`,
          input: {
            root: recoverRoot(r, inst.trace.calls),
            // A benchmark instance is one prompt: no user speaks after it (trace-graph.ts, TraceInput.singleTurn).
            singleTurn: true,
            calls: inst.trace.calls,
            tools: tools as ToolEvent[],
            ...(spans ? { spans } : {}),
            toolSpecs: benchmarkSpecs(inst.benchmark, tools as ToolEvent[]),
          },
        };
      });
    if (traces.length === 0)
      throw new TraceInputError(
        `${file}: the run log has no instance with tool calls or spans: there is nothing to validate (only agentic benchmarks record them)`,
      );
    return traces;
  }
  if (o && typeof o === 'object' && 'root' in o) {
    const parsed = bareTraceSchema.safeParse(o);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new TraceInputError(
        `${file}: ${i.path.join('.') || '(top level)'}: ${i.message} (a trace is {"root": "<the request>", "calls": [...proxy calls], "tools": [...tool events], "spans": [...]})`,
      );
    }
    const t = parsed.data;
    if (t.calls.length + t.tools.length + (t.spans?.length ?? 0) === 0)
      throw new TraceInputError(`${file}: the trace has no calls, tool events or spans: there is nothing to validate`);
    if (t.spans) asInputError(() => checkSpans(t.spans!, `${file}: spans`));
    const definitions = (t.toolDefinitions ?? []).map((d) => definitionOf(d)).filter((d): d is NonNullable<typeof d> => d !== undefined);
    return [
      {
        name: 'trace',
        input: {
          root: t.root,
          calls: t.calls,
          tools: t.tools as ToolEvent[],
          ...(t.spans ? { spans: t.spans } : {}),
          ...(definitions.length ? { toolDefinitions: definitions } : {}),
        },
      },
    ];
  }
  throw new TraceInputError(
    `${file}: not a trace saboteur reads: expected a run log (run.json), a trace {"root", "calls", "tools"}, or an OTLP JSON export ({"resourceSpans": [...]}, a list of them, or one per line)`,
  );
}

/**
 * A trace from a file held to the depth saboteur records its own traces at (docs/security.md, "Security",
 * Bounds): tool arguments, span attributes and definition schemas of any depth cannot overflow
 * the graph's walks. What saboteur recorded itself passes unchanged.
 */
function depthBounded(input: TraceInput): TraceInput {
  return {
    ...input,
    ...(input.tools ? { tools: input.tools.map((e) => ({ ...e, arguments: boundDepth(e.arguments) as Record<string, unknown> })) } : {}),
    ...(input.spans
      ? {
          spans: input.spans.map((sp) => ({
            ...sp,
            attributes: boundDepth(sp.attributes) as Record<string, unknown>,
            ...(sp.events ? { events: boundDepth(sp.events) as typeof sp.events } : {}),
          })),
        }
      : {}),
    ...(input.toolDefinitions
      ? {
          toolDefinitions: input.toolDefinitions.map((d) =>
            d.inputSchema ? { ...d, inputSchema: boundDepth(d.inputSchema) as Record<string, unknown> } : d,
          ),
        }
      : {}),
  };
}

/** What one trace of a file let the validator read (filled in by `validateTraces` when asked). */
export interface TraceReading {
  trace: string;
  toolCalls: number;
  llmCalls: number;
  /** Whether a request could be read (text someone wrote, not empty or opaque). */
  request: boolean;
  spans: readonly OtlpSpan[];
}

/** The graph of one trace of a file, held to the depth bound; input it cannot place is refused (TraceInputError). */
export function buildNamedTrace(t: NamedTrace, policy: Policy): BuiltTrace {
  const built = buildTraceGraph(depthBounded(t.input), policy);
  if (built.problems?.length)
    throw new TraceInputError(
      `${t.name}: ${built.problems.slice(0, 3).join('; ')}${built.problems.length > 3 ? ` (+${built.problems.length - 3} more)` : ''}`,
    );
  return built;
}

/** What one trace's adjudication computed, for a reader that shows more than the verdicts (`validate --explain`). */
export interface AdjudicatedTrace {
  trace: NamedTrace;
  built: BuiltTrace;
  propagation: Propagation;
  verdicts: readonly SinkVerdict[];
}

/**
 * Validates every trace of a parsed file: one verdict per staged sink. `readings` gets what each
 * trace let it read; `onTrace` sees each trace's graph, propagation and verdicts.
 */
export function validateTraces(
  traces: readonly NamedTrace[],
  policy: Policy,
  opts: { scope?: Scope; propagate?: boolean; readings?: TraceReading[]; onTrace?: (a: AdjudicatedTrace) => void } = {},
): ValidatedSink[] {
  const out: ValidatedSink[] = [];
  for (const t of traces) {
    const built = buildNamedTrace(t, policy);
    opts.readings?.push({
      trace: t.name,
      toolCalls: built.read?.toolCalls ?? 0,
      llmCalls: built.read?.llmCalls ?? 0,
      request: !isOpaqueText(t.input.root),
      spans: t.input.spans ?? [],
    });
    // adjudicateTrace's two steps, so that the propagation can be shown too.
    const propagation = propagate(built.graph, { reachability: opts.propagate === false });
    const verdicts = built.sinks.map((site) => adjudicateSink(built, propagation, site, policy, opts));
    opts.onTrace?.({ trace: t, built, propagation, verdicts });
    built.sinks.forEach((site, i) => {
      const v = verdicts[i];
      out.push({
        toolCallId: v.toolCallId,
        tool: v.tool,
        ...(v.agent !== undefined ? { agent: v.agent } : {}),
        decision: v.decision,
        labels: v.labels,
        path: v.path,
        reason: v.reason,
        trace: t.name,
        ...(site.staged ? { recorded: { decision: site.staged.decision, defense: site.staged.defense } } : {}),
      });
    });
  }
  return out;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/**
 * Refuses a file that let the validator read too little to judge (exit 2, never "0 staged
 * sinks"): no tool call in any of its traces, or a trace with tool calls and no request to hold
 * them against. Returns notices for traces it can judge only in part (tool calls but no LLM span:
 * a set-up that emits none).
 */
export function checkReadings(file: string, readings: readonly TraceReading[]): string[] {
  const withCalls = readings.filter((r) => r.toolCalls > 0);
  if (withCalls.length === 0) {
    const spans = readings.flatMap((r) => r.spans);
    const llm = readings.reduce((n, r) => n + r.llmCalls, 0);
    const why =
      llm > 0
        ? `its ${llm} LLM call${llm === 1 ? '' : 's'} made no tool call (a chat-only run has no sink to validate)`
        : noLlmSpansHint(spans.map(genAiView));
    throw new TraceInputError(`${file}: no tool call can be read from the file, so there is nothing to validate: ${why}`);
  }
  const blind = withCalls.find((r) => !r.request);
  if (blind)
    throw new TraceInputError(
      `${file}: ${blind.trace}: no request can be read (no span or LLM call carries a user message with text; an agent span's input of {} or {"args":[],"kwargs":{}} is not one), so its ${blind.toolCalls} tool call${blind.toolCalls === 1 ? '' : 's'} cannot be held against what the user asked`,
    );
  return withCalls
    .filter((r) => r.spans.length > 0 && r.llmCalls === 0)
    .map(
      (r) =>
        `${r.trace}: no LLM call in the trace, so tool calls were read from tool spans alone and what the model read is not seen (${SILENT_SETUPS})`,
    );
}

export function renderMarkdown(
  file: string,
  policy: Policy,
  sinks: readonly ValidatedSink[],
  traces: number,
  opts: { scope?: Scope; propagate?: boolean } = {},
  notices: readonly string[] = [],
  explained: readonly SinkExplanation[] = [],
): string {
  const lines = [
    `# saboteur validate: ${file}`,
    '',
    `policy: ${policy.source} · scope ${opts.scope ?? 'full'} · ${opts.propagate === false ? 'plain reachability' : 'propagation'} · ${traces} trace${traces === 1 ? '' : 's'}`,
    '',
  ];
  const byTrace = new Map<string, ValidatedSink[]>();
  for (const s of sinks) {
    pushTo(byTrace, s.trace, s);
  }
  for (const [name, list] of byTrace) {
    lines.push(`## ${name}`, '', '| tool call | tool | agent | decision | labels | why |', '|---|---|---|---|---|---|');
    for (const s of list)
      lines.push(
        `| ${cell(s.toolCallId)} | ${cell(s.tool)} | ${cell(s.agent ?? '')} | ${s.decision} | ${s.labels.join(', ')} | ${cell(s.reason)} |`,
      );
    for (const s of list) {
      if (s.decision === 'release' || s.path.length === 0) continue;
      lines.push('', `${s.toolCallId} ${s.tool}: ${formatPath(s.path)}`);
      for (const step of s.path) for (const e of step.evidence) lines.push(`  - ${step.node}: ${e}`);
    }
    lines.push('');
  }
  for (const n of notices) lines.push(`note: ${cell(n)}`, '');
  lines.push(...explanationsMarkdown(explained));
  const count = (d: string) => sinks.filter((s) => s.decision === d).length;
  lines.push(
    `${sinks.length} staged sink${sinks.length === 1 ? '' : 's'}: ${count('release')} released, ${count('block')} blocked, ${count('unverifiable')} unverifiable`,
  );
  return lines.join('\n');
}

/** The text of a trace file, read within its bound (TraceInputError naming the file, exit 2). */
export async function readTraceText(file: string): Promise<string> {
  try {
    return await readInputText(file, { what: 'the trace', maxBytes: LIMITS.trace });
  } catch (err) {
    throw new TraceInputError(
      /ENOENT/.test((err as Error).message) ? `trace file ${file} does not exist (--trace)` : (err as Error).message,
    );
  }
}

/** Each trace with the team's tool list, when one was given. */
export function withToolList(traces: NamedTrace[], list: readonly ToolDefinition[] | undefined): NamedTrace[] {
  return list ? traces.map((t) => ({ ...t, input: { ...t.input, toolList: list } })) : traces;
}

/** The offline command: exit code 1 when any staged sink would be blocked or is unverifiable. Input errors throw (TraceInputError, PolicyError, RunLogError). */
export async function validateTrace(opts: ValidateOptions): Promise<{ exitCode: number; text: string }> {
  const text = await readTraceText(opts.traceFile);
  const policy = await loadPolicy(opts.policyFile);
  const traces = withToolList(tracesOfDocument(text, opts.traceFile), opts.toolsFile ? await readToolList(opts.toolsFile) : undefined);
  const run = { ...(opts.scope ? { scope: opts.scope } : {}), ...(opts.propagate !== undefined ? { propagate: opts.propagate } : {}) };
  const readings: TraceReading[] = [];
  const explained: SinkExplanation[] = [];
  const onTrace = opts.explain ? (a: AdjudicatedTrace) => explained.push(...explainTrace(a, opts.scope)) : undefined;
  const sinks = validateTraces(traces, policy, { ...run, readings, ...(onTrace ? { onTrace } : {}) });
  const notices = checkReadings(opts.traceFile, readings);
  const failing = sinks.some((s) => s.decision !== 'release');
  const out =
    opts.format === 'json'
      ? JSON.stringify(
          {
            sinks: sinks.map(({ toolCallId, tool, agent, decision, labels, path, reason, trace, recorded }, i) => ({
              toolCallId,
              tool,
              agent: agent ?? null,
              decision,
              labels,
              path,
              reason,
              trace,
              ...(recorded ? { recorded } : {}),
              ...(opts.explain ? { explain: explained[i] } : {}),
            })),
            ...(notices.length ? { notices } : {}),
          },
          null,
          2,
        )
      : renderMarkdown(opts.traceFile, policy, sinks, traces.length, run, notices, explained);
  return { exitCode: failing ? 1 : 0, text: out };
}
