/**
 * The tool definitions a span carries, read from each dialect's attributes
 * (src/otlp/tool-definitions.ts), and held to bounds on the way into the trace graph
 * (src/taint/trace/tool-definitions.ts). The input is hostile: malformed JSON, values that are
 * not objects, huge texts, deep nesting and very many definitions are skipped or capped, never
 * an error, and never taken beyond their shape.
 */
import { describe, expect, it } from '@jest/globals';
import { genAiView, type OtlpSpan } from '../../src/otlp/index.js';
import { MAX_DEFINITIONS_PER_SPAN, MAX_DEFINITION_CHARS } from '../../src/otlp/tool-definitions.js';
import { MAX_TRACE_DEFINITIONS, boundedDefinition, collectDefinitions } from '../../src/taint/trace/tool-definitions.js';
import { buildTraceGraph } from '../../src/taint/trace-graph.js';
import { defaultPolicy } from '../../src/taint/policy.js';

const span = (name: string, attributes: Record<string, unknown>, events: OtlpSpan['events'] = []): OtlpSpan => ({
  traceId: 'ab'.repeat(16),
  spanId: '1'.padStart(16, '0'),
  name,
  startMs: 1,
  endMs: 2,
  attributes,
  events,
});

const SCHEMA = { type: 'object', properties: { to: { type: 'string', format: 'email' }, body: { type: 'string' } }, required: ['to'] };
const MAIL = { name: 'courier', description: 'The team courier.', parameters: SCHEMA };
const expected = { courier: { name: 'courier', description: 'The team courier.', inputSchema: SCHEMA } };

/** The definitions the trace graph takes from one span, by name. */
const definitionsOf = (s: OtlpSpan) => Object.fromEntries(collectDefinitions({ views: [genAiView(s)] }));

describe('each dialect’s attributes', () => {
  it('GenAI conventions: gen_ai.tool.definitions, flat or in the source system’s format, on the span or its details event', () => {
    const flat = span('chat m', {
      'gen_ai.operation.name': 'chat',
      'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', ...MAIL }]),
    });
    expect(definitionsOf(flat)).toEqual(expected);
    const openai = span('chat m', {
      'gen_ai.operation.name': 'chat',
      'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', function: MAIL }]),
    });
    expect(definitionsOf(openai)).toEqual(expected);
    // Structured (an array attribute of kvlists) as the conventions prefer where a backend can.
    const structured = span('chat m', { 'gen_ai.operation.name': 'chat', 'gen_ai.tool.definitions': [{ type: 'function', ...MAIL }] });
    expect(definitionsOf(structured)).toEqual(expected);
    const event = span('chat m', { 'gen_ai.operation.name': 'chat' }, [
      {
        name: 'gen_ai.client.inference.operation.details',
        timeMs: 1,
        attributes: { 'gen_ai.tool.definitions': [{ type: 'function', ...MAIL }] },
      },
    ]);
    expect(definitionsOf(event)).toEqual(expected);
    const tool = span('execute_tool courier', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.description': 'The team courier.' });
    expect(definitionsOf(tool)).toEqual({ courier: { name: 'courier', description: 'The team courier.' } });
  });

  it('OpenInference: llm.tools.N.tool.json_schema, or its name / description / parameters; a TOOL span’s own', () => {
    const llm = span('ChatCompletion', {
      'openinference.span.kind': 'LLM',
      'llm.tools.0.tool.json_schema': JSON.stringify({ type: 'function', function: MAIL }),
      'llm.tools.1.tool.name': 'archive',
      'llm.tools.1.tool.description': 'Archive.',
      'llm.tools.1.tool.parameters': JSON.stringify({ type: 'object', properties: { id: { type: 'string' } } }),
    });
    expect(definitionsOf(llm)).toEqual({
      ...expected,
      archive: { name: 'archive', description: 'Archive.', inputSchema: { type: 'object', properties: { id: { type: 'string' } } } },
    });
    // openinference-core's getToolAttributes writes `parameters` as given, a bare properties map in its own example.
    const tool = span('courier', {
      'openinference.span.kind': 'TOOL',
      'tool.name': 'courier',
      'tool.description': 'The team courier.',
      'tool.parameters': JSON.stringify(SCHEMA.properties),
    });
    expect(definitionsOf(tool)).toEqual({
      courier: { name: 'courier', description: 'The team courier.', inputSchema: { type: 'object', properties: SCHEMA.properties } },
    });
    // The attributes of a dialect the span does not carry are not read.
    expect(definitionsOf(span('chat m', { 'llm.tools.0.tool.json_schema': JSON.stringify(MAIL) }))).toEqual({});
  });

  it('OpenLLMetry: gen_ai.tool.definitions, or the older llm.request.functions.N.*', () => {
    const s = span('openai.chat', {
      'llm.request.type': 'chat',
      'llm.request.functions.0.name': 'courier',
      'llm.request.functions.0.description': 'The team courier.',
      'llm.request.functions.0.parameters': JSON.stringify(SCHEMA),
    });
    expect(definitionsOf(s)).toEqual(expected);
  });

  it('Vercel AI SDK: ai.prompt.tools, a list of JSON texts (inputSchema in v5 and later, parameters before)', () => {
    const s = span('ai.generateText.doGenerate', {
      'ai.operationId': 'ai.generateText.doGenerate',
      'ai.prompt.tools': [
        JSON.stringify({ type: 'function', name: 'courier', description: 'The team courier.', inputSchema: SCHEMA }),
        JSON.stringify({ type: 'function', name: 'archive', parameters: { type: 'object' } }),
        JSON.stringify({ type: 'provider-defined', id: 'openai.web_search', args: {} }),
      ],
    });
    expect(definitionsOf(s)).toEqual({ ...expected, archive: { name: 'archive', inputSchema: { type: 'object' } } });
  });
});

