/**
 * The replay server and the recorder speak the Responses API: answers from a cassette plain and
 * streamed (the openai client's own stream accumulator checks the event order), function calls,
 * `turn` and `tool` matching over Responses input items, the request hash, and a recording made
 * through the recorder that replays to the same answers.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { memoryLog } from '../../src/util/log.js';
import { startReplayServer, type ModelServerHandle } from '../../src/model/replay.js';
import { startRecorder } from '../../src/model/recorder.js';
import { parseCassette, requestFacts, requestHash } from '../../src/model/cassette.js';
import { responsesMessages } from '../../src/model/responses-wire.js';

const CASSETTE = path.resolve('fixtures/cassettes/responses.jsonl');
const TOOLS: OpenAI.Responses.Tool[] = [
  { type: 'function', name: 'run_tests', parameters: { type: 'object', properties: {} }, strict: false },
];

const client = (baseURL: string, agent?: string) =>
  new OpenAI({ baseURL, apiKey: 'unused', maxRetries: 0, defaultHeaders: agent ? { 'X-Saboteur-Agent': agent } : {} });

describe('Responses input read as a conversation (pure)', () => {
  test('instructions, messages, function calls joined to their assistant turn, outputs as tool messages', () => {
    const body = {
      instructions: 'Be brief.',
      input: [
        { role: 'developer', content: 'Extra rules.' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Add ' },
            { type: 'input_text', text: 'numbers' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Calling tools.' }] },
        { type: 'function_call', call_id: 'c1', name: 'a', arguments: '{}' },
        { type: 'function_call', call_id: 'c2', name: 'b', arguments: '{"x":1}' },
        { type: 'function_call_output', call_id: 'c1', output: 'one' },
        { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 'two' }] },
        { type: 'web_search_call', id: 'ws' },
      ],
    };
    expect(responsesMessages(body)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: 'Extra rules.' },
      { role: 'user', content: 'Add numbers' },
      {
        role: 'assistant',
        content: 'Calling tools.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'a', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'b', arguments: '{"x":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'one' },
      { role: 'tool', tool_call_id: 'c2', content: 'two' },
      { role: 'unknown', content: '[web_search_call]' },
    ]);
    // The reasoning item and the message after it are one assistant turn.
    const facts = requestFacts({ ...body, tools: [{ type: 'function', name: 'a' }] }, 'responses', 'coder');
    expect(facts).toMatchObject({
      endpoint: 'responses',
      turn: 1,
      tools: ['a'],
      lastUser: 'Add numbers',
      system: 'Be brief.\nExtra rules.',
    });
  });

  test('the hash: same conversation, same hash, whatever the sampling knobs; differs from the chat form', () => {
    const a = { model: 'x', temperature: 0, input: 'hi', instructions: 'sys' };
    const b = { model: 'y', stream: true, store: false, input: [{ role: 'user', content: 'hi' }], instructions: 'sys' };
    expect(requestHash(a, 'responses')).toBe(requestHash(b, 'responses'));
    expect(requestHash(a, 'responses')).not.toBe(requestHash({ ...a, input: 'ho' }, 'responses'));
    const chat = {
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
      ],
    };
    expect(requestHash(chat)).not.toBe(requestHash(a, 'responses'));
  });

  test('a cassette entry may ask for the responses endpoint', () => {
    const [entry] = parseCassette('{"match": {"endpoint": "responses"}, "response": {"content": "x"}}', 'c.jsonl');
    expect(entry.match.endpoint).toBe('responses');
  });
});

describe('the replay server answers the Responses API', () => {
  let server: ModelServerHandle;
  beforeAll(async () => {
    server = await startReplayServer({ cassette: CASSETTE, log: memoryLog() });
  });
  afterAll(() => server.close());

  test('plain: a function call at turn 0, text at turn 1 after its output', async () => {
    const coder = client(server.baseUrl, 'coder');
    const first = await coder.responses.create({ model: 'm', input: 'Write a function to add two numbers.', tools: TOOLS });
    expect(first).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'm',
      output: [{ type: 'function_call', name: 'run_tests', call_id: 'call_tests', status: 'completed' }],
    });
    expect(first.usage!.input_tokens).toBeGreaterThan(0);
    const second = await coder.responses.create({
      model: 'm',
      input: [
        { role: 'user', content: 'Write a function to add two numbers.' },
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'call_tests', output: '2 passed' },
      ],
      tools: TOOLS,
    });
    expect(second.output_text).toMatch(/^The tests pass\./);
    expect(second.output[0]).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
  });

  test('streamed: the client accumulates the events; text and function calls both', async () => {
    const text = client(server.baseUrl, 'planner').responses.stream({ model: 'm', input: 'Plan.' });
    const final = await text.finalResponse();
    expect(final.output_text).toBe('1. Read the task. 2. Write the code. 3. Test it.');
    const tool = client(server.baseUrl, 'coder').responses.stream({
      model: 'm',
      input: 'Write a function to add two numbers.',
      tools: TOOLS,
    });
    const withCall = await tool.finalResponse();
    expect(withCall.output[0]).toMatchObject({ type: 'function_call', name: 'run_tests' });
    expect(JSON.parse((withCall.output[0] as OpenAI.Responses.ResponseFunctionToolCall).arguments)).toEqual({
      code: 'def add(a, b):\n    return a + b',
    });
  });

  test('previous_response_id is refused: the replay server keeps no responses', async () => {
    const err = (await client(server.baseUrl)
      .responses.create({ model: 'm', input: 'x', previous_response_id: 'resp_1' })
      .catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.message).toContain('the replay server keeps no responses');
  });
});

describe('the recorder records Responses calls', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  test('plain and streamed calls become hash entries that replay to the same answers', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'saboteur-resp-'));
    dirs.push(dir);
    const cassette = path.join(dir, 'recorded.jsonl');
    const live = await startReplayServer({ cassette: CASSETTE, log: memoryLog() });
    const recorder = await startRecorder({ upstreamBaseUrl: live.baseUrl, cassette, log: memoryLog() });
    const ask = async (baseUrl: string) => {
      const plain = await client(baseUrl, 'planner').responses.create({ model: 'm', input: 'Plan the work.' });
      const streamed = await client(baseUrl, 'coder')
        .responses.stream({ model: 'm', input: 'Write a function to add two numbers.', tools: TOOLS })
        .finalResponse();
      return [
        plain.output_text,
        JSON.stringify(streamed.output.map((o) => (o.type === 'function_call' ? [o.name, o.call_id, o.arguments] : o.type))),
      ];
    };
    let recorded: string[];
    try {
      recorded = await ask(recorder.baseUrl);
      expect(recorder.stats()).toEqual({ hits: 2, misses: 0 });
    } finally {
      await recorder.close();
      await live.close();
    }
    const lines = (await readFile(cassette, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0].match).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), agent: 'planner', endpoint: 'responses' });
    expect(lines[1].response.tool_calls).toEqual([
      { id: 'call_tests', name: 'run_tests', arguments: '{"code":"def add(a, b):\\n    return a + b"}' },
    ]);
    const replay = await startReplayServer({ cassette, log: memoryLog() });
    try {
      expect(await ask(replay.baseUrl)).toEqual(recorded);
      expect(replay.stats()).toEqual({ hits: 2, misses: 0 });
    } finally {
      await replay.close();
    }
  });
});
