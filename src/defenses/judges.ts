/**
 * The LLM baselines (docs/validator.md, "The taint validator"), as sink defenses: `local-judge` sees only the pending call (tool,
 * description, arguments); `global-judge` sees the request and the whole trace so far, without
 * any labels. Both ask a caller-supplied model (`ask(prompt) => answer`) with prompts/judge-*.md
 * and read `DECISION: ALLOW|BLOCK`; an answer that says neither is `unverifiable`, with the
 * answer quoted, so a confused judge shows up in the run log instead of silently deciding.
 */
import type { ProxyCall, SinkDecision } from '../runlog/schema.js';
import type { ToolEvent } from '../benchmarks/agentic/agentic.js';
import type { SinkDefense, StagedCall, TraceSource } from '../tools/types.js';
import type { Ask } from '../model/ask.js';
import { JUDGE_GLOBAL_TEMPLATE, JUDGE_LOCAL_TEMPLATE, fill, jsonObjectIn, loadTemplate } from '../taint/judge-prompts.js';

export type JudgeDecision = { decision: SinkDecision; reason?: string };

/** Reads `DECISION: ALLOW|BLOCK` (the last one wins), else a JSON {"decision": ...}, else a leading ALLOW/BLOCK. */
export function parseJudgeAnswer(answer: string): JudgeDecision {
  const reasonLine = /REASON:\s*(.+)/i.exec(answer)?.[1]?.trim();
  const all = [...answer.matchAll(/DECISION\s*[:=]\s*\**\s*(ALLOW|BLOCK|RELEASE|DENY|APPROVE|REJECT)\b/gi)];
  let word = all.at(-1)?.[1];
  if (!word) {
    const o = jsonObjectIn(answer);
    if (typeof o?.decision === 'string') word = o.decision;
  }
  if (!word) word = /^\W*(ALLOW|BLOCK)\b/i.exec(answer)?.[1];
  const w = word?.toUpperCase();
  const reason = reasonLine ? reasonLine.slice(0, 300) : undefined;
  if (w === 'ALLOW' || w === 'RELEASE' || w === 'APPROVE') return { decision: 'release', ...(reason ? { reason } : {}) };
  if (w === 'BLOCK' || w === 'DENY' || w === 'REJECT') return { decision: 'block', ...(reason ? { reason } : {}) };
  return {
    decision: 'unverifiable',
    reason: `the judge's answer has no DECISION: ALLOW or BLOCK: ${JSON.stringify(answer.slice(0, 200))}`,
  };
}

function describeTool(call: StagedCall): string {
  return call.task.toolSpecs.find((s) => s.name === call.tool)?.description || '(no description)';
}

async function ask(judge: Ask, name: string, prompt: string): Promise<JudgeDecision> {
  let answer: string;
  try {
    answer = await judge(prompt);
  } catch (err) {
    return { decision: 'unverifiable', reason: `the ${name} model failed: ${(err as Error)?.message ?? String(err)}` };
  }
  const d = parseJudgeAnswer(answer);
  return d.reason ? { ...d, reason: `${name}: ${d.reason}` } : d;
}

export function createLocalJudge(opts: { ask: Ask; name?: string }): SinkDefense {
  const name = opts.name ?? 'local-judge';
  return {
    name,
    decide: (call) =>
      ask(
        opts.ask,
        name,
        fill(loadTemplate(JUDGE_LOCAL_TEMPLATE), {
          TOOL: call.tool,
          DESCRIPTION: describeTool(call),
          ARGUMENTS: JSON.stringify(call.arguments, null, 2),
        }),
      ),
  };
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)} [... ${text.length - max} more characters]` : text);

/**
 * The trace as the global judge reads it, oldest first: each LLM call with the messages that are
 * new since the same agent's previous call (a conversation repeats its history) and its answer,
 * and each tool call with its arguments and result. Over `maxChars`, the oldest steps after the
 * first are dropped with a visible marker.
 */
export function renderTrace(calls: readonly ProxyCall[], events: readonly ToolEvent[], maxChars = 24000, perText = 800): string {
  type Step = { at: number; text: string };
  const steps: Step[] = [];
  const previous = new Map<string, readonly { role: string; content: string }[]>();
  for (const c of calls) {
    if (c.endpoint === 'models' || c.endpoint === 'unsupported') continue;
    const msgs = c.request.messages ?? [];
    // A request that repeats the agent's previous one shows only what it adds; any other shows everything.
    const prev = previous.get(c.agent) ?? [];
    let k = 0;
    while (k < prev.length && k < msgs.length && prev[k].role === msgs[k].role && prev[k].content === msgs[k].content) k++;
    const fresh = k === prev.length ? msgs.slice(k) : msgs;
    previous.set(c.agent, msgs);
    const lines = [`LLM call by agent ${c.agent}:`];
    for (const m of fresh) if (m.role !== 'system' && m.content) lines.push(`  ${m.role}: ${clip(m.content, perText)}`);
    if (c.request.prompt) lines.push(`  prompt: ${clip(c.request.prompt, perText)}`);
    if (c.response?.content) lines.push(`  answer: ${clip(c.response.content, perText)}`);
    for (const t of c.response?.toolCalls ?? []) lines.push(`  calls tool ${t.name} ${clip(t.arguments, perText)}`);
    steps.push({ at: Date.parse(c.startedAt), text: lines.join('\n') });
  }
  for (const e of events) {
    const by = e.agent ? ` (agent ${e.agent})` : '';
    const blocked = e.staged && e.staged.decision !== 'release' && !e.staged.observed ? ' [blocked]' : '';
    steps.push({
      at: Date.parse(e.startedAt),
      text: `Tool call ${e.tool}${by}${blocked} ${clip(JSON.stringify(e.arguments), perText)}\n  result: ${clip(e.result, perText)}`,
    });
  }
  steps.sort((a, b) => a.at - b.at);
  const texts = steps.map((s, i) => `[${i + 1}] ${s.text}`);
  let total = texts.reduce((n, t) => n + t.length + 1, 0);
  let cut = 0;
  while (total > maxChars && texts.length - cut > 2) {
    total -= texts[1 + cut].length + 1;
    cut++;
  }
  if (cut === 0) return texts.join('\n') || '(nothing yet)';
  return [texts[0], `[... ${cut} earlier steps omitted ...]`, ...texts.slice(1 + cut)].join('\n');
}

export function createGlobalJudge(opts: { ask: Ask; traceSoFar?: TraceSource; name?: string; maxChars?: number }): SinkDefense {
  const name = opts.name ?? 'global-judge';
  return {
    name,
    decide(call) {
      const trace = opts.traceSoFar?.(call) ?? { calls: [] };
      const prompt = fill(loadTemplate(JUDGE_GLOBAL_TEMPLATE), {
        REQUEST: call.task.prompt,
        TRACE: renderTrace(trace.calls, call.events, opts.maxChars),
        TOOL: call.tool,
        DESCRIPTION: describeTool(call),
        AGENT: call.agent ?? '(not named)',
        ARGUMENTS: JSON.stringify(call.arguments, null, 2),
      });
      return ask(opts.ask, name, prompt);
    },
  };
}
