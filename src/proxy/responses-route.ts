/**
 * What the proxy does for `POST /v1/responses` beyond what every generation call gets: settings it
 * cannot honour are refused with an error that says what to do instead, and the Responses API's
 * server-side state is kept here rather than at the model server. A response the pipeline may
 * continue (`store` not false) is remembered for its own pipeline run, as delivered (corrupted when
 * it was hit); a later `previous_response_id` is expanded into the whole conversation before the
 * request goes upstream, and the model server is asked to store nothing. So the model sees what the
 * pipeline saw, the cassette hash covers the whole conversation, and nothing outlives the run.
 */
import type { AssembledResponse } from '../model/openai-wire.js';
import { withDelivered } from '../model/responses-wire.js';
import { limitText } from '../util/body-limit.js';
import type { Invocation } from './registry.js';

/** Responses kept per pipeline run; past this the oldest is forgotten (and a reference to it is refused). */
export const MAX_STORED_RESPONSES = 256;
/**
 * How many responses one `previous_response_id` chain may link: far past any agent's turns, and
 * a bound on what one run can make the proxy expand (README "Security").
 */
export const MAX_CHAIN_DEPTH = 128;

type Item = Record<string, unknown>;

/** A stored conversation: its items, about how many bytes they take as JSON, and how many responses it chains. */
interface Stored {
  items: Item[];
  bytes: number;
  depth: number;
}

const stores = new WeakMap<Invocation, Map<string, Stored>>();

function storeOf(invocation: Invocation): Map<string, Stored> {
  let store = stores.get(invocation);
  if (!store) {
    store = new Map();
    stores.set(invocation, store);
  }
  return store;
}

export type PreparedResponses =
  | { ok: true; body: Record<string, unknown>; keep: boolean; items: Item[]; bytes: number; depth: number }
  | { ok: false; message: string; status: 400 | 413 };

function inputItems(input: unknown): Item[] | undefined {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  if (Array.isArray(input)) return input as Item[];
  return undefined;
}

/** What one request may expand to: the proxy's body limit, the request's own size (an upper bound on its input's). */
export interface ExpansionBounds {
  requestBytes: number;
  maxBytes: number;
}

/**
 * The request as it goes upstream: `previous_response_id` expanded, `store: false`. Refused: a
 * `previous_response_id` this run did not store, `conversation` (the Conversations API keeps state
 * saboteur cannot see), `background: true` (the answer would come after the call ends); with 413,
 * a conversation that expands past the body limit, so small requests cannot add up to a huge one.
 */
export function prepareResponses(body: Record<string, unknown>, invocation: Invocation, bounds: ExpansionBounds): PreparedResponses {
  if (body.background === true) {
    return {
      ok: false,
      status: 400,
      message:
        "background responses are not supported through saboteur's proxy (the answer must come back within the call): leave `background` unset",
    };
  }
  if (body.conversation !== undefined && body.conversation !== null) {
    return {
      ok: false,
      status: 400,
      message:
        "`conversation` (the Conversations API) is not supported through saboteur's proxy: send the history in `input`, or continue with `previous_response_id`",
    };
  }
  const own = inputItems(body.input);
  if (!own) return { ok: false, status: 400, message: '`input` must be a string or a list of input items' };
  let items = own;
  let bytes = bounds.requestBytes;
  let depth = 0;
  const previous = body.previous_response_id;
  if (previous !== undefined && previous !== null) {
    const stored = typeof previous === 'string' ? storeOf(invocation).get(previous) : undefined;
    if (!stored) {
      return {
        ok: false,
        status: 400,
        message: `previous_response_id ${JSON.stringify(previous)} is not a response of this pipeline run: saboteur's proxy keeps the responses of each run (those created without \`store: false\`, the last ${MAX_STORED_RESPONSES}) and only for that run`,
      };
    }
    depth = stored.depth + 1;
    bytes += stored.bytes;
    if (depth > MAX_CHAIN_DEPTH) {
      return {
        ok: false,
        status: 400,
        message: `previous_response_id ${JSON.stringify(previous)} would chain ${depth} responses, more than the ${MAX_CHAIN_DEPTH} saboteur's proxy follows: start a new conversation, sending what matters in \`input\``,
      };
    }
    if (bytes > bounds.maxBytes) {
      return {
        ok: false,
        status: 413,
        message: `the conversation previous_response_id ${JSON.stringify(previous)} expands to is over the ${limitText(bounds.maxBytes)} limit of a request body (about ${limitText(bytes)}): start a new conversation, or send less in \`input\``,
      };
    }
    items = [...stored.items, ...own];
  }
  const { previous_response_id: _previous, ...rest } = body;
  return { ok: true, body: { ...rest, input: items, store: false }, keep: body.store !== false, items, bytes, depth };
}

/**
 * Remembers a delivered response, so `previous_response_id` continues from what the pipeline saw
 * (`corrupted`: the delivered text and arguments replace the model's in the stored items).
 */
export function rememberResponse(
  invocation: Invocation,
  prepared: { keep: boolean; items: Item[]; bytes: number; depth: number },
  delivered: AssembledResponse | undefined,
  corrupted: boolean,
): void {
  if (!prepared.keep || !delivered?.raw || !delivered.id) return;
  const response = corrupted ? withDelivered(delivered.raw, delivered) : delivered.raw;
  const output = Array.isArray(response.output) ? (response.output as Item[]) : [];
  const store = storeOf(invocation);
  const bytes = prepared.bytes + Buffer.byteLength(JSON.stringify(output));
  store.set(delivered.id, { items: [...prepared.items, ...output], bytes, depth: prepared.depth });
  while (store.size > MAX_STORED_RESPONSES) store.delete(store.keys().next().value as string);
}
