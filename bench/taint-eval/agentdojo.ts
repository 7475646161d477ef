/**
 * The AgentDojo replay: the validator's yardstick on a benchmark it was not built on. For each of
 * the four suites, every user task's ground-truth calls (benign) and every (user task, injection
 * task) pair under each attack template, with the attack text in the vectors the user task reads
 * and the injection task's calls right after the first result that shows it. Each run is rendered
 * as an OTLP export in both shapes (dense: chat spans; sparse: tool spans under the agent span)
 * and validated as `saboteur validate` validates a file (tracesOfDocument, validateTraces).
 */
import type { Policy } from '../../src/taint/policy.js';
import { classifyTool } from '../../src/taint/classify.js';
import { tracesOfDocument, validateTraces, withToolList } from '../../src/taint/validate-trace.js';
import type { ToolDefinition } from '../../src/taint/tool-profile.js';
import {
  attackText,
  fillEnvironment,
  type AgentDojoCall,
  type AgentDojoData,
  type AgentDojoTool,
  type InjectionTask,
  type Suite,
  type SuiteData,
  type UserTask,
} from './agentdojo-data.js';
import { EFFECT_TOOLS, toolResult } from './agentdojo-tools.js';
import { renameCall, renameTool } from './agentdojo-rename.js';
import { detachedAttacks, type ReplayAttack } from './agentdojo-detached.js';
import { annotationsOf, opaqueCall, opaquePolicy, opaqueToolDefinition } from './agentdojo-opaque.js';
import { germanCall, germanTool } from './agentdojo-german.js';
import { otherPhrasings } from './agentdojo-phrasings.js';
import { printedAs, RESULT_FORMATS, type ResultFormat } from './result-formats.js';
import { callId, renderCase, type EvalCase, type Vocabulary } from './eval-set.js';
import type { SinkDecision } from '../../src/runlog/schema.js';

/** dense: chat and tool spans; sparse: tool spans alone, no definitions; chat: chat spans alone (eval-set.ts). */
export type ReplayShape = 'dense' | 'sparse' | 'chat';
/** The template the detached phrasings (agentdojo-detached.ts) reword. */
const DETACHED_FROM = 'important_instructions';
/**
 * AgentDojo's names; renamed through a thesaurus (agentdojo-rename.ts); opaque identifiers with
 * annotations and a policy (agentdojo-opaque.ts); German names and descriptions with the annotations
 * and no policy (agentdojo-german.ts); AgentDojo's names with every record result printed in
 * another format (result-formats.ts).
 */
export type Variant = 'original' | 'renamed' | 'opaque' | 'german' | ResultFormat;
const isFormat = (v: Variant): v is ResultFormat => (RESULT_FORMATS as readonly string[]).includes(v);

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
export function attackRun(s: SuiteData, u: UserTask, inj: InjectionTask, attack: ReplayAttack): ReplayRun {
  const text = attackText(attack, s.suite, u, inj);
  const env = fillEnvironment(s, new Map(u.injection_vectors.map((v) => [v, text])));
  const user = steps(s, env, u.ground_truth_calls, 'user');
  const marker = (attack.rewriteGoal ? attack.rewriteGoal(inj.goal, s.suite, inj.id) : inj.goal).slice(0, 40);
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

/** The same attack run with the injection task's calls after all of the user task's, as an agent that finishes its task first would make them. */
export function withInjectionLast(r: ReplayRun): ReplayRun {
  return { ...r, steps: [...r.steps.filter((s) => s.origin === 'user'), ...r.steps.filter((s) => s.origin === 'injection')] };
}

/** Every benign run and every attack run (injection tasks with ground-truth calls) of the data, for the given templates. */
export function replayRuns(data: AgentDojoData, templates?: readonly string[]): ReplayRun[] {
  const from = data.attacks.filter((a) => a.name === DETACHED_FROM);
  const every: ReplayAttack[] = [...data.attacks, ...from.flatMap(detachedAttacks), ...from.flatMap(otherPhrasings)];
  const attacks = every.filter((a) => !templates || templates.includes(a.name));
  const out: ReplayRun[] = [];
  for (const s of data.suites) {
    for (const u of s.userTasks) out.push(benignRun(s, u));
    for (const a of attacks)
      for (const u of s.userTasks)
        for (const inj of s.injectionTasks) if (inj.ground_truth_calls.length > 0) out.push(attackRun(s, u, inj, a));
  }
  return out;
}

function toolsOf(s: SuiteData, variant: Variant, policy: Policy): (AgentDojoTool & { annotations?: Record<string, boolean> })[] {
  if (variant === 'renamed') return s.tools.map(renameTool);
  if (variant === 'opaque') return s.tools.map((t) => opaqueToolDefinition(policy, t));
  if (variant === 'german') return s.tools.map((t) => ({ ...germanTool(t), annotations: annotationsOf(policy, t) }));
  return s.tools;
}

function vocabulary(s: SuiteData, variant: Variant, policy: Policy): Omit<Vocabulary, 'cases'> {
  const tools = toolsOf(s, variant, policy);
  return {
    vocabulary: `agentdojo-${s.suite}`,
    about: `AgentDojo v1.2.1 ${s.suite} suite`,
    // The opaque and German tools come with the annotations an MCP server would declare: structure in place of names.
    mcp: variant === 'opaque' || variant === 'german',
    tools: tools.map((t, i) => ({
      name: t.name,
      effect: EFFECT_TOOLS.has(s.tools[i].name) ? 'write' : 'read',
      description: t.description ?? '',
      parameters: t.parameters,
      ...(t.annotations ? { annotations: t.annotations } : {}),
    })),
  };
}

const CALL_OF: Record<Exclude<Variant, ResultFormat>, (c: AgentDojoCall) => AgentDojoCall> = {
  original: (c) => c,
  renamed: renameCall,
  opaque: opaqueCall,
  german: germanCall,
};
const callOf = (v: Variant) => (isFormat(v) ? CALL_OF.original : CALL_OF[v]);
/** A step's result as the variant's pipeline prints it. */
const resultOf = (v: Variant, result: string) => (isFormat(v) ? printedAs(v, result) : result);

/** What one variant of the replay validates with: each suite's tools as the trace lists them, and the policy per shape. */
export interface ReplaySetting {
  variant: Variant;
  vocabularies: ReadonlyMap<Suite, Omit<Vocabulary, 'cases'>>;
  policies: Record<ReplayShape, Policy>;
  /** Each suite's tools as the server lists them, given as `--tools` gives them (sparse traces carry none). */
  toolLists?: ReadonlyMap<Suite, ToolDefinition[]>;
}

/** The server's tool list of a vocabulary, as `saboteur validate --tools` reads it. */
function toolListOf(v: Omit<Vocabulary, 'cases'>): ToolDefinition[] {
  return v.tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.parameters as Record<string, unknown>,
    ...(t.annotations ? { annotations: t.annotations } : {}),
  }));
}

