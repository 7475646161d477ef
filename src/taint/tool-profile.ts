/**
 * Classification of a tool beyond the policy's name patterns: the verbs and objects of its name,
 * the first clause of its description, the roles of its arguments (JSON schema formats, names,
 * values) and its MCP annotations. Used for tools that neither a spec nor a policy rule labels.
 *
 * Order: a verb in the name decides the action ("amend_standing_order": change + money object →
 * FINANCIAL_TRANSFER); without one, the description's first verb ("Give a person access to a
 * document" → share → EXTERNAL_SEND); a read verb anywhere with no action verb makes a read. A
 * tool none of these places is read-only only if its annotations say so (readOnlyHint) or its
 * name is made of read nouns (`weather`, `price_checker`); otherwise it is staged (fail-closed)
 * with the sink its arguments point to (a recipient: EXTERNAL_SEND; a payee or amount:
 * FINANCIAL_TRANSFER; a command: CODE_EXEC) or DESTRUCTIVE_WRITE, unless the policy says
 * `unknown-tools: release`. Annotations never take a sink away: a server's hints are not trusted
 * over what the tool's name says it does.
 */
import { argumentRole, schemaProperty, type ArgumentRole } from './argument-roles.js';
import { isReadNoun, objectKinds, sinksOfAction, sourcesOfRead, words, type Category } from './lexicon.js';
import { maskOf, type SinkLabel } from './labels.js';
import type { LabelEvidence } from './classify.js';
import type { Policy } from './policy.js';

/** MCP tool annotations (hints a server gives about a tool). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  title?: string;
}

/** What a trace or a task says about a tool: its MCP / function definition. */
export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
}

export interface ToolProfile {
  sinks: number;
  sources: number;
  evidence: LabelEvidence[];
  /** The tool only reads. */
  read: boolean;
  /** A read of a directory (contacts, members, payees, tenants): its entries can name the request's targets. */
  directory: boolean;
  /** Nothing placed it: staged fail-closed (or released by `unknown-tools: release`). */
  unknown: boolean;
  /** The verb the action was read from, for "the request uses the tool's own verb". */
  verb?: string;
}

