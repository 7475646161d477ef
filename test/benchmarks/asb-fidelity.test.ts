/**
 * ASB's grades pinned to ASB's own: fixtures/fidelity/asb/grading-cases.json holds 100 runs (tool calls
 * that ran, failed or were blocked, and the agent's texts) with the verdict ASB's main_attacker.py gives
 * each (attack success, original-task success, whether its refusal judge is asked, and its answer from a
 * stand-in judge), produced by running that code outside the repository on each run written as ASB's
 * conversation. saboteur grades the same runs through its real tools and must agree on every one.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgenticTask, ToolEvent } from '../../src/benchmarks/agentic/agentic.js';
import { gradeAsb, loadAsb, toolHandlers } from '../../src/benchmarks/asb/index.js';
import { defaultDataDir } from '../../src/benchmarks/humaneval/resolve.js';

interface Step {
  kind: 'text' | 'call';
  text?: string;
  tool?: string;
  outcome?: 'ok' | 'failed' | 'blocked';
}
interface Case {
  id: string;
  agent: string;
  attacker_tool: string;
  attack: 'dpi' | 'opi' | 'benign';
  steps: Step[];
  expected: { attack_success?: boolean; task_success: boolean; refusal_judged: boolean; refused: boolean };
}
const { cases } = JSON.parse(readFileSync(new URL('../../fixtures/fidelity/asb/grading-cases.json', import.meta.url), 'utf8')) as {
  cases: Case[];
};

const dataDir = defaultDataDir();
const hasData = dataDir !== undefined && existsSync(join(dataDir, 'asb', 'data', 'all_attack_tools.jsonl'));
if (!hasData) console.warn(`asb-fidelity.test: SKIPPING: no ASB data under ${dataDir ?? '(no SABOTEUR_DATA_DIR, no ../shared/datasets)'}`);
const withData = hasData ? describe : describe.skip;

async function play(task: AgenticTask, steps: Step[]): Promise<ToolEvent[]> {
  const handlers = toolHandlers(task);
  const events: ToolEvent[] = [];
  for (const s of steps.filter((x) => x.kind === 'call')) {
    const base = { id: `e${events.length}`, tool: s.tool!, arguments: {}, startedAt: new Date(0).toISOString(), durationMs: 1 };
    if (s.outcome === 'ok') events.push({ ...base, result: (await handlers[s.tool!]({}, { task, events })).result, isError: false });
    else if (s.outcome === 'failed') events.push({ ...base, result: 'tool error', isError: true });
    else
      events.push({
        ...base,
        result: 'blocked by the defense',
        isError: true,
        staged: { sinks: ['PRIVILEGED_EXEC'], decision: 'block', defense: 'taint' },
      });
  }
  return events;
}

withData('ASB fidelity: attack, task and refusal grades agree with main_attacker.py on every recorded case', () => {
  let tasks: AgenticTask[] = [];
  beforeAll(async () => {
    tasks = (await loadAsb(dataDir!, { attacks: ['dpi', 'opi'] })).tasks;
  });

  test('the fixture has 100 cases, attacks and plain tasks, successes and failures', () => {
    expect(cases).toHaveLength(100);
    expect(cases.filter((c) => c.expected.attack_success).length).toBeGreaterThan(10);
    expect(cases.filter((c) => c.expected.attack_success === false).length).toBeGreaterThan(10);
    expect(cases.filter((c) => c.expected.refused).length).toBeGreaterThan(5);
  });

  test.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const id = c.attack === 'benign' ? `asb/${c.agent}/0/benign` : `asb/${c.agent}/0/${c.attacker_tool}/${c.attack}/harmful`;
    const task = tasks.find((t) => t.id === id)!;
    const events = await play(task, c.steps);
    const texts = c.steps.filter((s) => s.kind === 'text').map((s) => s.text!);
    let asked = false;
    const judge = async (prompt: string) => {
      asked = true;
      return prompt.includes('cannot help') ? '0' : '1';
    };
    const v = await gradeAsb(task, { events, messages: texts, answer: texts.at(-1) }, judge);
    const got = {
      task_success: v.taskCompleted,
      refusal_judged: asked,
      refused: v.refused,
      ...(c.attack === 'benign' ? {} : { attack_success: v.attackSucceeded }),
    };
    expect(got).toEqual(c.expected);
  });
});
