/**
 * Label propagation (docs/validator.md, "The taint validator"): deterministic and monotone. A node's outgoing labels are its own
 * labels plus what its in-edges carry (each edge passes only the labels of its mask), minus the
 * labels a release rule takes off at that node. Labels only ever grow, so a worklist reaches the
 * fixed point with every node revisited at most once per label bit; a graph whose edges all point
 * forward (a trace in time order) needs a single pass.
 *
 * For attribution, each node keeps its distance (in hops) from the nearest node that owns each
 * source label; walking back from a sink to a predecessor one hop nearer each time gives a
 * shortest path, node by node, in O(path length × in-degree).
 */
import { edgeKind, nodeKind, refOf, type TraceGraph } from './graph.js';
import { ALL_MASK, ROOT_BIT, SOURCE_LABELS, bitOf, labelsOf, type Label } from './labels.js';

export interface Propagation {
  /** Labels each node passes on (and, for a sink, the labels that reached it). */
  out: Uint16Array;
  /**
   * Hops from the nearest node that owns each remembered label (SOURCE_LABELS order, then the root
   * bit): `dist[v * DIST_SLOTS + k]`, 0 at an owner, 65535 where the label never arrives (or is
   * farther). Attribution walks it back, one predecessor nearer at each step.
   */
  dist: Uint16Array;
  /** Plain reachability: edge masks and release rules were ignored (the no-propagation ablation). */
  reachability: boolean;
}

export interface PropagateOptions {
  /**
   * Treat every edge as carrying every label and ignore release rules: "is any labelled node
   * upstream", the ablation without propagation rules.
   */
  reachability?: boolean;
}

/** The labels whose distance is kept: the sources (attribution) and the root bit (provenance). */
const REMEMBERED_BITS = [...SOURCE_LABELS.map((l) => bitOf(l)), ROOT_BIT];
const ROOT_SLOT = SOURCE_LABELS.length;
/** Slots per node in the distance array (one per remembered label, padded to 8: node v starts at v << 3). */
export const DIST_SLOTS = 8;
const REMEMBERED = REMEMBERED_BITS.reduce((a, b) => a | b, 0);
const FAR = 0xffff;

export function propagate(g: TraceGraph, opts: PropagateOptions = {}): Propagation {
  const { n, inOffset, inFrom, inMask, outOffset, outTo } = g;
  const plain = opts.reachability === true;
  const out = g.own.slice();
  const K = REMEMBERED_BITS.length;
  // Distances are relaxed along with the labels (the graph is mostly in time order, so one pass
  // gets them exact there), so attribution paths are as short as the graph allows.
  const dist = new Uint16Array(n * DIST_SLOTS).fill(FAR);
  for (let v = 0; v < n; v++) {
    const own = out[v] & REMEMBERED;
    if (own === 0) continue;
    for (let b = 0; b < K; b++) if (own & REMEMBERED_BITS[b]) dist[(v << 3) + b] = 0;
  }
  const release = g.release;

  const recompute = (v: number): boolean => {
    let cur = out[v];
    const rel = plain ? 0 : release[v] & ~ROOT_BIT;
    const base = v << 3;
    for (let i = inOffset[v], end = inOffset[v + 1]; i < end; i++) {
      const u = inFrom[i];
      const carried = out[u] & (plain ? ALL_MASK : inMask[i]) & ~rel;
      if (carried === 0) continue;
      cur |= carried;
      const remembered = carried & REMEMBERED;
      if (remembered === 0) continue;
      const ub = u << 3;
      for (let b = 0; b < K; b++) {
        if (!(remembered & REMEMBERED_BITS[b])) continue;
        const d = dist[ub + b] + 1;
        if (d < dist[base + b]) dist[base + b] = d;
      }
    }
    if (cur === out[v]) return false;
    out[v] = cur;
    return true;
  };

  if (g.forward) {
    for (let v = 0; v < n; v++) recompute(v);
    return { out, dist, reachability: plain };
  }
  // Worklist in index order: a forward edge's target is still queued, so only back edges re-queue.
  const queue = new Uint32Array(n + 1);
  const queued = new Uint8Array(n).fill(1);
  for (let v = 0; v < n; v++) queue[v] = v;
  let head = 0;
  let size = n;
  const cap = n + 1;
  while (size > 0) {
    const v = queue[head];
    head = head + 1 === cap ? 0 : head + 1;
    size--;
    queued[v] = 0;
    if (!recompute(v)) continue;
    for (let i = outOffset[v], end = outOffset[v + 1]; i < end; i++) {
      const w = outTo[i];
      if (queued[w]) continue;
      queued[w] = 1;
      queue[(head + size) % cap] = w;
      size++;
    }
  }
  return { out, dist, reachability: plain };
}

export type Scope = 'local' | 'one-hop' | 'full';

