/**
 * Edges recovered from content: text one item produced (the request, an LLM response, a tool
 * result, an agent's answer) that reappears in a later LLM request or agent task (a message edge)
 * or in a tool call's arguments (an argument edge). Each argument is traced to the earlier text
 * it first appeared in; that origin is its provenance. Also: tool results the pipeline fed its
 * models that saboteur did not serve (their origin is unknown, so they count as untrusted).
 */
import { ContentIndex, normalizeText, type ContentIndexOptions } from '../content-links.js';
import { ALL_MASK, ROOT_BIT, maskOf } from '../labels.js';
import type { GraphBuilder } from '../graph.js';
import { argumentRolesOf } from '../classify.js';
import { givenToCall } from '../provenance.js';
import type { ArgumentRole } from '../argument-roles.js';
import type { Category } from '../lexicon.js';
import type { Policy } from '../policy.js';
import { bearing, itemReading, type Item, type ItemList } from './items.js';
import { pushTo } from '../../util/maps.js';
import type { Secrets } from './secrets.js';

/** Where an argument's value first appeared. */
export type ArgumentOrigin = 'request' | 'tool-result' | 'message' | 'model';

export interface ArgumentTrace {
  name: string;
  value: string;
  role: ArgumentRole;
  origin: ArgumentOrigin;
  /** The item it first appeared in (absent when the model wrote it). */
  node?: number;
  /** It first appeared inside an injected passage of that item, and nowhere else in it. */
  injected: boolean;
  /** That item is a read whose own call was given it (the id a record was fetched by): no passage of its result chose it. */
  echoed?: true;
  /** No earlier text accounts for it: the model wrote it. */
  generated: boolean;
}

/** Injected passages of a node's output, normalised, and the rest of it. */
export interface InjectedText {
  why: string;
  injected: string;
  clean: string;
  /** The passages themselves, for display and for onward checks. */
  passages: string;
  /** Each passage's block (instruction-reach.ts), normalised, with the hard sinks its order asks for. */
  reaches?: InstructionReach[];
}

export interface InstructionReach {
  text: string;
  asks: number;
  /** The text's findings are more than plain orders (injection.ts, `explicit`). */
  explicit: boolean;
  /** The block moves a value away from one the reader already has ("instead", "rather than": injection.ts, movesTarget). */
  moves?: boolean;
  /** The kinds of action its order asks for (intent.ts, read as data). */
  orders?: Category[];
  /** The record whose field holds the passage (instruction-reach.ts, recordReaches), normalised, when a field does. */
  record?: string;
  /** The values of the record's fields the passage names by key (normalised): the order's, for any call. */
  keyed?: string[];
}

export class Producers {
  readonly index: ContentIndex;
  readonly itemOf: Map<number, Item>;

  constructor(items: readonly Item[], opts: ContentIndexOptions) {
    this.index = new ContentIndex(opts);
    for (const it of items) {
      if (!it.output) continue;
      this.index.add(it.node, it.output, it.end);
      // A record's values are found as they read, not as their format escapes them (a JSON string inside a JSON text block).
      const reading = itemReading(it).text;
      if (reading !== it.output) this.index.add(it.node, reading, it.end);
    }
    this.itemOf = new Map(items.map((it) => [it.node, it]));
  }

  describe(node: number): string {
    const it = this.itemOf.get(node)!;
    if (it.src.type === 'root') return 'the request';
    if (it.src.type === 'pseudo') return `a tool result saboteur did not serve (${it.meta.ref})`;
    if (it.src.type === 'answer') return `the answer of ${it.meta.agent ? `agent ${it.meta.agent}` : 'an agent'} (${it.meta.ref})`;
    if (it.kind === 'message') return `the response of ${it.meta.agent ? `agent ${it.meta.agent}` : 'an LLM call'} (${it.meta.ref})`;
    if (it.kind === 'tool' || it.kind === 'sink') return `the result of tool ${it.tool ?? it.meta.name} (${it.meta.ref})`;
    return `${it.meta.name ?? 'a span'} (${it.meta.ref})`;
  }

  /** Of the producers where a text's pieces first appeared, the earliest. */
  earliest(firstSeen: ReadonlyMap<number, number>): number | undefined {
    let best: number | undefined;
    for (const p of firstSeen.keys()) if (best === undefined || this.itemOf.get(p)!.end < this.itemOf.get(best)!.end) best = p;
    return best;
  }
}

/** Shortest text linked by its exact copy: shorter ones ("ok", "sent") are too common to mean anything. */
const VERBATIM_MIN = 40;

/**
 * Message edges into LLM calls and agent tasks. A message that is the exact text some earlier item
 * produced (a tool result fed back, an earlier answer) is linked to that item directly; others
 * through shared passages, memoised per text (a conversation repeats its history).
 */
export function messageEdges(g: GraphBuilder, items: readonly Item[], p: Producers): void {
  const byText = new Map<string, number[]>();
  for (const it of items) {
    if (it.output.length < VERBATIM_MIN) continue;
    pushTo(byText, it.output, it.node);
  }
  const memo = new Map<string, Map<number, number>>();
  for (const it of items) {
    if (it.kind !== 'message' && it.kind !== 'delegation') continue;
    for (const m of it.input) {
      const same =
        m.text.length >= VERBATIM_MIN ? byText.get(m.text)?.filter((n) => n !== it.node && p.itemOf.get(n)!.end <= it.start) : undefined;
      if (same?.length) {
        for (const producer of same) g.addEdge(producer, it.node, 'message', ALL_MASK, `${p.describe(producer)} reappears here (verbatim)`);
        continue;
      }
      let hits = memo.get(m.text);
      if (!hits) memo.set(m.text, (hits = p.index.linked(m.text, it.start)));
      for (const [producer, c] of hits) {
        if (producer === it.node || p.itemOf.get(producer)!.end > it.start) continue;
        g.addEdge(
          producer,
          it.node,
          'message',
          ALL_MASK,
          `${p.describe(producer)} reappears here (${c > 1 ? `${c} shared ${p.index.k}-word passages` : 'quoted'})`,
        );
      }
    }
  }
}