describe('hostile input: skipped or capped, never an error', () => {
  const genai = (v: unknown) => span('chat m', { 'gen_ai.operation.name': 'chat', 'gen_ai.tool.definitions': v });
  const vercel = (v: unknown) =>
    span('ai.generateText.doGenerate', { 'ai.operationId': 'ai.generateText.doGenerate', 'ai.prompt.tools': v });

  it.each([
    ['malformed JSON', '[{"name": "courier", '],
    ['a number', '42'],
    ['null', 'null'],
    ['a JSON string', '"courier"'],
    ['lists in lists', '[[[["courier"]]]]'],
    ['a definition with no name', '[{"description": "x", "parameters": {}}]'],
    ['a name that is not text', '[{"name": 7}, {"function": {"name": ["courier"]}}]'],
    ['an empty name', '[{"name": ""}]'],
    ['a number as the attribute', 42],
    ['a boolean list', [true, false]],
  ])('%s: no definition', (_what, v) => {
    expect(definitionsOf(genai(v))).toEqual({});
    expect(definitionsOf(vercel(v))).toEqual({});
  });

  it('fields of the wrong type are left out, the rest kept', () => {
    const s = genai(JSON.stringify([{ name: 'courier', description: 7, parameters: 'a schema', annotations: { readOnlyHint: 'yes' } }]));
    expect(definitionsOf(s)).toEqual({ courier: { name: 'courier' } });
  });

  it('a text longer than a definition could need is not parsed; the ones beside it are read', () => {
    const huge = JSON.stringify({ name: 'huge', description: 'x'.repeat(MAX_DEFINITION_CHARS) });
    expect(definitionsOf(vercel([huge, JSON.stringify({ type: 'function', ...MAIL })]))).toEqual(expected);
    expect(definitionsOf(genai(JSON.stringify([{ name: 'huge', description: 'x'.repeat(MAX_DEFINITION_CHARS) }])))).toEqual({});
  });

  it('a schema nested 40,000 levels deep (within the size cap) is cut to the depth cap, no stack overflow', () => {
    const deep = `${'{"a":'.repeat(40_000)}1${'}'.repeat(40_000)}`;
    const s = genai(`[{"name":"courier","parameters":{"type":"object","properties":{"to":${deep}}}}]`);
    const d = definitionsOf(s).courier;
    expect(d.name).toBe('courier');
    expect(JSON.stringify(d.inputSchema)).toMatch(/cut by saboteur/);
    expect(JSON.stringify(d.inputSchema).length).toBeLessThan(2_000);
  });

  it(`at most ${MAX_DEFINITIONS_PER_SPAN} definitions a span, in order`, () => {
    const many = Array.from({ length: 5_000 }, (_, i) => ({ name: `t${i}` }));
    const names = Object.keys(definitionsOf(genai(JSON.stringify(many))));
    expect(names).toHaveLength(MAX_DEFINITIONS_PER_SPAN);
    expect(names[0]).toBe('t0');
    const attrs: Record<string, unknown> = { 'openinference.span.kind': 'LLM' };
    for (let i = 0; i < 1_000; i++) attrs[`llm.tools.${i}.tool.json_schema`] = JSON.stringify({ name: `t${i}` });
    expect(Object.keys(definitionsOf(span('ChatCompletion', attrs)))).toHaveLength(MAX_DEFINITIONS_PER_SPAN);
  });

  it(`a trace adds at most ${MAX_TRACE_DEFINITIONS} names of its own; the task's specs always count`, () => {
    const views = Array.from({ length: 8 }, (_, k) =>
      genAiView(genai(JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ name: `t${k}_${i}` }))))),
    );
    const out = collectDefinitions({ specs: [{ name: 'spec_tool' }], views });
    expect(out.size).toBe(MAX_TRACE_DEFINITIONS + 1);
    expect(out.has('spec_tool')).toBe(true);
  });

  it('a definition is held to a name, description and schema a tool could need', () => {
    expect(boundedDefinition({ name: 'x'.repeat(257) })).toBeUndefined();
    expect(boundedDefinition({ name: 'courier', description: 'd'.repeat(100_000) })!.description).toHaveLength(4096);
    const properties = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const schema = boundedDefinition({ name: 'courier', inputSchema: { type: 'object', properties } })!.inputSchema!;
    expect(Object.keys(schema.properties as object)).toHaveLength(256);
    expect(schema.type).toBe('object');
  });
});