function firstClause(description: string | undefined): string[] {
  if (!description) return [];
  // "Gives back …", "Hands back …" say what a read returns.
  const clause = (description.split(/[.;:(\n]/)[0] ?? '').replace(/\b(?:give|gives|giving|hand|hands)\s+back\b/gi, 'returns');
  return words(clause).filter(
    (w) =>
      ![
        'this',
        'tool',
        'use',
        'used',
        'to',
        'will',
        'can',
        'allows',
        'lets',
        'you',
        'the',
        'a',
        'an',
        'agent',
        'user',
        'it',
        'function',
        'that',
        'for',
      ].includes(w),
  );
}

/**
 * The action of a tool name or a description: the first verb of each part (a name's parts are
 * joined by "and"/"then": `search_and_book` books; the words after a verb are its objects, so
 * `read_bank_messages` reads and `search_orders` searches). A description has one part, its
 * first clause ("Return the change conditions of a fare" reads).
 */
function actionOf(
  ws: readonly string[],
  verbOf: (w: string) => Category | undefined,
  verbFirst = false,
): { category?: Category; verb?: string; read: boolean } {
  let read = false;
  let decided = false;
  let first = true;
  for (const w of ws) {
    if (w === 'and' || w === 'then' || w === 'or') {
      decided = false;
      first = true;
      continue;
    }
    // A name puts its verb first (`send_invoice`): a verb-like word after the first is a noun (`vehicle_hire_firms`, `recent_payments`).
    const leading = first;
    first = false;
    if (decided || (verbFirst && !leading)) continue;
    const c = verbOf(w);
    if (c === undefined) continue;
    decided = true;
    if (c === 'read') read = true;
    else return { category: c, verb: w, read };
  }
  return { read };
}

export interface ProfileOptions {
  verbOf: (word: string) => Category | undefined;
}

/** The profile of `def` as called with `args` (flattened (name, value) pairs). */
export function profileTool(
  policy: Policy,
  def: ToolDefinition,
  args: readonly { name: string; value: string }[],
  opts: ProfileOptions,
): ToolProfile {
  const nameWords = words(def.name);
  const descWords = firstClause(def.description);
  const roles = new Set<ArgumentRole>();
  const argNames = new Set<string>(args.map((a) => a.name));
  for (const n of Object.keys(((def.inputSchema as { properties?: object } | undefined)?.properties ?? {}) as object)) argNames.add(n);
  for (const n of argNames) {
    const value = args.find((a) => a.name === n)?.value ?? '';
    roles.add(argumentRole(policy, def.name, n, value, schemaProperty(def.inputSchema, n)));
  }
  const ann = def.annotations ?? {};
  const byName = actionOf(nameWords, opts.verbOf, true);
  const byDesc = actionOf(descWords, opts.verbOf);
  // A name's generic "change" (put, set, update) gives way to a description that says what kind of change: sharing, paying, sending.
  const refined = byName.category === 'change' && byDesc.category !== undefined && byDesc.category !== 'change';
  const action = refined ? byDesc : byName.category || byName.read ? byName : byDesc;
  const objects = objectKinds([...nameWords, ...descWords, ...[...argNames].flatMap((n) => words(n))].filter((w) => w !== action.verb));
  // Access changes hands only when the call names who gets it (a recipient) or what access (an
  // argument named for it: role, permission, member): changing a member's own details grants nothing.
  if (!roles.has('recipient') && ![...argNames].some((n) => objectKinds(words(n)).has('access'))) objects.delete('access');
  const money = roles.has('payee') || roles.has('amount') || objectKinds(descWords).has('money');
  const evidence: LabelEvidence[] = [];
  const where =
    byName.category && !refined
      ? `its name (${byName.verb})`
      : `its description ("${(def.description ?? '').split(/[.;\n]/)[0].slice(0, 60)}")`;

  if (action.category) {
    const sinks = sinksOfAction(action.category, objects, money);
    const mask = maskOf(sinks);
    evidence.push({
      mask,
      why: `tool profile: ${where} says ${action.category}${money ? ' with money' : ''}${ann.readOnlyHint === true ? ' (its readOnlyHint annotation is not trusted over that)' : ''}`,
    });
    return { sinks: mask, sources: 0, evidence, read: false, directory: false, unknown: false, verb: action.verb };
  }
  const readOnly =
    action.read ||
    ann.readOnlyHint === true ||
    (nameWords.length > 0 && nameWords.every((w) => isReadNoun(w) || /^\d+$/.test(w) || w === 'api' || w === 'tool'));
  if (readOnly) {
    const { sources, directory } = sourcesOfRead([...nameWords, ...descWords]);
    const mask = maskOf(sources);
    const why = action.read
      ? `${byName.read ? 'its name' : 'its description'} says it reads`
      : ann.readOnlyHint === true
        ? 'its readOnlyHint annotation says it only reads'
        : 'its name is made of read nouns';
    evidence.push({ mask, why: `tool profile: ${why}${directory ? ' (a directory)' : ''}` });
    return { sinks: 0, sources: mask, evidence, read: true, directory, unknown: false };
  }
  // Fail-closed: nothing says what it does, so it is judged by what its arguments point at.
  const sinks = new Set<SinkLabel>();
  if (roles.has('recipient') || roles.has('url') || ann.openWorldHint === true) sinks.add('EXTERNAL_SEND');
  if (roles.has('payee') || roles.has('amount')) sinks.add('FINANCIAL_TRANSFER');
  if (roles.has('command')) sinks.add('CODE_EXEC');
  if (sinks.size === 0 || ann.destructiveHint === true) sinks.add('DESTRUCTIVE_WRITE');
  if (policy.unknownTools === 'release') {
    evidence.push({ mask: 0, why: 'tool profile: nothing places this tool, and the policy says unknown-tools: release' });
    return { sinks: 0, sources: 0, evidence, read: false, directory: false, unknown: true };
  }
  const mask = maskOf([...sinks]);
  evidence.push({
    mask,
    why: `tool profile: nothing says what ${def.name} does, so it is staged (fail-closed) by what its arguments point at`,
  });
  return { sinks: mask, sources: 0, evidence, read: false, directory: false, unknown: true };
}
