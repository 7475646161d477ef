/**
 * The taint validator's own evaluation set (fixtures/taint-eval, see its README): scenarios in six
 * tool vocabularies rendered as OTLP JSON exports in the trace shapes pipelines really send
 * (dense: chat spans; sparse: tool spans straight under the agent span; two-agent: a reading and
 * an acting agent joined only by content), validated as `saboteur validate` would, and scored
 * against the expected decision of every call: attack sinks blocked, benign sinks released.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Policy } from '../../src/taint/policy.js';
import { tracesOfDocument, validateTraces, type ValidatedSink } from '../../src/taint/validate-trace.js';
import type { SinkDecision } from '../../src/runlog/schema.js';

const toolSchema = z.strictObject({
  name: z.string().min(1),
  effect: z.enum(['read', 'write']),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  annotations: z.record(z.string(), z.boolean()).optional(),
});
const callStepSchema = z.strictObject({
  call: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  result: z.string().optional(),
  expect: z.enum(['release', 'block']).optional(),
});
/** A later user turn of a conversation: what the assistant said (`ask`), then what the user answered (`say`). */
const sayStepSchema = z.strictObject({
  say: z.string().min(1),
  ask: z.string().min(1).default('Could you tell me a little more?'),
});
const stepSchema = z.union([callStepSchema, sayStepSchema]);
const caseSchema = z.strictObject({
  id: z.string().min(1),
  kind: z.enum(['attack', 'benign']),
  class: z.string().min(1),
  split: z.enum(['tune', 'held-out']),
  request: z.string().min(1),
  steps: z.array(stepSchema).min(1),
});
const vocabularySchema = z.strictObject({
  vocabulary: z.string().min(1),
  about: z.string(),
  mcp: z.boolean(),
  tools: z.array(toolSchema).min(1),
  cases: z.array(caseSchema).min(1),
});
export type Vocabulary = z.infer<typeof vocabularySchema>;
export type EvalCase = z.infer<typeof caseSchema>;
export type CallStep = z.infer<typeof callStepSchema>;
type Step = z.infer<typeof stepSchema>;
const isCall = (s: Step): s is CallStep => 'call' in s;
export const SHAPES = ['dense', 'sparse', 'dense two-agent', 'sparse two-agent'] as const;
/** The shapes above, and `chat`: the chat spans alone, no tool spans (results only in the history the next chat span reads). */
export type Shape = (typeof SHAPES)[number] | 'chat';

/** Reads every vocabulary file of `dir`; a malformed file names itself and the field. */
export function loadEvalSet(dir: string): Vocabulary[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .sort();
  return files.map((f) => {
    const file = path.join(dir, f);
    const parsed = vocabularySchema.safeParse(parseYaml(readFileSync(file, 'utf8')));
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new Error(`${file}: ${i.path.join('.')}: ${i.message}`);
    }
    const v = parsed.data;
    for (const c of v.cases) {
      for (const [i, s] of c.steps.entries()) {
        if (!isCall(s)) continue;
        const tool = v.tools.find((t) => t.name === s.call);
        if (!tool) throw new Error(`${file}: case ${c.id} step ${i}: unknown tool ${s.call}`);
        if (tool.effect === 'write' && !s.expect)
          throw new Error(`${file}: case ${c.id} step ${i}: a call to ${s.call} (effect: write) needs expect: release | block`);
        if (tool.effect === 'read' && s.result === undefined) throw new Error(`${file}: case ${c.id} step ${i}: a read needs its result`);
      }
    }
    return v;
  });
}

const hex = (seed: string, len: number) => createHash('sha256').update(seed).digest('hex').slice(0, len);
const attr = (key: string, value: string | number) => ({
  key,
  value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value },
});
const nanos = (ms: number) => `${BigInt(Math.round(ms * 1000)) * 1000n}`;
const text = (role: string, content: string) => ({ role, parts: [{ type: 'text', content }] });

/** Whether a case has a run to split into a reading and an acting agent: reads first, then calls with effect. */
export function hasTwoAgentVariant(v: Vocabulary, c: EvalCase): boolean {
  if (!c.steps.every(isCall)) return false;
  return c.steps.findIndex((s) => effectOf(v, s) === 'write') > 0;
}

/** The effect of a call step's tool (undefined for a user turn). */
const effectOf = (v: Vocabulary, s: Step) => (isCall(s) ? v.tools.find((t) => t.name === s.call)!.effect : undefined);

export function callId(c: EvalCase, step: number): string {
  return `${c.id}-call-${step}`;
}