/**
 * The labels a sink is judged on under a context scope: `local` its own labels only, `one-hop`
 * plus what its direct predecessors carry themselves, `full` everything propagated to it.
 */
export function labelsInScope(g: TraceGraph, p: Propagation, sink: number, scope: Scope): number {
  // A call is judged on what it carried when it was made: its own result comes after it.
  let labels = g.atCall[sink];
  if (scope === 'full' && labels === g.own[sink]) return p.out[sink];
  if (scope === 'local') return labels;
  const rel = p.reachability || scope === 'one-hop' ? 0 : g.release[sink] & ~ROOT_BIT;
  for (let i = g.inOffset[sink], end = g.inOffset[sink + 1]; i < end; i++) {
    const e = g.inEdge[i];
    const from = scope === 'full' ? p.out[g.from[e]] : g.own[g.from[e]];
    labels |= from & (p.reachability ? ALL_MASK : g.edgeMask[e]) & ~rel;
  }
  return labels;
}

/** One node of an attribution path, with the evidence for its labels and the edge it passed on. */
export interface PathStep {
  node: string;
  kind: string;
  agent?: string;
  name?: string;
  labels: Label[];
  evidence: string[];
  /** How this node reaches the next one (absent on the last step). */
  via?: { edge: string; note?: string };
}

export function describeNode(g: TraceGraph, v: number, labelMask: number): Omit<PathStep, 'via'> {
  const meta = g.meta[v];
  const ev = g.evidence.get(v) ?? [];
  const labels = labelsOf(labelMask);
  return {
    node: refOf(g, v),
    kind: nodeKind(g, v),
    ...(meta?.agent !== undefined ? { agent: meta.agent } : {}),
    ...(meta?.name !== undefined ? { name: meta.name } : {}),
    labels,
    evidence: ev.filter((x) => labels.includes(x.label) || x.why.startsWith('released')).map((x) => `${x.label}: ${x.why}`),
  };
}

/**
 * The path along which source `label` reached `sink`, origin first. Under `one-hop` the path is
 * the predecessor that carries it and the sink; under `local` the sink alone.
 */
export function attributionPath(g: TraceGraph, p: Propagation, sink: number, label: Label | 'ROOT', scope: Scope = 'full'): PathStep[] {
  const bit = label === 'ROOT' ? ROOT_BIT : bitOf(label);
  const b = label === 'ROOT' ? ROOT_SLOT : (SOURCE_LABELS as readonly string[]).indexOf(label);
  const nodes: number[] = [sink];
  const edges: number[] = [];
  if (scope === 'one-hop' && !(g.atCall[sink] & bit)) {
    for (let i = g.inOffset[sink], end = g.inOffset[sink + 1]; i < end; i++) {
      const e = g.inEdge[i];
      if (g.own[g.from[e]] & bit & (p.reachability ? ALL_MASK : g.edgeMask[e])) {
        nodes.unshift(g.from[e]);
        edges.unshift(e);
        break;
      }
    }
  } else if (scope === 'full' && b >= 0) {
    // Walk back to a predecessor one hop nearer the origin whose edge carries the label. Beyond
    // 65535 hops (or on a cycle the distances did not settle) any carrying predecessor not yet on
    // the path will do; the bound is a guard.
    const seen = new Set<number>([sink]);
    let v = sink;
    for (let guard = 0; !((v === sink ? g.atCall[v] : g.own[v]) & bit) && guard < g.n; guard++) {
      const want = p.dist[(v << 3) + b] - 1;
      let best = -1;
      let fallback = -1;
      if (p.reachability || !(g.release[v] & bit & ~ROOT_BIT)) {
        for (let i = g.inOffset[v], end = g.inOffset[v + 1]; i < end; i++) {
          const u = g.inFrom[i];
          if (!(p.out[u] & bit & (p.reachability ? ALL_MASK : g.inMask[i])) || seen.has(u)) continue;
          if (p.dist[(u << 3) + b] === want) {
            best = i;
            break;
          }
          if (fallback < 0 || p.dist[(u << 3) + b] < p.dist[(g.inFrom[fallback] << 3) + b]) fallback = i;
        }
      }
      const i = best >= 0 ? best : fallback;
      if (i < 0) break;
      edges.unshift(g.inEdge[i]);
      v = g.inFrom[i];
      seen.add(v);
      nodes.unshift(v);
    }
  }
  return nodes.map((v, i) => {
    const step: PathStep = describeNode(g, v, (v === sink ? g.atCall[v] : g.own[v]) & ~ROOT_BIT);
    if (i < edges.length) {
      const note = g.edgeNotes.get(edges[i]);
      step.via = { edge: edgeKind(g, edges[i]), ...(note !== undefined ? { note } : {}) };
    }
    return step;
  });
}