/**
 * Tool results the pipeline fed its models that saboteur did not serve (its own tools). A result
 * that quotes a served one (a pipeline may trim or wrap it) is that one; too short to carry content
 * ("ok", "sent") is nothing.
 */
export function addUnservedResults(list: ItemList, toolMessages: ReadonlyMap<string, number>, opts: ContentIndexOptions): void {
  if (toolMessages.size === 0) return;
  const results = list.items.filter((it) => (it.kind === 'tool' || it.kind === 'sink') && it.output);
  // A result fed back as it was served is the common case: an exact match needs no index.
  const exact = new Set(results.map((it) => it.output));
  let served: ContentIndex | undefined;
  const quotesServed = (content: string) => {
    if (!served) {
      served = new ContentIndex(opts);
      results.forEach((it, i) => served!.add(i, it.output, -Infinity));
    }
    return served.linked(content, Infinity).size > 0;
  };
  const seen = new Set<string>();
  for (const [content, firstUse] of toolMessages) {
    if (exact.has(content)) continue;
    const n = normalizeText(content);
    if (!n.includes(' ') || n.split(' ').length < 3 || seen.has(n) || quotesServed(content)) continue;
    seen.add(n);
    const it = list.push({
      kind: 'tool',
      start: firstUse - 1e-3,
      end: firstUse - 1e-3,
      meta: { ref: `unserved:${list.items.length}`, name: 'tool result not served by saboteur' },
      input: [],
      output: content,
      src: { type: 'pseudo' },
    });
    it.classified = {
      sources: maskOf(['UNTRUSTED_CONTENT']),
      sinks: 0,
      evidence: [
        { mask: maskOf(['UNTRUSTED_CONTENT']), why: 'a tool result the pipeline got elsewhere: saboteur cannot tell where it came from' },
      ],
    };
  }
}

/** Arguments that only point at something (where a read goes, which record): their source's data does not flow into a read's result. */
const POINTER_ROLES: ReadonlySet<ArgumentRole> = new Set(['recipient', 'url', 'payee', 'path', 'object', 'choice', 'credential']);

function containsWords(haystack: string, needle: string): boolean {
  return needle !== '' && ` ${haystack} `.includes(` ${needle} `);
}

/** Whether a producer is a tool call that was given the value `norm` (normalised) as one of its arguments (provenance.ts, givenToCall). */
const givenToItsCall = (it: Item | undefined, norm: string): boolean =>
  it !== undefined && (it.kind === 'tool' || it.kind === 'sink') && givenToCall(it.args, norm);

/**
 * Traces every argument of a tool call to where it first appeared and draws the argument edges.
 * A read tool's result carries the data labels of its content arguments only: a URL or an id taken
 * from private data does not make what the read returns private.
 */
export function traceArguments(
  g: GraphBuilder,
  it: Item,
  p: Producers,
  policy: Policy,
  injections: ReadonlyMap<number, InjectedText>,
  secrets?: Secrets,
): ArgumentTrace[] {
  const sink = it.kind === 'sink';
  const out: ArgumentTrace[] = [];
  for (const a of argumentRolesOf(policy, it.tool!, it.args ?? {}, it.definition)) {
    const value = a.value;
    const norm = normalizeText(value);
    // A short message-like argument ("Summary", "Hi") is neither traced nor an anchor.
    if (norm === '' || a.role === 'choice' || (a.role === 'content' && !bearing(value))) {
      out.push({ ...a, origin: 'model', injected: false, generated: false });
      continue;
    }
    const cov = p.index.coverage(value, it.start);
    if (bearing(value)) {
      // A credential leaves with its value only (secrets.ts): a record's other fields do not carry it.
      const mask = sink || !POINTER_ROLES.has(a.role) ? (secrets?.maskFor(ALL_MASK, [value]) ?? ALL_MASK) : policy.controlMask | ROOT_BIT;
      for (const [producer, c] of cov.firstSeen) {
        if (producer === it.node || c < Math.min(p.index.minShingles, cov.windows)) continue;
        g.addEdge(producer, it.node, 'argument', mask, `${p.describe(producer)} reappears in argument ${a.name}`.trim());
      }
    }
    const missing = cov.windows - cov.covered;
    const generated = bearing(value) && missing > Math.max(cov.windows > 1 ? 1 : 0, 0.2 * cov.windows);
    const node = a.role === 'content' ? undefined : p.earliest(cov.firstSeen);
    const origin: ArgumentOrigin =
      node === undefined
        ? 'model'
        : p.itemOf.get(node)!.src.type === 'root'
          ? 'request'
          : ['tool', 'sink'].includes(p.itemOf.get(node)!.kind)
            ? 'tool-result'
            : 'message';
    const inj = node !== undefined ? injections.get(node) : undefined;
    // An injected passage that repeats a value the read's own call was given (the id a record was
    // fetched by) did not give it: the caller had it before the result existed.
    const echoed = node !== undefined && givenToItsCall(p.itemOf.get(node), norm);
    const injected = inj !== undefined && !echoed && containsWords(inj.injected, norm) && !containsWords(inj.clean, norm);
    out.push({
      name: a.name,
      value,
      role: a.role,
      origin,
      ...(node !== undefined ? { node } : {}),
      injected,
      generated,
      ...(echoed ? { echoed } : {}),
    });
  }
  return out;
}
