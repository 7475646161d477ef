/**
 * Bounds on what a run records (docs/security.md, "Security": bounded traces). Everything the pipeline, the
 * model or a tool hands saboteur is hostile: a 100 MB body, an answer of 20 MB, tool arguments
 * nested 6,000 levels deep. What goes into a trace is capped here: a string keeps its head and a
 * cut mark with its full length and a sha256, nesting past a depth becomes a mark, long lists and
 * wide objects keep their first entries and a mark of how many were left out, and a whole value
 * has a size budget. Every function here walks values with an explicit stack, never recursion,
 * so no input depth can overflow the call stack.
 */
import { createHash } from 'node:crypto';

/** Characters kept of one recorded string (a message, a response, a tool result). */
export const TEXT_CAP = 64 * 1024;
/** Characters kept of a pipeline's answer (the completion is scored in full before it is cut). */
export const OUTPUT_CAP = 256 * 1024;
/** Nesting kept of a recorded value (tool arguments, span attributes, grader details). */
export const DEPTH_CAP = 32;
/** Entries kept of one array or object. */
const ENTRIES_CAP = 1000;
/** Characters (about the JSON size) kept of one recorded value as a whole. */
const VALUE_BUDGET = 256 * 1024;
/** Messages kept of one recorded request: the first few (the system prompt, the task) and the last. */
const MESSAGES_CAP = 256;

/** The mark a cut string ends with: its full length and hash, so two runs can still be compared. */
export function cutMark(length: number, sha256: string): string {
  return `…[✂ cut by saboteur: ${length} characters, sha256 ${sha256.slice(0, 16)}]`;
}

export function isCut(text: string): boolean {
  return /…\[✂ cut by saboteur: \d+ characters, sha256 [0-9a-f]{16}\]$/.test(text);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `text` when it fits in `max` characters, else its head and the cut mark (the result fits too). */
export function capText(text: string, max = TEXT_CAP): string {
  if (text.length <= max) return text;
  const mark = cutMark(text.length, sha256(text));
  return text.slice(0, Math.max(0, max - mark.length)) + mark;
}

type Frame =
  | { kind: 'array'; src: unknown[]; out: unknown[]; i: number; depth: number }
  | { kind: 'object'; src: Record<string, unknown>; keys: string[]; out: Record<string, unknown>; i: number; depth: number };

/** `value` with whatever nests past DEPTH_CAP replaced by a cut mark; texts, lists and sizes untouched. */
export function boundDepth(value: unknown): unknown {
  return boundValue(value, { textCap: Number.MAX_SAFE_INTEGER, maxEntries: Number.MAX_SAFE_INTEGER, budget: Number.MAX_SAFE_INTEGER });
}

/**
 * A copy of `value` within the bounds: strings capped at `textCap`, nesting past `maxDepth`
 * replaced by a mark, arrays and objects past `maxEntries` cut with a mark, and once about
 * `budget` characters were kept, what remains replaced by a mark. Plain JSON values come out
 * (functions, symbols and undefined in arrays become null, as JSON would have them).
 */
export function boundValue(
  value: unknown,
  opts: { textCap?: number; maxDepth?: number; maxEntries?: number; budget?: number } = {},
): unknown {
  const textCap = opts.textCap ?? TEXT_CAP;
  const maxDepth = opts.maxDepth ?? DEPTH_CAP;
  const maxEntries = opts.maxEntries ?? ENTRIES_CAP;
  let budget = opts.budget ?? VALUE_BUDGET;

  const leaf = (v: unknown, depth: number): { value: unknown; frame?: Frame } => {
    if (v === null || typeof v === 'boolean') return { value: v };
    if (typeof v === 'number') return { value: Number.isFinite(v) ? v : null };
    if (typeof v === 'bigint') return { value: v.toString() };
    if (typeof v === 'string') {
      const kept = capText(v, Math.max(64, Math.min(textCap, budget)));
      budget -= kept.length;
      return { value: kept };
    }
    if (typeof v !== 'object') return { value: null };
    if (budget <= 0) return { value: `…[✂ cut by saboteur: over the ${opts.budget ?? VALUE_BUDGET} character budget of this value]` };
    // No hash of what is cut here: walking a hostile million levels to hash them is the attack.
    if (depth >= maxDepth) return { value: `…[✂ cut by saboteur: nested deeper than ${maxDepth} levels]` };
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      return { value: out, frame: { kind: 'array', src: v, out, i: 0, depth: depth + 1 } };
    }
    const out: Record<string, unknown> = {};
    return { value: out, frame: { kind: 'object', src: v as Record<string, unknown>, keys: Object.keys(v), out, i: 0, depth: depth + 1 } };
  };

  const root = leaf(value, 0);
  const stack: Frame[] = root.frame ? [root.frame] : [];
  while (stack.length) {
    const f = stack[stack.length - 1];
    const length = f.kind === 'array' ? f.src.length : f.keys.length;
    if (f.i >= length || f.i >= maxEntries) {
      if (length > maxEntries) {
        const mark = `…[✂ cut by saboteur: ${length - maxEntries} more ${f.kind === 'array' ? 'items' : 'keys'}]`;
        if (f.kind === 'array') f.out.push(mark);
        else f.out['…✂'] = mark;
      }
      stack.pop();
      continue;
    }
    const i = f.i++;
    if (f.kind === 'array') {
      const r = leaf(f.src[i], f.depth);
      f.out.push(r.value);
      if (r.frame) stack.push(r.frame);
    } else {
      const key = f.keys[i];
      const v = f.src[key];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      const k = capText(key, 256);
      budget -= k.length;
      const r = leaf(v, f.depth);
      f.out[k] = r.value;
      if (r.frame) stack.push(r.frame);
    }
  }
  return root.value;
}

