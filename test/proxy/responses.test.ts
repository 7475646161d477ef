/**
 * The proxy's Responses API (`POST /v1/responses`) over real HTTP with the real `openai` client, in
 * front of the replay server or of a hand-driven upstream: plain and streamed answers, function
 * calls and their outputs, attribution (also by the requested model name), corruption of hit
 * answers in both shapes, previous_response_id and store kept at the proxy, refusals, and routes
 * the proxy does not serve recorded on the instance.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import http from 'node:http';
import path from 'node:path';
import OpenAI from 'openai';
import { memoryLog } from '../../src/util/log.js';
import { startReplayServer, type ModelServerHandle } from '../../src/model/replay.js';
import { closeServer, listenLocal, readBody } from '../../src/util/http.js';
import { responseEvents, responseObject } from '../../src/model/responses-wire.js';
import { createAutoInjector } from '../../src/inject/index.js';
import { startProxy, InvocationRegistry, NO_AGENT_CALL_INDEX, type ProxyHandle } from '../../src/proxy/index.js';
import { globMatches, identifyAgent, parseRoute } from '../../src/proxy/identify.js';
import { MAX_STORED_RESPONSES } from '../../src/proxy/responses-route.js';

const CASSETTE = path.resolve('fixtures/cassettes/responses.jsonl');
const AGENTS = [
  { name: 'planner', match: { system: 'You are the planner' } },
  { name: 'coder', match: { model: 'coder-*' } },
  { name: 'reviewer', match: { header: 'reviewer-v2' } },
];
const SERVED = 'served-model';
const TOOLS: OpenAI.Responses.Tool[] = [
  {
    type: 'function',
    name: 'run_tests',
    description: 'Runs the tests',
    parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
    strict: false,
  },
];

function client(baseURL: string, apiKey: string, headers: Record<string, string> = {}): OpenAI {
  return new OpenAI({ baseURL, apiKey, maxRetries: 0, defaultHeaders: headers });
}

describe('identification by the requested model (pure)', () => {
  test('globs match whole names; * and ? are the only wildcards', () => {
    expect(globMatches('coder-*', 'coder-fast')).toBe(true);
    expect(globMatches('coder-*', 'coder-')).toBe(true);
    expect(globMatches('coder-*', 'my-coder-fast')).toBe(false);
    expect(globMatches('gpt-4.?', 'gpt-4.1')).toBe(true);
    expect(globMatches('gpt-4.?', 'gpt-401')).toBe(false);
    expect(globMatches('a+b(c)', 'a+b(c)')).toBe(true);
    expect(globMatches('*', '')).toBe(true);
  });

  test('rules in order; a rule with system and model needs both; header and path still come first', () => {
    const rules = [
      { name: 'both', match: { system: 'strict', model: 'm-*' } },
      { name: 'coder', match: { model: 'coder-*' } },
      { name: 'planner', match: { system: 'You are the planner' } },
    ];
    // The system prompt matched the planner too: the disagreement is carried, the first rule believed.
    expect(identifyAgent({ model: 'coder-x', system: 'You are the planner' }, rules)).toEqual({
      agent: 'coder',
      source: 'model',
      signals: [
        { source: 'model', agent: 'coder' },
        { source: 'system', agent: 'planner' },
      ],
    });
    expect(identifyAgent({ model: 'm-1', system: 'be strict' }, rules)).toEqual({ agent: 'both', source: 'system' });
    expect(identifyAgent({ model: 'm-1', system: 'lenient' }, rules)).toEqual({ agent: 'default', source: 'default' });
    expect(identifyAgent({ model: 'other', system: () => 'You are the planner' }, rules)).toEqual({ agent: 'planner', source: 'system' });
    expect(identifyAgent({ header: 'reviewer', model: 'coder-x' }, rules)).toEqual({
      agent: 'reviewer',
      source: 'header',
      signals: [
        { source: 'header', agent: 'reviewer' },
        { source: 'model', agent: 'coder' },
      ],
    });
    expect(identifyAgent({ pathAgent: 'tester', model: 'coder-x' }, rules)).toEqual({
      agent: 'tester',
      source: 'path',
      signals: [
        { source: 'path', agent: 'tester' },
        { source: 'model', agent: 'coder' },
      ],
    });
  });

  test('the system text is read once, also when a header names the agent', () => {
    let read = 0;
    identifyAgent({ header: 'x', system: () => String(++read) }, AGENTS);
    // Read once even then: a header naming one agent over a system prompt matching another's rule is a disagreement the report must show.
    expect(read).toBe(1);
  });

  test('routes: /v1/responses and under /agents/NAME/v1', () => {
    expect(parseRoute('POST', '/v1/responses')).toEqual({ endpoint: 'responses', pathAgent: undefined, upstreamPath: '/responses' });
    expect(parseRoute('POST', '/agents/coder/v1/responses')).toEqual({
      endpoint: 'responses',
      pathAgent: 'coder',
      upstreamPath: '/responses',
    });
    expect(parseRoute('POST', '/agents/coder/v1/chat/completions')?.pathAgent).toBe('coder');
    expect(parseRoute('GET', '/v1/responses/resp_1')).toBeUndefined();
    expect(parseRoute('GET', '/v1/responses')).toBeUndefined();
  });
});

describe('the Responses API through the proxy, in front of the replay server', () => {
  let upstream: ModelServerHandle;
  let proxy: ProxyHandle;
  let corrupting: ProxyHandle;
  const registry = new InvocationRegistry();
  const log = memoryLog();
  beforeAll(async () => {
    upstream = await startReplayServer({ cassette: CASSETTE, log: memoryLog() });
    proxy = await startProxy({ upstream: { baseUrl: upstream.baseUrl }, agents: AGENTS, model: SERVED, registry, log });
    const injector = createAutoInjector({ target: 'coder', messageRate: 1, errorRate: 1, corruption: 'logic-edit', seed: 7 });
    corrupting = await startProxy({ upstream: { baseUrl: upstream.baseUrl }, agents: AGENTS, model: SERVED, registry, injector, log });
  });
  afterAll(async () => {
    await proxy.close();
    await corrupting.close();
    await upstream.close();
  });

  test('a tool loop, plain: function_call out, function_call_output back, attributed by model name', async () => {
    const inv = registry.open({ instanceId: 'r1', benchmark: 'humaneval', variant: 'control' });
    const openai = client(proxy.baseUrl, inv.key);
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Write a function to add two numbers.' }];
    const first = await openai.responses.create({ model: 'coder-fast', input, tools: TOOLS });
    expect(first.id).toMatch(/^resp_/);
    expect(first.output).toHaveLength(1);
    const call = first.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    expect(call).toMatchObject({ type: 'function_call', call_id: 'call_tests', name: 'run_tests' });
    expect(JSON.parse(call.arguments)).toEqual({ code: 'def add(a, b):\n    return a + b' });
    const second = await openai.responses.create({
      model: 'coder-fast',
      input: [
        ...input,
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: call.call_id, output: '2 passed' },
      ],
      tools: TOOLS,
      store: false,
    });
    expect(second.output_text).toContain('def add(a, b):');
    const calls = registry.close(inv.key);
    expect(calls.map((c) => [c.endpoint, c.agent, c.agentSource, c.agentCallIndex, c.status, c.stream])).toEqual([
      ['responses', 'coder', 'model', 0, 200, false],
      ['responses', 'coder', 'model', 1, 200, false],
    ]);
    expect(calls[0].request).toEqual({
      model: 'coder-fast',
      messages: [{ role: 'user', content: 'Write a function to add two numbers.' }],
      tools: ['run_tests'],
    });
    expect(calls[0].response).toMatchObject({
      content: '',
      toolCalls: [{ id: 'call_tests', name: 'run_tests' }],
      finishReason: 'tool_calls',
    });
    expect(calls[1].request.messages!.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(calls[1].request.messages![1].content).toContain('[tool call run_tests');
    expect(calls[1].request.messages![2].content).toBe('2 passed');
    // The alias that named the agent went upstream as the served model.
    expect(first.model).toBe(SERVED);
  });

  test('streamed: the SDK accumulates the events into the same response; the trace assembles it', async () => {
    const inv = registry.open({ instanceId: 'r2', benchmark: 'humaneval', variant: 'control' });
    const openai = client(proxy.baseUrl, inv.key);
    const stream = openai.responses.stream({ model: 'planner-model', instructions: 'You are the planner.', input: 'Plan the task.' });
    const types: string[] = [];
    let deltas = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') deltas += event.delta;
    }
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('1. Read the task. 2. Write the code. 3. Test it.');
    expect(deltas).toBe(final.output_text);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.output_item.added');
    expect(types).toContain('response.content_part.added');
    expect(types).toContain('response.output_text.done');
    const [c] = registry.close(inv.key);
    expect(c).toMatchObject({ endpoint: 'responses', agent: 'planner', agentSource: 'system', stream: true, status: 200 });
    expect(c.request.messages).toEqual([
      { role: 'system', content: 'You are the planner.' },
      { role: 'user', content: 'Plan the task.' },
    ]);
    expect(c.response).toMatchObject({ content: final.output_text, finishReason: 'stop' });
  });

  test('a streamed function call passes through whole', async () => {
    const inv = registry.open({ instanceId: 'r3', benchmark: 'humaneval', variant: 'control' });
    const stream = await client(proxy.baseUrl, inv.key).responses.create({
      model: 'coder-1',
      input: 'Write a function to add two numbers.',
      tools: TOOLS,
      stream: true,
    });
    let args = '';
    let done: OpenAI.Responses.Response | undefined;
    for await (const e of stream) {
      if (e.type === 'response.function_call_arguments.delta') args += e.delta;
      if (e.type === 'response.completed') done = e.response;
    }
    expect(JSON.parse(args)).toEqual({ code: 'def add(a, b):\n    return a + b' });
    expect(done!.output[0]).toMatchObject({ type: 'function_call', arguments: args });
    const [c] = registry.close(inv.key);
    expect(c.response!.toolCalls).toEqual([{ id: 'call_tests', name: 'run_tests', arguments: args }]);
  });

  test('/agents/NAME/v1/responses and /agents/NAME/v1/chat/completions name the agent', async () => {
    const inv = registry.open({ instanceId: 'r4', benchmark: 'humaneval', variant: 'control' });
    const base = proxy.baseUrl.replace(/\/v1$/, '/agents/planner/v1');
    const viaResponses = await client(base, inv.key).responses.create({ model: 'm', input: 'hello' });
    const viaChat = await client(base, inv.key).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hello' }] });
    const viaHeader = await client(proxy.baseUrl, inv.key, { 'X-Saboteur-Agent': 'reviewer-v2' }).responses.create({
      model: 'coder-x',
      input: 'hello',
    });
    expect(viaResponses.output_text).toBe('1. Read the task. 2. Write the code. 3. Test it.');
    expect(viaChat.choices[0].message.content).toBe(viaResponses.output_text);
    expect(viaHeader.output_text).toBe('default answer');
    const calls = registry.close(inv.key);
    expect(calls.map((c) => [c.endpoint, c.agent, c.agentSource])).toEqual([
      ['responses', 'planner', 'path'],
      ['chat.completions', 'planner', 'path'],
      ['responses', 'reviewer', 'header'],
    ]);
    // A header-named agent keeps the model it asked for.
    expect(viaHeader.model).toBe('coder-x');
  });

  test('previous_response_id continues from the stored response; store: false keeps nothing; unknown ids are refused', async () => {
    const inv = registry.open({ instanceId: 'r5', benchmark: 'humaneval', variant: 'control' });
    const openai = client(proxy.baseUrl, inv.key);
    const first = await openai.responses.create({ model: 'm', input: 'Remember the number 42.' });
    const second = await openai.responses.create({ model: 'm', previous_response_id: first.id, input: 'What was the number?' });
    expect(second.output_text).toBe('The number was 42.');
    const unstored = await openai.responses.create({ model: 'm', input: 'Remember the number 42.', store: false });
    const refused = (await openai.responses
      .create({ model: 'm', previous_response_id: unstored.id, input: 'What was the number?' })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.BadRequestError>;
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused.message).toContain(`previous_response_id "${unstored.id}" is not a response of this pipeline run`);
    // Another run cannot continue this run's responses.
    const other = registry.open({ instanceId: 'r5b', benchmark: 'humaneval', variant: 'control' });
    const foreign = await client(proxy.baseUrl, other.key)
      .responses.create({ model: 'm', previous_response_id: first.id, input: 'What was the number?' })
      .catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(OpenAI.BadRequestError);
    registry.close(other.key);
    const calls = registry.close(inv.key);
    expect(calls.map((c) => [c.status, c.agentCallIndex])).toEqual([
      [200, 0],
      [200, 1],
      [200, 2],
      [400, NO_AGENT_CALL_INDEX],
    ]);
    expect(calls[1].request.messages!.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(calls[3].error).toContain('is not a response of this pipeline run');
  });

  test('background and conversation are refused with what to do instead', async () => {
    const inv = registry.open({ instanceId: 'r6', benchmark: 'humaneval', variant: 'control' });
    const openai = client(proxy.baseUrl, inv.key);
    const bg = (await openai.responses.create({ model: 'm', input: 'x', background: true }).catch((e: unknown) => e)) as Error;
    const conv = (await openai.responses.create({ model: 'm', input: 'x', conversation: 'conv_1' }).catch((e: unknown) => e)) as Error;
    const noInput = (await openai.responses.create({ model: 'm' } as never).catch((e: unknown) => e)) as Error;
    expect(bg.message).toContain('background responses are not supported');
    expect(conv.message).toContain('send the history in `input`');
    expect(noInput.message).toContain('`input` must be a string or a list of input items');
    expect(registry.close(inv.key).map((c) => c.status)).toEqual([400, 400, 400]);
  });

  test('a hit answer is corrupted plainly and streamed; the next turn carries what the pipeline saw', async () => {
    const inv = registry.open({ instanceId: 'r7', benchmark: 'humaneval', variant: 'malicious' });
    const openai = client(corrupting.baseUrl, inv.key);
    const plain = await openai.responses.create({ model: 'coder-a', input: 'Write a function to add two numbers.' });
    const stream = openai.responses.stream({ model: 'coder-a', input: 'Write a function to add two numbers.' });
    let deltas = '';
    for await (const e of stream) if (e.type === 'response.output_text.delta') deltas += e.delta;
    const streamed = await stream.finalResponse();
    const memory = await openai.responses.create({ model: 'coder-a', input: 'Remember the number 42.' });
    const followUp = await openai.responses.create({ model: 'coder-a', previous_response_id: memory.id, input: 'What was the number?' });
    const planner = await openai.responses.create({ model: 'p', instructions: 'You are the planner.', input: 'Plan.' });
    const calls = registry.close(inv.key);
    const [c0, c1, c2, c3, c4] = calls;
    for (const [c, answer] of [
      [c0, plain.output_text],
      [c1, streamed.output_text],
      [c2, memory.output_text],
    ] as const) {
      expect(c.corruption).toBeDefined();
      expect(c.corruption!.units.length).toBeGreaterThan(0);
      expect(answer).toBe(c.corruption!.after);
      expect(c.response!.content).toBe(c.corruption!.after);
      expect(answer).not.toBe(c.corruption!.before);
    }
    expect(deltas).toBe(streamed.output_text);
    expect(c1.stream).toBe(true);
    // The stored conversation holds the corrupted answer: the follow-up asked with it.
    expect(c3.request.messages![1]).toEqual({ role: 'assistant', content: memory.output_text });
    expect(followUp.output_text).not.toBe('The number was 42.');
    // The planner is not the target.
    expect(c4.corruption).toBeUndefined();
    expect(planner.output_text).toBe('1. Read the task. 2. Write the code. 3. Test it.');
  });

  test('a route the proxy does not serve: 404 naming it, recorded on the instance', async () => {
    const inv = registry.open({ instanceId: 'r8', benchmark: 'humaneval', variant: 'control' });
    const openai = client(proxy.baseUrl, inv.key, { 'X-Saboteur-Agent': 'coder' });
    const err = (await openai.embeddings.create({ model: 'm', input: 'x' }).catch((e: unknown) => e)) as InstanceType<
      typeof OpenAI.NotFoundError
    >;
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.message).toContain(
      'saboteur proxy has no route POST /v1/embeddings (it serves POST /v1/chat/completions, POST /v1/responses',
    );
    const retrieve = await openai.responses.retrieve('resp_x').catch((e: unknown) => e);
    expect(retrieve).toBeInstanceOf(OpenAI.NotFoundError);
    const calls = registry.close(inv.key);
    expect(calls.map((c) => [c.endpoint, c.route, c.status, c.agent])).toEqual([
      ['unsupported', 'POST /v1/embeddings', 404, 'coder'],
      ['unsupported', 'GET /v1/responses/resp_x', 404, 'coder'],
    ]);
    expect(log.lines.filter((l) => l.includes('no route POST /v1/embeddings'))).toHaveLength(1);
  });
});

/** An upstream the test drives by hand, keeping the bodies it saw. */
async function startManualUpstream(handler: (req: http.IncomingMessage, res: http.ServerResponse, body: Record<string, unknown>) => void) {
  const bodies: Record<string, unknown>[] = [];
  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const body = raw.length ? (JSON.parse(raw.toString()) as Record<string, unknown>) : {};
    bodies.push(body);
    handler(req, res, body);
  });
  const port = await listenLocal(server);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, bodies, close: () => closeServer(server) };
}

