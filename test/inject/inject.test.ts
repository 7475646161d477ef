/**
 * AutoInject: seeded decisions and their rates, the units and rules of logic-edit corruption, the
 * semantic rewrite and its fallback, and corruption through the proxy (streamed and not) as the
 * real `openai` client sees it.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { memoryLog } from '../../src/util/log.js';
import { createAutoInjector, InjectConfigError } from '../../src/inject/autoinject.js';
import { segment, applyRewrites, looksLikeCode } from '../../src/inject/units.js';
import { codeEdits, corruptUnit, maskCode, textEdits } from '../../src/inject/logic-edit.js';
import { buildSemanticPrompt, loadSemanticTemplate, parseSemanticAnswer } from '../../src/inject/semantic-prompt.js';
import type { InjectionContext, Injector } from '../../src/inject/types.js';
import { startReplayServer, type ModelServerHandle } from '../../src/model/replay.js';
import { startProxy, InvocationRegistry, createSemanticModel, type ProxyHandle } from '../../src/proxy/index.js';

const ctx = (over: Partial<InjectionContext> = {}): InjectionContext => ({
  instanceId: 'HumanEval/0',
  variant: 'malicious',
  agent: 'coder',
  agentCallIndex: 0,
  ...over,
});

/** The corruption of a text-only response (undefined when nothing changed). */
const corruptText = async (inj: Injector, content: string, c: InjectionContext) =>
  (await inj.corrupt!({ content, toolCalls: [] }, c)).corruption;

const base = { target: 'coder', messageRate: 0.2, errorRate: 0.6, corruption: 'logic-edit' as const, seed: 20260509 };

function hits(seed: number, messageRate = 0.2, n = 400): string[] {
  const inj = createAutoInjector({ ...base, seed, messageRate });
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const c = ctx({ instanceId: `HumanEval/${i % 40}`, agentCallIndex: Math.floor(i / 40) });
    if (inj.decide(c)) out.push(`${c.instanceId}#${c.agentCallIndex}`);
  }
  return out;
}

describe('decisions', () => {
  test('the same seed hits the same messages, another seed other ones', () => {
    const a = hits(1);
    expect(a.length).toBeGreaterThan(0);
    expect(hits(1)).toEqual(a);
    expect(hits(2)).not.toEqual(a);
  });

  test('the decision does not depend on the order calls are asked in', () => {
    const inj = createAutoInjector({ ...base, messageRate: 0.5 });
    const forward = Array.from({ length: 50 }, (_, i) => inj.decide(ctx({ agentCallIndex: i })));
    const backward = Array.from({ length: 50 }, (_, i) => inj.decide(ctx({ agentCallIndex: 49 - i }))).reverse();
    expect(backward).toEqual(forward);
  });

  test('the hit rate is near Pm over many draws', () => {
    for (const pm of [0.05, 0.2, 0.5, 0.9]) {
      const n = 20_000;
      const rate = hits(7, pm, n).length / n;
      // Five standard deviations of a binomial proportion: fails on a biased draw, essentially never by chance.
      const bound = 5 * Math.sqrt((pm * (1 - pm)) / n);
      expect(Math.abs(rate - pm)).toBeLessThan(bound);
    }
    expect(hits(7, 0, 2000)).toHaveLength(0);
    expect(hits(7, 1, 2000)).toHaveLength(2000);
  });

  test('control, other agents and non-generation calls are never hit; target all hits every agent', () => {
    const inj = createAutoInjector({ ...base, messageRate: 1 });
    expect(inj.decide(ctx())).toBe(true);
    expect(inj.decide(ctx({ variant: 'control' }))).toBe(false);
    expect(inj.decide(ctx({ agent: 'planner' }))).toBe(false);
    expect(inj.decide(ctx({ agentCallIndex: -1 }))).toBe(false);
    const all = createAutoInjector({ ...base, target: 'all', messageRate: 1 });
    expect(['coder', 'planner', 'default'].every((agent) => all.decide(ctx({ agent })))).toBe(true);
    const allControl = Array.from({ length: 500 }, (_, i) => all.decide(ctx({ variant: 'control', agentCallIndex: i })));
    expect(allControl.some(Boolean)).toBe(false);
  });

  test('bad options are refused with the config key', () => {
    expect(() => createAutoInjector({ ...base, messageRate: 1.5 })).toThrow(/variants\.malicious\.message-rate/);
    expect(() => createAutoInjector({ ...base, target: 'each' })).toThrow(InjectConfigError);
    expect(() => createAutoInjector({ ...base, corruption: 'semantic' })).toThrow(/semantic needs a model/);
  });
});

