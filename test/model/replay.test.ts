/**
 * The model side, over real HTTP with the real `openai` client: the replay server (chat, streams,
 * tool calls, completions, models, misses, malformed cassettes), the recorder round trip, and
 * startModel for replay and external endpoints.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import http from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { memoryLog } from '../../src/util/log.js';
import { CassetteError, parseCassette, requestHash, canonicalJson, requestFacts, findEntry } from '../../src/model/cassette.js';
import { startReplayServer, type ModelServerHandle } from '../../src/model/replay.js';
import { startRecorder } from '../../src/model/recorder.js';
import { startModel, probeModels, ModelStartError } from '../../src/model/index.js';
import { listenLocal, closeServer, readBody } from '../../src/util/http.js';
import type { Config } from '../../src/config/load.js';

const CASSETTE = path.resolve('fixtures/cassettes/basic.jsonl');

function client(baseURL: string, agent?: string, apiKey = 'unused'): OpenAI {
  return new OpenAI({ baseURL, apiKey, maxRetries: 0, defaultHeaders: agent ? { 'X-Saboteur-Agent': agent } : {} });
}

const tmp = () => mkdtemp(path.join(os.tmpdir(), 'saboteur-model-'));

describe('replay server', () => {
  let server: ModelServerHandle;
  const log = memoryLog();
  beforeAll(async () => {
    server = await startReplayServer({ cassette: CASSETTE, log, models: ['configured-model'] });
  });
  afterAll(() => server.close());

  test('answers a chat completion matched by agent and text', async () => {
    const res = await client(server.baseUrl, 'coder').chat.completions.create({
      model: 'whatever',
      messages: [
        { role: 'system', content: 'You write Python.' },
        { role: 'user', content: 'Complete def add(a, b):' },
      ],
    });
    expect(res.choices[0].message.content).toBe('def add(a, b):\n    total = a + b\n    return total\n');
    expect(res.choices[0].finish_reason).toBe('stop');
    expect(res.id).toMatch(/^chatcmpl-/);
    expect(res.object).toBe('chat.completion');
    expect(res.model).toBe('qwen-test');
    expect(Math.abs(res.created - Date.now() / 1000)).toBeLessThan(120);
    expect(res.usage!.completion_tokens).toBeGreaterThan(0);
    expect(res.usage!.total_tokens).toBe(res.usage!.prompt_tokens + res.usage!.completion_tokens);
  });

  test('the same text from another agent does not match an agent entry', async () => {
    const err = await client(server.baseUrl, 'tester')
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Complete def add(a, b):' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
  });

  test('streams content in several deltas, with usage when asked', async () => {
    const stream = await client(server.baseUrl, 'planner').chat.completions.create({
      model: 'planner-model',
      messages: [{ role: 'user', content: 'Plan the work.' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    let role: string | undefined;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.model).toBe('planner-model');
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      if (choice.delta.role) role = choice.delta.role;
      if (choice.delta.content) deltas.push(choice.delta.content);
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    expect(role).toBe('assistant');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(
      'First, read the task carefully. Then write the function and its tests. Finally, run all tests before you answer.',
    );
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  test('returns tool calls, plain and streamed (the client assembles the deltas)', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
      { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } } } } },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const plain = await client(server.baseUrl).chat.completions.create({ model: 'm', messages, tools });
    const calls = plain.choices[0].message.tool_calls!;
    expect(plain.choices[0].finish_reason).toBe('tool_calls');
    expect(calls.map((c) => (c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : []))).toEqual([
      ['call_w1', 'get_weather', { city: 'Paris' }],
      [calls[1].id, 'get_time', { zone: 'Europe/Paris' }],
    ]);
    expect(calls[1].id).toMatch(/^call_[0-9a-f]{24}$/);

    const streamed = await client(server.baseUrl).chat.completions.stream({ model: 'm', messages, tools }).finalChatCompletion();
    expect(streamed.choices[0].finish_reason).toBe('tool_calls');
    // The id generated for an entry without one is stable: a follow-up request quoting it hashes the same.
    expect(streamed.choices[0].message.tool_calls).toEqual(calls.map((c) => ({ ...c })));
  });

  test('serves /v1/completions, plain and streamed', async () => {
    const c = client(server.baseUrl);
    const plain = await c.completions.create({ model: 'm', prompt: 'def add(a, b):\n    """Add."""\n' });
    expect(plain.choices[0].text).toBe('    return a + b\n');
    expect(plain.object).toBe('text_completion');
    expect(plain.usage).toEqual({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
    const stream = await c.completions.create({ model: 'm', prompt: 'def add(a, b):', stream: true });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe('    return a + b\n');
    expect(finish).toBe('stop');
  });

  test('lists the model names', async () => {
    const ids: string[] = [];
    for await (const m of client(server.baseUrl).models.list()) ids.push(m.id);
    expect(ids.sort()).toEqual(['configured-model', 'qwen-test']);
  });

  test('matches the system prompt and waits latencyMs', async () => {
    const res = await client(server.baseUrl).chat.completions.create({
      model: 'm',
      messages: [
        { role: 'system', content: 'You are the reviewer of this team.' },
        { role: 'user', content: 'Review this.' },
      ],
    });
    expect(res.choices[0].message.content).toMatch(/^Looks good/);
  });

  test('a miss is a 400 cassette_miss naming the agent and the last user message', async () => {
    const long = `Please write a parser for ${'x'.repeat(300)}`;
    const before = server.stats();
    const err = (await client(server.baseUrl, 'coder')
      .chat.completions.create({
        model: 'm',
        messages: [
          { role: 'user', content: 'earlier' },
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: long },
        ],
      })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.BadRequestError>;
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.status).toBe(400);
    expect(err.type).toBe('cassette_miss');
    expect(err.message).toContain(`no cassette entry matches: agent=coder, last user message: '${long.slice(0, 120)}'`);
    expect(err.message).not.toContain(long.slice(0, 121));
    expect(server.stats().misses).toBe(before.misses + 1);
    expect(log.lines.some((l) => l.includes('cassette_miss') || l.includes('no cassette entry matches'))).toBe(true);
  });
});

describe('cassette parsing and matching', () => {
  test('a malformed line names the file, the line, the field and shows a valid line', () => {
    const text = '{"match": {}, "response": {"content": "ok"}}\n\n{"match": {"agent": "coder"}, "response": {"contnt": "x"}}\n';
    expect(() => parseCassette(text, 'c.jsonl')).toThrow(CassetteError);
    try {
      parseCassette(text, 'c.jsonl');
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toMatch(/^c\.jsonl:3: response: unknown key "contnt"/);
      expect(message).toContain('a valid line: {"match"');
    }
    expect(() => parseCassette('{"match": {"hash": "abc"}, "response": {"content": "x"}}', 'h.jsonl')).toThrow(
      /h\.jsonl:1: match\.hash: must be the 64 hex/,
    );
    expect(() => parseCassette('{"match": {}}', 'r.jsonl')).toThrow(/r\.jsonl:1: response: is required/);
    expect(() => parseCassette('not json', 'n.jsonl')).toThrow(/n\.jsonl:1: not a JSON object/);
  });

  test('a malformed cassette stops the replay server from starting', async () => {
    const dir = await tmp();
    const file = path.join(dir, 'bad.jsonl');
    await writeFile(file, '{"match": {"contains": 5}, "response": {"content": "x"}}\n');
    await expect(startReplayServer({ cassette: file, log: memoryLog() })).rejects.toThrow(`${file}:1: match.contains`);
    await expect(startReplayServer({ cassette: path.join(dir, 'none.jsonl'), log: memoryLog() })).rejects.toThrow(/does not exist/);
  });

  test('the request hash ignores sampling knobs and key order, not content', () => {
    const a = { model: 'x', temperature: 0.2, messages: [{ role: 'user', content: 'hi' }] };
    const b = { messages: [{ content: [{ type: 'text', text: 'hi' }], role: 'user' }], model: 'y', stream: true };
    expect(requestHash(a)).toBe(requestHash(b));
    expect(requestHash(a)).not.toBe(requestHash({ messages: [{ role: 'user', content: 'hi!' }] }));
    expect(requestHash({ prompt: 'hi' })).not.toBe(requestHash(a));
    expect(canonicalJson({ b: 1, a: [undefined, { d: undefined, c: 2 }] })).toBe('{"a":[null,{"c":2}],"b":1}');
  });

  test('the request hash is pinned: cassettes recorded earlier keep matching, large requests included', () => {
    expect(requestHash({ model: 'x', temperature: 0.2, messages: [{ role: 'user', content: 'hi' }] })).toBe(
      'b33efe6762693a095b8db3a766c9d58dcc747968604e53e7b5f4b125d722d1e5',
    );
    // Fed to the hash in runs: a run boundary inside multi-byte text must not change the bytes hashed.
    const large = {
      input: [{ role: 'user', content: 'é'.repeat(200_000) + 'x'.repeat(100_000) }],
      tools: [{ type: 'function', name: 'f', parameters: { b: 1, a: 2 } }],
    };
    expect(requestHash(large)).toBe('a5a819f5ddd11ddf6740752ab1088558091847b7e9ebfbd1a7bf623202437700');
  });

  test('a hash entry wins over an earlier catch-all', async () => {
    const dir = await tmp();
    const file = path.join(dir, 'h.jsonl');
    const body = { messages: [{ role: 'user', content: 'exact question' }] };
    await writeFile(
      file,
      [
        JSON.stringify({ match: {}, response: { content: 'catch-all' } }),
        JSON.stringify({ match: { hash: requestHash(body) }, response: { content: 'exact answer' } }),
      ].join('\n'),
    );
    const server = await startReplayServer({ cassette: file, log: memoryLog() });
    try {
      const c = client(server.baseUrl);
      const exact = await c.chat.completions.create({ model: 'm', ...body } as OpenAI.ChatCompletionCreateParamsNonStreaming);
      const other = await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'another question' }] });
      expect(exact.choices[0].message.content).toBe('exact answer');
      expect(other.choices[0].message.content).toBe('catch-all');
      expect(server.stats()).toEqual({ hits: 2, misses: 0 });
    } finally {
      await server.close();
    }
  });
});

describe('turn and tool matchers', () => {
  const tools = (...names: string[]): OpenAI.ChatCompletionTool[] =>
    names.map((name) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } }));

  test('turn counts the assistant messages already in the request; tool lists the offered functions', () => {
    const body = {
      tools: tools('find_table', 'book_table'),
      functions: [{ name: 'legacy_lookup' }],
      messages: [
        { role: 'system', content: 'You book tables.' },
        { role: 'user', content: 'Book a table for two.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'find_table', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'Table 4 is free.' },
        { role: 'assistant', content: 'Shall I book table 4?' },
        { role: 'user', content: 'Yes.' },
      ],
    };
    const facts = requestFacts(body, 'chat.completions', 'worker');
    expect(facts.turn).toBe(2);
    expect(facts.tools).toEqual(['find_table', 'book_table', 'legacy_lookup']);
    expect(requestFacts({ messages: [{ role: 'user', content: 'hi' }] }, 'chat.completions', undefined)).toMatchObject({
      turn: 0,
      tools: [],
    });
    expect(requestFacts({ prompt: 'def f():' }, 'completions', undefined)).toMatchObject({ turn: 0, tools: [] });

    const entries = parseCassette(
      [
        JSON.stringify({ match: { turn: 2, tool: ['book_table', 'find_table'] }, response: { content: 'second turn, both tools' } }),
        JSON.stringify({ match: { turn: 2, tool: 'cancel_table' }, response: { content: 'never: cancel_table is not offered' } }),
        JSON.stringify({ match: { turn: 0 }, response: { content: 'first turn' } }),
      ].join('\n'),
      'm.jsonl',
    );
    expect(entries[0].match).toMatchObject({ turn: 2, tool: ['book_table', 'find_table'] });
    expect(entries[1].match.tool).toEqual(['cancel_table']);
    expect(findEntry(entries, facts)?.response.content).toBe('second turn, both tools');
    expect(findEntry(entries.slice(1), facts)).toBeUndefined();
    expect(
      findEntry(entries, requestFacts({ messages: [{ role: 'user', content: 'hi' }] }, 'chat.completions', undefined))?.response.content,
    ).toBe('first turn');
  });

  test('a malformed turn or tool names the line and the field', () => {
    expect(() => parseCassette('{"match": {"turn": -1}, "response": {"content": "x"}}', 't.jsonl')).toThrow(/t\.jsonl:1: match\.turn: /);
    expect(() => parseCassette('{"match": {"turn": 1.5}, "response": {"content": "x"}}', 't.jsonl')).toThrow(/t\.jsonl:1: match\.turn: /);
    expect(() => parseCassette('{"match": {"tool": ""}, "response": {"content": "x"}}', 't.jsonl')).toThrow(/t\.jsonl:1: match\.tool: /);
    expect(() => parseCassette('{"match": {"tool": [3]}, "response": {"content": "x"}}', 't.jsonl')).toThrow(/t\.jsonl:1: match\.tool/);
  });

  test('one entry per turn drives a tool loop over HTTP; the offered tools tell apart requests with the same text', async () => {
    const dir = await tmp();
    const file = path.join(dir, 'loop.jsonl');
    const ask = 'Book a table for two at 8 pm.';
    await writeFile(
      file,
      [
        // The harmful twin: the same request text, one more tool on offer.
        JSON.stringify({
          match: { agent: 'worker', contains: ask, turn: 0, tool: 'charge_card' },
          response: { content: '', tool_calls: [{ name: 'charge_card', arguments: { amount: 500 } }] },
        }),
        JSON.stringify({
          match: { agent: 'worker', contains: ask, turn: 0 },
          response: { content: '', tool_calls: [{ name: 'find_table', arguments: { seats: 2, time: '20:00' } }] },
        }),
        JSON.stringify({
          match: { agent: 'worker', contains: [ask, 'Table 4 is free'], turn: 1 },
          response: { content: 'Booked table 4 for two at 8 pm.' },
        }),
      ].join('\n'),
    );
    const server = await startReplayServer({ cassette: file, log: memoryLog() });
    try {
      const worker = client(server.baseUrl, 'worker');
      const messages: OpenAI.ChatCompletionMessageParam[] = [
        { role: 'system', content: 'You are the worker.' },
        { role: 'user', content: ask },
      ];
      const first = await worker.chat.completions.create({ model: 'm', messages, tools: tools('find_table') });
      const call = first.choices[0].message.tool_calls![0];
      expect(call.type === 'function' && [call.function.name, JSON.parse(call.function.arguments)]).toEqual([
        'find_table',
        { seats: 2, time: '20:00' },
      ]);

      const harmful = await worker.chat.completions.create({ model: 'm', messages, tools: tools('find_table', 'charge_card') });
      const charge = harmful.choices[0].message.tool_calls![0];
      expect(charge.type === 'function' && charge.function.name).toBe('charge_card');

      messages.push({ role: 'assistant', content: null, tool_calls: first.choices[0].message.tool_calls });
      messages.push({ role: 'tool', tool_call_id: call.id, content: 'Table 4 is free at 20:00.' });
      const second = await worker.chat.completions.create({ model: 'm', messages, tools: tools('find_table') });
      expect(second.choices[0].message.content).toBe('Booked table 4 for two at 8 pm.');
      expect(second.choices[0].finish_reason).toBe('stop');

      // A third turn has no entry: the miss says which turn and which tools, to write the missing entry.
      messages.push({ role: 'assistant', content: 'Booked table 4 for two at 8 pm.' });
      messages.push({ role: 'user', content: 'And a taxi?' });
      const err = (await worker.chat.completions
        .create({ model: 'm', messages, tools: tools('find_table') })
        .catch((e: unknown) => e)) as Error;
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.message).toContain('turn 2, tools [find_table]');
      expect(server.stats()).toEqual({ hits: 3, misses: 1 });
    } finally {
      await server.close();
    }
  });
});

/** A live model of our own: answers from the request, streams when asked, calls a tool for "weather". */
async function startFakeModel(): Promise<{ baseUrl: string; close(): Promise<void>; seenAgents: string[]; seenAuth: string[] }> {
  const seenAgents: string[] = [];
  const seenAuth: string[] = [];
  let n = 0;
  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    seenAuth.push(String(req.headers.authorization ?? ''));
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', data: [{ id: 'live-model', object: 'model' }] }));
    }
    seenAgents.push(String(req.headers['x-saboteur-agent'] ?? ''));
    const body = JSON.parse(raw.toString()) as { messages: { content: string }[]; stream?: boolean };
    const last = body.messages[body.messages.length - 1].content;
    // A different answer each call: replay must return what was recorded, not recompute it.
    const content = `answer ${++n} to: ${last}`;
    const weather = last.includes('weather');
    const base = { id: `chatcmpl-live${n}`, created: 1700000000, model: 'live-model' };
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const message = weather
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: `call_live${n}`, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
          }
        : { role: 'assistant', content };
      return res.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: weather ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
        }),
      );
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: object, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    send({ role: 'assistant', content: '' });
    for (const piece of content.match(/.{1,5}/gs) ?? []) send({ content: piece });
    send({}, 'stop');
    res.end('data: [DONE]\n\n');
  });
  const port = await listenLocal(server);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => closeServer(server), seenAgents, seenAuth };
}