const spec = (content: string) => ({
  id: 'resp_up',
  created: 1700000000,
  model: 'up',
  content,
  toolCalls: [],
  finishReason: 'stop',
  usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
});

describe('the Responses API through the proxy, in front of a hand-driven upstream', () => {
  test('the upstream gets store: false, the expanded conversation and the served model; a stream cut short is recorded', async () => {
    let n = 0;
    let sent = 0;
    let die!: () => void;
    const dead = new Promise<void>((resolve) => (die = resolve));
    const upstream = await startManualUpstream(async (_req, res, body) => {
      const response = responseObject(spec(n++ === 0 ? 'first answer' : 'second answer'), body);
      (response as { id: string }).id = `resp_up${n}`;
      if (body.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(response));
      }
      const events = responseEvents(response);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Cut before the terminal event: the model server died mid-answer.
      for (const e of events.slice(0, -2)) res.write(e);
      sent = events.length - 2;
      // The connection drops once the pipeline has every event sent: the proxy has passed them all on
      // (and read them for the trace) before the end it must report.
      await dead;
      res.destroy();
    });
    const registry = new InvocationRegistry();
    const proxy = await startProxy({ upstream: { baseUrl: upstream.baseUrl }, agents: AGENTS, model: SERVED, registry, log: memoryLog() });
    const inv = registry.open({ instanceId: 'u', benchmark: 'humaneval', variant: 'control' });
    try {
      const openai = client(proxy.baseUrl, inv.key);
      const first = await openai.responses.create({ model: 'coder-z', instructions: 'Be brief.', input: 'one', store: true });
      expect(first.output_text).toBe('first answer');
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const e of await openai.responses.create({
        model: 'coder-z',
        previous_response_id: first.id,
        input: 'two',
        stream: true,
      })) {
        events.push(e);
        if (events.length === sent) die();
      }
      // The stream ends with an error event (as the API writes one), never with a completed response.
      expect(events.at(-1)).toMatchObject({ type: 'error', message: expect.stringContaining('closed the connection') });
      expect(events.some((e) => e.type === 'response.completed')).toBe(false);
      expect(upstream.bodies[0]).toMatchObject({ model: SERVED, store: false, instructions: 'Be brief.' });
      expect(upstream.bodies[0].previous_response_id).toBeUndefined();
      // The previous turn's instructions are not carried over (as the API does); its items are.
      expect(upstream.bodies[1]).toMatchObject({ model: SERVED, store: false, stream: true });
      expect(upstream.bodies[1].previous_response_id).toBeUndefined();
      expect(upstream.bodies[1].input).toEqual([
        { type: 'message', role: 'user', content: 'one' },
        expect.objectContaining({
          type: 'message',
          role: 'assistant',
          content: [expect.objectContaining({ type: 'output_text', text: 'first answer' })],
        }),
        { type: 'message', role: 'user', content: 'two' },
      ]);
      const calls = registry.close(inv.key);
      expect(calls[1].error).toContain('closed the connection');
      expect(calls[1].response?.content).toBe('second answer');
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  test('stored responses are bounded per run: the oldest is forgotten', async () => {
    let n = 0;
    const upstream = await startManualUpstream((_req, res, body) => {
      const response = responseObject({ ...spec('ok'), id: `resp_${n++}` }, body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(response));
    });
    const registry = new InvocationRegistry();
    const proxy = await startProxy({ upstream: { baseUrl: upstream.baseUrl }, agents: [], registry, log: memoryLog() });
    const inv = registry.open({ instanceId: 'b', benchmark: 'humaneval', variant: 'control' });
    try {
      const openai = client(proxy.baseUrl, inv.key);
      for (let i = 0; i <= MAX_STORED_RESPONSES; i++) await openai.responses.create({ model: 'm', input: `q${i}` });
      await expect(openai.responses.create({ model: 'm', previous_response_id: 'resp_0', input: 'again' })).rejects.toThrow(
        /is not a response of this pipeline run/,
      );
      await expect(
        openai.responses.create({ model: 'm', previous_response_id: `resp_${MAX_STORED_RESPONSES}`, input: 'again' }),
      ).resolves.toMatchObject({ output_text: 'ok' });
      registry.close(inv.key);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
