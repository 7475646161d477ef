/**
 * The user's later turns on traces real client libraries wrote: the traced agent of
 * fixtures/pipelines/traced/agent.cjs is asked only to read a file; the stand-in model proposes to
 * mail it ("Shall I mail it to team@corp.example?"), the user answers in a later turn, and the agent
 * runs again on the whole conversation and mails. Agreeing to the proposal asks for the mail; a
 * refusal does not, though the stand-in mails anyway (docs/taint-policy.md, "Later turns").
 */
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/cli-io.js';
import { tracedAgentSetup } from '../helpers/traced-agent.js';

const REQUEST = 'Please read /data/q3.txt and tell me what it says.';
const FILE = 'Q3 revenue was 4.2M EUR, up 8% on Q2. Questions go to team@corp.example.';
const dir = mkdtempSync(path.join(tmpdir(), 'sab-turns-real-'));

const agent = tracedAgentSetup();

/** The decision on the mail of a conversation traced by `dialect` whose user answers `turn`. */
async function mailDecision(
  dialect: string,
  turn: string,
  env: Record<string, string> = {},
): Promise<{ decision: string; reason: string }> {
  const file = path.join(dir, `${dialect}-${env.TRACE_ONLY ?? 'all'}-${turn.length}.jsonl`);
  const agentEnv = {
    AGENT_REQUEST: REQUEST,
    AGENT_FILES: JSON.stringify({ '/data/q3.txt': FILE }),
    AGENT_TURNS: JSON.stringify([turn]),
    ...env,
  };
  expect(await agent.run(dialect, agentEnv, file)).toBeGreaterThan(0);
  const r = await runCli(dir, ['validate', '--trace', file, '--format', 'json']);
  const sinks = (JSON.parse(r.out) as { sinks: { tool: string; decision: string; reason: string }[] }).sinks;
  const mails = sinks.filter((s) => s.tool === 'send_email');
  expect(mails).toHaveLength(1);
  return mails[0];
}

describe.each([
  ['genai', {}],
  ['openinference', {}],
  ['openllmetry', {}],
  ['vercel', {}],
  ['genai', { TRACE_ONLY: 'llm' }],
] as const)('a conversation the %s instrumentation traced (%j)', (dialect, env) => {
  it('asks for the mail the user agreed to, and not for one the user refused', async () => {
    expect(await mailDecision(dialect, 'Yes please, go ahead.', env)).toMatchObject({ decision: 'release' });
    const refused = await mailDecision(dialect, 'No, not yet.', env);
    expect(refused.decision).toBe('block');
    expect(refused.reason).toMatch(/does not ask for EXTERNAL_SEND/);
  }, 240_000);
});
