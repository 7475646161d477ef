/**
 * The collaboration graph and label propagation on hand-built graphs (README "The taint validator"): CSR layout,
 * edge masks, release rules, cycles, the reachability ablation, context scopes, shortest
 * attribution paths, and adjudication of the four reference shapes: fragmented exfiltration
 * across two agents (blocked), the same to an authorised internal target (released), injection
 * from a tool result reaching code execution (blocked), and a removed provenance edge
 * (unverifiable).
 */
import { describe, expect, it } from '@jest/globals';
import { GraphBuilder, nodeKind, type TraceGraph } from '../../src/taint/graph.js';
import { ALL_MASK, ROOT_BIT, bitOf, labelsOf, maskOf } from '../../src/taint/labels.js';
import { attributionPath, labelsInScope, propagate } from '../../src/taint/propagate.js';
import { adjudicateSink } from '../../src/taint/adjudicate.js';
import { defaultPolicy } from '../../src/taint/policy.js';
import type { BuiltTrace, SinkSite, TargetCheck } from '../../src/taint/trace-graph.js';

const SECRET = bitOf('SENSITIVE_READ');
const UNTRUSTED = bitOf('UNTRUSTED_CONTENT');
const OVERRIDE = bitOf('PROMPT_OVERRIDE');
const CONTROL = maskOf(['PROMPT_OVERRIDE', 'HARMFUL_INTENT']) | ROOT_BIT;

describe('GraphBuilder', () => {
  it('lays edges out in CSR form both ways and merges repeated edges', () => {
    const g = new GraphBuilder();
    const a = g.addNode('root', { ref: 'root' });
    const b = g.addNode('message', { ref: 'call:1', agent: 'planner' });
    const c = g.addNode('tool', { ref: 'tool:1' });
    g.addEdge(a, b, 'message', UNTRUSTED);
    g.addEdge(a, b, 'message', SECRET);
    g.addEdge(b, c, 'tool');
    g.addEdge(a, c, 'argument');
    const t = g.build();
    expect(t.n).toBe(3);
    expect(t.m).toBe(3);
    expect(t.edgeMask[0]).toBe(UNTRUSTED | SECRET);
    const ins = (v: number) =>
      Array.from(t.inEdge.subarray(t.inOffset[v], t.inOffset[v + 1]))
        .map((e) => t.from[e])
        .sort();
    const outs = (v: number) => Array.from(t.outTo.subarray(t.outOffset[v], t.outOffset[v + 1])).sort();
    expect(ins(c)).toEqual([a, b]);
    expect(outs(a)).toEqual([b, c]);
    expect(t.forward).toBe(true);
    expect(nodeKind(t, c)).toBe('tool');
  });

  it('refuses edges to nodes that do not exist, naming them', () => {
    const g = new GraphBuilder();
    g.addNode('root');
    expect(() => g.addEdge(0, 3, 'message')).toThrow(/node 3 does not exist \(the graph has 1 nodes\)/);
    expect(() => g.addNode('banana' as never)).toThrow(/unknown node kind "banana"/);
  });
});

