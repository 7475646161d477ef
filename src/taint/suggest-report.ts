/**
 * What `saboteur policy suggest` prints about the tools it saw (docs/taint-policy.md, "Writing a
 * policy from a trace"): one row per tool with its inferred effect, labels, whether structure or a
 * guess decided it, and the evidence; then the tools no rule pins, and why. Markdown escapes
 * every string that came from the trace (src/report/escape.ts); JSON carries them as data.
 */
import { code, escapeInline } from '../report/escape.js';
import type { ToolSuggestion } from './suggest.js';

export interface SuggestSummary {
  traceFile: string;
  policySource: string;
  traces: number;
  /** Where the policy went: a file, or undefined for stdout. */
  out?: string;
}

const STRUCTURE = { spec: 'its tool spec', policy: 'a policy rule', annotations: 'its MCP annotations', method: 'its HTTP method' };
const GUESS = { name: 'its name', description: 'its description', nothing: 'nothing (fail-closed)' };

/** "structure: its tool spec" or "guess: its name". */
export function decidedBy(t: ToolSuggestion): string {
  return t.basis in STRUCTURE
    ? `structure: ${STRUCTURE[t.basis as keyof typeof STRUCTURE]}`
    : `guess: ${GUESS[t.basis as keyof typeof GUESS]}`;
}

function seenIn(t: ToolSuggestion): string {
  const parts = [...(t.calls ? [`${t.calls} call${t.calls === 1 ? '' : 's'}`] : []), ...(t.inDefinitions ? ['definitions'] : [])];
  return parts.join(', ');
}

function status(t: ToolSuggestion): 'pinned' | 'review' | 'already pinned' | 'not pinned' {
  if (t.pinnedBy) return 'already pinned';
  if (!t.pin || t.pin.disabled) return 'not pinned';
  return t.guess ? 'review' : 'pinned';
}

export function renderSuggestMarkdown(tools: readonly ToolSuggestion[], s: SuggestSummary): string {
  const labels = (t: ToolSuggestion) => [...t.sources, ...t.sinks].map((l) => code(l)).join(', ') || '–';
  const lines = [
    `# saboteur policy suggest: ${escapeInline(s.traceFile, 200)}`,
    '',
    `policy: ${escapeInline(s.policySource, 200)} · ${s.traces} trace${s.traces === 1 ? '' : 's'} · ${tools.length} tool${tools.length === 1 ? '' : 's'}`,
    '',
    '| tool | seen in | effect | labels | decided by | rule | evidence |',
    '|---|---|---|---|---|---|---|',
    ...tools.map(
      (t) =>
        `| ${code(t.tool, 80)} | ${seenIn(t)} | ${t.effect}${t.verb ? ` (${code(t.verb, 40)})` : ''} | ${labels(t)} | ${decidedBy(t)} | ${status(t)}${t.pinnedBy ? ` (${escapeInline(t.pinnedBy, 40)})` : ''} | ${escapeInline(t.evidence.join('; ') || '–', 300)} |`,
    ),
    '',
  ];
  const perCall = tools.filter((t) => t.perCall.length);
  if (perCall.length) {
    lines.push('Decided call by call (argument-level rules, URL arguments), never pinned:', '');
    for (const t of perCall) lines.push(`- ${code(t.tool, 80)}: ${escapeInline(t.perCall.join('; '), 400)}`);
    lines.push('');
  }
  const unpinned = tools.filter((t) => t.unpinned);
  if (unpinned.length) {
    lines.push('Not pinned:', '');
    for (const t of unpinned) lines.push(`- ${code(t.tool, 80)}: ${escapeInline(t.unpinned!, 400)}`);
    lines.push('');
  }
  const count = (x: ReturnType<typeof status>) => tools.filter((t) => status(t) === x).length;
  lines.push(
    `${count('pinned') + count('review')} rules written (${count('review')} guesses marked for review), ${count('not pinned')} not pinned, ${count('already pinned')} already pinned; policy ${s.out ? `written to ${escapeInline(s.out, 200)}` : 'on stdout'}`,
  );
  return `${lines.join('\n')}\n`;
}

/** The listing as data; `policy` is the written file's name or, on stdout, its text. */
export function suggestJson(tools: readonly ToolSuggestion[], s: SuggestSummary, text: string): string {
  return `${JSON.stringify(
    {
      trace: s.traceFile,
      policy: s.out ? { file: s.out, basedOn: s.policySource } : { text, basedOn: s.policySource },
      traces: s.traces,
      tools: tools.map((t) => ({
        tool: t.tool,
        calls: t.calls,
        inDefinitions: t.inDefinitions,
        effect: t.effect,
        sources: t.sources,
        sinks: t.sinks,
        verb: t.verb ?? null,
        basis: t.basis,
        guess: t.guess,
        decidedBy: decidedBy(t),
        evidence: t.evidence,
        perCall: t.perCall,
        rule: status(t),
        ...(t.pinnedBy ? { pinnedBy: t.pinnedBy } : {}),
        ...(t.unpinned ? { unpinned: t.unpinned } : {}),
      })),
    },
    null,
    2,
  )}\n`;
}
