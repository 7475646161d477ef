/**
 * `saboteur policy suggest` (docs/taint-policy.md, "Writing a policy from a trace"): every tool a
 * trace shows (called, or only defined), what the validator infers it does and on what evidence,
 * and one tool rule per tool that pins that inference in the team's policy, so that a change of
 * the built-in word lists cannot change it. Whether an inference came from structure (a tool
 * spec, a policy rule, MCP annotations, the arguments) or is a guess from the words of the name or
 * the description is said, and guesses are marked for review.
 *
 * A pin must not change any decision on the trace it was written from: every call is classified
 * again under the written policy, and a rule that would label a call differently is written
 * commented out, with why. Pure: the command (src/cli/policy.ts) reads and writes the files.
 */
import { classifyTool } from './classify.js';
import { SINK_MASK, labelsOf, sinksOf, sourcesOf, type SinkLabel, type SourceLabel } from './labels.js';
import { compilePattern, parsePolicy, type Policy } from './policy.js';
import type { ToolDefinition } from './tool-profile.js';
import type { BuiltTrace, TraceInput, ToolCallSeen } from './trace-graph.js';
import { insertRules, literalPattern, newPolicyText, yamlString, type PinRule } from './suggest-yaml.js';

type Classified = ReturnType<typeof classifyTool>;
type Declared = ToolCallSeen['declared'];

/** One use of a tool: a call, or its definition alone (no arguments). */
export interface ToolUse {
  args: Record<string, unknown>;
  declared: Declared;
  definition?: ToolDefinition;
}

export interface ToolSeen {
  tool: string;
  uses: ToolUse[];
  calls: number;
  inDefinitions: boolean;
  /** A call of it, which nothing places, was staged because an instruction in data chose what it acts on. */
  stagedOnInstruction?: true;
}

/** Where an inference came from: structure someone wrote, or the words of the name or description. */
export type Basis = 'spec' | 'policy' | 'operation' | 'annotations' | 'method' | 'name' | 'description' | 'nothing';
const GUESSES: ReadonlySet<Basis> = new Set(['name', 'description', 'nothing']);

export interface ToolSuggestion {
  tool: string;
  calls: number;
  inDefinitions: boolean;
  /** read: no sink; sink: a hard sink; unknown: nothing places it (staged fail-closed, or let through). */
  effect: 'read' | 'sink' | 'unknown';
  sources: SourceLabel[];
  sinks: SinkLabel[];
  verb?: string;
  /** The other words a request may use for it (pinned with it: a pinned tool is not profiled). */
  words?: string[];
  basis: Basis;
  guess: boolean;
  evidence: string[];
  /** What some calls add by their arguments (argument rules, a URL argument): decided call by call, never pinned. */
  perCall: string[];
  /** The rule written for it; `disabled` when it would change a decision. */
  pin?: PinRule;
  /** The team's rule that already pins it. */
  pinnedBy?: string;
  /** Why no live rule pins it. */
  unpinned?: string;
}

const key = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every tool the traces show, by name: its calls, or its definition or spec when it was never called. */
export function toolsSeen(traces: readonly { input: TraceInput; built: BuiltTrace }[]): ToolSeen[] {
  const by = new Map<string, ToolSeen & { definition?: ToolDefinition; declared?: Declared }>();
  const entry = (tool: string) => by.get(tool) ?? by.set(tool, { tool, uses: [], calls: 0, inDefinitions: false }).get(tool)!;
  for (const { input, built } of traces) {
    for (const c of built.toolCalls ?? []) {
      const e = entry(c.tool);
      e.calls++;
      if (c.stagedOnInstruction) e.stagedOnInstruction = true;
      e.uses.push({ args: c.args, declared: c.declared, ...(c.definition ? { definition: c.definition } : {}) });
    }
    for (const [name, d] of built.definitions ?? []) {
      const e = entry(name);
      e.inDefinitions = true;
      e.definition ??= d;
    }
    for (const s of input.toolSpecs ?? []) entry(s.name).declared ??= { sinks: s.sinks, sources: s.sources };
  }
  return [...by.values()]
    .map(({ definition, declared, ...e }) =>
      e.uses.length ? e : { ...e, uses: [{ args: {}, declared: declared ?? {}, ...(definition ? { definition } : {}) }] },
    )
    .sort((a, b) => key(a.tool, b.tool));
}

const classify = (policy: Policy, tool: string, u: ToolUse): Classified => classifyTool(policy, tool, u.args, u.declared, u.definition);

/** The policy without its argument-level rules (argument, matches, target): what a tool is before what a call says. */
function toolLevel(policy: Policy): Policy {
  return { ...policy, tools: policy.tools.filter((r) => !r.argument && !r.matches && !r.target) };
}

/** Sinks that argument-level rules may add to this tool's calls: a pin never takes them off. */
function argumentSinks(policy: Policy, tool: string): number {
  return policy.tools.filter((r) => (r.argument || r.matches || r.target) && r.name.test(tool)).reduce((m, r) => m | r.sinks, 0);
}

