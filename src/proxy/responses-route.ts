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
import type { Invocation } from './registry.js';

/** Responses kept per pipeline run; past this the oldest is forgotten (and a reference to it is refused). */
export const MAX_STORED_RESPONSES = 256;

type Item = Record<string, unknown>;

const stores = new WeakMap<Invocation, Map<string, Item[]>>();

function storeOf(invocation: Invocation): Map<string, Item[]> {
  let store = stores.get(invocation);
  if (!store) {
    store = new Map();
    stores.set(invocation, store);
  }
  return store;
}

export type PreparedResponses =
  | { ok: true; body: Record<string, unknown>; keep: boolean; items: Item[] }
  | { ok: false; message: string };

function inputItems(input: unknown): Item[] | undefined {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  if (Array.isArray(input)) return input as Item[];
  return undefined;
}

/**
 * The request as it goes upstream: `previous_response_id` expanded, `store: false`. Refused: a
 * `previous_response_id` this run did not store, `conversation` (the Conversations API keeps state
 * saboteur cannot see), `background: true` (the answer would come after the call ends).
 */
export function prepareResponses(body: Record<string, unknown>, invocation: Invocation): PreparedResponses {
  if (body.background === true) {
    return { ok: false, message: 'background responses are not supported through saboteur\'s proxy (the answer must come back within the call): leave `background` unset' };
  }
  if (body.conversation !== undefined && body.conversation !== null) {
    return { ok: false, message: '`conversation` (the Conversations API) is not supported through saboteur\'s proxy: send the history in `input`, or continue with `previous_response_id`' };
  }
  const own = inputItems(body.input);
  if (!own) return { ok: false, message: '`input` must be a string or a list of input items' };
  let items = own;
  const previous = body.previous_response_id;
  if (previous !== undefined && previous !== null) {
    const stored = typeof previous === 'string' ? storeOf(invocation).get(previous) : undefined;
    if (!stored) {
      return {
        ok: false,
        message: `previous_response_id ${JSON.stringify(previous)} is not a response of this pipeline run: saboteur's proxy keeps the responses of each run (those created without \`store: false\`, the last ${MAX_STORED_RESPONSES}) and only for that run`,
      };
    }
    items = [...stored, ...own];
  }
  const { previous_response_id: _previous, ...rest } = body;
  return { ok: true, body: { ...rest, input: items, store: false }, keep: body.store !== false, items };
}

/**
 * Remembers a delivered response, so `previous_response_id` continues from what the pipeline saw
 * (`corrupted`: the delivered text and arguments replace the model's in the stored items).
 */
export function rememberResponse(invocation: Invocation, prepared: { keep: boolean; items: Item[] }, delivered: AssembledResponse | undefined, corrupted: boolean): void {
  if (!prepared.keep || !delivered?.raw || !delivered.id) return;
  const response = corrupted ? withDelivered(delivered.raw, delivered) : delivered.raw;
  const output = Array.isArray(response.output) ? (response.output as Item[]) : [];
  const store = storeOf(invocation);
  store.set(delivered.id, [...prepared.items, ...output]);
  while (store.size > MAX_STORED_RESPONSES) store.delete(store.keys().next().value as string);
}
