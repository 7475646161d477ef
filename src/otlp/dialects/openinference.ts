/**
 * OpenInference spans (`@arizeai/openinference-*`, Arize Phoenix): the span kind is the
 * `openinference.span.kind` attribute (LLM, AGENT, TOOL, CHAIN, …); an LLM span's messages are
 * flattened as `llm.input_messages.N.message.{role,content,tool_call_id}` with tool calls under
 * `.tool_calls.M.tool_call.{id,function.name,function.arguments}` and multi-part content under
 * `.contents.M.message_content.text`; tool and agent spans carry `input.value` / `output.value`.
 */
import type { OtlpSpan } from '../schema.js';
import { argumentsObject, indexedEntries, str, textMessage, type GenAiMessage, type GenAiSpan } from '../genai.js';

const KIND = 'openinference.span.kind';

export function isOpenInference(span: OtlpSpan): boolean {
  return typeof span.attributes[KIND] === 'string';
}

function messages(attrs: Record<string, unknown>, prefix: string, role: string): GenAiMessage[] {
  return indexedEntries(attrs, prefix).map((e) => {
    const parts: string[] = [];
    if (e['message.content'] !== undefined) parts.push(str(e['message.content']));
    for (
      let j = 0;
      e[`message.contents.${j}.message_content.type`] !== undefined || e[`message.contents.${j}.message_content.text`] !== undefined;
      j++
    ) {
      const t = e[`message.contents.${j}.message_content.text`];
      if (t !== undefined) parts.push(str(t));
    }
    const calls: GenAiMessage['toolCalls'] = [];
    for (let j = 0; e[`message.tool_calls.${j}.tool_call.function.name`] !== undefined; j++) {
      const id = e[`message.tool_calls.${j}.tool_call.id`];
      calls.push({
        ...(typeof id === 'string' ? { id } : {}),
        name: str(e[`message.tool_calls.${j}.tool_call.function.name`]),
        arguments: str(e[`message.tool_calls.${j}.tool_call.function.arguments`]),
      });
    }
    const answers = e['message.tool_call_id'];
    return {
      role: typeof e['message.role'] === 'string' ? (e['message.role'] as string) : role,
      text: parts.filter(Boolean).join('\n'),
      toolCalls: calls,
      responseTo: typeof answers === 'string' ? [answers] : [],
    };
  });
}

export function readOpenInference(span: OtlpSpan): GenAiSpan {
  const a = span.attributes;
  const kind = String(a[KIND]).toUpperCase();
  const io = (role: 'user' | 'assistant', key: string): GenAiMessage[] =>
    a[key] === undefined || a[key] === '' ? [] : [textMessage(role, str(a[key]))];
  if (kind === 'LLM') {
    return { span, op: 'chat', input: messages(a, 'llm.input_messages', 'user'), output: messages(a, 'llm.output_messages', 'assistant') };
  }
  if (kind === 'TOOL') {
    const view: GenAiSpan = {
      span,
      op: 'execute_tool',
      tool: typeof a['tool.name'] === 'string' ? (a['tool.name'] as string) : span.name,
      input: [],
      output: [],
    };
    if (typeof a['tool_call.id'] === 'string') view.toolCallId = a['tool_call.id'] as string;
    if (a['input.value'] !== undefined) view.toolArguments = argumentsObject(a['input.value']);
    if (a['output.value'] !== undefined) view.toolResult = str(a['output.value']);
    return view;
  }
  const view: GenAiSpan = {
    span,
    op: kind === 'AGENT' ? 'invoke_agent' : 'other',
    input: io('user', 'input.value'),
    output: io('assistant', 'output.value'),
  };
  const agent = a['agent.name'] ?? (kind === 'AGENT' ? span.name : undefined);
  if (typeof agent === 'string' && agent !== '') view.agent = agent;
  return view;
}
