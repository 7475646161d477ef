/**
 * `saboteur policy suggest --trace FILE [--policy FILE] [--tools FILE] [--out FILE] [--format md|json]`
 * (docs/taint-policy.md, "Writing a policy from a trace"): every tool a recorded trace shows, with
 * what the validator infers it does and on what evidence, and a policy with one rule per tool
 * that pins it, for the team to review and commit. Reads what `saboteur validate` reads.
 */
import { parseArgs, usageOf, UsageError, type FlagSpec } from './args.js';
import { EXIT, wantsHelp, type CliIo } from './io.js';
import { writeFileAtomic } from '../runlog/write.js';
import { LIMITS } from '../util/input-file.js';
import { limitText } from '../util/body-limit.js';
import { defaultPolicy, parsePolicy, readPolicyText, PolicyError } from '../taint/policy.js';
import { buildNamedTrace, readTraceText, tracesOfDocument, withToolList, TraceInputError } from '../taint/validate-trace.js';
import { readToolList } from '../taint/tool-list.js';
import { suggestPolicy, toolsSeen } from '../taint/suggest.js';
import { renderSuggestMarkdown, suggestJson } from '../taint/suggest-report.js';

const FLAGS: FlagSpec = {
  trace: {
    type: 'string',
    description: 'a run.json, a saboteur trace, or an OTLP JSON export (what saboteur validate reads)',
  },
  policy: { type: 'string', description: "the team's policy: its rules apply, and the new rules are added to its text" },
  tools: { type: 'string', description: "the MCP server's tool list (tools/list JSON): annotations and schemas the trace does not carry" },
  out: { type: 'string', description: 'write the policy here (default: stdout, and the listing to stderr)' },
  format: { type: 'string', description: 'the listing: md (default) or json' },
};

export const SUGGEST_USAGE = usageOf(
  'policy suggest --trace FILE [--policy FILE] [--tools FILE] [--out FILE] [--format md|json]',
  'Lists every tool of a recorded trace with what the validator infers it does and why, and writes a policy that pins each one, guesses marked for review.',
  FLAGS,
);

/** More tools than one policy file should pin: a trace that names this many is not a pipeline's toolset. */
export const MAX_TOOLS = 2000;

function header(traceFile: string): string[] {
  return [
    `Tool rules written by saboteur policy suggest from ${JSON.stringify(traceFile)}.`,
    'Each rule pins what the validator inferred for one tool of the trace, so that a change of the',
    'built-in word lists cannot change it; its why says on what evidence. A rule marked "review" is',
    "a guess from the tool's name or description: check it. Fix a wrong rule here, once, and commit",
    'it (docs/taint-policy.md, "Writing a policy from a trace").',
  ];
}

async function suggest(argv: string[], io: CliIo): Promise<number> {
  if (wantsHelp(argv, SUGGEST_USAGE, io)) return EXIT.ok;
  const { flags, positionals } = parseArgs(argv, FLAGS, SUGGEST_USAGE);
  const traceFile = (flags.trace as string | undefined) ?? positionals[0];
  if (!traceFile) throw new UsageError(`name the trace with --trace FILE\n\n${SUGGEST_USAGE}`);
  const format = (flags.format as string | undefined) ?? 'md';
  if (format !== 'md' && format !== 'json') throw new UsageError(`--format must be md or json, got "${format}"`);
  const policyFile = flags.policy as string | undefined;
  const out = flags.out as string | undefined;

  const text = await readTraceText(traceFile);
  const base = policyFile !== undefined ? { text: await readPolicyText(policyFile), file: policyFile } : undefined;
  const policy = base ? parsePolicy(base.text, base.file) : defaultPolicy();
  const list = flags.tools !== undefined ? await readToolList(flags.tools as string) : undefined;
  const traces = withToolList(tracesOfDocument(text, traceFile), list).map((t) => ({ input: t.input, built: buildNamedTrace(t, policy) }));
  const seen = toolsSeen(traces);
  if (seen.length === 0)
    throw new TraceInputError(
      `${traceFile}: no tool call or tool definition can be read from the file, so there is no tool to write a rule for`,
    );
  if (seen.length > MAX_TOOLS)
    throw new TraceInputError(`${traceFile}: ${seen.length} different tools, over the ${MAX_TOOLS} one policy file pins`);

  const result = suggestPolicy(policy, seen, {
    out: out ?? '(the suggested policy)',
    ...(base ? { base } : { header: header(traceFile) }),
  });
  const size = Buffer.byteLength(result.text);
  if (size > LIMITS.policy)
    throw new PolicyError(
      `${out ?? '(the suggested policy)'}: the policy would be ${limitText(size)}, over the ${limitText(LIMITS.policy)} a policy file may hold (${seen.length} tools)`,
      out ?? '',
    );
  const summary = { traceFile, policySource: policy.source, traces: traces.length, ...(out !== undefined ? { out } : {}) };
  if (out !== undefined) await writeFileAtomic(out, result.text);
  if (format === 'json') io.stdout.write(suggestJson(result.tools, summary, result.text));
  else if (out !== undefined) io.stdout.write(renderSuggestMarkdown(result.tools, summary));
  else {
    io.stdout.write(result.text);
    io.stderr.write(renderSuggestMarkdown(result.tools, summary));
  }
  return EXIT.ok;
}

export async function policyCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'suggest') return suggest(rest, io);
  if (sub === '--help') return wantsHelp([sub], SUGGEST_USAGE, io) ? EXIT.ok : EXIT.usage;
  throw new UsageError(
    `${sub === undefined ? 'name a policy command' : `unknown policy command "${sub}"`}: saboteur policy suggest --trace FILE\n\n${SUGGEST_USAGE}`,
  );
}