/** JSON text of `value` within the bounds of `boundValue`: safe for any depth and size. */
export function safeStringify(value: unknown, opts: { textCap?: number; maxDepth?: number; budget?: number } = {}): string {
  return [...jsonChunks(boundValue(value, { maxDepth: 16, budget: 16 * 1024, textCap: 4096, ...opts }), 0)].join('');
}

type Writer =
  | { kind: 'array'; items: unknown[]; i: number; pad: string }
  | { kind: 'object'; obj: Record<string, unknown>; keys: string[]; i: number; pad: string; wrote: boolean };

function toJsonValue(v: unknown, key: string): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
    v = (v as { toJSON(k: string): unknown }).toJSON(key);
  if (v instanceof Number || v instanceof String || v instanceof Boolean) v = v.valueOf();
  return v;
}

function primitive(v: unknown): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    default:
      return undefined;
  }
}

/**
 * The text `JSON.stringify(value, null, indent)` gives, in chunks of about 64 KiB, built with an
 * explicit stack: a run log of any size and depth is written without one giant string and
 * without recursion. Cycles throw, as JSON.stringify does.
 */
export function* jsonChunks(value: unknown, indent = 2): Generator<string> {
  const step = ' '.repeat(indent);
  const nl = indent > 0 ? '\n' : '';
  const colon = indent > 0 ? ': ' : ':';
  let buf = '';
  const ancestors = new Set<object>();
  const stack: (Writer & { self: object })[] = [];

  /** Writes a scalar, or opens a container (returns true) whose entries follow. */
  const open = (v: unknown, pad: string): boolean => {
    const p = primitive(v);
    if (p !== undefined) {
      buf += p;
      return false;
    }
    if (typeof v !== 'object' || v === null) {
      buf += 'null';
      return false;
    }
    if (ancestors.has(v)) throw new TypeError('Converting circular structure to JSON');
    ancestors.add(v);
    if (Array.isArray(v)) {
      buf += '[';
      stack.push({ kind: 'array', items: v, i: 0, pad, self: v });
    } else {
      buf += '{';
      stack.push({ kind: 'object', obj: v as Record<string, unknown>, keys: Object.keys(v), i: 0, pad, wrote: false, self: v });
    }
    return true;
  };

  const top = toJsonValue(value, '');
  if (top === undefined || typeof top === 'function' || typeof top === 'symbol') return;
  open(top, '');
  while (stack.length) {
    if (buf.length >= 65_536) {
      yield buf;
      buf = '';
    }
    const w = stack[stack.length - 1];
    const inner = w.pad + step;
    if (w.kind === 'array') {
      if (w.i >= w.items.length) {
        buf += w.items.length ? `${nl}${w.pad}]` : ']';
        ancestors.delete(w.self);
        stack.pop();
        continue;
      }
      const i = w.i++;
      let v = toJsonValue(w.items[i], String(i));
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') v = null;
      buf += `${i ? ',' : ''}${nl}${inner}`;
      open(v, inner);
    } else {
      if (w.i >= w.keys.length) {
        buf += w.wrote ? `${nl}${w.pad}}` : '}';
        ancestors.delete(w.self);
        stack.pop();
        continue;
      }
      const key = w.keys[w.i++];
      const v = toJsonValue(w.obj[key], key);
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      buf += `${w.wrote ? ',' : ''}${nl}${inner}${JSON.stringify(key)}${colon}`;
      w.wrote = true;
      open(v, inner);
    }
  }
  if (buf) yield buf;
}

