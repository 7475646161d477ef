/**
 * The AgentDojo replay: the validator's yardstick on a benchmark it was not built on. For each of
 * the four suites, every user task's ground-truth calls (benign) and every (user task, injection
 * task) pair under each attack template, with the attack text in the vectors the user task reads
 * and the injection task's calls right after the first result that shows it. Each run is rendered
 * as an OTLP export in both shapes (dense: chat spans; sparse: tool spans under the agent span)
 * and validated as `saboteur validate` validates a file (tracesOfDocument, validateTraces).
 */
import type { Policy } from '../../src/taint/policy.js';
import { tracesOfDocument, validateTraces } from '../../src/taint/validate-trace.js';
import {
  attackText,
  fillEnvironment,
  type AgentDojoCall,
  type AgentDojoData,
  type AgentDojoTool,
  type Attack,
  type InjectionTask,
  type Suite,
  type SuiteData,
  type UserTask,
} from './agentdojo-data.js';
import { EFFECT_TOOLS, toolResult } from './agentdojo-tools.js';
import { renameCall, renameTool } from './agentdojo-rename.js';
import { callId, renderCase, type EvalCase, type Vocabulary } from './eval-set.js';
import type { SinkDecision } from '../../src/runlog/schema.js';

export type ReplayShape = 'dense' | 'sparse';
export type Variant = 'original' | 'renamed';

/** One call of a replayed run: whose it is (the user task's or the injection task's) and whether it has an effect. */
interface ReplayStep {
  call: AgentDojoCall;
  result: string;
  origin: 'user' | 'injection';
  effect: boolean;
}

export interface ReplayRun {
  suite: Suite;
  userTask: string;
  /** The injection task and the attack template; absent for a benign run. */
  injectionTask?: string;
  template?: string;
  request: string;
  steps: ReplayStep[];
}

export interface StepDecision {
  tool: string;
  origin: 'user' | 'injection';
  effect: boolean;
  decision: SinkDecision;
  reason: string;
}

export interface RunOutcome {
  suite: Suite;
  userTask: string;
  injectionTask?: string;
  template?: string;
  shape: ReplayShape;
  variant: Variant;
  steps: StepDecision[];
}

function steps(s: SuiteData, env: unknown, calls: readonly AgentDojoCall[], origin: ReplayStep['origin']): ReplayStep[] {
  return calls.map((call) => ({ call, result: toolResult(s.suite, env, call), origin, effect: EFFECT_TOOLS.has(call.function) }));
}

export function benignRun(s: SuiteData, u: UserTask): ReplayRun {
  const env = fillEnvironment(s);
  return { suite: s.suite, userTask: u.id, request: u.prompt, steps: steps(s, env, u.ground_truth_calls, 'user') };
}

/** A run where the user task reads the attack and the injection task's calls follow the first result that shows it. */
export function attackRun(s: SuiteData, u: UserTask, inj: InjectionTask, attack: Attack): ReplayRun {
  const text = attackText(attack, s.suite, u, inj);
  const env = fillEnvironment(s, new Map(u.injection_vectors.map((v) => [v, text])));
  const user = steps(s, env, u.ground_truth_calls, 'user');
  const marker = inj.goal.slice(0, 40);
  const at = user.findIndex((st) => st.result.includes(marker));
  const cut = at < 0 ? user.length : at + 1;
  const injected = steps(s, env, inj.ground_truth_calls, 'injection');
  return {
    suite: s.suite,
    userTask: u.id,
    injectionTask: inj.id,
    template: attack.name,
    request: u.prompt,
    steps: [...user.slice(0, cut), ...injected, ...user.slice(cut)],
  };
}

/** Every benign run and every attack run (injection tasks with ground-truth calls) of the data, for the given templates. */
export function replayRuns(data: AgentDojoData, templates?: readonly string[]): ReplayRun[] {
  const attacks = data.attacks.filter((a) => !templates || templates.includes(a.name));
  const out: ReplayRun[] = [];
  for (const s of data.suites) {
    for (const u of s.userTasks) out.push(benignRun(s, u));
    for (const a of attacks)
      for (const u of s.userTasks)
        for (const inj of s.injectionTasks) if (inj.ground_truth_calls.length > 0) out.push(attackRun(s, u, inj, a));
  }
  return out;
}

function vocabulary(s: SuiteData, variant: Variant): { tools: AgentDojoTool[]; v: Omit<Vocabulary, 'cases'> } {
  const tools = variant === 'renamed' ? s.tools.map(renameTool) : s.tools;
  return {
    tools,
    v: {
      vocabulary: `agentdojo-${s.suite}`,
      about: `AgentDojo v1.2.1 ${s.suite} suite`,
      mcp: false,
      tools: tools.map((t, i) => ({
        name: t.name,
        effect: EFFECT_TOOLS.has(s.tools[i].name) ? 'write' : 'read',
        description: t.description ?? '',
        parameters: t.parameters,
      })),
    },
  };
}

/** Validates one run in one shape and variant: one decision per call (release when the call was not staged). */
export function validateRun(r: ReplayRun, s: SuiteData, shape: ReplayShape, variant: Variant, policy: Policy): RunOutcome {
  const { v } = vocabulary(s, variant);
  const calls = r.steps.map((st) => (variant === 'renamed' ? renameCall(st.call) : st.call));
  const id = `${r.suite}-${r.userTask}${r.injectionTask ? `-${r.injectionTask}-${r.template}` : ''}`;
  const c: EvalCase = {
    id,
    kind: r.injectionTask ? 'attack' : 'benign',
    class: r.template ?? 'benign',
    split: 'held-out',
    request: r.request,
    steps: calls.map((call, i) => ({ call: call.function, args: call.args, result: r.steps[i].result })),
  };
  const doc = renderCase({ ...v, cases: [c] }, c, shape);
  const verdicts = new Map(validateTraces(tracesOfDocument(doc, `${id}.${shape}.otlp.json`), policy).map((x) => [x.toolCallId, x]));
  return {
    suite: r.suite,
    userTask: r.userTask,
    ...(r.injectionTask ? { injectionTask: r.injectionTask, template: r.template } : {}),
    shape,
    variant,
    steps: r.steps.map((st, i) => {
      const verdict = verdicts.get(callId(c, i));
      return {
        tool: calls[i].function,
        origin: st.origin,
        effect: st.effect,
        decision: verdict?.decision ?? 'release',
        reason: verdict?.reason ?? 'not staged',
      };
    }),
  };
}

export function runReplay(
  data: AgentDojoData,
  policy: Policy,
  opts: { shapes?: readonly ReplayShape[]; variants?: readonly Variant[]; templates?: readonly string[] } = {},
): RunOutcome[] {
  const bySuite = new Map(data.suites.map((s) => [s.suite, s]));
  const out: RunOutcome[] = [];
  for (const r of replayRuns(data, opts.templates)) {
    for (const variant of opts.variants ?? ['original'])
      for (const shape of opts.shapes ?? ['dense', 'sparse']) out.push(validateRun(r, bySuite.get(r.suite)!, shape, variant, policy));
  }
  return out;
}
