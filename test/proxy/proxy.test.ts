/**
 * The proxy over real HTTP with the real `openai` client, in front of the replay server or of a
 * hand-driven upstream: attribution by key, agent identification, forwarding, streaming without
 * buffering, errors.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import http from 'node:http';
import path from 'node:path';
import OpenAI from 'openai';
import { memoryLog } from '../../src/util/log.js';
import { startReplayServer, type ModelServerHandle } from '../../src/model/replay.js';
import { closeServer, listenLocal, readBody } from '../../src/util/http.js';
import { startProxy, InvocationRegistry, IN_FLIGHT_ERROR, NO_AGENT_CALL_INDEX, type ProxyHandle } from '../../src/proxy/index.js';
import { identifyAgent, parseRoute, summarizeRequest } from '../../src/proxy/identify.js';

const CASSETTE = path.resolve('fixtures/cassettes/proxy.jsonl');
const AGENTS = [
  { name: 'planner', match: { system: 'You are the planner' } },
  { name: 'reviewer', match: { system: 'You are the reviewer' } },
  { name: 'coder', match: { header: 'coder-v2' } },
];

function client(baseURL: string, apiKey: string, headers: Record<string, string> = {}): OpenAI {
  return new OpenAI({ baseURL, apiKey, maxRetries: 0, defaultHeaders: headers });
}

const user = (content: string): OpenAI.ChatCompletionMessageParam[] => [{ role: 'user', content }];

describe('invocation keys', () => {
  test('every key is 96 random bits, unique over many draws (past a refill of the random pool), and dies with its invocation', () => {
    const registry = new InvocationRegistry();
    const keys = Array.from(
      { length: 1000 },
      (_, i) => registry.open({ instanceId: `i${i}`, benchmark: 'humaneval', variant: 'control' }).key,
    );
    expect(keys.every((k) => /^sab-[0-9a-f]{24}$/.test(k))).toBe(true);
    expect(new Set(keys).size).toBe(1000);
    expect(registry.get(keys[700])?.instanceId).toBe('i700');
    registry.close(keys[700]);
    expect(registry.get(keys[700])).toBeUndefined();
    expect(registry.size).toBe(999);
  });
});

describe('agent identification (pure)', () => {
  test('header, then path, then system rules in order, else default', () => {
    expect(identifyAgent({ header: 'coder', pathAgent: 'planner', system: 'You are the planner' }, AGENTS)).toEqual({
      agent: 'coder',
      source: 'header',
      signals: [
        { source: 'header', agent: 'coder' },
        { source: 'system', agent: 'planner' },
      ],
    });
    expect(identifyAgent({ header: 'coder-v2' }, AGENTS)).toEqual({ agent: 'coder', source: 'header' });
    expect(identifyAgent({ pathAgent: 'tester', system: 'You are the planner' }, AGENTS)).toEqual({
      agent: 'tester',
      source: 'path',
      signals: [
        { source: 'path', agent: 'tester' },
        { source: 'system', agent: 'planner' },
      ],
    });
    expect(identifyAgent({ system: 'Intro. You are the reviewer, and the planner.' }, AGENTS)).toEqual({
      agent: 'reviewer',
      source: 'system',
    });
    expect(identifyAgent({ system: 'You are a poet' }, AGENTS)).toEqual({ agent: 'default', source: 'default' });
  });

  test('routes', () => {
    expect(parseRoute('POST', '/v1/chat/completions')).toEqual({
      endpoint: 'chat.completions',
      pathAgent: undefined,
      upstreamPath: '/chat/completions',
    });
    expect(parseRoute('POST', '/agents/my%20coder/v1/completions?x=1')).toEqual({
      endpoint: 'completions',
      pathAgent: 'my coder',
      upstreamPath: '/completions?x=1',
    });
    expect(parseRoute('GET', '/agents/a/v1/models')?.endpoint).toBe('models');
    expect(parseRoute('GET', '/v1/chat/completions')).toBeUndefined();
    expect(parseRoute('POST', '/v2/chat/completions')).toBeUndefined();
  });

  test('the request summary flattens content parts and tool calls', () => {
    const summary = summarizeRequest(
      {
        model: 'm',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }] },
          { role: 'tool', tool_call_id: 'c', content: 'result' },
        ],
        tools: [{ type: 'function', function: { name: 'f' } }],
      },
      'chat.completions',
    );
    expect(summary).toEqual({
      model: 'm',
      messages: [
        { role: 'user', content: 'ab' },
        { role: 'assistant', content: '[tool call f {"x":1}]' },
        { role: 'tool', content: 'result' },
      ],
      tools: ['f'],
    });
  });
});

describe('proxy in front of the replay server', () => {
  let upstream: ModelServerHandle;
  let proxy: ProxyHandle;
  const registry = new InvocationRegistry();
  const log = memoryLog();
  beforeAll(async () => {
    upstream = await startReplayServer({ cassette: CASSETTE, log: memoryLog() });
    proxy = await startProxy({ upstream: { baseUrl: upstream.baseUrl }, agents: AGENTS, registry, log });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('two concurrent invocations keep their own calls, in order, indexed per agent', async () => {
    const a = registry.open({ instanceId: 'HumanEval/1', benchmark: 'humaneval', variant: 'control' });
    const b = registry.open({ instanceId: 'HumanEval/2', benchmark: 'humaneval', variant: 'malicious' });
    expect(a.key).toMatch(/^sab-[0-9a-f]{24}$/);
    expect(a.key).not.toBe(b.key);
    const run = async (key: string, name: string) => {
      const coder = client(proxy.baseUrl, key, { 'X-Saboteur-Agent': 'coder' });
      const planner = client(proxy.baseUrl, key);
      const out: string[] = [];
      for (let i = 0; i < 3; i++) {
        const p = await planner.chat.completions.create({
          model: 'm',
          messages: [{ role: 'system', content: 'You are the planner.' }, ...user(`plan ${i}`)],
        });
        const c = await coder.chat.completions.create({ model: 'm', messages: user(`code for instance ${name}, step ${i}`) });
        out.push(p.choices[0].message.content!, c.choices[0].message.content!);
      }
      return out;
    };
    const [outA, outB] = await Promise.all([run(a.key, 'A'), run(b.key, 'B')]);
    expect(outA.filter((_, i) => i % 2 === 1)).toEqual(['coder answer for A', 'coder answer for A', 'coder answer for A']);
    expect(outB.filter((_, i) => i % 2 === 1)).toEqual(['coder answer for B', 'coder answer for B', 'coder answer for B']);
    for (const [inv, name] of [
      [a, 'A'],
      [b, 'B'],
    ] as const) {
      const calls = registry.close(inv.key);
      expect(calls.map((c) => [c.agent, c.agentSource, c.agentCallIndex])).toEqual([
        ['planner', 'system', 0],
        ['coder', 'header', 0],
        ['planner', 'system', 1],
        ['coder', 'header', 1],
        ['planner', 'system', 2],
        ['coder', 'header', 2],
      ]);
      for (const c of calls.filter((x) => x.agent === 'coder')) {
        expect(c.request.messages![0].content).toContain(`instance ${name}`);
        expect(c.response!.content).toBe(`coder answer for ${name}`);
        expect(c.status).toBe(200);
        expect(c.endpoint).toBe('chat.completions');
        expect(c.durationMs).toBeGreaterThanOrEqual(0);
        expect(Number.isNaN(Date.parse(c.startedAt))).toBe(false);
        expect(c.error).toBeUndefined();
      }
    }
    expect(registry.size).toBe(0);
  });

  test('an unknown or closed key is refused with 401', async () => {
    const unknown = await client(proxy.baseUrl, 'sk-real-openai-key')
      .chat.completions.create({ model: 'm', messages: user('hello') })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((unknown as Error).message).toContain('not a live saboteur invocation key');
    const inv = registry.open({ instanceId: 'x', benchmark: 'humaneval', variant: 'control' });
    registry.close(inv.key);
    const closed = await client(proxy.baseUrl, inv.key)
      .chat.completions.create({ model: 'm', messages: user('hello') })
      .catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  test('agents by header, path, system rule and default; the agent is named upstream', async () => {
    const inv = registry.open({ instanceId: 'i', benchmark: 'humaneval', variant: 'control' });
    const pathBase = proxy.baseUrl.replace(/\/v1$/, '/agents/reviewer/v1');
    const r1 = await client(proxy.baseUrl, inv.key, { 'X-Saboteur-Agent': 'coder-v2' }).chat.completions.create({
      model: 'm',
      messages: user('code for instance A'),
    });
    const r2 = await client(pathBase, inv.key).chat.completions.create({ model: 'm', messages: user('review please') });
    const r3 = await client(proxy.baseUrl, inv.key).chat.completions.create({
      model: 'm',
      messages: [{ role: 'system', content: 'You are the planner of a team' }, ...user('go')],
    });
    const r4 = await client(proxy.baseUrl, inv.key).chat.completions.create({ model: 'm', messages: user('hello there') });
    // Each answer comes from an entry keyed by the agent: the upstream saw the right X-Saboteur-Agent.
    expect([r1, r2, r3, r4].map((r) => r.choices[0].message.content)).toEqual([
      'coder answer for A',
      'reviewer answer',
      'planner answer',
      'default answer',
    ]);
    const calls = registry.close(inv.key);
    expect(calls.map((c) => [c.agent, c.agentSource])).toEqual([
      ['coder', 'header'],
      ['reviewer', 'path'],
      ['planner', 'system'],
      ['default', 'default'],
    ]);
  });

  test('records tool calls, tool names and usage; /v1/models passes through and is recorded', async () => {
    const inv = registry.open({ instanceId: 't', benchmark: 'asb', variant: 'control' });
    const c = client(proxy.baseUrl, inv.key, { 'X-Saboteur-Agent': 'coder' });
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
    ];
    const res = await c.chat.completions
      .stream({ model: 'm', messages: user('weather in Oslo?'), tools, stream_options: { include_usage: true } })
      .finalChatCompletion();
    const call = res.choices[0].message.tool_calls![0];
    expect(call.type === 'function' && call.function.name).toBe('get_weather');
    const models: string[] = [];
    for await (const m of c.models.list()) models.push(m.id);
    expect(models).toEqual(['saboteur-replay']);
    const [gen, list] = registry.close(inv.key);
    expect(gen.stream).toBe(true);
    expect(gen.request.tools).toEqual(['get_weather']);
    expect(gen.response).toEqual({
      content: '',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city": "Oslo"}' }],
      finishReason: 'tool_calls',
      usage: { promptTokens: 20, completionTokens: 9 },
    });
    expect(list).toMatchObject({ endpoint: 'models', agent: 'coder', status: 200, agentCallIndex: NO_AGENT_CALL_INDEX });
  });

  test('an upstream error passes through with its status and is recorded', async () => {
    const inv = registry.open({ instanceId: 'e', benchmark: 'humaneval', variant: 'control' });
    const err = (await client(proxy.baseUrl, inv.key, { 'X-Saboteur-Agent': 'nobody' })
      .chat.completions.create({ model: 'm', messages: user('unknown request') })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.BadRequestError>;
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.type).toBe('cassette_miss');
    const [call] = registry.close(inv.key);
    expect(call.status).toBe(400);
    expect(call.error).toContain('no cassette entry matches: agent=nobody');
    expect(call.response).toBeUndefined();
  });
});

/** An upstream the test drives by hand, keeping the headers it saw. */
async function startManualUpstream(handler: (req: http.IncomingMessage, res: http.ServerResponse, body: Record<string, unknown>) => void) {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    seen.push(req.headers);
    handler(req, res, raw.length ? (JSON.parse(raw.toString()) as Record<string, unknown>) : {});
  });
  const port = await listenLocal(server);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, seen, close: () => closeServer(server) };
}

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-gate', object: 'chat.completion.chunk', created: 1700000000, model: 'gate', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