describe('propagate', () => {
  function chain(masks: number[], release: number[] = []): TraceGraph {
    const g = new GraphBuilder();
    for (let i = 0; i <= masks.length; i++) g.addNode(i === 0 ? 'tool' : 'message');
    g.label(0, SECRET | UNTRUSTED, 'read');
    masks.forEach((m, i) => g.addEdge(i, i + 1, 'message', m));
    release.forEach((r, i) => r && g.releaseAt(i, r, 'sanitiser'));
    return g.build();
  }

  it('carries only the labels each edge allows', () => {
    const p = propagate(chain([ALL_MASK, UNTRUSTED, ALL_MASK]));
    expect(labelsOf(p.out[1])).toEqual(['SENSITIVE_READ', 'UNTRUSTED_CONTENT']);
    expect(labelsOf(p.out[2])).toEqual(['UNTRUSTED_CONTENT']);
    expect(labelsOf(p.out[3])).toEqual(['UNTRUSTED_CONTENT']);
  });

  it('stops released labels at the releasing node but keeps its own', () => {
    const g = new GraphBuilder();
    for (let i = 0; i < 3; i++) g.addNode('message');
    g.label(0, SECRET);
    g.label(1, UNTRUSTED);
    g.addEdge(0, 1, 'message');
    g.addEdge(1, 2, 'message');
    g.releaseAt(1, SECRET | UNTRUSTED | ROOT_BIT);
    const p = propagate(g.build());
    expect(labelsOf(p.out[1])).toEqual(['UNTRUSTED_CONTENT']);
    expect(labelsOf(p.out[2])).toEqual(['UNTRUSTED_CONTENT']);
  });

  it('reaches the fixed point on a graph with back edges and cycles', () => {
    const g = new GraphBuilder();
    for (let i = 0; i < 5; i++) g.addNode('message');
    g.label(4, SECRET);
    g.addEdge(4, 1, 'message');
    g.addEdge(1, 2, 'message');
    g.addEdge(2, 3, 'message');
    g.addEdge(3, 1, 'message');
    g.addEdge(3, 0, 'message', UNTRUSTED);
    const t = g.build();
    expect(t.forward).toBe(false);
    const p = propagate(t);
    expect([1, 2, 3].map((v) => labelsOf(p.out[v]))).toEqual([['SENSITIVE_READ'], ['SENSITIVE_READ'], ['SENSITIVE_READ']]);
    expect(p.out[0]).toBe(0);
    const path = attributionPath(t, p, 3, 'SENSITIVE_READ');
    expect(path.map((s) => s.node)).toEqual(['#4', '#1', '#2', '#3']);
  });

  it('in reachability mode ignores masks and releases', () => {
    const t = chain([UNTRUSTED, ALL_MASK], [0, SECRET]);
    expect(labelsOf(propagate(t).out[2])).toEqual(['UNTRUSTED_CONTENT']);
    expect(labelsOf(propagate(t, { reachability: true }).out[2])).toEqual(['SENSITIVE_READ', 'UNTRUSTED_CONTENT']);
  });

  it('keeps the shortest attribution path, not the first one found', () => {
    const g = new GraphBuilder();
    for (let i = 0; i < 6; i++) g.addNode('message', { ref: `n${i}` });
    g.label(0, SECRET);
    // A long way round (0→1→2→3→4→5) added before a shortcut (0→5).
    for (let i = 0; i < 5; i++) g.addEdge(i, i + 1, 'message');
    g.addEdge(0, 5, 'message', ALL_MASK, 'shortcut');
    const t = g.build();
    const path = attributionPath(t, propagate(t), 5, 'SENSITIVE_READ');
    expect(path.map((s) => s.node)).toEqual(['n0', 'n5']);
    expect(path[0].via).toEqual({ edge: 'message', note: 'shortcut' });
  });

  it('finds a long path, hop by hop', () => {
    const g = new GraphBuilder();
    for (let i = 0; i < 400; i++) g.addNode('message');
    g.label(0, SECRET);
    for (let i = 0; i < 399; i++) g.addEdge(i, i + 1, 'message');
    const t = g.build();
    expect(attributionPath(t, propagate(t), 399, 'SENSITIVE_READ')).toHaveLength(400);
  });

  it('context scopes: local sees the sink, one-hop its direct predecessors, full everything upstream', () => {
    const g = new GraphBuilder();
    for (let i = 0; i < 4; i++) g.addNode(i === 3 ? 'sink' : 'message');
    g.label(0, SECRET);
    g.label(2, UNTRUSTED);
    g.label(3, bitOf('EXTERNAL_SEND'));
    g.addEdge(0, 1, 'message');
    g.addEdge(1, 3, 'message');
    g.addEdge(2, 3, 'argument');
    const t = g.build();
    const p = propagate(t);
    expect(labelsOf(labelsInScope(t, p, 3, 'local'))).toEqual(['EXTERNAL_SEND']);
    expect(labelsOf(labelsInScope(t, p, 3, 'one-hop'))).toEqual(['UNTRUSTED_CONTENT', 'EXTERNAL_SEND']);
    expect(labelsOf(labelsInScope(t, p, 3, 'full'))).toEqual(['SENSITIVE_READ', 'UNTRUSTED_CONTENT', 'EXTERNAL_SEND']);
  });
});

/**
 * A hand-built multi-agent graph: root → reader's call → read tool → reader's summary → sender's
 * call → send sink, with the send's target as given. `cut` drops the edge that connects the
 * sender to the reader (the provenance edge).
 */
function exfiltrationGraph(opts: { target: TargetCheck; cut?: boolean }): BuiltTrace {
  const g = new GraphBuilder();
  const root = g.addNode('root', { ref: 'root', name: 'request' });
  const reader = g.addNode('message', { ref: 'call:reader-1', agent: 'reader' });
  const read = g.addNode('tool', { ref: 'tool:s1:1', agent: 'reader', name: 'read_file' });
  const summary = g.addNode('message', { ref: 'call:reader-2', agent: 'reader' });
  const sender = g.addNode('message', { ref: 'call:sender-1', agent: 'sender' });
  const send = g.addNode('sink', { ref: 'tool:s1:2', agent: 'sender', name: 'send_email', toolCallId: 's1:2' });
  g.label(root, ROOT_BIT);
  g.label(read, SECRET, 'declared by the spec of tool read_file');
  g.label(send, bitOf('EXTERNAL_SEND'), 'declared by the spec of tool send_email');
  g.addEdge(root, reader, 'message');
  g.addEdge(reader, read, 'tool', CONTROL);
  g.addEdge(read, summary, 'message');
  g.addEdge(reader, summary, 'message');
  if (!opts.cut) g.addEdge(summary, sender, 'message', ALL_MASK, 'the summary reappears here');
  g.addEdge(sender, send, 'tool', ALL_MASK);
  const site: SinkSite = {
    node: send,
    tool: 'send_email',
    agent: 'sender',
    toolCallId: 's1:2',
    arguments: { to: opts.target.value },
    sinks: bitOf('EXTERNAL_SEND'),
    targets: [opts.target],
    issuedBy: sender,
    generated: ['body'],
    pending: false,
  };
  return {
    graph: g.build(),
    root,
    rootText: 'Summarise the Q3 report and send it to the team.',
    sinks: [site],
    needs: { mask: bitOf('EXTERNAL_SEND'), evidence: [] },
    notes: [],
  };
}

