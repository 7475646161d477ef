/**
 * The taint policy (README: What a policy can add): a YAML file, validated with zod, that labels tools and content,
 * names the arguments that carry targets, lists authorised targets, declares which source→sink
 * paths are forbidden and which nodes release labels. A policy extends the built-in default
 * (default-policy.ts) unless it says `extends: none`; its lists are appended to the default's.
 * Every error names the file and the key and shows a valid example.
 */
import { LIMITS, readInputText } from '../util/input-file.js';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';
import { SINK_LABELS, SOURCE_LABELS, maskOf, type SourceLabel } from './labels.js';
import { DEFAULT_POLICY } from './default-policy.js';
import { CATEGORIES, extendLexicon, type Category } from './lexicon.js';
import { ARGUMENT_ROLES, type ArgumentRole } from './argument-roles.js';
import { InputError } from '../util/input-error.js';

export const TARGET_KINDS = ['recipient', 'url', 'payee', 'path', 'command'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];
export const CONTENT_SITES = ['request', 'tool-result', 'message', 'argument'] as const;
export type ContentSite = (typeof CONTENT_SITES)[number];

const sourceLabel = z.enum(SOURCE_LABELS);
const sinkLabel = z.enum(SINK_LABELS);
/** A glob (`send_*`, `*@corp.example`; `*` is any run of characters) or `/regex/flags`; several as a list. */
const pattern = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const regex = z.string().min(1);

const toolRule = z
  .strictObject({
    name: pattern.default('*'),
    argument: pattern.optional(),
    matches: regex.optional(),
    target: pattern.optional(),
    /** A regular expression the tool's description must match (tools described in the trace or the task). */
    description: regex.optional(),
    sources: z.array(sourceLabel).default([]),
    sinks: z.array(sinkLabel).default([]),
    'not-sinks': z.array(sinkLabel).default([]),
    /** The verb of the tool's action: a request that uses it asks for the tool, as a verb the tool profile reads from a name does. */
    verb: z
      .string()
      .regex(/^[a-z]+$/i, 'a verb is one word of letters (archive, send)')
      .optional(),
    /**
     * The other words a request may use for the tool: as its verb ("lodge it", "scale it to 12") or as
     * the thing a verb acts on ("pop a note on his record"). What the tool profile reads from a name
     * and a description, pinned for a tool whose name says nothing.
     */
    words: z
      .array(z.string().regex(/^[a-z]+$/i, 'a word is letters only (lodge, note)'))
      .max(24)
      .optional(),
    why: z.string().optional(),
  })
  .refine((r) => r.sources.length + r.sinks.length + r['not-sinks'].length > 0, {
    message: 'a tool rule needs sources, sinks or not-sinks',
  });

const targetRule = z.strictObject({
  tool: pattern.default('*'),
  argument: pattern,
  kind: z.enum(TARGET_KINDS),
  /** authorised: must come from the request or the policy; trusted: must not come from a tool result. */
  require: z.enum(['authorised', 'trusted']).optional(),
});

const contentRule = z.strictObject({
  pattern: regex,
  labels: z.array(sourceLabel).min(1),
  on: z
    .array(z.enum(CONTENT_SITES))
    .min(1)
    .default([...CONTENT_SITES]),
  why: z.string().optional(),
});

const intentRule = z.strictObject({ pattern: regex, needs: z.array(sinkLabel).min(1), why: z.string().optional() });

/** What an argument is for, where the built-in reading of names and schemas gets it wrong. */
const argumentRule = z.strictObject({ tool: pattern.default('*'), argument: pattern, role: z.enum(ARGUMENT_ROLES) });

const onwardAction = z.enum(['block', 'warn', 'allow']);

const forbiddenRule = z.strictObject({
  from: z.array(sourceLabel).min(1),
  to: z.array(sinkLabel).min(1),
  unless: z.enum(['authorised-target', 'requested-source']).optional(),
  why: z.string().optional(),
});