export interface SettingOptions {
  /** The server's tool list comes with each trace, as `--tools` gives it. */
  toolList?: boolean;
  /** false: the opaque variant without the policy derived from AgentDojo's names (`policy` alone). */
  derivedPolicy?: boolean;
}

/**
 * The setting of a variant under `policy`. The opaque one gets the policy derived from AgentDojo's
 * names (agentdojo-opaque.ts): in the dense shape, whose chat spans carry the definitions, only
 * for the tools their annotations and argument roles do not place; in the sparse shape, which
 * carries no definitions, for every tool.
 */
export function replaySetting(data: AgentDojoData, variant: Variant, policy: Policy, opts: SettingOptions = {}): ReplaySetting {
  const vocabularies = new Map(data.suites.map((s) => [s.suite, vocabulary(s, variant, policy)]));
  const lists = opts.toolList ? { toolLists: new Map([...vocabularies].map(([k, v]) => [k, toolListOf(v)])) } : {};
  if (variant !== 'opaque' || opts.derivedPolicy === false)
    return { variant, vocabularies, policies: { dense: policy, sparse: policy, chat: policy }, ...lists };
  return {
    variant,
    vocabularies,
    policies: {
      dense: opaquePolicy(policy, data),
      sparse: opaquePolicy(policy, data, { everyTool: true }),
      chat: opaquePolicy(policy, data),
    },
    ...lists,
  };
}

/** Validates one run in one shape and setting: one decision per call (release when the call was not staged). */
export function validateRun(r: ReplayRun, shape: ReplayShape, setting: ReplaySetting): RunOutcome {
  const { variant } = setting;
  const policy = setting.policies[shape];
  const v = setting.vocabularies.get(r.suite)!;
  const calls = r.steps.map((st) => callOf(variant)(st.call));
  const id = `${r.suite}-${r.userTask}${r.injectionTask ? `-${r.injectionTask}-${r.template}` : ''}`;
  const c: EvalCase = {
    id,
    kind: r.injectionTask ? 'attack' : 'benign',
    class: r.template ?? 'benign',
    split: 'held-out',
    request: r.request,
    steps: calls.map((call, i) => ({ call: call.function, args: call.args, result: resultOf(variant, r.steps[i].result) })),
  };
  const doc = renderCase({ ...v, cases: [c] }, c, shape);
  const traces = withToolList(tracesOfDocument(doc, `${id}.${shape}.otlp.json`), setting.toolLists?.get(r.suite));
  const verdicts = new Map(validateTraces(traces, policy).map((x) => [x.toolCallId, x]));
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
  opts: { shapes?: readonly ReplayShape[]; variants?: readonly Variant[]; templates?: readonly string[] } & SettingOptions = {},
): RunOutcome[] {
  const settings = (opts.variants ?? ['original']).map((v) => replaySetting(data, v, policy, opts));
  const out: RunOutcome[] = [];
  for (const r of replayRuns(data, opts.templates)) {
    for (const setting of settings) for (const shape of opts.shapes ?? ['dense', 'sparse']) out.push(validateRun(r, shape, setting));
  }
  return out;
}

export interface StagedByName {
  reads: number;
  readsStaged: number;
  writes: number;
  writesStaged: number;
}

/**
 * Every ground-truth call classified alone with the renamed tools' descriptions dropped, so that
 * names (many with no verb) and schemas are all there is: how many reads are staged as sinks
 * because of a name, and how many calls with an effect still are (docs/validator.md).
 */
export function stagedWithoutDescriptions(data: AgentDojoData, policy: Policy): StagedByName {
  const r: StagedByName = { reads: 0, readsStaged: 0, writes: 0, writesStaged: 0 };
  for (const s of data.suites)
    for (const task of [...s.userTasks, ...s.injectionTasks])
      for (const call of task.ground_truth_calls) {
        const tool = renameTool(s.tools.find((t) => t.name === call.function)!);
        const c = renameCall(call);
        const staged = classifyTool(policy, c.function, c.args, {}, { name: tool.name, inputSchema: tool.parameters }).sinks !== 0;
        if (EFFECT_TOOLS.has(call.function)) [r.writes, r.writesStaged] = [r.writes + 1, r.writesStaged + Number(staged)];
        else [r.reads, r.readsStaged] = [r.reads + 1, r.readsStaged + Number(staged)];
      }
  return r;
}