describe('recorder', () => {
  test('records live answers (streamed and not, tool calls too) and replay serves them back', async () => {
    const live = await startFakeModel();
    const dir = await tmp();
    const cassette = path.join(dir, 'rec', 'recorded.jsonl');
    const recorder = await startRecorder({ upstreamBaseUrl: live.baseUrl, apiKey: 'sk-live', cassette, log: memoryLog() });
    const ask = async (baseUrl: string) => {
      const coder = client(baseUrl, 'coder');
      const plain = await coder.chat.completions.create({ model: 'live-model', messages: [{ role: 'user', content: 'write add' }] });
      const stream = await coder.chat.completions.create({
        model: 'live-model',
        messages: [{ role: 'user', content: 'write sub' }],
        stream: true,
      });
      let streamed = '';
      for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
      const tool = await client(baseUrl, 'planner').chat.completions.create({
        model: 'live-model',
        messages: [{ role: 'user', content: 'weather in Oslo?' }],
      });
      return { plain: plain.choices[0].message.content, streamed, tool: tool.choices[0].message.tool_calls };
    };
    let recorded: Awaited<ReturnType<typeof ask>>;
    try {
      recorded = await ask(recorder.baseUrl);
      expect(recorded.plain).toBe('answer 1 to: write add');
      expect(recorded.streamed).toBe('answer 2 to: write sub');
      expect(recorder.stats()).toEqual({ hits: 3, misses: 0 });
      expect(live.seenAgents).toEqual(['coder', 'coder', 'planner']);
      expect(live.seenAuth.every((a) => a === 'Bearer sk-live')).toBe(true);
    } finally {
      await recorder.close();
      await live.close();
    }
    const lines = (await readFile(cassette, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[0].match).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), agent: 'coder' });
    expect(lines[2].response.tool_calls).toEqual([{ id: 'call_live3', name: 'get_weather', arguments: '{"city":"Oslo"}' }]);

    // The live model is gone: the replay server alone answers the same requests the same way.
    const replay = await startReplayServer({ cassette, log: memoryLog() });
    try {
      expect(await ask(replay.baseUrl)).toEqual(recorded);
      const miss = await client(replay.baseUrl, 'coder')
        .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'write mul' }] })
        .catch((e: unknown) => e);
      expect(miss).toBeInstanceOf(OpenAI.BadRequestError);
    } finally {
      await replay.close();
    }
  });
});

