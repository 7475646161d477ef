/**
 * Cassettes: recorded model responses that `model.kind: replay` serves, so a whole run works with
 * no GPU and no network.
 *
 * Format: JSON Lines, one entry per line. Blank lines and lines starting with `#` are skipped.
 *
 *   {"match": {"agent"?: string, "endpoint"?: "chat.completions" | "completions", "system"?: string,
 *              "contains"?: string | string[], "turn"?: number, "tool"?: string | string[], "hash"?: string},
 *    "response": {"content": string, "tool_calls"?: [{"id"?: string, "name": string, "arguments": string | object}],
 *                 "finish_reason"?: string, "model"?: string, "usage"?: {"prompt_tokens": n, "completion_tokens": n}},
 *    "latencyMs"?: number}
 *
 * An entry matches a request when every condition it gives holds:
 *   - `agent`    equals the request's `X-Saboteur-Agent` header (the proxy sets it);
 *   - `endpoint` equals the route (`chat.completions`, `completions` or `responses` for `/v1/responses`);
 *   - `system`   is a substring of the system message(s);
 *   - `contains` every string is a substring of the request text: all message contents joined by
 *                newlines, or the prompt for /v1/completions (a Responses request's `instructions`
 *                and `input` items are read as the same chat messages);
 *   - `turn`     equals the number of assistant messages already in the request: 0 on an agent's
 *                first call, 1 once its first tool calls were answered, and so on (always 0 for
 *                /v1/completions). One entry can say "call these tools" and the next "now answer";
 *   - `tool`     every name is a function the request offers in `tools` (or legacy `functions`;
 *                Responses tools `{type: "function", name}` count the same):
 *                tells apart requests whose text is the same but whose tool lists differ;
 *   - `hash`     equals `requestHash(body)`: sha256 (hex) of the canonical JSON (sorted keys) of
 *                {endpoint, messages: [{role, content, tool_calls, tool_call_id}], tools, prompt}.
 * Replay picks an entry whose `hash` matches first, else the first matching entry in file order, so
 * `"match": {}` at the end is a catch-all. The recorder writes `match: {hash, agent}` entries.
 * `response.model` and `response.usage` are optional: the replay server answers with the requested
 * model name and estimated token counts when they are absent. `tool_calls` without an `id` get a
 * stable one derived from the entry, so a follow-up request that quotes it hashes the same each run.
 */
import { createHash } from 'node:crypto';
import { jsonProblem, LIMITS, readInputTextSync } from '../util/input-file.js';
import { z } from 'zod';
import { flattenContent, flattenPrompt, type Endpoint } from './openai-wire.js';
import { responsesMessages, responsesToolNames } from './responses-wire.js';
import { InputError } from '../util/input-error.js';

export class CassetteError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'CassetteError';
  }
}

export const CASSETTE_EXAMPLE_LINE =
  '{"match": {"agent": "coder", "contains": "def add("}, "response": {"content": "    return a + b\\n"}}';

const toolCallSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
});

const entrySchema = z.strictObject({
  match: z.strictObject({
    agent: z.string().min(1).optional(),
    endpoint: z.enum(['chat.completions', 'completions', 'responses']).optional(),
    system: z.string().min(1).optional(),
    contains: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
    turn: z.number().int().min(0).optional(),
    tool: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
    hash: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'must be the 64 hex characters of a sha256')
      .optional(),
  }),
  response: z.strictObject({
    content: z.string(),
    tool_calls: z.array(toolCallSchema).optional(),
    finish_reason: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    usage: z
      .strictObject({
        prompt_tokens: z.number().int().min(0),
        completion_tokens: z.number().int().min(0),
        total_tokens: z.number().int().min(0).optional(),
      })
      .optional(),
  }),
  latencyMs: z.number().min(0).max(600_000).optional(),
});

export type CassetteEntryInput = z.input<typeof entrySchema>;

export interface CassetteEntry {
  /** 1-based line in the cassette file, for messages. */
  line: number;
  match: { agent?: string; endpoint?: Endpoint; system?: string; contains?: string[]; turn?: number; tool?: string[]; hash?: string };
  response: {
    content: string;
    toolCalls: { id: string; name: string; arguments: string }[];
    finishReason?: string;
    model?: string;
    usage?: { prompt_tokens: number; completion_tokens: number; total_tokens?: number };
  };
  latencyMs?: number;
}

