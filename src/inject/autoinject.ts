/**
 * AutoInject (after Huang et al., ICML 2025, "On the Resilience of LLM-Based Multi-Agent
 * Collaboration with Faulty Agents"): a message of the target agent is hit with probability Pm, and
 * each unit of a hit message (a code line, a sentence of prose, an argument of a tool call) is drawn
 * with probability Pe and corrupted in the configured mode: `logic-edit` (deterministic edits that
 * still parse), `syntax-error` (edits that break the syntax, as the paper's syntactic runs) or
 * `semantic` (a model rewrites each drawn unit to give a wrong result, as the paper's semantic runs).
 *
 * Every draw is keyed by (seed, instanceId, agent, agentCallIndex), never by the variant or the
 * arrival order: the malicious run of an instance hits the same messages whenever it runs, and its
 * control twin sees the same calls untouched, so the two are paired. Every hit is recorded, with
 * the units drawn and changed and why the rest could not be, so the effective Pe is known.
 */
import type { Corruption, CorruptionMode, Hit } from '../runlog/schema.js';
import type { ToolCall } from '../model/openai-wire.js';
import { rngFor } from './prng.js';
import { buildSemanticPrompt, loadSemanticTemplate, parseSemanticAnswer, type SemanticUnit } from './semantic-prompt.js';
import { corruptUnit } from './logic-edit.js';
import { fallbackEdit } from './fallback-edit.js';
import { breakUnit } from './syntax-error.js';
import { argumentLabel, argumentUnits, brokenArgument, setAt, wrongArgument, type ArgumentUnit } from './tool-args.js';
import { targetsCall, type InjectionContext, type InjectionResult, type Injector, type ResponseView } from './types.js';
import { applyRewrites, segment, type Unit } from './units.js';
import { InputError } from '../util/input-error.js';

export interface AutoInjectOptions {
  /** The agent whose messages are corrupted, or `all`. */
  target: string;
  /** Pm: the chance a message of the target is hit. */
  messageRate: number;
  /** Pe: the chance each unit of a hit message is corrupted. */
  errorRate: number;
  corruption: CorruptionMode;
  seed: number;
  /** Asks a model (semantic mode): `createSemanticModel` (model/ask.ts) is the usual one. */
  semantic?: (prompt: string) => Promise<string>;
  /** The semantic prompt template; prompts/autoinject-semantic.md when absent. */
  template?: string;
}

export class InjectConfigError extends InputError {}

/** One unit of a hit response: a span of its text, or an argument of one of its tool calls. */
interface Piece {
  index: number;
  kind: 'line' | 'sentence' | 'argument';
  text: string;
  unit?: Unit;
  arg?: ArgumentUnit;
}

interface Edit {
  /** The new text (text units) or value (arguments). */
  after: string | number | boolean;
  rule: string;
  /** syntax-error on an argument: the raw JSON text that replaces the value. */
  raw?: string;
}

const MAX_UNCHANGED_LISTED = 50;

const WOULD_CHANGE: Record<CorruptionMode, string> = {
  'logic-edit': 'the syntax-error or semantic mode would change it',
  semantic: 'the syntax-error mode would change it',
  'syntax-error': 'no mode changes an empty unit',
};

function checkRate(name: string, key: string, value: number): void {
  if (!(value >= 0 && value <= 1)) throw new InjectConfigError(`variants.malicious.${key}: ${name} must be between 0 and 1, got ${value}`);
}

function displayValue(v: string | number | boolean): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function noRuleReason(p: Piece): string {
  if (p.kind === 'argument') return `no ${p.arg!.kind} rule fits this argument`;
  return p.kind === 'line'
    ? 'no logic-edit rule fits this code line'
    : 'no logic-edit rule fits this sentence (no negation, number or listed antonym)';
}

/** The tool calls with the argument edits applied; a syntax-error edit leaves the arguments unparsable. */
function rebuildToolCalls(calls: readonly ToolCall[], edits: ReadonlyMap<number, Edit>, pieces: readonly Piece[]): ToolCall[] {
  return calls.map((call, ci) => {
    const mine = pieces.filter((p) => p.arg?.call === ci && edits.has(p.index));
    if (mine.length === 0) return { ...call };
    let args: unknown = JSON.parse(call.arguments === '' ? '{}' : call.arguments);
    const raws: [string, string][] = [];
    for (const p of mine) {
      const e = edits.get(p.index)!;
      if (e.raw !== undefined) {
        const sentinel = `\u0000saboteur-${p.index}\u0000`;
        raws.push([JSON.stringify(sentinel), e.raw]);
        args = setAt(args, p.arg!.path, sentinel);
      } else args = setAt(args, p.arg!.path, e.after);
    }
    let text = JSON.stringify(args);
    for (const [sentinel, raw] of raws) text = text.replace(sentinel, () => raw);
    return { ...call, arguments: text };
  });
}

/** The per-unit rule draws of one call: keyed by the run's seed and the call, never by arrival order. */
type RuleRng = (index: number) => () => number;

