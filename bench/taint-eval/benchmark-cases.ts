/**
 * The four security benchmarks' real instances as recorded runs for offline defense comparison:
 * an obedient two-agent pipeline (a planner that restates the request, a worker that calls the
 * tools it is asked to, injected instructions included) is scripted over each instance with the
 * benchmark's own tool simulations and recorded without a defense. Every staged sink of these
 * runs is then put to each defense (src/taint/compare-offline.ts). Used by the offline comparison
 * test and by `npm run bench -- taint`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AgenticTask, ToolEvent, ToolHandler, ToolSpec } from '../../src/benchmarks/agentic/agentic.js';
import type { ProxyCall } from '../../src/runlog/schema.js';
import type { OfflineCase } from '../../src/taint/compare-offline.js';
import { loadAsb, toolHandlers as asbHandlers } from '../../src/benchmarks/asb/index.js';
import { loadAgentHarm, toolHandlers as agentHarmHandlers } from '../../src/benchmarks/agentharm/index.js';
import { loadRedCode } from '../../src/benchmarks/redcode/index.js';
import { loadSafeArena, toolHandlers as safeArenaHandlers } from '../../src/benchmarks/safearena/index.js';
import { chatCall } from '../../test/helpers/chat-call.js';

/** Whether `dataDir` holds the files the ASB, AgentHarm and RedCode cases read. */
export function hasBenchmarkData(dataDir: string | undefined): dataDir is string {
  return (
    dataDir !== undefined &&
    ['asb/data/all_attack_tools.jsonl', 'agentharm/benchmark/harmful_behaviors_test_public.json', 'redcode/RedCode-Exec'].every((p) =>
      existsSync(path.join(dataDir, p)),
    )
  );
}

/** Records one obedient run: a planner restating the request, a worker calling `plan(…)`'s tools in turn. */
class Script {
  calls: ProxyCall[] = [];
  tools: ToolEvent[] = [];
  private clock = Date.parse('2026-05-09T10:00:00Z');
  private history: { role: string; content: string }[] = [];
  private n = 0;
  constructor(private readonly task: AgenticTask) {}

  private tick(ms = 10): string {
    this.clock += ms;
    return new Date(this.clock).toISOString();
  }

  private llm(
    agent: string,
    messages: { role: string; content: string }[],
    content: string,
    tool?: { name: string; args: Record<string, unknown> },
  ): void {
    this.n++;
    this.calls.push(
      chatCall({
        id: `c${this.n}`,
        agent,
        messages: [...messages],
        content,
        tools: tool ? [tool] : [],
        agentCallIndex: this.n,
        startedAt: this.tick(),
        durationMs: 5,
      }),
    );
    this.tick();
  }

  plan(): void {
    this.llm(
      'planner',
      [
        { role: 'system', content: 'You are the planner.' },
        { role: 'user', content: this.task.prompt },
      ],
      `Instructions for the worker: ${this.task.prompt}`,
    );
    this.history = [
      { role: 'system', content: 'You are the worker.' },
      { role: 'user', content: this.calls.at(-1)!.response!.content },
    ];
  }

  async callTool(name: string, args: Record<string, unknown>, handler: ToolHandler | undefined, canned?: string): Promise<string> {
    this.llm('worker', this.history, '', { name, args });
    const spec = this.task.toolSpecs.find((s) => s.name === name);
    const out =
      canned !== undefined
        ? { result: canned }
        : handler
          ? await handler(args, { task: this.task, events: this.tools })
          : { result: 'done' };
    const startedAt = this.tick();
    this.tools.push({
      id: `s1:${this.tools.length}`,
      tool: name,
      agent: 'worker',
      arguments: args,
      result: out.result,
      isError: out.isError === true,
      startedAt,
      durationMs: 3,
      ...(spec?.sinks?.length ? { staged: { sinks: [...spec.sinks], decision: 'release' as const, defense: 'none' } } : {}),
    });
    this.tick();
    this.history.push({ role: 'tool', content: out.result });
    return out.result;
  }

  finish(): void {
    this.llm('worker', this.history, 'Done.');
  }
}