describe('a renamed tool is profiled by the schema the trace carries', () => {
  /** One chat span offering `hermes` and calling it with a handle that is not an address, and the tool span; `format` types the handle. */
  const trace = (format?: string) => {
    const definition = {
      type: 'function',
      name: 'hermes',
      parameters: { type: 'object', properties: { handle: { type: 'string', ...(format ? { format } : {}) } } },
    };
    const call = { type: 'tool_call', id: 'c1', name: 'hermes', arguments: { handle: 'finance-lead' } };
    const chat: OtlpSpan = {
      ...span('chat m', {
        'gen_ai.operation.name': 'chat',
        'gen_ai.tool.definitions': JSON.stringify([definition]),
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Tell finance the figures.' }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [call] }]),
      }),
      spanId: '1'.padStart(16, '0'),
    };
    const tool: OtlpSpan = {
      ...span('execute_tool hermes', {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'hermes',
        'gen_ai.tool.call.id': 'c1',
        'gen_ai.tool.call.arguments': JSON.stringify(call.arguments),
        'gen_ai.tool.call.result': 'ok',
      }),
      spanId: '2'.padStart(16, '0'),
      startMs: 3,
      endMs: 4,
    };
    return buildTraceGraph({ root: 'Tell finance the figures.', spans: [chat, tool] }, defaultPolicy());
  };

  it('its argument typed format: email is a recipient: the call is staged as EXTERNAL_SEND', () => {
    const built = trace('email');
    expect(built.sinks.map((s) => s.tool)).toEqual(['hermes']);
    expect(built.toolCalls?.[0].definition?.inputSchema).toEqual({
      type: 'object',
      properties: { handle: { type: 'string', format: 'email' } },
    });
  });

  it('the same argument untyped says nothing: the call is read as a read, nothing staged', () => {
    expect(trace().sinks).toEqual([]);
  });
});
