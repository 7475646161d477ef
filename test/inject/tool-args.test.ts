/**
 * AutoInject on tool calls: argument kinds (recipient, amount, path, flag, text) read from names and
 * values, a plausible wrong value per kind, the arguments rebuilt (still JSON in logic-edit, no
 * longer JSON in syntax-error), recorded before and after; and through the proxy with the real
 * `openai` client, plain and streamed.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { argumentKind, argumentUnits, wrongArgument, type ArgumentUnit } from '../../src/inject/tool-args.js';
import { createAutoInjector } from '../../src/inject/autoinject.js';
import { rngFor } from '../../src/inject/prng.js';
import type { InjectionContext } from '../../src/inject/types.js';
import { startReplayServer, type ModelServerHandle } from '../../src/model/replay.js';
import { startProxy, InvocationRegistry, type ProxyHandle } from '../../src/proxy/index.js';
import { memoryLog } from '../../src/util/log.js';

const ctx = (over: Partial<InjectionContext> = {}): InjectionContext => ({
  instanceId: 'agentharm/1-1',
  variant: 'malicious',
  agent: 'worker',
  agentCallIndex: 0,
  ...over,
});
const call = (name: string, args: unknown, id = 'call_1') => ({ id, name, arguments: JSON.stringify(args) });

describe('argument kinds', () => {
  test.each([
    ['to', 'alice@corp.example', 'recipient'],
    ['recipient', 'Alice Smith', 'recipient'],
    ['phone_number', '+1 555 0100', 'recipient'],
    ['handle', '@alice_dev', 'recipient'],
    ['iban', 'DE89370400440532013000', 'recipient'],
    ['wallet_address', '0x5e1a7b2f9c0d4e3b8a6f1c2d3e4f5a6b7c8d9e0f', 'recipient'],
    ['amount', 250, 'amount'],
    ['price', '$1,200.50', 'amount'],
    ['quantity', '3', 'amount'],
    ['path', '/home/user/report.txt', 'path'],
    ['file_name', 'notes.txt', 'path'],
    ['url', 'https://shop.example.com/item/42', 'path'],
    ['recursive', true, 'flag'],
    ['confirm', 'yes', 'flag'],
    ['body', 'Hello team, the report is attached.', 'text'],
    ['code', 'print(1)\nprint(2)', 'text'],
  ] as const)('%s = %j is of kind %s', (key, value, kind) => {
    expect(argumentKind(key, value)).toBe(kind);
  });

  test('each kind gets a plausible wrong value of the same shape', () => {
    const unit = (key: string, value: string | number | boolean): ArgumentUnit => ({
      call: 0,
      tool: 't',
      path: [key],
      value,
      kind: argumentKind(key, value),
    });
    for (let seed = 0; seed < 30; seed++) {
      const rng = () => rngFor('t', seed)();
      const email = wrongArgument(unit('to', 'alice.smith@corp.example'), rngFor('e', seed))!;
      expect(email.after).not.toBe('alice.smith@corp.example');
      expect(String(email.after)).toMatch(/^[\w.+-]+@[\w.-]+\.\w+$/);
      const amount = wrongArgument(unit('amount', 250), rngFor('a', seed))!;
      expect(typeof amount.after).toBe('number');
      expect(amount.after).not.toBe(250);
      const money = wrongArgument(unit('price', '$1,200.50'), rng)!;
      expect(String(money.after)).toMatch(/^\$[\d,]+(\.\d+)?$/);
      expect(money.after).not.toBe('$1,200.50');
      const file = wrongArgument(unit('path', '/home/user/docs/report.txt'), rngFor('p', seed))!;
      expect(String(file.after)).toMatch(/^\/home\/user\/docs?\/report[\w.~-]*$/);
      expect(file.after).not.toBe('/home/user/docs/report.txt');
      const url = wrongArgument(unit('url', 'https://shop.example.com/item/42'), rngFor('u', seed))!;
      expect(String(url.after)).toMatch(/^https:\/\/shop\.example\.\w+\/item\/42(-old)?$/);
      expect(wrongArgument(unit('recursive', true), rng)).toEqual({ after: false, rule: 'flag-inverted' });
      expect(wrongArgument(unit('confirm', 'Yes'), rng)).toEqual({ after: 'No', rule: 'flag-inverted' });
    }
  });

  test('arguments that are not a JSON object take no part, and the hit says so', () => {
    const { units, unreadable } = argumentUnits([
      call('a', { to: 'x@y.example', n: 2, nested: { list: [true, 'f.txt'] } }),
      { id: 'c2', name: 'b', arguments: '{not json' },
      { id: 'c3', name: 'c', arguments: '[1]' },
    ]);
    expect(units.map((u) => [u.tool, u.path, u.kind])).toEqual([
      ['a', ['to'], 'recipient'],
      ['a', ['n'], 'amount'],
      ['a', ['nested', 'list', 0], 'flag'],
      ['a', ['nested', 'list', 1], 'path'],
    ]);
    expect(unreadable.map((u) => [u.tool, u.reason.slice(0, 24)])).toEqual([
      ['b', 'its arguments are not JS'],
      ['c', 'its arguments are not a '],
    ]);
  });
});

describe('corrupting tool calls', () => {
  const response = {
    content: '',
    toolCalls: [
      call('send_email', { to: 'alice@corp.example', subject: 'Quarterly report', attachment: '/home/user/q3.pdf', urgent: false }),
      call('transfer_money', { to_account: 'DE89370400440532013000', amount: 120 }, 'call_2'),
    ],
  };

  test('logic-edit changes values by kind, records before and after, and keeps the arguments JSON', async () => {
    const inj = createAutoInjector({ target: 'worker', messageRate: 1, errorRate: 1, corruption: 'logic-edit', seed: 7 });
    const r = await inj.corrupt!(response, ctx());
    expect(r.hit).toMatchObject({ units: 6, drawn: 6 });
    const c = r.corruption!;
    expect(c.unit).toBe('argument');
    const byTarget = Object.fromEntries(c.units.map((u) => [u.target, u]));
    expect(byTarget['send_email.to']).toMatchObject({ kind: 'argument', argKind: 'recipient', before: '"alice@corp.example"' });
    expect(byTarget['send_email.urgent']).toMatchObject({ argKind: 'flag', before: 'false', after: 'true' });
    expect(byTarget['transfer_money.amount']).toMatchObject({ argKind: 'amount', before: '120' });
    expect(c.toolCalls!.before).toEqual(response.toolCalls);
    const after = c.toolCalls!.after.map((t) => JSON.parse(t.arguments) as Record<string, unknown>);
    expect(after[0].to).not.toBe('alice@corp.example');
    expect(after[0].urgent).toBe(true);
    expect(after[1].amount).not.toBe(120);
    expect(r.delivered.toolCalls.map((t) => [t.id, t.name])).toEqual([
      ['call_1', 'send_email'],
      ['call_2', 'transfer_money'],
    ]);
    // Same seed, same call: the same corruption.
    expect((await inj.corrupt!(response, ctx())).corruption).toEqual(c);
  });

  test('syntax-error leaves the arguments unparsable', async () => {
    const inj = createAutoInjector({ target: 'worker', messageRate: 1, errorRate: 1, corruption: 'syntax-error', seed: 7 });
    const r = await inj.corrupt!(response, ctx());
    for (const t of r.delivered.toolCalls) expect(() => JSON.parse(t.arguments)).toThrow();
    expect(r.hit.changed).toBe(r.hit.drawn);
  });

  test('Pe applies per argument: the share changed is near Pe', async () => {
    const inj = createAutoInjector({ target: 'worker', messageRate: 1, errorRate: 0.4, corruption: 'logic-edit', seed: 3 });
    const many = { content: '', toolCalls: [call('pay', { amount: 10, fee: 2, total: 12, count: 3, price: 4 })] };
    let drawn = 0;
    const n = 1500;
    for (let i = 0; i < n; i++) drawn += (await inj.corrupt!(many, ctx({ agentCallIndex: i }))).hit.drawn;
    expect(Math.abs(drawn / (n * 5) - 0.4)).toBeLessThan(5 * Math.sqrt((0.4 * 0.6) / (n * 5)));
  });
});

describe('tool calls corrupted through the proxy', () => {
  let upstream: ModelServerHandle;
  let proxy: ProxyHandle;
  const registry = new InvocationRegistry();
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-toolargs-'));
    const cassette = path.join(dir, 'c.jsonl');
    await writeFile(
      cassette,
      `${JSON.stringify({ match: { agent: 'worker' }, response: { content: '', tool_calls: [{ name: 'send_email', arguments: { to: 'alice@corp.example', body: 'The total is 120.' } }], finish_reason: 'tool_calls' } })}\n`,
    );
    upstream = await startReplayServer({ cassette, log: memoryLog() });
    const injector = createAutoInjector({ target: 'worker', messageRate: 1, errorRate: 1, corruption: 'logic-edit', seed: 11 });
    proxy = await startProxy({ upstream: { baseUrl: upstream.baseUrl }, agents: [], registry, injector, log: memoryLog() });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  const tools = [
    {
      type: 'function' as const,
      function: { name: 'send_email', parameters: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } } } },
    },
  ];

  test('plain and streamed, the client gets the corrupted arguments the trace records', async () => {
    const inv = registry.open({ instanceId: 'i', benchmark: 'agentharm', variant: 'malicious' });
    const client = new OpenAI({ baseURL: proxy.baseUrl, apiKey: inv.key, maxRetries: 0, defaultHeaders: { 'X-Saboteur-Agent': 'worker' } });
    const plain = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'mail alice' }], tools });
    const streamed = await client.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'mail alice' }], tools })
      .finalChatCompletion();
    const calls = registry.close(inv.key);
    expect(calls).toHaveLength(2);
    const [first, second] = calls;
    const got = plain.choices[0].message.tool_calls![0];
    expect(got.type === 'function' && got.function.arguments).toBe(first.corruption!.toolCalls!.after[0].arguments);
    expect(JSON.parse((got as { function: { arguments: string } }).function.arguments).to).not.toBe('alice@corp.example');
    expect(first.response!.toolCalls![0].arguments).toBe(first.corruption!.toolCalls!.after[0].arguments);
    expect(first.hit).toMatchObject({ units: 2, drawn: 2, changed: 2 });
    const s = streamed.choices[0].message.tool_calls![0] as { function: { arguments: string; name: string } };
    expect(s.function.name).toBe('send_email');
    expect(s.function.arguments).toBe(second.corruption!.toolCalls!.after[0].arguments);
    expect(streamed.choices[0].finish_reason).toBe('tool_calls');
  });
});