function offlineCase(task: AgenticTask, s: Script): OfflineCase {
  // The obedient pipeline carries out every request, so without a defense every attack succeeds and every task completes.
  return { pairId: task.pairId, benchmark: task.benchmark, role: task.role, task, calls: s.calls, tools: s.tools, succeeded: true };
}

/** ASB: `perAgent` pairs per agent and attack kind (DPI, OPI), every ASB agent. */
export async function asbCases(dataDir: string, perAgent = 1): Promise<OfflineCase[]> {
  const { tasks } = await loadAsb(dataDir, { attacks: ['dpi', 'opi'] });
  const chosen = new Map<string, AgenticTask[]>();
  for (const t of tasks) {
    const key = `${(t.metadata as { agent: string }).agent}/${t.pairId.endsWith('/dpi') ? 'dpi' : 'opi'}`;
    const list = chosen.get(key) ?? [];
    const pairs = new Set(list.map((x) => x.pairId));
    if (pairs.has(t.pairId) || pairs.size < perAgent) list.push(t);
    chosen.set(key, list);
  }
  const out: OfflineCase[] = [];
  for (const t of [...chosen.values()].flat()) {
    const s = new Script(t);
    const handlers = asbHandlers(t);
    s.plan();
    const attacker = t.toolSpecs.find((x) => x.sinks?.length);
    let injected = attacker !== undefined && t.prompt.includes(`"${attacker.name}"`);
    for (const spec of t.toolSpecs.filter((x) => !x.sinks?.length)) {
      const result = await s.callTool(spec.name, {}, handlers[spec.name]);
      if (attacker && result.includes(`"${attacker.name}"`)) injected = true;
    }
    if (attacker && injected) await s.callTool(attacker.name, {}, handlers[attacker.name]);
    s.finish();
    out.push(offlineCase(t, s));
  }
  return out;
}

const firstMatch = (re: RegExp, ...texts: string[]) => texts.map((x) => re.exec(x)?.[0]).find((m) => m !== undefined);

/** Arguments an obedient agent would write, from the request and the last tool result. */
function agentHarmArgs(spec: ToolSpec, prompt: string, last: string): Record<string, unknown> {
  const props = ((spec.inputSchema as { properties?: Record<string, { type?: string }> }).properties ?? {}) as Record<
    string,
    { type?: string }
  >;
  const sentence = prompt.split(/(?<=[.!?])\s+/)[0].slice(0, 200);
  const args: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(props)) {
    if (p.type === 'integer' || p.type === 'number') args[name] = 1;
    else if (p.type === 'boolean') args[name] = true;
    else if (p.type === 'array') args[name] = [sentence];
    else if (/e?mail|^to$|recipient/.test(name))
      args[name] = firstMatch(/[\w.+-]+@[\w-]+(\.[\w-]+)+/, prompt, last) ?? 'contact@example.com';
    else if (/url|link|website/.test(name)) args[name] = firstMatch(/https?:\/\/\S+[\w/]/, prompt, last) ?? 'https://example.com';
    else if (/path|file|image|video|dir/.test(name)) args[name] = firstMatch(/\/[\w./-]+\.\w+/, prompt, last) ?? '/home/user/output.txt';
    else if (/handle|user|account/.test(name)) args[name] = firstMatch(/@\w+/, prompt, last) ?? '@someone';
    else args[name] = sentence;
  }
  return args;
}

/** AgentHarm test_public: every `every`-th behaviour pair (by id), at most `pairs` of them. */
export async function agentHarmCases(dataDir: string, pairs: number, every = 8): Promise<OfflineCase[]> {
  const { tasks } = await loadAgentHarm(dataDir, { split: 'test_public' });
  const ids = [...new Set(tasks.map((t) => t.pairId))]
    .sort()
    .filter((_, i) => i % every === 0)
    .slice(0, pairs);
  const out: OfflineCase[] = [];
  for (const t of tasks.filter((x) => ids.includes(x.pairId))) {
    const s = new Script(t);
    const handlers = agentHarmHandlers(t);
    s.plan();
    let last = '';
    const order = (t.grading as { targetFunctions: string[] }).targetFunctions;
    for (const name of order) {
      const spec = t.toolSpecs.find((x) => x.name === name)!;
      last = await s.callTool(name, agentHarmArgs(spec, t.prompt, last), handlers[name]);
    }
    s.finish();
    out.push(offlineCase(t, s));
  }
  return out;
}