describe('proxy in front of a hand-driven upstream', () => {
  test('streams each chunk through before the upstream has finished', async () => {
    let release!: () => void;
    const released = new Promise<string>((resolve) => {
      release = () => resolve('released');
      // Only if the proxy held the first chunk back would this ever fire, and the test then fails on its text.
      setTimeout(() => resolve('timeout'), 20_000).unref();
    });
    const upstream = await startManualUpstream(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: '' }));
      res.write(chunk({ content: 'first ' }));
      const how = await released;
      res.write(chunk({ content: how === 'released' ? 'second' : 'HELD BACK BY THE PROXY' }));
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
    const registry = new InvocationRegistry();
    const proxy = await startProxy({
      upstream: { baseUrl: upstream.baseUrl, apiKey: 'sk-upstream' },
      agents: [],
      registry,
      log: memoryLog(),
    });
    const inv = registry.open({ instanceId: 's', benchmark: 'humaneval', variant: 'control' });
    try {
      const stream = await client(proxy.baseUrl, inv.key, { 'X-Saboteur-Agent': 'coder' }).chat.completions.create({
        model: 'gate',
        messages: user('go'),
        stream: true,
      });
      let text = '';
      for await (const c of stream) {
        const piece = c.choices[0]?.delta.content ?? '';
        if (piece === 'first ') release();
        text += piece;
      }
      expect(text).toBe('first second');
      const [call] = registry.close(inv.key);
      expect(call.stream).toBe(true);
      expect(call.response).toEqual({ content: 'first second', finishReason: 'stop' });
      // The upstream got the upstream key and the agent, never the invocation key.
      expect(upstream.seen[0].authorization).toBe('Bearer sk-upstream');
      expect(upstream.seen[0]['x-saboteur-agent']).toBe('coder');
      expect(JSON.stringify(upstream.seen)).not.toContain(inv.key);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  test('a call still running when the invocation closes is recorded as in flight', async () => {
    let answer!: () => void;
    const upstream = await startManualUpstream((_req, res) => {
      answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            created: 1,
            model: 'm',
            choices: [{ index: 0, message: { role: 'assistant', content: 'late' }, finish_reason: 'stop' }],
          }),
        );
      };
    });
    const registry = new InvocationRegistry();
    const proxy = await startProxy({ upstream: { baseUrl: upstream.baseUrl }, agents: [], registry, log: memoryLog() });
    const inv = registry.open({ instanceId: 'f', benchmark: 'humaneval', variant: 'control' });
    try {
      const pending = client(proxy.baseUrl, inv.key).chat.completions.create({ model: 'm', messages: user('slow question') });
      while (upstream.seen.length === 0) await new Promise((r) => setTimeout(r, 5));
      const calls = registry.close(inv.key);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        status: 0,
        error: IN_FLIGHT_ERROR,
        request: { messages: [{ role: 'user', content: 'slow question' }] },
      });
      answer();
      expect((await pending).choices[0].message.content).toBe('late');
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  test('an upstream that is down gives the client a 502 with a clear message, and is recorded', async () => {
    const upstream = await startManualUpstream(() => undefined);
    const baseUrl = upstream.baseUrl;
    await upstream.close();
    const registry = new InvocationRegistry();
    const proxy = await startProxy({ upstream: { baseUrl }, agents: [], registry, log: memoryLog() });
    const inv = registry.open({ instanceId: 'd', benchmark: 'humaneval', variant: 'control' });
    try {
      const err = (await client(proxy.baseUrl, inv.key)
        .chat.completions.create({ model: 'm', messages: user('hi') })
        .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect(err.status).toBe(502);
      expect(err.message).toContain(`the model server at ${baseUrl} did not answer (ECONNREFUSED)`);
      const [call] = registry.close(inv.key);
      expect(call.status).toBe(502);
      expect(call.error).toContain('ECONNREFUSED');
    } finally {
      await proxy.close();
    }
  });

  test('an upstream that dies in the middle of a stream ends it with an error event, recorded', async () => {
    let die!: () => void;
    const dead = new Promise<void>((resolve) => (die = resolve));
    const upstream = await startManualUpstream(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: 'partial ' }));
      // The connection drops once the pipeline has the first chunk: the proxy has passed it on (and
      // read it for the trace) before the end it must report.
      await dead;
      res.socket?.destroy();
    });
    const registry = new InvocationRegistry();
    const proxy = await startProxy({ upstream: { baseUrl: upstream.baseUrl }, agents: [], registry, log: memoryLog() });
    const inv = registry.open({ instanceId: 'm', benchmark: 'humaneval', variant: 'control' });
    try {
      const stream = await client(proxy.baseUrl, inv.key).chat.completions.create({ model: 'm', messages: user('go'), stream: true });
      let text = '';
      const err = await (async () => {
        for await (const c of stream) {
          text += c.choices[0]?.delta.content ?? '';
          if (text === 'partial ') die();
        }
      })().catch((e: unknown) => e);
      expect(text).toBe('partial ');
      expect((err as Error).message).toContain('closed the connection in the middle of the response');
      const [call] = registry.close(inv.key);
      expect(call.error).toBe('the model server closed the connection in the middle of the response');
      expect(call.response?.content).toBe('partial ');
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  test('a body that is not JSON is a 400, recorded', async () => {
    const upstream = await startManualUpstream((_req, res) => res.end());
    const registry = new InvocationRegistry();
    const proxy = await startProxy({ upstream: { baseUrl: upstream.baseUrl }, agents: [], registry, log: memoryLog() });
    const inv = registry.open({ instanceId: 'j', benchmark: 'humaneval', variant: 'control' });
    try {
      const res = await fetch(`${proxy.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${inv.key}` },
        body: '{oops',
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('not a JSON object');
      expect(upstream.seen).toHaveLength(0);
      const [call] = registry.close(inv.key);
      expect(call).toMatchObject({ status: 400, agent: 'default' });
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