const outside: TargetCheck = {
  kind: 'recipient',
  require: 'authorised',
  argument: 'to',
  value: 'drop@evil.example',
  rule: 'default targets[0]',
  ok: false,
  why: 'named neither in the request nor in the policy',
};
const internal: TargetCheck = {
  kind: 'recipient',
  require: 'authorised',
  argument: 'to',
  value: 'team@corp.example',
  rule: 'default targets[0]',
  ok: true,
  why: 'authorised by the policy (*@corp.example)',
};

describe('adjudication on hand-built graphs', () => {
  const policy = defaultPolicy();
  const decide = (b: BuiltTrace, scope: 'local' | 'one-hop' | 'full' = 'full') =>
    adjudicateSink(b, propagate(b.graph), b.sinks[0], policy, { scope });

  it('blocks fragmented exfiltration across two agents, with the path node by node', () => {
    const v = decide(exfiltrationGraph({ target: outside }));
    expect(v.decision).toBe('block');
    const f = v.violations.find((x) => x.kind === 'forbidden-path')!;
    expect(f.message).toMatch(/^SENSITIVE_READ reaches EXTERNAL_SEND/);
    expect(f.path.map((s) => s.node)).toEqual(['tool:s1:1', 'call:reader-2', 'call:sender-1', 'tool:s1:2']);
    expect(f.path.map((s) => s.agent)).toEqual(['reader', 'reader', 'sender', 'sender']);
    expect(f.path[0].evidence).toEqual(['SENSITIVE_READ: declared by the spec of tool read_file']);
    expect(f.path[1].via).toEqual({ edge: 'message', note: 'the summary reappears here' });
  });

  it('does not see the two-hop flow in one-hop or local scope (the ablations)', () => {
    expect(decide(exfiltrationGraph({ target: outside }), 'one-hop').violations.some((x) => x.kind === 'forbidden-path')).toBe(false);
    expect(decide(exfiltrationGraph({ target: outside }), 'local').violations.some((x) => x.kind === 'forbidden-path')).toBe(false);
  });

  it('releases the same shape with an authorised internal target, and shows the path from the request', () => {
    const v = decide(exfiltrationGraph({ target: internal }));
    expect(v.decision).toBe('release');
    expect(v.labels).toEqual(['SENSITIVE_READ', 'EXTERNAL_SEND']);
    expect(v.path[0].node).toBe('root');
    expect(v.path.at(-1)!.node).toBe('tool:s1:2');
  });

  it('reports a removed provenance edge as unverifiable', () => {
    const v = decide(exfiltrationGraph({ target: internal, cut: true }));
    expect(v.decision).toBe('unverifiable');
    expect(v.reason).toMatch(/provenance gap: .*call:sender-1 is not connected to the request/);
  });

  it('blocks prompt injection from a tool result reaching code execution, through a control-only edge', () => {
    const g = new GraphBuilder();
    const root = g.addNode('root', { ref: 'root' });
    const c1 = g.addNode('message', { ref: 'call:1', agent: 'worker' });
    const page = g.addNode('tool', { ref: 'tool:fetch', name: 'fetch_url' });
    const c2 = g.addNode('message', { ref: 'call:2', agent: 'worker' });
    const exec = g.addNode('sink', { ref: 'tool:exec', name: 'execute_code' });
    g.label(root, ROOT_BIT);
    g.label(page, UNTRUSTED, 'returns content written by third parties');
    g.label(page, OVERRIDE, 'tells the agent to drop its instructions');
    g.label(exec, bitOf('CODE_EXEC'));
    g.addEdge(root, c1, 'message');
    g.addEdge(c1, page, 'tool', CONTROL);
    g.addEdge(page, c2, 'message');
    g.addEdge(root, c2, 'message');
    // Every argument traced to the request: only control labels cross.
    g.addEdge(c2, exec, 'tool', CONTROL);
    const site: SinkSite = {
      node: exec,
      tool: 'execute_code',
      toolCallId: 'x',
      arguments: { code: 'ls' },
      sinks: bitOf('CODE_EXEC'),
      targets: [],
      issuedBy: c2,
      generated: [],
      pending: true,
    };
    const b: BuiltTrace = {
      graph: g.build(),
      root,
      rootText: 'Run ls in the project folder.',
      sinks: [site],
      needs: { mask: bitOf('CODE_EXEC'), evidence: [] },
      notes: [],
    };
    const v = decide(b);
    expect(v.decision).toBe('block');
    expect(v.labels).toEqual(['PROMPT_OVERRIDE', 'CODE_EXEC']);
    expect(v.violations.map((x) => x.message)).toEqual([expect.stringMatching(/^PROMPT_OVERRIDE reaches CODE_EXEC/)]);
    expect(v.path.map((s) => s.node)).toEqual(['tool:fetch', 'call:2', 'tool:exec']);
  });
});
