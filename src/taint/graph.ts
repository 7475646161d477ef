/**
 * The collaboration graph (docs/validator.md, "The taint validator") in flat typed arrays: node kinds and labels are one slot per
 * node, edges are parallel arrays, and `build()` sorts them into CSR form (in- and out-adjacency)
 * with a counting sort. Everything is linear in nodes + edges, so a million-node trace fits in a
 * few tens of megabytes and propagates in one pass. Descriptions (which call, which agent, why a
 * label) are kept apart and only for the nodes that have them.
 */
import { ALL_MASK, labelsOf, type Label } from './labels.js';

export const NODE_KINDS = ['root', 'delegation', 'message', 'tool', 'sink'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];
/**
 * delegation: an agent handed work to another (OTLP invoke_agent); parent: span nesting; message:
 * content of one node reached another (logged, or recovered from content); tool: the LLM call that
 * issued a tool call; argument: content that reappears in a tool call's arguments.
 */
export const EDGE_KINDS = ['delegation', 'parent', 'message', 'tool', 'argument'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

const NODE_CODE = new Map<string, number>(NODE_KINDS.map((k, i) => [k, i]));
const EDGE_CODE = new Map<string, number>(EDGE_KINDS.map((k, i) => [k, i]));

/** What a node stands for, for attribution paths and reports. */
export interface NodeMeta {
  /** Stable reference: `root`, `call:<proxy call id>`, `tool:<event id>`, `span:<span id>`. */
  ref: string;
  agent?: string;
  /** Tool name, span name or a short description. */
  name?: string;
  /** Milliseconds since the epoch when the node started. */
  time?: number;
  /** Tool call id a consumer of the report knows it by (event id, OTLP gen_ai.tool.call.id). */
  toolCallId?: string;
}

/** Why a node carries a label: the rule or the text that put it there. */
export interface Evidence {
  label: Label;
  why: string;
}

export interface TraceGraph {
  readonly n: number;
  readonly m: number;
  /** Index into NODE_KINDS. */
  readonly kind: Uint8Array;
  /** Labels the node carries itself (annotation), ROOT_BIT on the root. */
  readonly own: Uint16Array;
  /**
   * The labels the node carried when it was made: `own` less what its own result brought (a tool
   * call's output). A call is judged on these and on what reached it, never on what it returned:
   * events count in their order.
   */
  readonly atCall: Uint16Array;
  /** Labels the node does not pass on (release rules: declassification, sanitisers). */
  readonly release: Uint16Array;
  readonly from: Uint32Array;
  readonly to: Uint32Array;
  /** Index into EDGE_KINDS. */
  readonly edgeKind: Uint8Array;
  /** Labels the edge may carry. */
  readonly edgeMask: Uint16Array;
  /** CSR: edges into node v are inEdge[inOffset[v] .. inOffset[v+1]). */
  readonly inOffset: Uint32Array;
  readonly inEdge: Uint32Array;
  /** Source node and mask of each in-edge, in CSR order: propagation reads them sequentially. */
  readonly inFrom: Uint32Array;
  readonly inMask: Uint16Array;
  /** Out-adjacency: the targets of node v's out-edges are outTo[outOffset[v] .. outOffset[v+1]). */
  readonly outOffset: Uint32Array;
  readonly outTo: Uint32Array;
  /** True when every edge goes from a lower to a higher node index: one pass propagates. */
  readonly forward: boolean;
  readonly meta: (NodeMeta | undefined)[];
  readonly evidence: Map<number, Evidence[]>;
  readonly edgeNotes: Map<number, string>;
}

function grow<T extends Uint8Array | Uint16Array | Uint32Array>(a: T, size: number): T {
  if (size <= a.length) return a;
  let cap = Math.max(16, a.length);
  while (cap < size) cap *= 2;
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

export class GraphBuilder {
  private kinds = new Uint8Array(16);
  private ownLabels = new Uint16Array(16);
  private callLabels = new Uint16Array(16);
  private releases = new Uint16Array(16);
  private eFrom = new Uint32Array(16);
  private eTo = new Uint32Array(16);
  private eKind = new Uint8Array(16);
  private eMask = new Uint16Array(16);
  private seen: Map<number, number> | undefined;
  private readonly meta: (NodeMeta | undefined)[] = [];
  private readonly evidence = new Map<number, Evidence[]>();
  private readonly edgeNotes = new Map<number, string>();
  private nodes = 0;
  private edges = 0;

  constructor(expected: { nodes?: number; edges?: number } = {}) {
    if (expected.nodes) this.reserveNodes(expected.nodes);
    if (expected.edges) this.reserveEdges(expected.edges);
  }

  get nodeCount(): number {
    return this.nodes;
  }

  get edgeCount(): number {
    return this.edges;
  }

  private reserveNodes(size: number): void {
    this.kinds = grow(this.kinds, size);
    this.ownLabels = grow(this.ownLabels, size);
    this.callLabels = grow(this.callLabels, size);
    this.releases = grow(this.releases, size);
  }

  private reserveEdges(size: number): void {
    this.eFrom = grow(this.eFrom, size);
    this.eTo = grow(this.eTo, size);
    this.eKind = grow(this.eKind, size);
    this.eMask = grow(this.eMask, size);
  }

  addNode(kind: NodeKind, meta?: NodeMeta): number {
    const code = NODE_CODE.get(kind);
    if (code === undefined) throw new Error(`unknown node kind ${JSON.stringify(kind)}`);
    const id = this.nodes++;
    this.reserveNodes(this.nodes);
    this.kinds[id] = code;
    if (meta) this.meta[id] = meta;
    return id;
  }

  kindOf(node: number): NodeKind {
    return NODE_KINDS[this.kinds[node]];
  }

  metaOf(node: number): NodeMeta | undefined {
    return this.meta[node];
  }

  ownOf(node: number): number {
    return this.ownLabels[node];
  }

  /**
   * Adds labels (a bit mask) to a node, with the evidence for each when given. `result`: the labels
   * come from what the node returned (a tool's output), so they pass on but do not judge the call.
   */
  label(node: number, mask: number, why?: string, when: 'call' | 'result' = 'call'): void {
    this.check(node);
    this.ownLabels[node] |= mask;
    if (when === 'call') this.callLabels[node] |= mask;
    if (why !== undefined) {
      const list = this.evidence.get(node) ?? [];
      for (const l of labelsOf(mask)) list.push({ label: l, why });
      this.evidence.set(node, list);
    }
  }

  /** Labels this node does not pass on. */
  releaseAt(node: number, mask: number, why?: string): void {
    this.check(node);
    this.releases[node] |= mask;
    if (why !== undefined) {
      const list = this.evidence.get(node) ?? [];
      for (const l of labelsOf(mask)) list.push({ label: l, why: `released: ${why}` });
      this.evidence.set(node, list);
    }
  }

  /**
   * Adds an edge. A second edge between the same two nodes widens the first one's mask instead
   * (content matching finds the same pair several ways).
   */
  addEdge(from: number, to: number, kind: EdgeKind, mask: number = ALL_MASK, note?: string): number {
    this.check(from);
    this.check(to);
    if (from === to) return -1;
    const code = EDGE_CODE.get(kind);
    if (code === undefined) throw new Error(`unknown edge kind ${JSON.stringify(kind)}`);
    const key = from * 4294967296 + to;
    const old = this.seen?.get(key);
    if (old !== undefined) {
      this.eMask[old] |= mask;
      if (note !== undefined && !this.edgeNotes.has(old)) this.edgeNotes.set(old, note);
      return old;
    }
    const id = this.edges++;
    this.reserveEdges(this.edges);
    this.eFrom[id] = from;
    this.eTo[id] = to;
    this.eKind[id] = code;
    this.eMask[id] = mask;
    if (note !== undefined) this.edgeNotes.set(id, note);
    (this.seen ??= new Map()).set(key, id);
    return id;
  }

  /**
   * Adds an edge without the duplicate check: for generators that know their edges are distinct
   * (the bench), where a map of every pair would cost more than the graph.
   */
  addEdgeUnchecked(from: number, to: number, kind: EdgeKind, mask: number = ALL_MASK): void {
    const id = this.edges++;
    if (id >= this.eFrom.length) this.reserveEdges(this.edges);
    this.eFrom[id] = from;
    this.eTo[id] = to;
    this.eKind[id] = EDGE_CODE.get(kind)!;
    this.eMask[id] = mask;
  }

  hasEdge(from: number, to: number): boolean {
    return this.seen?.has(from * 4294967296 + to) ?? false;
  }

  private check(node: number): void {
    if (!Number.isInteger(node) || node < 0 || node >= this.nodes)
      throw new Error(`node ${node} does not exist (the graph has ${this.nodes} nodes)`);
  }

  build(): TraceGraph {
    const n = this.nodes;
    const m = this.edges;
    const from = this.eFrom.slice(0, m);
    const to = this.eTo.slice(0, m);
    const inOffset = new Uint32Array(n + 1);
    const outOffset = new Uint32Array(n + 1);
    let forward = true;
    for (let e = 0; e < m; e++) {
      inOffset[to[e] + 1]++;
      outOffset[from[e] + 1]++;
      if (from[e] >= to[e]) forward = false;
    }
    for (let v = 0; v < n; v++) {
      inOffset[v + 1] += inOffset[v];
      outOffset[v + 1] += outOffset[v];
    }
    const inEdge = new Uint32Array(m);
    const inFill = inOffset.slice(0, n);
    const outFill = outOffset.slice(0, n);
    const mask = this.eMask.slice(0, m);
    const inFrom = new Uint32Array(m);
    const inMask = new Uint16Array(m);
    const outTo = new Uint32Array(m);
    for (let e = 0; e < m; e++) {
      const i = inFill[to[e]]++;
      inEdge[i] = e;
      inFrom[i] = from[e];
      inMask[i] = mask[e];
      outTo[outFill[from[e]]++] = to[e];
    }
    return {
      n,
      m,
      kind: this.kinds.slice(0, n),
      own: this.ownLabels.slice(0, n),
      atCall: this.callLabels.slice(0, n),
      release: this.releases.slice(0, n),
      from,
      to,
      edgeKind: this.eKind.slice(0, m),
      edgeMask: mask,
      inOffset,
      inEdge,
      inFrom,
      inMask,
      outOffset,
      outTo,
      forward,
      meta: this.meta,
      evidence: this.evidence,
      edgeNotes: this.edgeNotes,
    };
  }
}

export function nodeKind(g: TraceGraph, v: number): NodeKind {
  return NODE_KINDS[g.kind[v]];
}

export function edgeKind(g: TraceGraph, e: number): EdgeKind {
  return EDGE_KINDS[g.edgeKind[e]];
}

/** `root`, `call:…`, or `#<index>` for a node built without a description. */
export function refOf(g: TraceGraph, v: number): string {
  return g.meta[v]?.ref ?? `#${v}`;
}