const releaseRule = z
  .strictObject({ tool: pattern.optional(), agent: pattern.optional(), labels: z.array(sourceLabel).min(1), why: z.string().optional() })
  .refine((r) => r.tool !== undefined || r.agent !== undefined, {
    message: 'a release rule names the tool or the agent whose output it releases',
  });

export const policyFileSchema = z.strictObject({
  version: z.literal(1).default(1),
  extends: z.enum(['default', 'none']).default('default'),
  unverifiable: z.enum(['block', 'release']).optional(),
  'control-labels': z.array(sourceLabel).optional(),
  tools: z.array(toolRule).default([]),
  targets: z.array(targetRule).default([]),
  authorised: z.array(z.string().min(1)).default([]),
  directories: z.array(z.string().min(1)).default([]),
  content: z.array(contentRule).default([]),
  intents: z.array(intentRule).default([]),
  'policy-only': z.array(sinkLabel).default([]),
  forbidden: z.array(forbiddenRule).default([]),
  release: z.array(releaseRule).default([]),
  /** A tool nothing places (no spec, no rule, no structure, no verb) that takes something a sink needs: stage it (fail-closed) or let it through. */
  'unknown-tools': z.enum(['stage', 'release']).optional(),
  /** Deterministic injection detection in tool results and messages (README: Injection detection). */
  'detect-injection': z.boolean().optional(),
  /** Links and injected instructions from untrusted content that a message body carries onward. */
  onward: z.strictObject({ links: onwardAction.optional(), instructions: onwardAction.optional() }).optional(),
  /** Verbs the action lexicon does not know, by category. */
  lexicon: z.strictObject({ verbs: z.partialRecord(z.enum(CATEGORIES), z.array(z.string().min(1))).optional() }).optional(),
  arguments: z.array(argumentRule).default([]),
});
export type PolicyFile = z.input<typeof policyFileSchema>;
type PolicyDoc = z.output<typeof policyFileSchema>;

export const POLICY_EXAMPLES: Record<string, string> = {
  '': 'extends: default\nauthorised: ["*@corp.example"]\nforbidden:\n  - { from: [SENSITIVE_READ], to: [EXTERNAL_SEND], unless: authorised-target }',
  version: 'version: 1',
  extends: 'extends: default   # default | none',
  unverifiable: 'unverifiable: block   # block (fail-closed) | release',
  'control-labels': 'control-labels: [PROMPT_OVERRIDE, HARMFUL_INTENT]',
  tools:
    'tools:\n  - { name: "send_*", sinks: [EXTERNAL_SEND], why: "sends a message out" }\n  - { name: send_email, target: "*@corp.example", not-sinks: [EXTERNAL_SEND], why: "internal mail" }',
  targets: 'targets:\n  - { tool: send_email, argument: to, kind: recipient, require: authorised }',
  authorised: 'authorised: ["*@corp.example", "https://intranet.corp.example/*", "/workspace/*"]',
  directories: 'directories: [get_contacts]   # tools whose results may name targets',
  content: 'content:\n  - { pattern: "ignore (all )?previous instructions", labels: [PROMPT_OVERRIDE], on: [tool-result] }',
  intents: 'intents:\n  - { pattern: "\\\\b(send|e-?mail)\\\\b", needs: [EXTERNAL_SEND] }',
  'policy-only': 'policy-only: [PRIVILEGED_EXEC]',
  forbidden: 'forbidden:\n  - { from: [SENSITIVE_READ, PII_READ], to: [EXTERNAL_SEND], unless: authorised-target }',
  release: 'release:\n  - { tool: redact_pii, labels: [PII_READ], why: "the tool removes personal data" }',
  'unknown-tools': 'unknown-tools: stage   # stage (fail-closed) | release',
  'detect-injection': 'detect-injection: true',
  onward: 'onward: { links: block, instructions: block }   # block | warn | allow',
  lexicon:
    'lexicon:\n  verbs: { pay: [settle_up], send: [holler] }   # categories: read, send, share, publish, pay, book, change, delete, exec',
  arguments:
    'arguments:\n  - { tool: renew_lease, argument: rent, role: amount }   # roles: recipient, url, payee, path, command, amount, credential, object, content, choice, other',
};