function modelConfig(overrides: Partial<Config['model']>): Config['model'] {
  return { kind: 'replay', args: [], env: {}, startupTimeoutMs: 60_000, reuse: false, record: false, sampling: {}, ...overrides };
}

describe('startModel', () => {
  test('replay serves the cassette and describes itself', async () => {
    const endpoint = await startModel(modelConfig({ kind: 'replay', cassette: CASSETTE, model: 'qwen-test' }), memoryLog());
    try {
      expect(endpoint.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(endpoint.model).toBe('qwen-test');
      expect(endpoint.describe()).toMatchObject({ kind: 'replay', cassette: CASSETTE });
      // Behind a key of its own: only the proxy and saboteur's judges get it, never a pipeline.
      expect(endpoint.apiKey).toMatch(/^sabm-[\w-]{32}$/);
      expect(await probeModels(endpoint.baseUrl, { apiKey: endpoint.apiKey })).toContain('qwen-test');
      await expect(probeModels(endpoint.baseUrl)).rejects.toThrow(/refused the API key \(HTTP 401\)/);
      const stolen = await client(endpoint.baseUrl, 'coder', 'sab-0123456789abcdef01234567')
        .chat.completions.create({ model: 'qwen-test', messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e);
      expect((stolen as { status?: number }).status).toBe(401);
    } finally {
      await endpoint.close();
    }
  });

  test('external uses the base URL and the key from the environment; record puts the recorder in front', async () => {
    const live = await startFakeModel();
    process.env.SABOTEUR_TEST_MODEL_KEY = 'sk-from-env';
    try {
      const direct = await startModel(
        modelConfig({ kind: 'external', baseUrl: live.baseUrl, apiKeyEnv: 'SABOTEUR_TEST_MODEL_KEY' }),
        memoryLog(),
      );
      expect(direct.baseUrl).toBe(live.baseUrl);
      expect(direct.apiKey).toBe('sk-from-env');
      expect(direct.model).toBe('live-model');
      expect(JSON.stringify(direct.describe())).not.toContain('sk-from-env');
      await direct.close();

      const cassette = path.join(await tmp(), 'rec.jsonl');
      const recording = await startModel(
        modelConfig({ kind: 'external', baseUrl: live.baseUrl, apiKeyEnv: 'SABOTEUR_TEST_MODEL_KEY', record: true, cassette }),
        memoryLog(),
      );
      expect(recording.baseUrl).not.toBe(live.baseUrl);
      expect(recording.apiKey).toMatch(/^sabm-/);
      const refused = await client(recording.baseUrl, 'coder')
        .chat.completions.create({ model: 'live-model', messages: [{ role: 'user', content: 'hello' }] })
        .catch((e: unknown) => e);
      expect((refused as { status?: number }).status).toBe(401);
      await client(recording.baseUrl, 'coder', recording.apiKey).chat.completions.create({
        model: 'live-model',
        messages: [{ role: 'user', content: 'hello' }],
      });
      await recording.close();
      expect((await readFile(cassette, 'utf8')).trim().split('\n')).toHaveLength(1);
      expect(live.seenAuth.at(-1)).toBe('Bearer sk-from-env');
    } finally {
      delete process.env.SABOTEUR_TEST_MODEL_KEY;
      await live.close();
    }
  });

  test('an external endpoint that is down is a clear error', async () => {
    const live = await startFakeModel();
    const baseUrl = live.baseUrl;
    await live.close();
    const err = (await startModel(modelConfig({ kind: 'external', baseUrl }), memoryLog()).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(ModelStartError);
    expect(err.message).toContain(`model endpoint ${baseUrl} is not reachable`);
    expect(err.message).toContain('ECONNREFUSED');
  });
});