const isFetch = (why: string) => why.startsWith('a fetch:');
const verbOf = (c: Classified) => (c.sinks ? (c.verb ?? c.profile?.verb ?? '') : '');
/** The words a policy may pin for a tool (its own or its profile's): letters only, as `tools[].words` takes them. */
export const pinnableWords = (c: Classified): string[] => (c.words ?? c.profile?.alsoVerbs ?? []).filter((w) => /^[a-z]+$/i.test(w));
const wordsOf = (c: Classified) => (c.sinks && !c.fetch ? pinnableWords(c) : []);
/** What a call is, before a URL argument makes it a fetch (the fetch is decided per call, with or without a pin). */
const effect = (c: Classified) => ({ sources: c.sources, sinks: c.fetch ? 0 : c.sinks, verb: c.fetch ? '' : verbOf(c) });
const sameEffect = (a: ReturnType<typeof effect>, b: ReturnType<typeof effect>) =>
  a.sources === b.sources && a.sinks === b.sinks && a.verb === b.verb;
const describe = (e: ReturnType<typeof effect>) => labelsOf(e.sources | e.sinks).join(', ') || 'no label';

/**
 * Whether the inference is structure or a guess. The tool profile's evidence says what decided:
 * "a guess from its name / its description", or structure (its annotations, its HTTP method).
 * Guesses are looked for first and a basis the evidence does not name is taken for a guess, so a
 * description quoted in the evidence can add a review mark but never take one away.
 */