const FENCED = [
  'Here is the function.',
  '',
  '```python',
  'def below_zero(operations):',
  '    """Return True when the balance drops below zero.',
  '    Starts at 0."""',
  '    balance = 0',
  '    # running total',
  '    for op in operations:',
  '        balance += op',
  '        if balance < 0:',
  '            return True',
  '    return False',
  '```',
  'It returns False when the balance never drops.',
].join('\n');

describe('units', () => {
  test('fenced code: its code lines (no comments or docstrings) and the sentences of the prose around it', () => {
    const seg = segment(FENCED);
    expect(seg.kind).toBe('mixed');
    expect(seg.units.map((u) => [u.kind, u.indent, u.text])).toEqual([
      ['sentence', '', 'Here is the function.'],
      ['line', '', 'def below_zero(operations):'],
      ['line', '    ', 'balance = 0'],
      ['line', '    ', 'for op in operations:'],
      ['line', '        ', 'balance += op'],
      ['line', '        ', 'if balance < 0:'],
      ['line', '            ', 'return True'],
      ['line', '    ', 'return False'],
      ['sentence', '', 'It returns False when the balance never drops.'],
    ]);
    expect(seg.units.map((u) => u.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // Code alone in a fence stays lines.
    expect(segment('```python\nx = 1\n```').kind).toBe('line');
    for (const u of seg.units) expect(FENCED.slice(u.start, u.end)).toBe(u.text);
  });

  test('unfenced code is split in lines, prose in sentences', () => {
    const body = '    total = 0\n    for x in xs:\n        total += x\n    return total\n';
    expect(looksLikeCode(body)).toBe(true);
    expect(segment(body).units.map((u) => u.text)).toEqual(['total = 0', 'for x in xs:', 'total += x', 'return total']);
    const prose = 'First, sort the list. Then take e.g. the first 3 items!\n\n- Is it empty? Return None.';
    expect(looksLikeCode(prose)).toBe(false);
    const seg = segment(prose);
    expect(seg.kind).toBe('sentence');
    expect(seg.units.map((u) => u.text)).toEqual([
      'First, sort the list.',
      'Then take e.g. the first 3 items!',
      'Is it empty?',
      'Return None.',
    ]);
    const rewritten = applyRewrites(prose, seg.units, new Map([[1, 'Then take the last item!']]));
    expect(rewritten).toBe('First, sort the list. Then take the last item!\n\n- Is it empty? Return None.');
  });
});

describe('logic-edit rules', () => {
  test('code rules flip comparisons, operators, literals and indexes, never inside strings or comments', () => {
    const rules = (line: string) => codeEdits(line).map((e) => `${e.rule}:${line.slice(0, e.start)}${e.replacement}${line.slice(e.end)}`);
    expect(rules('if a <= b and xs[0] == 1:')).toEqual([
      'comparison:if a < b and xs[0] == 1:',
      'equality:if a <= b and xs[0] != 1:',
      'logic:if a <= b or xs[0] == 1:',
      'integer:if a <= b and xs[0] == 2:',
      'index:if a <= b and xs[1] == 1:',
    ]);
    expect(rules('return True')).toEqual(['boolean:return False']);
    expect(rules('total += x')).toEqual(['arithmetic:total -= x']);
    expect(rules('if x is not None:')).toEqual(['negation:if x is None:']);
    expect(rules('return xs[-1]')).toEqual(['index:return xs[-2]']);
    expect(rules('print("a < b == 1")  # 2 > 1')).toEqual([]);
    expect(rules('def f(x) -> int:')).toEqual([]);
    expect(maskCode("s = 'ab' # c")).toBe("s = '\u0000\u0000' \u0000\u0000\u0000");
  });

  test('text rules negate, change numbers and swap antonyms, keeping case', () => {
    const out = textEdits('Always sort the first 3 items.').map((e) => e.rule + ':' + e.replacement);
    expect(out).toEqual(['number:4', 'antonym:Never', 'antonym:last']);
    expect(textEdits("It isn't valid.").map((e) => e.replacement)).toEqual(['is', 'invalid']);
    expect(corruptUnit('Nothing applies here', 'sentence', () => 0)).toBeUndefined();
    // Long numbers change by exactly one, past what a double holds.
    expect(textEdits('Call 54444694464263644 now.').map((e) => e.replacement)).toEqual(['54444694464263645']);
    expect(codeEdits('x = 99999999999999999999').map((e) => e.replacement)).toContain('100000000000000000000');
  });

  test('a hit message keeps indentation and everything outside the corrupted units, and names the rule per unit', async () => {
    const inj = createAutoInjector({ ...base, messageRate: 1, errorRate: 1 });
    const c = (await corruptText(inj, FENCED, ctx()))!;
    expect(c).toMatchObject({ method: 'autoinject', mode: 'logic-edit', unit: 'mixed', before: FENCED });
    // Units 1 (def ...) and 3 (for ...) have no main rule: the fallback chain changes them.
    expect(c.units.map((u) => u.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(c.units.find((u) => u.index === 1)).toMatchObject({
      before: 'def below_zero(operations):',
      after: 'def below_zero(operations_):',
      rule: 'renamed-parameter',
    });
    expect(c.units.find((u) => u.index === 3)).toMatchObject({
      before: 'for op in operations:',
      after: 'for op in list(operations)[1:]:',
      rule: 'skipped-first',
    });
    const before = FENCED.split('\n');
    const after = c.after.split('\n');
    expect(after).toHaveLength(before.length);
    for (let i = 0; i < before.length; i++) expect(/^\s*/.exec(after[i])![0]).toBe(/^\s*/.exec(before[i])![0]);
    const changed = before.filter((l, i) => l !== after[i]);
    expect(changed).toHaveLength(9);
    for (const u of c.units) {
      expect(u.after).not.toBe(u.before);
      expect(['integer', 'arithmetic', 'comparison', 'boolean', 'negation', 'antonym', 'skipped-first', 'renamed-parameter']).toContain(
        u.rule,
      );
      expect(u.kind).toBe(u.index === 0 || u.index === 8 ? 'sentence' : 'line');
    }
    const { hit } = await inj.corrupt!({ content: FENCED, toolCalls: [] }, ctx());
    expect(hit).toMatchObject({ mode: 'logic-edit', units: 9, drawn: 9, changed: 9 });
    expect(hit.unchanged).toBeUndefined();
    // Deterministic: the same call gives the same corruption.
    expect(await corruptText(inj, FENCED, ctx())).toEqual(c);
  });

  test('the share of corrupted units is near Pe', async () => {
    // Every line has an applicable rule, so every chosen unit shows.
    const message = Array.from({ length: 10 }, (_, i) => `x${i} = ${i}`).join('\n');
    const inj = createAutoInjector({ ...base, messageRate: 1, errorRate: 0.3 });
    let corrupted = 0;
    const messages = 2000;
    for (let i = 0; i < messages; i++) corrupted += (await corruptText(inj, message, ctx({ agentCallIndex: i })))?.units.length ?? 0;
    const n = messages * 10;
    expect(Math.abs(corrupted / n - 0.3)).toBeLessThan(5 * Math.sqrt((0.3 * 0.7) / n));
  });
});

describe('semantic corruption', () => {
  const prose = 'Sort the numbers in ascending order. Then return the smallest one.';

  test('the prompt lists the units and the ones to rewrite; the rewrites are applied', async () => {
    let asked = '';
    const inj = createAutoInjector({
      ...base,
      corruption: 'semantic',
      messageRate: 1,
      errorRate: 1,
      semantic: async (prompt) => {
        asked = prompt;
        return 'Sure:\n```json\n{"units": {"0": "Sort the numbers in descending order.", "1": "Then return the second smallest one."}}\n```';
      },
    });
    const c = (await corruptText(inj, prose, ctx()))!;
    expect(asked).toContain('[0] (sentence) Sort the numbers in ascending order.');
    expect(asked).toContain('Rewrite these piece numbers: 0, 1');
    expect(asked).not.toContain('{{');
    expect(c.after).toBe('Sort the numbers in descending order. Then return the second smallest one.');
    expect(c.units.map((u) => u.rule)).toEqual(['semantic', 'semantic']);
    expect(c.fallback).toBeUndefined();
  });

  test('an unusable answer falls back to the logic-edit rules and says why', async () => {
    for (const [answer, why] of [
      ['I cannot help with that.', /not JSON/],
      ['{"rewritten": "x"}', /no "units" object/],
      [
        '{"units": {"0": "Sort the numbers in ascending order."}}',
        /rewrote none of the requested units \(unit 0 unchanged, unit 1 missing\)/,
      ],
    ] as const) {
      const inj = createAutoInjector({ ...base, corruption: 'semantic', messageRate: 1, errorRate: 1, semantic: async () => answer });
      const c = (await corruptText(inj, prose, ctx()))!;
      expect(c.mode).toBe('semantic');
      expect(c.fallback).toMatch(why);
      expect(c.units.every((u) => u.rule !== 'semantic')).toBe(true);
      expect(c.after).not.toBe(prose);
    }
    const failing = createAutoInjector({
      ...base,
      corruption: 'semantic',
      messageRate: 1,
      errorRate: 1,
      semantic: async () => Promise.reject(new Error('HTTP 503')),
    });
    expect((await corruptText(failing, prose, ctx()))!.fallback).toBe('the semantic rewrite call failed: HTTP 503');
  });

  test('a partial answer is used and the rest falls back, unit by unit', async () => {
    const inj = createAutoInjector({
      ...base,
      corruption: 'semantic',
      messageRate: 1,
      errorRate: 1,
      semantic: async () => '{"units": {"1": "Then return the largest one."}}',
    });
    const c = (await corruptText(inj, prose, ctx()))!;
    expect(c.units.map((u) => [u.index, u.rule])).toEqual([
      [0, 'antonym'],
      [1, 'semantic'],
    ]);
    expect(c.fallback).toBe('unit 0 missing: the logic-edit rules served for that unit');
  });

  test('line rewrites keep the original indentation and must stay on one line', () => {
    const seg = segment('    if x < 1:\n        return 2\n');
    const reading = parseSemanticAnswer('{"units": {"0": "  if x <= 1:", "1": "return 2\\nreturn 3"}}', seg.units, [0, 1]);
    expect(reading).toEqual({ ok: true, rewrites: new Map([[0, 'if x <= 1:']]), problems: ['unit 1 spans several lines'] });
    const prompt = buildSemanticPrompt(loadSemanticTemplate(), 'x {{TARGETS}}', seg.units, [1]);
    expect(prompt).toContain('x {{TARGETS}}');
    expect(prompt).toContain('Rewrite these piece numbers: 1');
    expect(prompt).toContain('[1] (code line) return 2');
  });
});

describe('corruption through the proxy', () => {
  const ORIGINAL = 'def add(a, b):\n    total = a + b\n    return total\n';
  let upstream: ModelServerHandle;
  let proxy: ProxyHandle;
  const registry = new InvocationRegistry();
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-inject-'));
    const cassette = path.join(dir, 'c.jsonl');
    await writeFile(
      cassette,
      [
        { match: { agent: 'saboteur-autoinject' }, response: { content: '{"units": {"0": "Return the largest value."}}' } },
        { match: { agent: 'coder', endpoint: 'chat.completions' }, response: { content: '```python\n' + ORIGINAL + '```\n' } },
        { match: { endpoint: 'completions' }, response: { content: ORIGINAL } },
        { match: { agent: 'planner' }, response: { content: 'Return the smallest value.' } },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    upstream = await startReplayServer({ cassette, log: memoryLog() });
    const injector = createAutoInjector({ ...base, target: 'all', messageRate: 1, errorRate: 1 });
    proxy = await startProxy({ upstream: { baseUrl: upstream.baseUrl }, agents: [], registry, injector, log: memoryLog() });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  const coder = (key: string) =>
    new OpenAI({ baseURL: proxy.baseUrl, apiKey: key, maxRetries: 0, defaultHeaders: { 'X-Saboteur-Agent': 'coder' } });

  test('a hit streamed response is re-emitted as a valid stream carrying the corrupted text', async () => {
    const inv = registry.open({ instanceId: 'HumanEval/53', benchmark: 'humaneval', variant: 'malicious' });
    const stream = await coder(inv.key).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'write add' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let chunks = 0;
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    const [call] = registry.close(inv.key);
    const corruption = call.corruption!;
    expect(corruption.before).toBe('```python\n' + ORIGINAL + '```\n');
    expect(text).toBe(corruption.after);
    expect(text).not.toBe(corruption.before);
    expect(text).toContain('total = a - b');
    expect(chunks).toBeGreaterThan(3);
    expect(finish).toBe('stop');
    expect(usage).toBeDefined();
    expect(call.response!.content).toBe(text);
  });

  test('the same call hits the same way, non-streamed too; the control twin passes untouched', async () => {
    const mal = registry.open({ instanceId: 'HumanEval/53', benchmark: 'humaneval', variant: 'malicious' });
    const res = await coder(mal.key).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'write add' }] });
    const [malCall] = registry.close(mal.key);
    const twin = registry.open({ instanceId: 'HumanEval/53', benchmark: 'humaneval', variant: 'malicious' });
    const streamedTwin = await coder(twin.key)
      .chat.completions.stream({ model: 'm', messages: [{ role: 'user', content: 'write add' }] })
      .finalChatCompletion();
    registry.close(twin.key);
    expect(res.choices[0].message.content).toBe(malCall.corruption!.after);
    expect(streamedTwin.choices[0].message.content).toBe(malCall.corruption!.after);

    const ctl = registry.open({ instanceId: 'HumanEval/53', benchmark: 'humaneval', variant: 'control' });
    const plain = await coder(ctl.key).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'write add' }] });
    expect(plain.choices[0].message.content).toBe('```python\n' + ORIGINAL + '```\n');
    expect(registry.close(ctl.key)[0].corruption).toBeUndefined();
  });

  test('completions are corrupted too', async () => {
    const inv = registry.open({ instanceId: 'HumanEval/1', benchmark: 'humaneval', variant: 'malicious' });
    const c = coder(inv.key);
    const plain = await c.completions.create({ model: 'm', prompt: 'def add(a, b):' });
    const stream = await c.completions.create({ model: 'm', prompt: 'def add(a, b):', stream: true });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.text ?? '';
    const calls = registry.close(inv.key);
    expect(calls.map((x) => x.agentCallIndex)).toEqual([0, 1]);
    expect(plain.choices[0].text).toBe(calls[0].corruption!.after);
    expect(streamed).toBe(calls[1].corruption!.after);
    expect(streamed).not.toBe(ORIGINAL);
  });

  test('semantic mode asks the model through the upstream as saboteur-autoinject', async () => {
    const semantic = createSemanticModel({ baseUrl: upstream.baseUrl, model: 'm' });
    try {
      const injector = createAutoInjector({ ...base, target: 'planner', corruption: 'semantic', messageRate: 1, errorRate: 1, semantic });
      const semanticProxy = await startProxy({ upstream: { baseUrl: upstream.baseUrl }, agents: [], registry, injector, log: memoryLog() });
      try {
        const inv = registry.open({ instanceId: 'x', benchmark: 'humaneval', variant: 'malicious' });
        const planner = new OpenAI({
          baseURL: semanticProxy.baseUrl.replace(/\/v1$/, '/agents/planner/v1'),
          apiKey: inv.key,
          maxRetries: 0,
        });
        const res = await planner.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'plan' }] });
        expect(res.choices[0].message.content).toBe('Return the largest value.');
        const [call] = registry.close(inv.key);
        expect(call.corruption).toMatchObject({
          mode: 'semantic',
          unit: 'sentence',
          before: 'Return the smallest value.',
          units: [{ index: 0, rule: 'semantic' }],
        });
        // The rewrite call is saboteur's own: it is not in the pipeline's trace.
        expect(registry.size).toBe(0);
      } finally {
        await semanticProxy.close();
      }
    } finally {
      semantic.close();
    }
  });
});