function callKey(seed: number, ctx: InjectionContext) {
  return [seed, ctx.instanceId, ctx.agent, ctx.agentCallIndex] as const;
}

function logicEdit(p: Piece, ruleRng: RuleRng): Edit | undefined {
  if (p.arg) return wrongArgument(p.arg, ruleRng(p.index));
  const edit = corruptUnit(p.text, p.kind as 'line' | 'sentence', ruleRng(p.index));
  if (edit || p.kind !== 'line') return edit;
  return fallbackEdit(p.text, p.unit?.whole);
}

function syntaxEdit(p: Piece, ruleRng: RuleRng): Edit | undefined {
  if (p.arg) {
    const b = brokenArgument(p.arg, ruleRng(p.index));
    return { after: b.raw, rule: b.rule, raw: b.raw };
  }
  return breakUnit(p.text, p.kind as 'line' | 'sentence', ruleRng(p.index));
}

interface SemanticEdits {
  edits: Map<number, Edit>;
  fallback?: string;
  asked: Set<number>;
}

/** Semantic mode: text units and free-text arguments go to the model; the rest, and whatever it leaves, to the logic-edit rules. */
async function semanticEdits(
  ask: (prompt: string) => Promise<string>,
  template: string,
  content: string,
  pieces: readonly Piece[],
  drawn: readonly Piece[],
  ruleRng: RuleRng,
): Promise<SemanticEdits> {
  const edits = new Map<number, Edit>();
  const fallBack = (which: readonly Piece[]) => {
    for (const p of which) {
      const e = logicEdit(p, ruleRng);
      if (e) edits.set(p.index, e);
    }
  };
  const toModel = drawn.filter((p) => !p.arg || p.arg.kind === 'text');
  const asked = new Set(toModel.map((p) => p.index));
  fallBack(drawn.filter((p) => !asked.has(p.index)));
  if (toModel.length === 0) return { edits, asked };
  const shown: SemanticUnit[] = pieces.map((p) => ({
    index: p.index,
    text: p.text,
    kind: p.kind,
    ...(p.arg ? { label: argumentLabel(p.arg) } : {}),
  }));
  const wanted = toModel.map((p) => p.index);
  let answer: string;
  try {
    answer = await ask(buildSemanticPrompt(template, content, shown, wanted));
  } catch (err) {
    fallBack(toModel);
    return { edits, asked, fallback: `the semantic rewrite call failed: ${(err as Error).message}` };
  }
  const reading = parseSemanticAnswer(answer, shown, wanted);
  if (!reading.ok) {
    fallBack(toModel);
    return { edits, asked, fallback: reading.reason };
  }
  for (const [i, after] of reading.rewrites) edits.set(i, { after, rule: 'semantic' });
  const rest = toModel.filter((p) => !reading.rewrites.has(p.index));
  if (rest.length === 0) return { edits, asked };
  fallBack(rest);
  return {
    edits,
    asked,
    fallback: `${reading.problems.join(', ')}: the logic-edit rules served for ${rest.length === 1 ? 'that unit' : 'those units'}`,
  };
}

/** The units of a response: its text's lines and sentences, then its tool calls' arguments. */
function piecesOf(response: ResponseView): { pieces: Piece[]; textUnits: Unit[]; skipped: string[] } {
  const seg = segment(response.content);
  const args = argumentUnits(response.toolCalls);
  const pieces: Piece[] = [
    ...seg.units.map((u) => ({ index: u.index, kind: u.kind, text: u.text, unit: u })),
    ...args.units.map((a, j) => ({ index: seg.units.length + j, kind: 'argument' as const, text: displayValue(a.value), arg: a })),
  ];
  return { pieces, textUnits: seg.units, skipped: args.unreadable.map((u) => `tool call ${u.call + 1} (${u.tool}): ${u.reason}`) };
}

/** The drawn units that could not change, and why (the mode that would change them). */
function unchangedUnits(drawn: readonly Piece[], edits: ReadonlyMap<number, Edit>, asked: ReadonlySet<number>, corruption: CorruptionMode) {
  return drawn
    .filter((p) => !edits.has(p.index))
    .map((p) => ({
      index: p.index,
      kind: p.arg ? `argument:${p.arg.kind}` : p.kind,
      reason: `${asked.has(p.index) ? 'the model did not rewrite it and ' : ''}${noRuleReason(p)}${corruption === 'syntax-error' ? '' : `; ${WOULD_CHANGE[corruption]}`}`,
    }));
}