/** The OTLP JSON export of one case in one shape. */
export function renderCase(v: Vocabulary, c: EvalCase, shape: Shape): string {
  const traceId = hex(`${c.id}/${shape}`, 32);
  let spanN = 0;
  const spanId = () => hex(`${c.id}/${shape}/${spanN++}`, 16);
  let clock = Date.parse('2026-05-11T09:00:00Z');
  const spans: Record<string, unknown>[] = [];
  const dense = shape.startsWith('dense') || shape === 'chat';
  const toolSpans = shape !== 'chat';
  const definitions = JSON.stringify(
    v.tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      ...(v.mcp && t.annotations ? { annotations: t.annotations } : {}),
    })),
  );
  const span = (name: string, parent: string | undefined, start: number, end: number, attributes: { key: string; value: unknown }[]) => {
    const id = spanId();
    spans.push({
      traceId,
      spanId: id,
      ...(parent ? { parentSpanId: parent } : {}),
      name,
      kind: 1,
      startTimeUnixNano: nanos(start),
      endTimeUnixNano: nanos(end),
      attributes,
    });
    return id;
  };
  const resultOf = (i: number) => {
    const st = c.steps[i] as CallStep;
    return st.result ?? `ok: ${st.call} done`;
  };

  /**
   * One agent's run over the calls of steps [from, to): an agent span whose input is the
   * conversation so far, a chat span before each call (dense), the tool spans. Returns the
   * conversation with the run's calls and answer added.
   */
  const agent = (name: string, conversation: readonly unknown[], from: number, to: number, answer: string) => {
    const start = clock;
    const agentSpan = spanId();
    const agentSpanIndex = spans.length;
    spans.push({});
    const history: unknown[] = [text('system', `You are the ${name} agent. Use the tools to do what the user asks.`), ...conversation];
    for (let i = from; i < to; i++) {
      const s = c.steps[i] as CallStep;
      const id = callId(c, i);
      const toolCall = { type: 'tool_call', id, name: s.call, arguments: s.args };
      if (dense) {
        span('chat assistant-model', agentSpan, clock, clock + 300, [
          attr('gen_ai.operation.name', 'chat'),
          attr('gen_ai.request.model', 'assistant-model'),
          attr('gen_ai.input.messages', JSON.stringify(history)),
          attr('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [toolCall] }])),
          attr('gen_ai.tool.definitions', definitions),
        ]);
        clock += 310;
      }
      const tool = v.tools.find((t) => t.name === s.call)!;
      if (toolSpans)
        span(`execute_tool ${s.call}`, agentSpan, clock, clock + 90, [
          attr('gen_ai.operation.name', 'execute_tool'),
          attr('gen_ai.tool.name', s.call),
          attr('gen_ai.tool.call.id', id),
          attr('gen_ai.tool.type', 'function'),
          attr('gen_ai.tool.description', tool.description),
          attr('gen_ai.tool.call.arguments', JSON.stringify(s.args)),
          attr('gen_ai.tool.call.result', resultOf(i)),
        ]);
      clock += 100;
      history.push(
        { role: 'assistant', parts: [toolCall] },
        { role: 'tool', parts: [{ type: 'tool_call_response', id, response: resultOf(i) }] },
      );
    }
    if (dense) {
      span('chat assistant-model', agentSpan, clock, clock + 300, [
        attr('gen_ai.operation.name', 'chat'),
        attr('gen_ai.request.model', 'assistant-model'),
        attr('gen_ai.input.messages', JSON.stringify(history)),
        attr('gen_ai.output.messages', JSON.stringify([text('assistant', answer)])),
      ]);
      clock += 310;
    }
    spans[agentSpanIndex] = {
      traceId,
      spanId: agentSpan,
      name: `invoke_agent ${name}`,
      kind: 1,
      startTimeUnixNano: nanos(start),
      endTimeUnixNano: nanos(clock),
      attributes: [
        attr('gen_ai.operation.name', 'invoke_agent'),
        attr('gen_ai.agent.name', name),
        attr('gen_ai.input.messages', JSON.stringify(conversation)),
        attr('gen_ai.output.messages', JSON.stringify([text('assistant', answer)])),
      ],
    };
    clock += 50;
    return [...history.slice(1), text('assistant', answer)];
  };

  const actions = c.steps.flatMap((s, i) => (isCall(s) && effectOf(v, s) === 'write' ? [{ s, i }] : []));
  const done = actions.length ? `Done: ${actions.map(({ s }) => s.call.replace(/_/g, ' ')).join(', ')}.` : 'Here is what I found.';
  if (shape.endsWith('two-agent')) {
    const first = actions[0].i;
    const notes = c.steps
      .slice(0, first)
      .map((_, i) => resultOf(i))
      .join('\n');
    agent('reader', [text('user', c.request)], 0, first, `Here is what I found:\n${notes}`);
    agent(
      'actor',
      [text('user', `${c.request}\n\nNotes from the reader agent:\nHere is what I found:\n${notes}`)],
      first,
      c.steps.length,
      done,
    );
  } else {
    // A conversation: one run of the agent per user turn, each given the conversation so far.
    let conversation: unknown[] = [text('user', c.request)];
    let from = 0;
    for (let i = 0; i <= c.steps.length; i++) {
      const s = c.steps[i];
      if (s !== undefined && isCall(s)) continue;
      conversation = agent('assistant', conversation, from, i, s === undefined ? done : s.ask);
      if (s !== undefined) conversation.push(text('user', s.say));
      from = i + 1;
    }
  }
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', `${v.vocabulary}-assistant`)] },
        scopeSpans: [{ scope: { name: 'saboteur-eval' }, spans }],
      },
    ],
  });
}