/** A list within `max` entries: its head, then a mark entry made by `mark(n)` for the n left out. */
function capList<T>(list: readonly T[], max: number, mark: (left: number) => T): T[] {
  return list.length <= max ? list.slice() : [...list.slice(0, max), mark(list.length - max)];
}

/** Short strings that name things (agents, tools, ids, models). */
const NAME_CAP = 512;

/**
 * A proxy call within the bounds: every message, prompt, response and argument capped, at most
 * MESSAGES_CAP messages (the first few and the last ones, with a mark between).
 */
export function boundProxyCall<C extends import('./schema.js').ProxyCall>(call: C): C {
  const out: C = { ...call, agent: capText(call.agent, NAME_CAP) };
  if (call.agentSignals)
    out.agentSignals = call.agentSignals.slice(0, 16).map((s) => ({ source: s.source, agent: capText(s.agent, NAME_CAP) }));
  const req = call.request;
  if (req) {
    const r: C['request'] = {};
    if (req.model !== undefined) r.model = capText(req.model, NAME_CAP);
    if (req.prompt !== undefined) r.prompt = capText(req.prompt);
    if (req.messages) {
      const msgs = req.messages.map((m) => ({ role: capText(m.role, 64), content: capText(m.content) }));
      const head = 8;
      r.messages =
        msgs.length <= MESSAGES_CAP
          ? msgs
          : [
              ...msgs.slice(0, head),
              { role: 'saboteur', content: `…[✂ cut by saboteur: ${msgs.length - MESSAGES_CAP} messages]` },
              ...msgs.slice(msgs.length - (MESSAGES_CAP - head)),
            ];
    }
    if (req.tools)
      r.tools = capList(
        req.tools.map((t) => capText(t, NAME_CAP)),
        256,
        (n) => `…[✂ ${n} more tools]`,
      );
    out.request = r;
  }
  if (call.response) {
    const res = { ...call.response, content: capText(call.response.content) };
    if (call.response.toolCalls) {
      res.toolCalls = capList(
        call.response.toolCalls.map((t) => ({
          id: capText(t.id, NAME_CAP),
          name: capText(t.name, NAME_CAP),
          arguments: capText(t.arguments),
        })),
        128,
        (n) => ({ id: '…✂', name: '…✂', arguments: `…[✂ cut by saboteur: ${n} more tool calls]` }),
      );
    }
    if (res.finishReason !== undefined) res.finishReason = capText(res.finishReason, 64);
    out.response = res;
  }
  if (call.error !== undefined) out.error = capText(call.error, 4096);
  if (call.route !== undefined) out.route = capText(call.route, 1024);
  if (call.corruption) {
    const c = call.corruption;
    out.corruption = {
      ...c,
      before: capText(c.before),
      after: capText(c.after),
      units: capList(
        c.units.map((u) => ({ ...u, before: capText(u.before, 4096), after: capText(u.after, 4096), rule: capText(u.rule, 256) })),
        1000,
        (n) => ({ index: -1, before: '', after: '', rule: `…[✂ ${n} more units]` }),
      ),
      ...(c.fallback !== undefined ? { fallback: capText(c.fallback, 4096) } : {}),
    };
  }
  return out;
}

/** A recorded tool call within the bounds: arguments bounded as a value, the result and reasons capped. */
export function boundToolEvent<
  E extends { tool: string; agent?: string; arguments: Record<string, unknown>; result: string; staged?: { reason?: string } },
>(event: E): E {
  const out: E = {
    ...event,
    tool: capText(event.tool, NAME_CAP),
    arguments: boundValue(event.arguments) as Record<string, unknown>,
    result: capText(event.result),
  };
  if (event.agent !== undefined) out.agent = capText(event.agent, NAME_CAP);
  if (event.staged?.reason !== undefined) out.staged = { ...event.staged, reason: capText(event.staged.reason, 4096) };
  return out;
}