export class PolicyError extends InputError {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = 'PolicyError';
  }
}

function exampleFor(path: readonly PropertyKey[]): string {
  const top = typeof path[0] === 'string' ? path[0] : '';
  return POLICY_EXAMPLES[top] ?? POLICY_EXAMPLES[''];
}

function formatIssue(file: string, issue: z.core.$ZodIssue): string {
  const key = issue.path.length ? issue.path.join('.') : '(top level)';
  let message = issue.message;
  if (issue.code === 'unrecognized_keys')
    message = `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (check the spelling)`;
  else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) message = 'is required';
  const example = exampleFor(issue.path)
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
  return `${file}: ${key}: ${message}\n  a valid example:\n${example}`;
}

function failure(file: string, key: string, message: string): PolicyError {
  const example = exampleFor([key.split('.')[0]])
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
  return new PolicyError(`${file}: ${key}: ${message}\n  a valid example:\n${example}`, file);
}

/** Matches a name or a target: globs are whole-string and case-insensitive. */
export interface Matcher {
  raw: string;
  test(value: string): boolean;
}

export function compilePattern(raw: string, file: string, key: string): Matcher {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(raw);
  let re: RegExp;
  try {
    if (m) re = new RegExp(m[1], m[2].includes('i') ? m[2] : `${m[2]}i`);
    else
      re = new RegExp(
        `^${raw
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*')
          .replace(/\?/g, '.')}$`,
        'i',
      );
  } catch (err) {
    throw failure(file, key, `${JSON.stringify(raw)} is not a valid pattern (${(err as Error).message})`);
  }
  return { raw, test: (v) => re.test(v) };
}

function compileMatchers(p: string | string[], file: string, key: string): Matcher {
  const list = (Array.isArray(p) ? p : [p]).map((raw, i) => compilePattern(raw, file, Array.isArray(p) ? `${key}.${i}` : key));
  return { raw: list.map((x) => x.raw).join(' | '), test: (v) => list.some((x) => x.test(v)) };
}

function compileRegex(raw: string, file: string, key: string): RegExp {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(raw);
  try {
    return m ? new RegExp(m[1], m[2].includes('i') ? m[2] : `${m[2]}i`) : new RegExp(raw, 'i');
  } catch (err) {
    throw failure(file, key, `${JSON.stringify(raw)} is not a valid regular expression (${(err as Error).message})`);
  }
}

export interface ToolRule {
  at: string;
  name: Matcher;
  argument?: Matcher;
  matches?: RegExp;
  target?: Matcher;
  description?: RegExp;
  sources: number;
  sinks: number;
  notSinks: number;
  verb?: string;
  words?: string[];
  why: string;
}

export interface TargetRule {
  at: string;
  tool: Matcher;
  argument: Matcher;
  kind: TargetKind;
  require: 'authorised' | 'trusted';
}

export interface Policy {
  /** Where the policy came from (a file, or the built-in default), for messages. */
  source: string;
  unverifiable: 'block' | 'release';
  /** Labels that cross from an LLM call into a tool call even where every argument has its own provenance. */
  controlMask: number;
  tools: ToolRule[];
  targets: TargetRule[];
  authorised: Matcher[];
  directories: Matcher[];
  content: { at: string; re: RegExp; labels: number; on: Set<ContentSite>; why: string }[];
  intents: { at: string; re: RegExp; needs: number; why: string }[];
  policyOnly: number;
  forbidden: { at: string; from: number; to: number; unless?: 'authorised-target' | 'requested-source'; why: string }[];
  release: { at: string; tool?: Matcher; agent?: Matcher; labels: number; why: string }[];
  unknownTools: 'stage' | 'release';
  detectInjection: boolean;
  onward: { links: 'block' | 'warn' | 'allow'; instructions: 'block' | 'warn' | 'allow' };
  /** The action lexicon with the policy's verbs added. */
  verbOf: (word: string) => Category | undefined;
  argumentRoles: { at: string; tool: Matcher; argument: Matcher; role: ArgumentRole }[];
}

