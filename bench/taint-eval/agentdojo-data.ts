/**
 * AgentDojo v1.2.1's data as the validator's replay reads it, straight from
 * `$SABOTEUR_DATA_DIR/agentdojo` (nothing copied into the repository): each suite's tools with
 * their schemas, user and injection tasks with their ground-truth calls, the environment with its
 * injection vectors, and the attack templates. An environment is loaded as AgentDojo loads it:
 * every vector's text (its default, or an attack) is put into the double-quoted YAML scalar it
 * sits in, so YAML's folding of line breaks and its backslash escapes apply to it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, type CollectionTag, type ScalarTag } from 'yaml';
import { z } from 'zod';

export const SUITES = ['workspace', 'travel', 'banking', 'slack'] as const;
export type Suite = (typeof SUITES)[number];

const callSchema = z.object({ function: z.string(), args: z.record(z.string(), z.unknown()) });
const toolSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  docstring: z.string().nullable().optional(),
  parameters: z.record(z.string(), z.unknown()),
  returns: z.string().optional(),
});
const userTaskSchema = z.object({
  id: z.string(),
  prompt: z.string(),
  ground_truth_calls: z.array(callSchema),
  injection_vectors: z.array(z.string()),
});
const injectionTaskSchema = z.object({ id: z.string(), goal: z.string(), ground_truth_calls: z.array(callSchema) });
const attackSchema = z.object({
  name: z.string(),
  template: z.string(),
  placeholders: z.array(z.string()),
  tools_by_injection_task: z.record(z.string(), z.record(z.string(), z.string())).optional(),
});

export type AgentDojoCall = z.infer<typeof callSchema>;
export type AgentDojoTool = z.infer<typeof toolSchema>;
export type UserTask = z.infer<typeof userTaskSchema>;
export type InjectionTask = z.infer<typeof injectionTaskSchema>;
export type Attack = z.infer<typeof attackSchema>;

export interface SuiteData {
  suite: Suite;
  tools: AgentDojoTool[];
  userTasks: UserTask[];
  injectionTasks: InjectionTask[];
  /** Vector id → its default text (as written in injection_vectors.yaml). */
  vectors: Map<string, string>;
  /** The environment's parsed YAML, placeholders `{vector}` still in it. */
  environment: unknown;
}

export interface AgentDojoData {
  suites: SuiteData[];
  attacks: Attack[];
}

/** The AgentDojo folder under a data directory, or undefined when it is not there. */
export function agentDojoDir(dataDir: string | undefined): string | undefined {
  if (!dataDir) return undefined;
  const dir = path.join(dataDir, 'agentdojo');
  return existsSync(path.join(dir, 'v1.2.1', 'attacks.json')) ? dir : undefined;
}

function readJson<T>(file: string, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new Error(`${file}: ${i.path.join('.')}: ${i.message}`);
  }
  return parsed.data;
}

/** `!include path` (relative to the including file), as AgentDojo's loader resolves it. */
function includeTag(dir: string): ScalarTag {
  return { tag: '!include', resolve: (value: string) => parseYaml(readFileSync(path.join(dir, value), 'utf8')) as unknown as string };
}

function suiteDir(root: string, suite: Suite): string {
  return path.join(root, 'upstream', 'src', 'agentdojo', 'data', 'suites', suite);
}

export function loadAgentDojo(dir: string): AgentDojoData {
  const v = path.join(dir, 'v1.2.1');
  const suites = SUITES.map((suite): SuiteData => {
    const sd = suiteDir(dir, suite);
    const environment = parseYaml(readFileSync(path.join(sd, 'environment.yaml'), 'utf8'), {
      customTags: [includeTag(sd) as ScalarTag | CollectionTag],
    });
    const rawVectors = parseYaml(readFileSync(path.join(sd, 'injection_vectors.yaml'), 'utf8')) as Record<string, { default?: unknown }>;
    const vectors = new Map(Object.entries(rawVectors).map(([k, x]) => [k, String(x?.default ?? '')]));
    return {
      suite,
      tools: readJson(path.join(v, suite, 'tools.json'), z.object({ tools: z.array(toolSchema) })).tools,
      userTasks: readJson(path.join(v, suite, 'user_tasks.json'), z.object({ user_tasks: z.array(userTaskSchema) })).user_tasks,
      injectionTasks: readJson(path.join(v, suite, 'injection_tasks.json'), z.object({ injection_tasks: z.array(injectionTaskSchema) }))
        .injection_tasks,
      vectors,
      environment,
    };
  });
  const attacks = readJson(path.join(v, 'attacks.json'), z.object({ attacks: z.array(attackSchema) })).attacks;
  return { suites, attacks };
}

/**
 * A text as it reads once it has gone through a double-quoted YAML scalar: one line break (with
 * the blanks around it) becomes a space, a run of n becomes n-1 line breaks, and the escapes
 * \t, \n, \" and \\ are decoded.
 */
export function throughQuotedYaml(text: string): string {
  const folded = text.replace(/[ \t]*\n(?:[ \t]*\n)*[ \t]*/g, (m) => {
    const breaks = m.split('\n').length - 1;
    return breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
  });
  return folded.replace(/\\([tn"\\])/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c));
}

/** The environment with every `{vector}` filled: `texts` where given, else the vector's default. */
export function fillEnvironment(s: SuiteData, texts: ReadonlyMap<string, string> = new Map()): unknown {
  const fill = (str: string) =>
    str.replace(/\{([a-z0-9_]+)\}/gi, (m, id: string) => (s.vectors.has(id) ? throughQuotedYaml(texts.get(id) ?? s.vectors.get(id)!) : m));
  const walk = (x: unknown): unknown => {
    if (typeof x === 'string') return fill(x);
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, val]) => [fill(k), walk(val)]));
    return x;
  };
  return walk(s.environment);
}

/** The name the `important_instructions`-style templates address the model by (AgentDojo's name for GPT-4o). */
export const MODEL_NAME = 'GPT-4';
export const USER_NAME = 'Emma Johnson';

/** The text an attack puts into every vector the user task reads. */
export function attackText(
  attack: Attack & { rewriteGoal?: (goal: string, suite: Suite, injectionTask: string) => string },
  suite: Suite,
  userTask: UserTask,
  injection: InjectionTask,
): string {
  const values: Record<string, string> = {
    goal: attack.rewriteGoal ? attack.rewriteGoal(injection.goal, suite, injection.id) : injection.goal,
    user: USER_NAME,
    model: MODEL_NAME,
    task: userTask.prompt,
    tools: attack.tools_by_injection_task?.[suite]?.[injection.id] ?? '',
  };
  return attack.template.replace(/\{([a-z_]+)\}/g, (m, k: string) => values[k] ?? m);
}

/** A call with its tool renamed by `tool` and every argument key, at any depth (an attachment's `file_id` too), by `argument`. */
export function renameCallWith(c: AgentDojoCall, tool: (name: string) => string, argument: (name: string) => string): AgentDojoCall {
  const keys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(keys);
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [argument(k), keys(x)]));
  };
  return { function: tool(c.function), args: keys(c.args) as Record<string, unknown> };
}