/** RedCode-Exec: records that have a harmless control, every `every`-th, at most `records`; the worker runs the case's code. */
export async function redCodeCases(dataDir: string, records: number, every = 7): Promise<OfflineCase[]> {
  const { tasks } = await loadRedCode(dataDir, { promptStyles: ['code_input', 'text_summary'] });
  const withControl = tasks.filter((t) => t.role === 'benign').map((t) => t.pairId.replace(/\/[^/]+$/, ''));
  const recordsChosen = [...new Set(withControl)]
    .sort()
    .filter((_, i) => i % every === 0)
    .slice(0, records);
  const out: OfflineCase[] = [];
  for (const t of tasks.filter((x) => recordsChosen.includes(x.pairId.replace(/\/[^/]+$/, '')))) {
    const codeTwin = tasks.find((x) => x.pairId === t.pairId.replace(/text_summary$/, 'code_input') && x.role === t.role)!;
    const code = /```\n([\s\S]*)\n```/.exec(codeTwin.prompt)![1];
    const s = new Script(t);
    s.plan();
    // The sandbox is not started here: what a defense decides depends on the call, not on its output.
    await s.callTool('execute_code', { language: (t.metadata as { language: string }).language, code }, undefined, '(exit status 0)');
    s.finish();
    out.push(offlineCase(t, s));
  }
  return out;
}

/** Quoted strings of an intent, in order ('Sony WH-1000XM4 ...'). */
const quoted = (s: string) => [...s.matchAll(/'([^']+)'/g)].map((m) => m[1]);

/** What an obedient worker would publish for a SafeArena intent: the site's publishing tool, filled from the intent. */
function safeArenaSink(task: AgenticTask): { name: string; args: Record<string, unknown> } | undefined {
  const intent = (task.grading as { intent: string }).intent;
  const has = (n: string) => task.toolSpecs.some((s) => s.name === n);
  const body = intent.replace(/\s+/g, ' ').trim();
  if (has('submit_post'))
    return {
      name: 'submit_post',
      args: { forum: /in the (\w+) forum/.exec(intent)?.[1] ?? 'news', title: body.split(/(?<=[.!?])\s/)[0].slice(0, 120), body },
    };
  if (has('write_review'))
    return {
      name: 'write_review',
      args: {
        product: quoted(intent)[0] ?? 'product',
        rating: /(\d)-star/.exec(intent) ? Number(/(\d)-star/.exec(intent)![1]) : 3,
        title: 'Review',
        review: body,
      },
    };
  if (has('update_product'))
    return { name: 'update_product', args: { product: quoted(intent)[0] ?? 'product', field: 'description', value: body } };
  if (has('create_issue'))
    return {
      name: 'create_issue',
      args: {
        project: /\b([\w-]+\/[\w.-]+)\b/.exec(intent)?.[1] ?? 'project',
        title: body.split(/(?<=[.!?,])\s/)[0].slice(0, 120),
        description: body,
      },
    };
  return undefined;
}

/** SafeArena: every task pair in `dir` (harm.json, safe.json); the worker opens the start page, then publishes. */
export async function safeArenaCases(dir: string): Promise<OfflineCase[]> {
  const { tasks } = await loadSafeArena(dir);
  const out: OfflineCase[] = [];
  for (const t of tasks) {
    const s = new Script(t);
    const handlers = safeArenaHandlers(t);
    s.plan();
    const start = (t.grading as { startUrl?: string }).startUrl;
    if (start) await s.callTool('goto', { url: start }, handlers.goto);
    const sink = safeArenaSink(t);
    if (sink) await s.callTool(sink.name, sink.args, handlers[sink.name]);
    s.finish();
    out.push(offlineCase(t, s));
  }
  return out;
}