export function basisOf(c: Classified): Basis {
  const whys = c.evidence.map((e) => e.why);
  if (whys.some((w) => w.startsWith('declared by the spec'))) return 'spec';
  if (!c.profile) return 'policy';
  if (c.profile.unknown) return 'nothing';
  const profiled = whys.filter((w) => w.startsWith('tool profile:')).join(' ');
  if (/^tool profile: its argument \S+ chooses "/.test(profiled)) return 'operation';
  if (/\ba guess from its name\b/.test(profiled)) return 'name';
  if (/\ba guess from its description\b/.test(profiled)) return 'description';
  if (/\ba guess\b(?! not taken)/.test(profiled)) return 'nothing';
  if (/\bannotations?\b/.test(profiled)) return 'annotations';
  if (/\bHTTP method\b/.test(profiled)) return 'method';
  return 'name';
}

function basisText(basis: Basis, sinks: number, rules: readonly string[]): string {
  switch (basis) {
    case 'spec':
      return 'from its tool spec';
    case 'policy':
      return `from policy rule${rules.length === 1 ? '' : 's'} ${rules.join(', ')}`;
    case 'operation':
      return 'from the operation its call chooses (its schema offers them as an argument)';
    case 'annotations':
      return 'from its MCP annotations';
    case 'method':
      return 'from the HTTP method its definition states';
    case 'name':
      return 'guess from its name';
    case 'description':
      return 'guess from its description';
    case 'nothing':
      return sinks ? 'nothing says what it does: staged fail-closed' : 'nothing says what it does: not staged';
  }
}

const cap = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n - 3)}...` : s);

/** What the validator infers for one tool, and the rule that pins it (unverified: see `suggestPolicy`). */
export function suggestTool(policy: Policy, seen: ToolSeen, level: Policy = toolLevel(policy)): ToolSuggestion {
  const { tool } = seen;
  const base = seen.uses.map((u) => classify(level, tool, u));
  const full = seen.uses.map((u) => classify(policy, tool, u));
  const effects = base.map(effect);
  const first = effects[0];
  const basis = basisOf(base[0]);
  const evidence = [...new Set(base[0].evidence.map((e) => e.why).filter((w) => !isFetch(w)))];
  const perCall = [...new Set(full.flatMap((c) => c.evidence.map((e) => e.why)).filter((w) => !evidence.includes(w)))].slice(0, 5);
  const rules = [...new Set(evidence.flatMap((w) => /^(?:taken off by )?policy (.+?)(?::|$)/.exec(w)?.[1] ?? []))];
  const out: ToolSuggestion = {
    tool,
    calls: seen.calls,
    inDefinitions: seen.inDefinitions,
    effect: base[0].profile?.unknown ? 'unknown' : first.sinks ? 'sink' : 'read',
    sources: sourcesOf(first.sources),
    sinks: sinksOf(first.sinks),
    ...(first.verb ? { verb: first.verb } : {}),
    ...(wordsOf(base[0]).length ? { words: wordsOf(base[0]) } : {}),
    basis,
    guess: GUESSES.has(basis),
    evidence,
    perCall,
  };
  const pinned = policy.tools.find(
    (r) => !r.at.startsWith('default ') && r.name.raw === literalPattern(tool) && !r.argument && !r.matches && !r.target && !r.description,
  );
  if (pinned) return { ...out, pinnedBy: pinned.at };
  // A rule on the name would label every operation alike: a `list` would become the `cancel` it pinned.
  if (basis === 'operation')
    return {
      ...out,
      unpinned: 'what a call does is the operation it chooses by an argument, call by call: no one rule on its name can say',
    };
  const differ = effects.findIndex((e) => !sameEffect(e, first));
  if (differ > 0)
    return {
      ...out,
      unpinned: `its calls are labelled differently (${describe(first)}; call ${differ + 1}: ${describe(effects[differ])}): what a call is depends on its arguments, so no one rule can say`,
    };
  const notSinks = first.sinks ? 0 : SINK_MASK & ~argumentSinks(policy, tool);
  if (first.sources | first.sinks | notSinks) {
    const why = `${basisText(basis, first.sinks, rules)}: ${evidence.join('; ') || 'no evidence'}`;
    const comments = out.guess ? [`${basisText(basis, first.sinks, rules)}: review`] : [];
    // A call of a tool nothing places was staged because an instruction in data chose what it acts
    // on; a pin would make the tool a read and change that decision: the team says so, not the guess.
    if (basis === 'nothing' && !first.sinks && seen.stagedOnInstruction) {
      const unpinned =
        'nothing says what it does, and an instruction in data chose what a call of it acts on: pinned as a read, that call would no longer be staged; uncomment once you know it only reads';
      const pin = { tool, sources: first.sources, sinks: 0, notSinks, why: cap(why), comments: [...comments, unpinned], disabled: true };
      return { ...out, unpinned, pin };
    }
    return {
      ...out,
      pin: {
        tool,
        sources: first.sources,
        sinks: first.sinks,
        notSinks,
        ...(first.verb ? { verb: first.verb } : {}),
        ...(out.words ? { words: out.words } : {}),
        why: cap(why),
        comments,
      },
    };
  }
  return { ...out, unpinned: 'argument-level rules may give it any sink, so there is nothing a rule can pin' };
}

/** Tools whose calls the suggested policy labels otherwise than `policy` does, with how. */
function changedCalls(policy: Policy, after: Policy, seen: readonly ToolSeen[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of seen)
    s.uses.forEach((u, i) => {
      if (out.has(s.tool)) return;
      const a = classify(policy, s.tool, u);
      const b = classify(after, s.tool, u);
      if (a.sources !== b.sources || a.sinks !== b.sinks || !!a.fetch !== !!b.fetch || verbOf(a) !== verbOf(b))
        out.set(s.tool, `call ${i + 1} would be ${describe(effect(b))} instead of ${describe(effect(a))}`);
    });
  return out;
}

export interface SuggestOptions {
  /** The team's policy text the rules are added to (its file name for messages); a new file without. */
  base?: { text: string; file: string };
  /** Comment lines at the top of a new file. */
  header?: readonly string[];
  /** The name the written policy is parsed under (for messages). */
  out: string;
}

function render(tools: readonly ToolSuggestion[], opts: SuggestOptions): string {
  const rules: PinRule[] = tools.flatMap((t) => {
    if (t.pin) return [t.pin];
    if (!t.unpinned) return [];
    return [
      {
        tool: t.tool,
        sources: 0,
        sinks: 0,
        notSinks: 0,
        why: '',
        comments: [`${yamlString(t.tool)}: not pinned: ${t.unpinned}`],
        commentOnly: true,
      },
    ];
  });
  return opts.base ? insertRules(opts.base.text, rules, opts.base.file) : newPolicyText(rules, opts.header ?? []);
}

/**
 * The suggestion for every tool seen and the policy text that pins them. Written, parsed with the
 * project's own parser, and checked call by call: a pin that would label some call otherwise
 * (a name that also covers another tool, case aside; an argument-level rule it would override) is
 * disabled, with why, until none does.
 */
export function suggestPolicy(
  policy: Policy,
  seen: readonly ToolSeen[],
  opts: SuggestOptions,
): { tools: ToolSuggestion[]; text: string; policy: Policy } {
  const level = toolLevel(policy);
  const tools = seen.map((s) => suggestTool(policy, s, level));
  for (;;) {
    const text = render(tools, opts);
    const after = parsePolicy(text, opts.out);
    const changed = changedCalls(policy, after, seen);
    if (changed.size === 0) return { tools, text, policy: after };
    let disabled = 0;
    for (const [name, how] of changed)
      for (const t of tools) {
        if (!t.pin || t.pin.disabled || !compilePattern(literalPattern(t.tool), opts.out, 'tools').test(name)) continue;
        t.pin = { ...t.pin, disabled: true, comments: [...t.pin.comments, `not pinned: with this rule ${yamlString(name)}: ${how}`] };
        t.unpinned = `pinning it would change how ${name === t.tool ? 'its' : `${name}'s`} calls are labelled (${how})`;
        disabled++;
      }
    if (disabled === 0) throw new Error(`policy suggest: calls labelled otherwise with no pin to blame: ${[...changed.keys()].join(', ')}`);
  }
}
