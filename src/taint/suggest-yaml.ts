/**
 * The YAML of the tool rules `saboteur policy suggest` writes (docs/taint-policy.md, "Writing a
 * policy from a trace"). Tool names and evidence are hostile input: every string is written as a
 * double-quoted scalar of printable ASCII (anything else escaped), so no name can end a line, open
 * a comment, hide or reorder what a reviewer reads; a name is written as a pattern that matches
 * that name alone (names are globs in a policy). Rules go into a new file, or into the team's
 * policy as it is: its text is kept byte for byte and the rules inserted at the end of its `tools`.
 */
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { labelsOf } from './labels.js';
import { PolicyError } from './policy.js';

/** One rule to write: a tool pinned to what the validator inferred. */
export interface PinRule {
  tool: string;
  sources: number;
  sinks: number;
  notSinks: number;
  verb?: string;
  words?: string[];
  why: string;
  /** Comment lines above the rule (plain words; sanitised again when written). */
  comments: string[];
  /** Written commented out: shown for review, not applied. */
  disabled?: boolean;
  /** Only its comments are written (a tool no one rule can pin). */
  commentOnly?: boolean;
}

const live = (r: PinRule) => !r.disabled && !r.commentOnly;

/** A YAML double-quoted scalar holding `s`, in printable ASCII only. */
export function yamlString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c >= 0x20 && c < 0x7f) out += s[i];
    else out += `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

/** Text for a YAML comment: one line of printable ASCII (anything else becomes "?"). */
export function commentText(s: string, max = 300): string {
  const t = s.replace(/[^\x20-\x7e]/g, '?');
  return t.length > max ? `${t.slice(0, max - 3)}...` : t;
}

/**
 * A policy pattern that matches `name` alone (case-insensitively, as every pattern does): the
 * name itself when it holds no glob character and does not read as `/regex/flags`, else an
 * anchored regular expression with every special character escaped.
 */
export function literalPattern(name: string): string {
  const plain = name !== '' && !/[*?]/.test(name) && !/^\/.*\/[a-z]*$/s.test(name);
  return plain ? name : `/^${name.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}$/`;
}

const list = (mask: number) => `[${labelsOf(mask).join(', ')}]`;

/** The rule as one flow-mapping line (no leading "- "). */
export function ruleLine(r: PinRule): string {
  const parts = [`name: ${yamlString(literalPattern(r.tool))}`];
  if (r.sources) parts.push(`sources: ${list(r.sources)}`);
  if (r.sinks) parts.push(`sinks: ${list(r.sinks)}`);
  if (r.notSinks) parts.push(`not-sinks: ${list(r.notSinks)}`);
  if (r.verb) parts.push(`verb: ${yamlString(r.verb)}`);
  if (r.words?.length) parts.push(`words: [${r.words.map(yamlString).join(', ')}]`);
  parts.push(`why: ${yamlString(r.why)}`);
  return `{ ${parts.join(', ')} }`;
}

/** The lines of one list entry, without indentation: its comments, then the rule (commented out when disabled). */
function entryLines(r: PinRule, dash: boolean): string[] {
  const comments = r.comments.map((c) => `# ${commentText(c)}`);
  if (r.commentOnly) return comments;
  const rule = `${dash ? '- ' : ''}${ruleLine(r)}`;
  return [...comments, r.disabled ? `# ${rule}` : rule];
}

/** A new policy file holding the rules: it extends the built-in policy. */
export function newPolicyText(rules: readonly PinRule[], header: readonly string[]): string {
  const entries = rules.flatMap((r) => entryLines(r, true));
  return [
    ...header.map((h) => `# ${commentText(h, 400)}`),
    'version: 1',
    'extends: default',
    rules.some(live) ? 'tools:' : 'tools: []',
    ...entries.map((l) => `  ${l}`),
    '',
  ].join('\n');
}

const column = (text: string, at: number) => at - (text.lastIndexOf('\n', at - 1) + 1);
/** Where the line after the one ending at `at` starts (the end of the text when none). */
function nextLineStart(text: string, at: number): number {
  if (at > 0 && text[at - 1] === '\n') return at;
  const nl = text.indexOf('\n', at);
  return nl === -1 ? text.length : nl + 1;
}
function insertAt(text: string, at: number, block: string): string {
  const lead = at === text.length && text !== '' && !text.endsWith('\n') ? '\n' : '';
  return `${text.slice(0, at)}${lead}${block}${text.slice(at)}`;
}
const indented = (lines: readonly string[], pad: string) => lines.map((l) => `${pad}${l}\n`).join('');

/**
 * The team's policy text with the rules added at the end of its `tools` list (a block list, a flow
 * list, or none yet); everything else stays as written. A shape it cannot extend safely is an
 * error naming the file.
 */
export function insertRules(text: string, rules: readonly PinRule[], file: string): string {
  if (rules.length === 0) return text;
  const doc = parseDocument(text);
  const fail = (why: string) =>
    new PolicyError(`${file}: cannot add the suggested tool rules: ${why} (write it as a block mapping with a tools: list)`, file);
  if (doc.errors.length) throw fail(doc.errors[0].message.split('\n')[0]);
  const top = doc.contents;
  // A tools key of its own: `tools: []` when every entry is a comment (an empty `tools:` is no list).
  const newKey = (pad: string) =>
    `${pad}${rules.some(live) ? 'tools:' : 'tools: []'}\n${indented(
      rules.flatMap((r) => entryLines(r, true)),
      `${pad}  `,
    )}`;
  if (top === null || (isScalar(top) && (top.value === null || top.value === undefined))) return insertAt(text, text.length, newKey(''));
  if (!isMap(top) || top.flow || !top.range) throw fail('its top level is not a block mapping');
  const pair = top.items.find((p) => isScalar(p.key) && p.key.value === 'tools');
  if (!pair) return insertAt(text, nextLineStart(text, top.range[1]), newKey(' '.repeat(column(text, top.range[0]))));
  const seq = pair.value;
  if (!isSeq(seq) || !seq.range) throw fail('its tools key does not hold a list written in place');
  if (!seq.flow) {
    const pad = ' '.repeat(column(text, seq.range[0]));
    return insertAt(
      text,
      nextLineStart(text, seq.range[1]),
      indented(
        rules.flatMap((r) => entryLines(r, true)),
        pad,
      ),
    );
  }
  const close = seq.range[1] - 1;
  if (text[close] !== ']') throw fail('its tools list has no closing bracket where expected');
  const pad = ' '.repeat(column(text, (pair.key as { range?: [number, number, number] }).range?.[0] ?? 0) + 2);
  // The comma leads its entry's line: after a comment line it would be commented out.
  let comma = seq.items.length > 0;
  const lines = rules.flatMap((r) => {
    const ls = entryLines(r, false);
    if (!live(r)) return ls;
    const lead = comma ? ', ' : '';
    comma = true;
    return [...ls.slice(0, -1), `${lead}${ls[ls.length - 1]}`];
  });
  const block = lines.map((l) => `\n${pad}${l}`).join('');
  // The bracket on a line of its own: after a comment it would be commented out.
  return `${text.slice(0, close)}${block}\n${pad}${text.slice(close)}`;
}
