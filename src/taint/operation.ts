/**
 * Tools that cover one resource and take the operation as an argument (`bookings` with
 * `action: list | get | create | update | cancel`, a `grain_contracts` tool with
 * `operation: list | amend | cancel`): the schema offers the operations as an enum, and each call
 * names the one it performs. That call's effect is its operation's, not the tool's: a `list` reads
 * whatever else the tool can do, and a `cancel` deletes (docs/validator.md, "How the validator
 * reads tools, requests and traces"). Where a trace carries the description and no schema, the
 * operations the description lists for the argument stand for the enum.
 */
import { words, type Category } from './lexicon.js';
import type { ToolDefinition } from './tool-profile.js';

export interface Operation {
  /** The argument that chooses the operation. */
  argument: string;
  /** Its value in this call. */
  value: string;
  /** The verb the value opens with (`add_item`: add). */
  verb: string;
  /** The kind of action of an operation that acts; undefined for one that reads. */
  category?: Category;
  read: boolean;
  /** The operations the schema offers, for the evidence. */
  offered: string[];
}

/** Enums longer than this are lists of values (countries, currencies), not operations. */
const MAX_OPERATIONS = 40;
const MAX_VALUE = 64;
/** Irregular participles that name a record's state. */
const STATES = new Set(
  'paid sent made done given taken written shown kept held bought sold found told left put set open closed'.split(' '),
);

/**
 * The operation a call performs, where the tool's schema has a top-level argument whose enum is
 * made of operations (at least two of its values, and at least half, open with a verb the
 * validator reads, not a state: `cancelled`, `paid_unshipped`; and the verbs are of more than one
 * kind of action, or all read: `sms | email` are two ways of one send) and the call gives it a value that
 * opens with one. The caller asks only for a tool whose name says no action (`bookings`,
 * `members`): a `share_document` tool's `access: view | download` is how it shares, not what it does.
 */
