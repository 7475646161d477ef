/**
 * A large recorded-like OTLP export for the validator's cost: one trace of an orchestrator and
 * `agents` sub-agents, each running `turns` rounds of a chat span (the last six messages of
 * its conversation as input, a tool call as output) and an execute_tool span (a ~0.5 KB result of
 * varied prose, or with `records` a JSON list of three records whose fields hold that prose, as
 * an API returns them), one round in fifty a send with a recipient and a body quoting an earlier
 * result. Deterministic (seeded), so sizes and figures repeat.
 */
import { mulberry32 } from '../../src/util/random.js';

const WORDS =
  'alpha beta gamma delta report invoice meeting budget client server deploy review summary draft status ticket release customer order quarterly revenue margin forecast pipeline contract renewal vendor audit roadmap hiring onboarding latency outage incident backlog sprint feature migration database cluster region pricing discount shipment warehouse inventory refund policy compliance'.split(
    ' ',
  );

export interface LargeTrace {
  text: string;
  spans: number;
  sinks: number;
}

export function largeOtlpTrace(opts: { agents: number; turns: number; seed?: number; records?: boolean }): LargeTrace {
  const rnd = mulberry32(opts.seed ?? 11);
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)];
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
  const traceId = hex(32);
  let clock = Date.parse('2026-05-11T08:00:00Z');
  const spans: string[] = [];
  let sinks = 0;
  const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const push = (id: string, parent: string | undefined, name: string, start: number, end: number, attributes: object[]) =>
    spans.push(
      JSON.stringify({
        traceId,
        spanId: id,
        ...(parent ? { parentSpanId: parent } : {}),
        name,
        kind: 1,
        startTimeUnixNano: `${start}000000`,
        endTimeUnixNano: `${end}000000`,
        attributes,
      }),
    );
  const request = `Prepare the quarterly ${sentence(20)} and send the summary to finance@corp.example.`;
  const rootId = hex(16);
  const rootStart = clock;
  for (let a = 0; a < opts.agents; a++) {
    const agentId = hex(16);
    const agentStart = clock;
    const task = `Part ${a}: ${sentence(30)}`;
    const history: object[] = [{ role: 'user', parts: [{ type: 'text', content: task }] }];
    const results: string[] = [];
    for (let t = 0; t < opts.turns; t++) {
      const callId = `call_${a}_${t}`;
      const send = t % 50 === 49;
      const args = send
        ? { to: 'finance@corp.example', subject: 'Summary', body: `Summary: ${results.at(-3)?.slice(0, 300) ?? sentence(40)}` }
        : { query: sentence(6) };
      const tool = send ? 'send_email' : 'search_records';
      const toolCall = { type: 'tool_call', id: callId, name: tool, arguments: args };
      push(hex(16), agentId, 'chat model', clock, clock + 40, [
        attr('gen_ai.operation.name', 'chat'),
        attr('gen_ai.input.messages', JSON.stringify(history.slice(-6))),
        attr('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [toolCall] }])),
      ]);
      clock += 50;
      const prose = () => Array.from({ length: 2 }, () => sentence(16)).join('.\n');
      const result = send
        ? 'sent'
        : opts.records
          ? JSON.stringify(
              Array.from({ length: 3 }, (_, k) => ({
                id: `r-${a}-${t}-${k}`,
                title: sentence(3),
                owner: `${word()}@corp.example`,
                notes: prose(),
              })),
            )
          : Array.from({ length: 6 }, () => sentence(16)).join('. ');
      push(hex(16), agentId, `execute_tool ${tool}`, clock, clock + 20, [
        attr('gen_ai.operation.name', 'execute_tool'),
        attr('gen_ai.tool.name', tool),
        attr('gen_ai.tool.call.id', callId),
        attr('gen_ai.tool.call.arguments', JSON.stringify(args)),
        attr('gen_ai.tool.call.result', result),
      ]);
      clock += 30;
      if (send) sinks++;
      results.push(result);
      history.push(
        { role: 'assistant', parts: [toolCall] },
        { role: 'tool', parts: [{ type: 'tool_call_response', id: callId, response: result }] },
      );
    }
    push(agentId, rootId, `invoke_agent worker${a}`, agentStart, clock, [
      attr('gen_ai.operation.name', 'invoke_agent'),
      attr('gen_ai.agent.name', `worker${a}`),
      attr('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: task }] }])),
    ]);
    clock += 10;
  }
  push(rootId, undefined, 'invoke_agent orchestrator', rootStart, clock, [
    attr('gen_ai.operation.name', 'invoke_agent'),
    attr('gen_ai.agent.name', 'orchestrator'),
    attr('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: request }] }])),
  ]);
  const text = `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"bench"}}]},"scopeSpans":[{"scope":{"name":"bench"},"spans":[${spans.join(',')}]}]}]}`;
  return { text, spans: spans.length, sinks };
}
