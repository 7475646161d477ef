/**
 * The bounds on what a run records and the run log's writer, pure: hostile sizes and depths come
 * out capped with their length and hash, and nothing recurses.
 */
import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import {
  boundProxyCall,
  boundToolEvent,
  boundValue,
  capText,
  cutMark,
  isCut,
  jsonChunks,
  safeStringify,
  TEXT_CAP,
} from '../../src/runlog/bound.js';
import type { ProxyCall } from '../../src/runlog/schema.js';

/** [[[ … ]]] nested `depth` levels, built without recursion. */
function deepArray(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
function deepObject(depth: number): unknown {
  let v: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('capText', () => {
  it('keeps short text, cuts long text to the cap with its full length and sha256', () => {
    expect(capText('short')).toBe('short');
    const big = 'x'.repeat(20 * 1024 * 1024);
    const cut = capText(big);
    expect(cut.length).toBeLessThanOrEqual(TEXT_CAP);
    expect(cut.endsWith(cutMark(big.length, sha(big)))).toBe(true);
    expect(cut).toContain('20971520 characters');
    expect(isCut(cut)).toBe(true);
    expect(capText(cut)).toBe(cut);
  });
});

describe('boundValue', () => {
  it('turns nesting past the cap into a mark, without recursing (6,000 and 1,000,000 levels)', () => {
    for (const depth of [6000, 1_000_000]) {
      const out = boundValue(deepArray(depth), { maxDepth: 32 });
      let v = out as unknown[];
      let levels = 0;
      while (Array.isArray(v)) {
        v = v[0] as unknown[];
        levels++;
      }
      expect(levels).toBe(32);
      expect(String(v)).toBe('…[✂ cut by saboteur: nested deeper than 32 levels]');
    }
    expect(() => JSON.stringify(boundValue(deepObject(50_000)))).not.toThrow();
  });

  it('cuts wide arrays and objects, long strings and a whole value past its budget', () => {
    const wide = boundValue(
      Array.from({ length: 5000 }, (_, i) => i),
      { maxEntries: 100 },
    ) as unknown[];
    expect(wide).toHaveLength(101);
    expect(wide[100]).toBe('…[✂ cut by saboteur: 4900 more items]');
    const keys = boundValue(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i])), { maxEntries: 10 }) as Record<
      string,
      unknown
    >;
    expect(Object.keys(keys)).toHaveLength(11);
    expect(keys['…✂']).toBe('…[✂ cut by saboteur: 2990 more keys]');
    const budgeted = boundValue(
      Array.from({ length: 100 }, () => ({ text: 'y'.repeat(10_000) })),
      { budget: 50_000 },
    );
    expect(JSON.stringify(budgeted).length).toBeLessThan(80_000);
    expect(JSON.stringify(budgeted)).toContain('over the 50000 character budget');
    expect(boundValue({ a: undefined, f: () => 1, n: NaN, big: 10n, d: [undefined] })).toEqual({ n: null, big: '10', d: [null] });
  });
});

describe('jsonChunks', () => {
  it('writes exactly what JSON.stringify(value, null, 2) writes', () => {
    const samples: unknown[] = [
      {
        a: 1,
        b: [1, 'two', { c: null }],
        d: {},
        e: [],
        f: undefined,
        g: () => 1,
        h: new Date(0),
        i: 'quote " and \n newline',
        j: [undefined, NaN, Infinity],
        k: -0,
        l: true,
      },
      [],
      {},
      'plain',
      42,
      null,
      [[[]], [{}], { x: [{ y: {} }] }],
      { toJSON: () => ({ replaced: true }) },
    ];
    for (const v of samples) {
      expect([...jsonChunks(v, 2)].join('')).toBe(JSON.stringify(v, null, 2));
      expect([...jsonChunks(v, 0)].join('')).toBe(JSON.stringify(v));
    }
  });

  it('writes a value nested 200,000 levels deep, and refuses a cycle', () => {
    const text = [...jsonChunks(deepArray(200_000), 0)].join('');
    expect(text.length).toBe(400_000 + '"bottom"'.length);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => [...jsonChunks(cyclic)]).toThrow(/circular/);
  });

  it('hands out chunks, not one giant string', () => {
    const chunks = [...jsonChunks({ items: Array.from({ length: 20_000 }, (_, i) => ({ i, text: 'z'.repeat(50) })) })];
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(70_000);
  });

  it('safeStringify: any depth, bounded size', () => {
    expect(safeStringify(deepObject(100_000)).length).toBeLessThan(20_000);
    expect(safeStringify({ to: 'a@b.c' })).toBe('{"to":"a@b.c"}');
  });
});

describe('trace records', () => {
  it('a proxy call keeps at most 256 messages (the first and the last), every text capped', () => {
    const call: ProxyCall = {
      id: 'c',
      agent: 'a'.repeat(10_000),
      agentSource: 'header',
      endpoint: 'chat.completions',
      agentCallIndex: 0,
      startedAt: '',
      durationMs: 1,
      stream: false,
      status: 200,
      request: {
        messages: Array.from({ length: 1000 }, (_, i) => ({ role: 'user', content: `m${i} ${'w'.repeat(i === 3 ? 1_000_000 : 1)}` })),
        tools: ['t'],
      },
      response: { content: 'r'.repeat(5_000_000), toolCalls: [{ id: 'x', name: 'send', arguments: 'a'.repeat(3_000_000) }] },
      corruption: {
        method: 'autoinject',
        mode: 'syntactic',
        unit: 'line',
        before: 'b'.repeat(2_000_000),
        after: 'c',
        units: [{ index: 0, before: 'q'.repeat(100_000), after: 'p', rule: 'flip' }],
      },
    };
    const b = boundProxyCall(call);
    const msgs = b.request.messages!;
    expect(msgs).toHaveLength(257);
    expect(msgs[0].content).toMatch(/^m0 /);
    expect(msgs[8].content).toBe('…[✂ cut by saboteur: 744 messages]');
    expect(msgs.at(-1)!.content).toMatch(/^m999 /);
    expect(isCut(msgs[3].content)).toBe(true);
    expect(b.agent.length).toBeLessThanOrEqual(512);
    expect(isCut(b.response!.content)).toBe(true);
    expect(isCut(b.response!.toolCalls![0].arguments)).toBe(true);
    expect(isCut(b.corruption!.before)).toBe(true);
    expect(JSON.stringify(b).length).toBeLessThan(TEXT_CAP * 300);
  });

  it('a tool event: arguments nested 6,000 levels deep and a megabyte result are bounded', () => {
    const e = boundToolEvent({
      id: '1',
      tool: 'send_email',
      arguments: deepObject(6000) as Record<string, unknown>,
      result: 'o'.repeat(1_000_000),
      isError: false,
      startedAt: '',
      durationMs: 0,
    });
    expect(() => JSON.stringify(e)).not.toThrow();
    expect(JSON.stringify(e)).toMatch(/nested deeper than 32 levels/);
    expect(isCut(e.result)).toBe(true);
  });
});