export function operationOf(
  def: ToolDefinition,
  args: readonly { name: string; value: string }[],
  verbOf: (word: string) => Category | undefined,
): Operation | undefined {
  const props = (def.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const offers: [string, unknown][] =
    props && typeof props === 'object'
      ? Object.entries(props).map(([argument, prop]) => [argument, (prop as { enum?: unknown } | null)?.enum])
      : args.map((a) => [a.name, listedIn(def.description, a.name)]);
  for (const [argument, offered] of offers) {
    if (!Array.isArray(offered) || offered.length < 2 || offered.length > MAX_OPERATIONS) continue;
    const values = offered.filter((x): x is string => typeof x === 'string' && x.length <= MAX_VALUE);
    // Each value with the verb it opens with, read once.
    const verbs = values.flatMap((x) => {
      const v = verbOfValue(x, verbOf);
      return v === undefined ? [] : [{ value: x, verb: v }];
    });
    // Operations differ in kind (list and cancel, send and post), or all read (`list | search | get`);
    // `sms | email` are two ways of one send.
    const kinds = new Set(verbs.map((x) => verbOf(x.verb)));
    if (verbs.length < 2 || verbs.length * 2 < offered.length || (kinds.size < 2 && !kinds.has('read')) || channels(argument, verbs, kinds))
      continue;
    const value = args.find((a) => a.name === argument)?.value.trim();
    const verb = verbs.find((x) => x.value === value)?.verb;
    if (value === undefined || verb === undefined) return undefined;
    const category = verbOf(verb);
    return { argument, value, verb, offered: values, read: category === 'read', ...(category === 'read' ? {} : { category }) };
  }
  return undefined;
}

/**
 * Bare words that only send or publish under an argument named for the means (`delivery_method:
 * email | post`, `channel: sms | post`) are the ways one delivery goes, not operations: "post"
 * among them is the postal service, not a publication.
 */
function channels(argument: string, verbs: readonly { value: string; verb: string }[], kinds: ReadonlySet<Category | undefined>): boolean {
  return (
    words(argument).some((w) => MEANS.has(w)) &&
    verbs.every((x) => x.value.trim().toLowerCase() === x.verb) &&
    [...kinds].every((k) => k === 'send' || k === 'publish')
  );
}
const MEANS = new Set(['method', 'channel', 'via', 'medium', 'delivery', 'mode', 'by', 'dispatch', 'shipping']);

/**
 * The values a description lists for an argument (`action: list | get | update`, `method=search |
 * read | send`): where a trace gives the description and no schema (a tool span's own), what the
 * schema's enum would say.
 */
function listedIn(description: string | undefined, argument: string): string[] | undefined {
  if (!description || !/^[\w-]{1,40}$/.test(argument)) return undefined;
  const at = new RegExp(`\\b${argument}\\s*[:=]\\s*`).exec(description.slice(0, 2000));
  if (!at) return undefined;
  const list = /^[\w-]+(?:\s*(?:\([^)\n]{0,60}\)\s*)?\|\s*[\w-]+)+/.exec(
    description.slice(at.index + at[0].length, at.index + at[0].length + 600),
  );
  return list?.[0].split('|').map((x) => x.replace(/\(.*$/, '').trim());
}

/** The verb an operation's value opens with (`get_comments`, `addItem`, `list`), if the validator reads it. */
function verbOfValue(value: string, verbOf: (word: string) => Category | undefined): string | undefined {
  const first = words(value)[0];
  // A state (`paid_unshipped`, `closed_won`, `cancelled`) is a filter on records, not an operation.
  if (first === undefined || /(?:ed|ing)$/.test(first) || STATES.has(first)) return undefined;
  return verbOf(first) !== undefined ? first : undefined;
}

/**
 * The operation of a call to a generic HTTP client (`api_request` with `method: GET | POST | …`
 * and a `path`): the method the call gives decides. GET, HEAD and OPTIONS read; DELETE deletes;
 * POST, PUT and PATCH act as the route's last word says where it names an action
 * (`/orders/GT-1/refunds` pays, `/bookings/B-7/cancel` deletes), and otherwise change (create or
 * overwrite). The tool's own name (`request`, `call`) says only that it speaks HTTP.
 */
export function httpOperationOf(
  def: ToolDefinition,
  args: readonly { name: string; value: string }[],
  verbOf: (word: string) => Category | undefined,
): Operation | undefined {
  const method = args.find((a) => METHOD_ARGUMENT.test(a.name) && HTTP_METHOD.test(a.value.trim()));
  const route = args.find((a) => ROUTE_ARGUMENT.test(a.name) && /^\s*(?:https?:\/\/|\/)/i.test(a.value));
  if (!method || !route) return undefined;
  const value = method.value.trim().toUpperCase();
  const offered = [...HTTP_METHODS_OFFERED];
  if (value === 'GET' || value === 'HEAD' || value === 'OPTIONS') return { argument: method.name, value, verb: 'get', read: true, offered };
  if (value === 'DELETE') return { argument: method.name, value, verb: 'delete', category: 'delete', read: false, offered };
  const named = routeAction(route.value, verbOf);
  return { argument: method.name, value, verb: named?.verb ?? 'update', category: named?.category ?? 'change', read: false, offered };
}

const METHOD_ARGUMENT = /^(?:http_?)?(?:method|verb)$/i;
const ROUTE_ARGUMENT = /^(?:path|url|uri|endpoint|route|resource)$/i;
const HTTP_METHOD = /^(?:GET|HEAD|OPTIONS|POST|PUT|PATCH|DELETE)$/i;
const HTTP_METHODS_OFFERED = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The action a route's last word names (`/refunds`, `/cancel`, `/send`), if the validator reads one; ids and versions skipped. */
function routeAction(route: string, verbOf: (word: string) => Category | undefined): { verb: string; category: Category } | undefined {
  const path = route.replace(/^\s*https?:\/\/[^/]+/i, '').split(/[?#]/)[0];
  const segments = path.split('/').filter((x) => x !== '' && !/\d/.test(x) && !/^[{:]/.test(x));
  const last = segments[segments.length - 1];
  if (last === undefined) return undefined;
  for (const w of words(last).reverse()) {
    const category = verbOf(w) ?? verbOf(w.replace(/s$/, ''));
    if (category !== undefined && category !== 'read') return { verb: w, category };
  }
  return undefined;
}
