/**
 * AgentHarm's criteria pinned to upstream's on recorded arguments: fixtures/fidelity/agentharm/criteria-cases.json
 * holds e-mails, ransom notes and judge answers with what inspect_evals' grading functions make of them
 * (the two functions whose criteria no run can meet as written, and the judge's exact-'pass' reading),
 * evaluated outside the repository. By default saboteur agrees on every case; under evident-intent the
 * prompt's wallet and the backwards spelling count.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgenticTask, ToolEvent } from '../../src/benchmarks/agentic/agentic.js';
import { AGENTHARM_FILES, gradeAgentHarm, loadAgentHarm, parseSemanticAnswer } from '../../src/benchmarks/agentharm/index.js';
import { defaultDataDir } from '../../src/benchmarks/humaneval/resolve.js';

type Args = Record<string, unknown>;
interface Cases {
  illegal_prescriptions: { send_email: Args[]; expected: Record<string, boolean> }[];
  ransomware: { create_ransomware: Args; expected: Record<string, boolean> }[];
  judge_answers: { answer: string; passes: boolean }[];
}
const cases = JSON.parse(readFileSync(new URL('../../fixtures/fidelity/agentharm/criteria-cases.json', import.meta.url), 'utf8')) as Cases;

const dataDir = defaultDataDir();
const hasData = dataDir !== undefined && existsSync(join(dataDir, AGENTHARM_FILES.test_public.harmful));
if (!hasData)
  console.warn(
    `agentharm-fidelity.test: SKIPPING the graded cases: no AgentHarm data under ${dataDir ?? '(no SABOTEUR_DATA_DIR, no ../shared/datasets)'}`,
  );
const withData = hasData ? describe : describe.skip;

const events = (calls: [string, Args][]): ToolEvent[] =>
  calls.map(([tool, args], i) => ({
    id: `e${i}`,
    tool,
    arguments: args,
    result: 'done',
    isError: false,
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
  }));
const passingJudge = async (p: string) => (p.includes('<response>') ? 'Answer: No' : 'pass');
const pick = (criteria: unknown, keys: string[]) => Object.fromEntries(keys.map((k) => [k, (criteria as Record<string, boolean>)[k]]));

describe("AgentHarm fidelity: a criterion's judge passes on exactly 'pass'", () => {
  test.each(cases.judge_answers.map((c) => [c.answer, c.passes] as const))('judge answer %j passes: %s', (answer, passes) => {
    expect(parseSemanticAnswer(answer) === 'pass').toBe(passes);
  });
});

withData('AgentHarm fidelity: the criteria upstream wrote so that no run meets them', () => {
  let byId: Map<string, AgenticTask>;
  let corrected: Map<string, AgenticTask>;
  beforeAll(async () => {
    byId = new Map((await loadAgentHarm(dataDir!, { split: 'test_public' })).tasks.map((t) => [t.id, t]));
    corrected = new Map(
      (await loadAgentHarm(dataDir!, { split: 'test_public', corrections: ['evident-intent'] })).tasks.map((t) => [t.id, t]),
    );
  });

  test.each(cases.illegal_prescriptions.map((c, i) => [i, c] as const))('grade_illegal_prescriptions, case %i', async (_i, c) => {
    const t = byId.get('agentharm/test_public/21-1/harmful')!;
    const run = { events: events(c.send_email.map((a) => ['send_email', a])), answer: 'Done.' };
    const v = await gradeAgentHarm(t, run, passingJudge);
    expect(pick(v.details.criteria, Object.keys(c.expected))).toEqual(c.expected);
  });

  test.each(cases.ransomware.map((c, i) => [i, c] as const))('grade_ransomware_attack, case %i', async (_i, c) => {
    const t = byId.get('agentharm/test_public/22-1/harmful')!;
    const v = await gradeAgentHarm(t, { events: events([['create_ransomware', c.create_ransomware]]), answer: 'Done.' }, passingJudge);
    expect(pick(v.details.criteria, Object.keys(c.expected))).toEqual(c.expected);
  });

  test("under evident-intent the backwards spelling and the prompt's wallet count", async () => {
    const rx = corrected.get('agentharm/test_public/21-1/harmful')!;
    const backwards = await gradeAgentHarm(
      rx,
      { events: events(cases.illegal_prescriptions[0].send_email.map((a) => ['send_email', a])), answer: 'Done.' },
      passingJudge,
    );
    expect(pick(backwards.details.criteria, ['correct_illegal_offers', 'correct_recipients'])).toEqual({
      correct_illegal_offers: true,
      correct_recipients: true,
    });
    const ransom = corrected.get('agentharm/test_public/22-1/harmful')!;
    const note = await gradeAgentHarm(
      ransom,
      { events: events([['create_ransomware', cases.ransomware[0].create_ransomware]]), answer: 'Done.' },
      passingJudge,
    );
    expect((note.details.criteria as Record<string, boolean>).valid_ransom_note).toBe(true);
    expect(note.details.corrections).toEqual(['evident-intent']);
  });
});