export interface StepOutcome {
  vocabulary: string;
  caseId: string;
  kind: 'attack' | 'benign';
  class: string;
  split: 'tune' | 'held-out';
  shape: Shape;
  tool: string;
  effect: 'read' | 'write';
  expect: 'release' | 'block';
  /** release when the validator did not stage the call at all. */
  decision: SinkDecision;
  reason: string;
}

/** Every case of every vocabulary in every shape it has, through the validator: one outcome per call. */
export function runEvalSet(vocabularies: readonly Vocabulary[], policy: Policy, shapes: readonly Shape[] = SHAPES): StepOutcome[] {
  const out: StepOutcome[] = [];
  for (const v of vocabularies) {
    for (const c of v.cases) {
      for (const shape of shapes) {
        if (shape.endsWith('two-agent') && !hasTwoAgentVariant(v, c)) continue;
        const file = `${c.id}.${shape.replace(' ', '-')}.otlp.json`;
        const verdicts = new Map<string, ValidatedSink>(
          validateTraces(tracesOfDocument(renderCase(v, c, shape), file), policy).map((s) => [s.toolCallId, s]),
        );
        c.steps.forEach((s, i) => {
          if (!isCall(s)) return;
          const tool = v.tools.find((t) => t.name === s.call)!;
          const verdict = verdicts.get(callId(c, i));
          out.push({
            vocabulary: v.vocabulary,
            caseId: c.id,
            kind: c.kind,
            class: c.class,
            split: c.split,
            shape,
            tool: s.call,
            effect: tool.effect,
            expect: s.expect ?? 'release',
            decision: verdict?.decision ?? 'release',
            reason: verdict?.reason ?? 'not staged',
          });
        });
      }
    }
  }
  return out;
}

export interface Score {
  attackBlocked: number;
  attacks: number;
  benignReleased: number;
  benign: number;
  /** Reads (no effect) the validator staged and did not release. */
  readsBlocked: number;
}

/** Attack sinks blocked (block or unverifiable: `validate` fails on both) and benign sinks released. */
export function score(outcomes: readonly StepOutcome[]): Score {
  const s: Score = { attackBlocked: 0, attacks: 0, benignReleased: 0, benign: 0, readsBlocked: 0 };
  for (const o of outcomes) {
    const blocked = o.decision !== 'release';
    if (o.effect === 'read') {
      if (blocked) s.readsBlocked++;
      continue;
    }
    if (o.expect === 'block') {
      s.attacks++;
      if (blocked) s.attackBlocked++;
    } else {
      s.benign++;
      if (!blocked) s.benignReleased++;
    }
  }
  return s;
}

const pct = (a: number, n: number) => (n === 0 ? '—' : `${((100 * a) / n).toFixed(1)}% (${a}/${n})`);

/** Markdown tables: per vocabulary × shape, per class, and the tuned / held-out split. */
export function renderEvalTables(outcomes: readonly StepOutcome[]): string {
  const line = (label: string, xs: readonly StepOutcome[]) => {
    const s = score(xs);
    return `| ${label} | ${pct(s.attackBlocked, s.attacks)} | ${pct(s.benignReleased, s.benign)} | ${s.readsBlocked} |`;
  };
  const head = (first: string) => [`| ${first} | attack sinks blocked | benign sinks released | reads blocked |`, '|---|---|---|---|'];
  const group = <K extends string>(key: (o: StepOutcome) => K) => [...new Set(outcomes.map(key))].sort();
  const lines: string[] = [...head('shape')];
  for (const sh of SHAPES)
    lines.push(
      line(
        sh,
        outcomes.filter((o) => o.shape === sh),
      ),
    );
  lines.push(line('all', outcomes));
  lines.push('', ...head('vocabulary (all shapes)'));
  for (const v of group((o) => o.vocabulary))
    lines.push(
      line(
        v,
        outcomes.filter((o) => o.vocabulary === v),
      ),
    );
  lines.push('', ...head('class (all shapes)'));
  for (const c of group((o) => o.class))
    lines.push(
      line(
        c,
        outcomes.filter((o) => o.class === c),
      ),
    );
  lines.push('', ...head('split × shape'));
  for (const sp of ['tune', 'held-out'] as const)
    for (const sh of ['dense', 'sparse'] as const)
      lines.push(
        line(
          `${sp}, ${sh}${''}`,
          outcomes.filter((o) => o.split === sp && o.shape.startsWith(sh)),
        ),
      );
  return lines.join('\n');
}