/** Kinds whose value must come from the request or the policy; the others only must not come from a tool result. */
const AUTHORITY_KINDS: ReadonlySet<TargetKind> = new Set(['recipient', 'url', 'payee']);

function compile(doc: PolicyDoc, file: string, offsets: Record<string, number>, prefix = ''): Policy {
  // Rules are named by list and position: the default's own rules as "default tools[3]", the file's as "tools[0]".
  const at = (list: string, i: number) =>
    i < (offsets[list] ?? 0) ? `default ${list}[${i}]` : `${prefix}${list}[${i - (offsets[list] ?? 0)}]`;
  return {
    source: file,
    unverifiable: doc.unverifiable ?? 'block',
    controlMask: maskOf(doc['control-labels'] ?? ['PROMPT_OVERRIDE', 'HARMFUL_INTENT']),
    tools: doc.tools.map((r, i) => ({
      at: at('tools', i),
      name: compileMatchers(r.name, file, `tools.${i - (offsets.tools ?? 0)}.name`),
      ...(r.argument !== undefined ? { argument: compileMatchers(r.argument, file, `tools.${i - (offsets.tools ?? 0)}.argument`) } : {}),
      ...(r.matches !== undefined ? { matches: compileRegex(r.matches, file, `tools.${i - (offsets.tools ?? 0)}.matches`) } : {}),
      ...(r.target !== undefined ? { target: compileMatchers(r.target, file, `tools.${i - (offsets.tools ?? 0)}.target`) } : {}),
      ...(r.description !== undefined
        ? { description: compileRegex(r.description, file, `tools.${i - (offsets.tools ?? 0)}.description`) }
        : {}),
      sources: maskOf(r.sources),
      sinks: maskOf(r.sinks),
      notSinks: maskOf(r['not-sinks']),
      ...(r.verb !== undefined ? { verb: r.verb.toLowerCase() } : {}),
      ...(r.words !== undefined ? { words: r.words.map((w) => w.toLowerCase()) } : {}),
      why: r.why ?? '',
    })),
    targets: doc.targets.map((r, i) => ({
      at: at('targets', i),
      tool: compileMatchers(r.tool, file, `targets.${i - (offsets.targets ?? 0)}.tool`),
      argument: compileMatchers(r.argument, file, `targets.${i - (offsets.targets ?? 0)}.argument`),
      kind: r.kind,
      require: r.require ?? (AUTHORITY_KINDS.has(r.kind) ? 'authorised' : 'trusted'),
    })),
    authorised: doc.authorised.map((p, i) => compilePattern(p, file, `authorised.${i - (offsets.authorised ?? 0)}`)),
    directories: doc.directories.map((p, i) => compilePattern(p, file, `directories.${i - (offsets.directories ?? 0)}`)),
    content: doc.content.map((r, i) => ({
      at: at('content', i),
      re: compileRegex(r.pattern, file, `content.${i - (offsets.content ?? 0)}.pattern`),
      labels: maskOf(r.labels),
      on: new Set(r.on),
      why: r.why ?? `matches /${r.pattern}/`,
    })),
    intents: doc.intents.map((r, i) => ({
      at: at('intents', i),
      re: compileRegex(r.pattern, file, `intents.${i - (offsets.intents ?? 0)}.pattern`),
      needs: maskOf(r.needs),
      why: r.why ?? `matches /${r.pattern}/`,
    })),
    policyOnly: maskOf(doc['policy-only']),
    forbidden: doc.forbidden.map((r, i) => ({
      at: at('forbidden', i),
      from: maskOf(r.from),
      to: maskOf(r.to),
      ...(r.unless ? { unless: r.unless } : {}),
      why: r.why ?? '',
    })),
    release: doc.release.map((r, i) => ({
      at: at('release', i),
      ...(r.tool !== undefined ? { tool: compileMatchers(r.tool, file, `release.${i - (offsets.release ?? 0)}.tool`) } : {}),
      ...(r.agent !== undefined ? { agent: compileMatchers(r.agent, file, `release.${i - (offsets.release ?? 0)}.agent`) } : {}),
      labels: maskOf(r.labels as SourceLabel[]),
      why: r.why ?? '',
    })),
    unknownTools: doc['unknown-tools'] ?? 'stage',
    detectInjection: doc['detect-injection'] ?? true,
    onward: { links: doc.onward?.links ?? 'block', instructions: doc.onward?.instructions ?? 'block' },
    verbOf: extendLexicon(doc.lexicon),
    argumentRoles: doc.arguments.map((r, i) => ({
      at: at('arguments', i),
      tool: compileMatchers(r.tool, file, `arguments.${i - (offsets.arguments ?? 0)}.tool`),
      argument: compileMatchers(r.argument, file, `arguments.${i - (offsets.arguments ?? 0)}.argument`),
      role: r.role,
    })),
  };
}

