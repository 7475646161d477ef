/**
 * OpenLLMetry spans (`@traceloop/*`, Traceloop's SDKs). Its LLM spans follow the GenAI
 * conventions (current `gen_ai.input/output.messages`, or the older indexed `gen_ai.prompt.N.*`
 * with `llm.request.type`); its workflow, task, agent and tool spans are the SDK's decorators:
 * `traceloop.span.kind`, `traceloop.entity.name`, and the call's input and output as JSON in
 * `traceloop.entity.input` (`{"args": [...], "kwargs": {...}}`) and `traceloop.entity.output`.
 */
import type { OtlpSpan } from '../schema.js';
import { isJsonObject } from '../../util/json-object.js';
import {
  mergeViews,
  operationOf,
  parseMaybeJson,
  readGenAi,
  resultText,
  str,
  textMessage,
  type GenAiMessage,
  type GenAiSpan,
} from '../genai.js';

const KIND = 'traceloop.span.kind';
const NAME = 'traceloop.entity.name';
const INPUT = 'traceloop.entity.input';
const OUTPUT = 'traceloop.entity.output';

export function isOpenLlmetry(span: OtlpSpan): boolean {
  return typeof span.attributes[KIND] === 'string' || typeof span.attributes['llm.request.type'] === 'string';
}

/** A decorated call's arguments: its keyword arguments, its one object argument, or the positional list. */
function callArguments(raw: unknown): Record<string, unknown> {
  const input = parseMaybeJson(raw);
  if (!isJsonObject(input)) return { arguments: input };
  if (!('args' in input) && !('kwargs' in input)) return input;
  const positional = Array.isArray(input.args) ? input.args : [];
  const keywords = isJsonObject(input.kwargs) ? input.kwargs : {};
  if (positional.length === 0) return keywords;
  if (positional.length === 1 && Object.keys(keywords).length === 0 && isJsonObject(positional[0])) return positional[0];
  return { args: positional, ...keywords };
}

/**
 * The text a decorated call took: its string arguments one per line, else its arguments as JSON;
 * nothing for a call with no arguments (`withAgent({name}, fn)` records `{"args":[],"kwargs":{}}`),
 * which is no request at all.
 */
function inputText(raw: unknown): string {
  const args = callArguments(raw);
  const strings = Object.values(args)
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v): v is string => typeof v === 'string');
  if (strings.length) return strings.join('\n');
  const empty = Object.values(args).every((v) => v === undefined || v === null || (Array.isArray(v) && v.length === 0));
  return empty ? '' : str(args);
}

/**
 * An LLM span (the GenAI conventions, the old request type naming the operation) or a decorated
 * entity; a span marked as both is read both ways and merged, so neither marker hides the other.
 */
export function readOpenLlmetry(span: OtlpSpan): GenAiSpan {
  const a = span.attributes;
  const kind = typeof a[KIND] === 'string' ? (a[KIND] as string) : '';
  const requestType = typeof a['llm.request.type'] === 'string' ? (a['llm.request.type'] as string) : undefined;
  const llm = requestType !== undefined || kind === '' ? readGenAi(span, operationOf(span, requestType)) : undefined;
  if (kind === '') return llm!;
  const entity = readEntity(span, kind);
  return llm ? mergeViews([llm, entity]) : entity;
}

function readEntity(span: OtlpSpan, kind: string): GenAiSpan {
  const a = span.attributes;
  const entity = typeof a[NAME] === 'string' ? (a[NAME] as string) : span.name.replace(/\.(tool|agent|task|workflow)$/, '');
  if (kind === 'tool') {
    const view: GenAiSpan = { span, op: 'execute_tool', tool: entity, input: [], output: [] };
    if (typeof a['gen_ai.tool.call.id'] === 'string') view.toolCallId = a['gen_ai.tool.call.id'] as string;
    if (a[INPUT] !== undefined) view.toolArguments = callArguments(a[INPUT]);
    if (a[OUTPUT] !== undefined) view.toolResult = resultText(a[OUTPUT]);
    if (typeof a['gen_ai.agent.name'] === 'string') view.agent = a['gen_ai.agent.name'] as string;
    return view;
  }
  const text = a[INPUT] === undefined ? '' : inputText(a[INPUT]);
  const input: GenAiMessage[] = text === '' ? [] : [textMessage('user', text)];
  const output: GenAiMessage[] = a[OUTPUT] === undefined ? [] : [textMessage('assistant', resultText(a[OUTPUT]))];
  const view: GenAiSpan = { span, op: kind === 'agent' ? 'invoke_agent' : 'other', input, output };
  const agent = typeof a['gen_ai.agent.name'] === 'string' ? (a['gen_ai.agent.name'] as string) : kind === 'agent' ? entity : undefined;
  if (agent) view.agent = agent;
  return view;
}
