/**
 * One reader and writer per generation endpoint, so the proxy and the recorder handle chat
 * completions, completions and the Responses API with the same code: assemble an answer from a
 * stream or a JSON body, and write a delivered (corrupted) answer back in the endpoint's own shape.
 */
import {
  SseAssembler,
  assembleJson,
  chatCompletionEvents,
  completionEvents,
  specFromAssembled,
  type AssembledResponse,
  type Endpoint,
} from './openai-wire.js';
import { ResponsesSseAssembler, assembleResponseObject, responseEvents, responseJson, withDelivered } from './responses-wire.js';

export interface StreamAssembler {
  feed(chunk: Buffer | string): void;
  end(): AssembledResponse;
}

export interface EndpointWire {
  readonly endpoint: Endpoint;
  sse(): StreamAssembler;
  json(body: unknown): AssembledResponse;
  /** The JSON body `original` with the delivered text (and tool-call arguments) in place of the model's. */
  deliveredJson(original: Record<string, unknown>, delivered: AssembledResponse): unknown;
  /** A fresh SSE stream for the delivered answer; undefined when it cannot be written (nothing to rebuild from). */
  deliveredEvents(delivered: AssembledResponse, request: Record<string, unknown>): string[] | undefined;
}

/** Puts delivered tool-call arguments into chat tool calls with the same id. */
function chatToolCallsDelivered(message: Record<string, unknown>, delivered: AssembledResponse): void {
  if (!Array.isArray(message.tool_calls)) return;
  const byId = new Map(delivered.toolCalls.map((t) => [t.id, t]));
  message.tool_calls = (message.tool_calls as Record<string, unknown>[]).map((call) => {
    const t = byId.get(String(call.id ?? ''));
    return t ? { ...call, function: { ...((call.function ?? {}) as Record<string, unknown>), arguments: t.arguments } } : call;
  });
}

const chatWire = (endpoint: 'chat.completions' | 'completions'): EndpointWire => ({
  endpoint,
  sse: () => new SseAssembler(endpoint),
  json: (body) => assembleJson(body, endpoint),
  deliveredJson(original, delivered) {
    const choice = (original.choices as Record<string, unknown>[])[0];
    if (endpoint === 'completions') choice.text = delivered.content;
    else {
      const message = choice.message as Record<string, unknown>;
      message.content = delivered.content;
      chatToolCallsDelivered(message, delivered);
    }
    return original;
  },
  deliveredEvents(delivered, request) {
    const includeUsage =
      (request.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true || delivered.usage !== undefined;
    const spec = specFromAssembled(delivered, typeof request.model === 'string' ? request.model : 'unknown');
    return endpoint === 'completions' ? completionEvents(spec, includeUsage) : chatCompletionEvents(spec, includeUsage);
  },
});

const responsesWire: EndpointWire = {
  endpoint: 'responses',
  sse: () => new ResponsesSseAssembler(),
  json: (body) => assembleResponseObject(body),
  deliveredJson: (original, delivered) => responseJson(withDelivered(original, delivered)),
  deliveredEvents: (delivered) => (delivered.raw ? responseEvents(withDelivered(delivered.raw, delivered)) : undefined),
};

const WIRES: Record<Endpoint, EndpointWire> = {
  'chat.completions': chatWire('chat.completions'),
  completions: chatWire('completions'),
  responses: responsesWire,
};

export function wireFor(endpoint: Endpoint): EndpointWire {
  return WIRES[endpoint];
}

/** The generation endpoint of a model server's request path (the replay server and the recorder serve these). */
export const GENERATION_ROUTES: ReadonlyMap<string, Endpoint> = new Map<string, Endpoint>([
  ['/v1/chat/completions', 'chat.completions'],
  ['/v1/completions', 'completions'],
  ['/v1/responses', 'responses'],
]);