/** Parses cassette text; every problem names the file, the line and the field. */
export function parseCassette(text: string, file: string): CassetteEntry[] {
  const entries: CassetteEntry[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (raw === '' || raw.startsWith('#')) continue;
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw new CassetteError(`${where}: not a JSON object (${jsonProblem(err)})\n  a valid line: ${CASSETTE_EXAMPLE_LINE}`);
    }
    const parsed = entrySchema.safeParse(value);
    if (!parsed.success) {
      // A misspelt key explains the "is required" next to it, so it comes first.
      const issues = [...parsed.error.issues].sort(
        (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
      );
      const described = issues.slice(0, 3).map((issue) => {
        const field = issue.path.length ? issue.path.join('.') : '(the line)';
        let message = issue.message;
        if (issue.code === 'unrecognized_keys')
          message = `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
        else if (issue.code === 'invalid_type' && value && typeof value === 'object' && readPath(value, issue.path) === undefined)
          message = 'is required';
        return `${field}: ${message}`;
      });
      throw new CassetteError(`${where}: ${described.join('; ')}\n  a valid line: ${CASSETTE_EXAMPLE_LINE}`);
    }
    const e = parsed.data;
    const list = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);
    entries.push({
      line: i + 1,
      match: { ...e.match, contains: list(e.match.contains), tool: list(e.match.tool) },
      response: {
        content: e.response.content,
        toolCalls: (e.response.tool_calls ?? []).map((t, k) => ({
          id:
            t.id ??
            `call_${createHash('sha256')
              .update(`${file}:${i + 1}:${k}`)
              .digest('hex')
              .slice(0, 24)}`,
          name: t.name,
          arguments: typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments),
        })),
        finishReason: e.response.finish_reason,
        model: e.response.model,
        usage: e.response.usage,
      },
      latencyMs: e.latencyMs,
    });
  }
  return entries;
}

function readPath(value: unknown, path: PropertyKey[]): unknown {
  let v: unknown = value;
  for (const k of path) {
    if (!v || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

export function loadCassette(file: string): CassetteEntry[] {
  let text: string;
  try {
    text = readInputTextSync(file, { what: 'the cassette (model.cassette)', maxBytes: LIMITS.cassette });
  } catch (err) {
    // The message names the file and the problem, never its content.
    throw new CassetteError(
      /ENOENT/.test((err as Error).message) ? `cassette ${file} does not exist (model.cassette)` : (err as Error).message,
    );
  }
  return parseCassette(text, file);
}

/**
 * JSON with sorted keys and no `undefined`, written piece by piece: the same request always gives
 * the same bytes, and a large one is hashed without first being built as one string.
 */
function writeCanonical(value: unknown, write: (piece: string) => void): void {
  if (value === null || typeof value !== 'object') return write(JSON.stringify(value) ?? 'null');
  if (Array.isArray(value)) {
    write('[');
    value.forEach((v, i) => {
      if (i > 0) write(',');
      if (v === undefined) write('null');
      else writeCanonical(v, write);
    });
    return write(']');
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  write('{');
  keys.forEach((k, i) => {
    write(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`);
    writeCanonical(record[k], write);
  });
  write('}');
}

/** JSON with sorted keys and no `undefined`: the same request always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  const pieces: string[] = [];
  writeCanonical(value, (piece) => pieces.push(piece));
  return pieces.join('');
}

/** Pieces are handed to the hash in runs of about this many characters. */
const HASH_RUN = 64 * 1024;

/** sha256 (hex) of the canonical JSON of `value`, fed to the hash as it is written. */
function canonicalHash(value: unknown): string {
  const hash = createHash('sha256');
  let run = '';
  writeCanonical(value, (piece) => {
    run += piece;
    if (run.length >= HASH_RUN) {
      hash.update(run);
      run = '';
    }
  });
  return hash.update(run).digest('hex');
}

export function endpointOf(body: Record<string, unknown>): Endpoint {
  if (Array.isArray(body.messages)) return 'chat.completions';
  return body.input !== undefined ? 'responses' : 'completions';
}

/** The conversation of a chat or Responses request (Responses items read as chat messages). */
function conversationOf(body: Record<string, unknown>, endpoint: Endpoint): Record<string, unknown>[] {
  if (endpoint === 'responses') return responsesMessages(body) as unknown as Record<string, unknown>[];
  return Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
}

function normalizeToolCalls(calls: unknown): unknown {
  if (!Array.isArray(calls)) return undefined;
  return calls.map((c: Record<string, unknown>) => {
    const fn = (c?.function ?? {}) as Record<string, unknown>;
    return { id: c?.id, name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : canonicalJson(fn.arguments) };
  });
}

/** The request's identity for exact replay: what the model saw, not sampling knobs or the model name. */
export function requestHash(body: Record<string, unknown>, endpoint: Endpoint = endpointOf(body)): string {
  const messages =
    endpoint !== 'completions' && (endpoint === 'responses' || Array.isArray(body.messages))
      ? conversationOf(body, endpoint).map((m) => ({
          role: m?.role,
          content: flattenContent(m?.content),
          tool_calls: normalizeToolCalls(m?.tool_calls),
          tool_call_id: m?.tool_call_id,
        }))
      : undefined;
  const prompt = body.prompt === undefined ? undefined : flattenPrompt(body.prompt);
  return canonicalHash({ endpoint, messages, tools: body.tools, prompt });
}

/** What entries match against, computed once per request. */
export interface RequestFacts {
  endpoint: Endpoint;
  agent?: string;
  system: string;
  text: string;
  lastUser: string;
  /** Assistant messages already in the conversation (the agent's earlier turns). */
  turn: number;
  /** Names of the functions the request offers. */
  tools: string[];
  hash: string;
}

/** Function names of `tools` ({type: "function", function: {name}}) and legacy `functions` ({name}). */
function offeredTools(body: Record<string, unknown>): string[] {
  const names: string[] = [];
  if (Array.isArray(body.tools)) {
    for (const t of body.tools as Record<string, unknown>[]) {
      const name = (t?.function as Record<string, unknown> | undefined)?.name;
      if (typeof name === 'string') names.push(name);
    }
  }
  if (Array.isArray(body.functions)) {
    for (const f of body.functions as Record<string, unknown>[]) if (typeof f?.name === 'string') names.push(f.name);
  }
  names.push(...responsesToolNames(body));
  return names;
}

export function requestFacts(body: Record<string, unknown>, endpoint: Endpoint, agent: string | undefined): RequestFacts {
  if (endpoint === 'completions') {
    const prompt = flattenPrompt(body.prompt);
    return { endpoint, agent, system: '', text: prompt, lastUser: prompt, turn: 0, tools: [], hash: requestHash(body, endpoint) };
  }
  const messages = conversationOf(body, endpoint);
  const system: string[] = [];
  const all: string[] = [];
  let lastUser = '';
  let turn = 0;
  for (const m of messages) {
    const content = flattenContent(m?.content);
    all.push(content);
    if (m?.role === 'system' || m?.role === 'developer') system.push(content);
    if (m?.role === 'user') lastUser = content;
    if (m?.role === 'assistant') turn++;
  }
  return {
    endpoint,
    agent,
    system: system.join('\n'),
    text: all.join('\n'),
    lastUser,
    turn,
    tools: offeredTools(body),
    hash: requestHash(body, endpoint),
  };
}

export function entryMatches(entry: CassetteEntry, facts: RequestFacts): boolean {
  const m = entry.match;
  if (m.hash !== undefined && m.hash !== facts.hash) return false;
  if (m.agent !== undefined && m.agent !== facts.agent) return false;
  if (m.endpoint !== undefined && m.endpoint !== facts.endpoint) return false;
  if (m.system !== undefined && !facts.system.includes(m.system)) return false;
  if (m.contains !== undefined && !m.contains.every((s) => facts.text.includes(s))) return false;
  if (m.turn !== undefined && m.turn !== facts.turn) return false;
  if (m.tool !== undefined && !m.tool.every((t) => facts.tools.includes(t))) return false;
  return true;
}

/** Hash matches first, then the first matching entry in file order. */
export function findEntry(entries: readonly CassetteEntry[], facts: RequestFacts): CassetteEntry | undefined {
  return entries.find((e) => e.match.hash !== undefined && entryMatches(e, facts)) ?? entries.find((e) => entryMatches(e, facts));
}

/** The message a cassette miss answers with: enough to write the missing entry. */
export function missMessage(facts: RequestFacts, file: string): string {
  const snippet = facts.lastUser.replace(/\s+/g, ' ').trim().slice(0, 120);
  return (
    `no cassette entry matches: agent=${facts.agent ?? '(none)'}, last user message: '${snippet}'` +
    ` (endpoint ${facts.endpoint}, turn ${facts.turn}, tools [${facts.tools.join(', ')}], request hash ${facts.hash}, cassette ${file})`
  );
}