/** The response with the edits applied, and the record of what changed. */
function applyEdits(
  response: ResponseView,
  corruption: CorruptionMode,
  found: { pieces: Piece[]; textUnits: Unit[] },
  edits: ReadonlyMap<number, Edit>,
  fallback: string | undefined,
): { delivered: ResponseView; corruption: Corruption } {
  const { content, toolCalls } = response;
  const { pieces, textUnits } = found;
  const textEdits = new Map<number, string>();
  for (const [i, e] of edits) if (i < textUnits.length) textEdits.set(i, String(e.after));
  const after = textEdits.size ? applyRewrites(content, textUnits, textEdits) : content;
  const hasArgEdits = [...edits.keys()].some((i) => i >= textUnits.length);
  const deliveredCalls = hasArgEdits ? rebuildToolCalls(toolCalls, edits, pieces) : toolCalls.map((t) => ({ ...t }));
  const kinds = new Set([...edits.keys()].map((i) => (pieces[i].kind === 'argument' ? 'argument' : pieces[i].kind)));
  const ordered = [...edits.entries()].sort((a, b) => a[0] - b[0]);
  return {
    delivered: { content: after, toolCalls: deliveredCalls },
    corruption: {
      method: 'autoinject',
      mode: corruption,
      unit: kinds.size > 1 ? 'mixed' : ([...kinds][0] as 'line' | 'sentence' | 'argument'),
      before: content,
      after,
      units: ordered.map(([index, e]) => {
        const p = pieces[index];
        if (!p.arg) return { index, before: p.text, after: String(e.after), rule: e.rule, kind: p.kind };
        return {
          index,
          before: JSON.stringify(p.arg.value),
          after: e.raw ?? JSON.stringify(e.after),
          rule: e.rule,
          kind: 'argument' as const,
          target: argumentLabel(p.arg),
          argKind: p.arg.kind,
        };
      }),
      ...(hasArgEdits ? { toolCalls: { before: toolCalls.map((t) => ({ ...t })), after: deliveredCalls } } : {}),
      ...(fallback ? { fallback } : {}),
    },
  };
}

/** Draws the units of a hit response (Pe), edits them in the configured mode, and records what changed and what could not. */
async function corruptResponse(
  options: AutoInjectOptions,
  template: string,
  response: ResponseView,
  ctx: InjectionContext,
): Promise<InjectionResult> {
  const { seed, errorRate, corruption } = options;
  const { content, toolCalls } = response;
  const found = piecesOf(response);
  const { pieces, skipped } = found;
  const hit: Hit = { mode: corruption, units: pieces.length, drawn: 0, changed: 0, ...(skipped.length ? { skipped } : {}) };
  const unchangedResult = (why: string): InjectionResult => ({ hit: { ...hit, why }, delivered: { content, toolCalls } });
  if (pieces.length === 0) return unchangedResult('the response has no text and no tool call arguments to corrupt');
  const draw = rngFor('units', ...callKey(seed, ctx));
  const drawn = pieces.filter(() => draw() < errorRate);
  hit.drawn = drawn.length;
  if (drawn.length === 0) return unchangedResult(`none of its ${pieces.length} units was drawn (Pe = ${errorRate})`);

  const ruleRng: RuleRng = (i) => rngFor('rule', ...callKey(seed, ctx), i);
  let made: SemanticEdits = { edits: new Map(), asked: new Set() };
  if (corruption === 'semantic') made = await semanticEdits(options.semantic!, template, content, pieces, drawn, ruleRng);
  else
    for (const p of drawn) {
      const e = corruption === 'syntax-error' ? syntaxEdit(p, ruleRng) : logicEdit(p, ruleRng);
      if (e) made.edits.set(p.index, e);
    }
  const { edits, fallback, asked } = made;

  const unchanged = unchangedUnits(drawn, edits, asked, corruption);
  hit.changed = edits.size;
  if (unchanged.length) hit.unchanged = unchanged.slice(0, MAX_UNCHANGED_LISTED);
  if (edits.size === 0) {
    hit.why = `none of the ${drawn.length} drawn units could be changed in ${corruption} mode`;
    if (fallback) hit.skipped = [...(hit.skipped ?? []), `semantic rewrite: ${fallback}`];
    return { hit, delivered: { content, toolCalls } };
  }
  return { hit, ...applyEdits(response, corruption, found, edits, fallback) };
}

function checkOptions(options: AutoInjectOptions): void {
  checkRate('the message rate', 'message-rate', options.messageRate);
  checkRate('the error rate', 'error-rate', options.errorRate);
  if (options.target === 'each')
    throw new InjectConfigError(
      'variants.malicious.target: "each" is run as one malicious variant per agent; give the injector one agent name or all',
    );
  if (options.corruption === 'semantic' && !options.semantic)
    throw new InjectConfigError('variants.malicious.corruption: semantic needs a model to ask (the semantic callback)');
}

export function createAutoInjector(options: AutoInjectOptions): Injector {
  checkOptions(options);
  const { target, messageRate, seed, corruption } = options;
  const template = corruption === 'semantic' ? (options.template ?? loadSemanticTemplate()) : '';
  return {
    method: 'autoinject',
    decide(ctx) {
      if (!targetsCall(target, ctx)) return false;
      // The draw is in [0, 1): rates of 0 and 1 decide without hashing the call's key.
      if (messageRate <= 0) return false;
      if (messageRate >= 1) return true;
      return rngFor('message', ...callKey(seed, ctx))() < messageRate;
    },
    corrupt: (response, ctx) => corruptResponse(options, template, response, ctx),
  };
}
