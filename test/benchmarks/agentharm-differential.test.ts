/**
 * AgentHarm differential run: saboteur's grader against upstream's grading functions on the same
 * transcripts. fixtures/fidelity/agentharm/differential-cases.jsonl holds, for every behaviour of
 * test_public and validation (harmful and benign, 416), seven transcripts: fully compliant; the same
 * with a judge answering "Pass." and with one answering "fail"; the last target function never
 * called; the last target call with wrong arguments; the calls in reverse order; a refusal with no
 * call. Each carries what inspect_evals' harmful/benign_grading_functions.py make of it (per
 * criterion and the full score), computed outside the repository with the same stand-in judge:
 * a text marked "[off-topic]" fails, any other text gets the case's judge answer. Here each
 * transcript is replayed through the behaviour's simulated tools and graded by saboteur with
 * default options; the full scores must agree on at least 99% of the cases upstream could grade.
 * Every disagreement is printed (docs/benchmarks.md explains each).
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgenticTask, ToolEvent } from '../../src/benchmarks/agentic/agentic.js';
import { AGENTHARM_FILES, gradeAgentHarm, loadAgentHarm, toolHandlers } from '../../src/benchmarks/agentharm/index.js';
import { defaultDataDir } from '../../src/benchmarks/humaneval/resolve.js';

interface Case {
  id: string;
  class: string;
  judge: string;
  first: string;
  answer: string;
  calls: [string, Record<string, unknown>][];
  upstream: { error: string } | { fullScore: boolean; score: number; criteria: Record<string, boolean> };
}
const cases: Case[] = readFileSync(new URL('../../fixtures/fidelity/agentharm/differential-cases.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Case);

const dataDir = defaultDataDir();
const hasData = dataDir !== undefined && existsSync(join(dataDir, AGENTHARM_FILES.test_public.harmful));
if (!hasData)
  console.warn(
    `agentharm-differential.test: SKIPPING: no AgentHarm data under ${dataDir ?? '(no SABOTEUR_DATA_DIR, no ../shared/datasets)'}`,
  );
const withData = hasData ? describe : describe.skip;

/** The stand-in judge the expected grades were computed with. */
const standIn = (answer: string) => async (prompt: string) =>
  prompt.includes('<response>') ? 'Answer: No' : prompt.includes('[off-topic]') ? 'fail' : answer;

async function replay(t: AgenticTask, calls: Case['calls']): Promise<ToolEvent[]> {
  const handlers = toolHandlers(t);
  const events: ToolEvent[] = [];
  for (const [tool, args] of calls) {
    const h = handlers[tool];
    const out = h ? await h(args, { task: t, events }) : { result: `unknown tool ${tool}`, isError: true };
    events.push({
      id: `e${events.length}`,
      tool,
      arguments: args,
      result: out.result,
      isError: out.isError ?? false,
      startedAt: new Date(0).toISOString(),
      durationMs: 1,
    });
  }
  return events;
}

withData('AgentHarm differential run against upstream grading functions (default options)', () => {
  const tasks = new Map<string, AgenticTask>();
  beforeAll(async () => {
    for (const split of ['test_public', 'validation'] as const)
      for (const t of (await loadAgentHarm(dataDir!, { split })).tasks) tasks.set(t.id, t);
  });

  test('covers every behaviour of both splits, harmful and benign, in seven classes', () => {
    const behaviours = new Set(cases.map((c) => c.id.split('#')[0]));
    expect(behaviours.size).toBe(416);
    expect([...behaviours].every((b) => tasks.has(b))).toBe(true);
    expect(new Set(cases.map((c) => c.class)).size).toBe(7);
  });

  test('full scores agree with upstream on >= 99% of the cases', async () => {
    let graded = 0;
    let agree = 0;
    let criteriaCompared = 0;
    let criteriaAgree = 0;
    const disagreements: string[] = [];
    const criterionDiffs: string[] = [];
    const byClass = new Map<string, [number, number]>();
    for (const c of cases) {
      if ('error' in c.upstream) continue; // upstream raises on this transcript: nothing to compare
      const t = tasks.get(c.id.split('#')[0])!;
      const events = await replay(t, c.calls);
      const messages = c.calls.length ? [c.first, c.answer] : [c.answer];
      const v = await gradeAgentHarm(t, { events, answer: c.answer, messages }, standIn(c.judge));
      const full = (v.attackSucceeded ?? v.taskCompleted) === true;
      graded++;
      const k = byClass.get(c.class) ?? [0, 0];
      k[1]++;
      if (full === c.upstream.fullScore) {
        agree++;
        k[0]++;
      } else {
        disagreements.push(`${c.id}: saboteur ${full ? 'full' : 'not full'}, upstream ${c.upstream.fullScore ? 'full' : 'not full'}`);
      }
      byClass.set(c.class, k);
      const mine = v.details.criteria as Record<string, boolean>;
      for (const [name, want] of Object.entries(c.upstream.criteria)) {
        if (!(name in mine)) continue;
        criteriaCompared++;
        if (mine[name] === want) criteriaAgree++;
        else criterionDiffs.push(`${c.id} ${name}: saboteur ${mine[name]}, upstream ${want}`);
      }
    }
    const rate = agree / graded;
    console.log(
      [
        `AgentHarm differential: full scores agree on ${agree}/${graded} (${(100 * rate).toFixed(2)}%); ${cases.length - graded} cases upstream cannot grade (it raises)`,
        `per class: ${[...byClass].map(([cl, [a, n]]) => `${cl} ${a}/${n}`).join(', ')}`,
        `criteria compared by name: ${criteriaAgree}/${criteriaCompared}`,
        `disagreements (${disagreements.length}):`,
        ...disagreements,
        `criterion disagreements (${criterionDiffs.length}):`,
        ...criterionDiffs,
      ].join('\n'),
    );
    expect(graded).toBeGreaterThan(2800);
    expect(rate).toBeGreaterThanOrEqual(0.99);
    expect(criteriaAgree / criteriaCompared).toBeGreaterThanOrEqual(0.99);
  }, 300000);
});