const LISTS = [
  'tools',
  'targets',
  'authorised',
  'directories',
  'content',
  'intents',
  'policy-only',
  'forbidden',
  'release',
  'arguments',
] as const;

function validate(raw: unknown, file: string): PolicyDoc {
  const parsed = policyFileSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issues = [...parsed.error.issues].sort((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'));
    throw new PolicyError(
      issues
        .slice(0, 3)
        .map((i) => formatIssue(file, i))
        .join('\n'),
      file,
    );
  }
  return parsed.data;
}

let defaultDoc: PolicyDoc | undefined;

function builtIn(): PolicyDoc {
  return (defaultDoc ??= validate(DEFAULT_POLICY, 'the built-in default policy'));
}

/** A validated policy document plus the default it extends, compiled. */
export function policyFromDocument(raw: unknown, file: string): Policy {
  const doc = validate(raw, file);
  if (doc.extends === 'none') return compile(doc, file, {});
  const base = builtIn();
  const merged = { ...doc } as PolicyDoc;
  const offsets: Record<string, number> = {};
  for (const key of LISTS) {
    offsets[key] = (base[key] as unknown[]).length;
    (merged as Record<string, unknown>)[key] = [...(base[key] as unknown[]), ...(doc[key] as unknown[])];
  }
  merged['control-labels'] = doc['control-labels'] ?? base['control-labels'];
  merged.unverifiable = doc.unverifiable ?? base.unverifiable;
  merged['unknown-tools'] = doc['unknown-tools'] ?? base['unknown-tools'];
  merged['detect-injection'] = doc['detect-injection'] ?? base['detect-injection'];
  merged.onward = { ...base.onward, ...doc.onward };
  merged.lexicon = { verbs: { ...base.lexicon?.verbs, ...doc.lexicon?.verbs } };
  return compile(merged, file, offsets);
}

export function parsePolicy(text: string, file: string): Policy {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    const where = err instanceof YAMLParseError && err.linePos ? `:${err.linePos[0].line}` : '';
    throw new PolicyError(`${file}${where}: not valid YAML (${(err as Error).message.split('\n')[0]})`, file);
  }
  if (raw !== null && raw !== undefined && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new PolicyError(
      `${file}: a policy is a YAML mapping of keys (extends, tools, forbidden, ...), got ${Array.isArray(raw) ? 'a list' : typeof raw}\n  a valid example:\n    ${POLICY_EXAMPLES[''].split('\n').join('\n    ')}`,
      file,
    );
  }
  return policyFromDocument(raw, file);
}

/** The text of a policy file, read within its bound (PolicyError naming the file). */
export async function readPolicyText(file: string): Promise<string> {
  try {
    return await readInputText(file, { what: 'the policy', maxBytes: LIMITS.policy });
  } catch (err) {
    throw new PolicyError(
      /ENOENT/.test((err as Error).message)
        ? `policy file ${file} does not exist (config key policy, or --policy)`
        : (err as Error).message,
      file,
    );
  }
}

/** Reads a policy file; without a file, the built-in default. */
export async function loadPolicy(file?: string): Promise<Policy> {
  if (file === undefined) return defaultPolicy();
  return parsePolicy(await readPolicyText(file), file);
}

let defaultCompiled: Policy | undefined;

export function defaultPolicy(): Policy {
  return (defaultCompiled ??= compile(builtIn(), 'the built-in default policy', {}, 'default '));
}
