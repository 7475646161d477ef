/** `saboteur validate`: the taint validator on a recorded trace, offline. Exit 1 when a sink would be blocked or is unverifiable. */
import { UsageError, parseArgs, usageOf, type FlagSpec } from './args.js';
import { validateTrace } from '../taint/index.js';

const FLAGS: FlagSpec = {
  trace: {
    type: 'string',
    description:
      'a run.json, a saboteur trace, or an OTLP JSON export (GenAI conventions, OpenInference, OpenLLMetry, AI SDK; LLM spans alone are enough)',
  },
  policy: { type: 'string', description: 'policy YAML (default: the built-in policy)' },
  tools: {
    type: 'string',
    description:
      "the MCP server's tool list (tools/list JSON, or a list of definitions): annotations and schemas for traces that carry none",
  },
  format: { type: 'string', description: 'md (default) or json' },
  scope: { type: 'string', description: 'context scope: full (default), one-hop or local' },
  'no-propagation': { type: 'boolean', description: 'ablation: plain reachability instead of label propagation' },
  explain: {
    type: 'boolean',
    description:
      'per staged sink: the request, where each argument value came from, the labels that reached it and along which path, the decision',
  },
};

export const VALIDATE_USAGE = usageOf(
  'validate --trace FILE [--policy FILE] [--tools FILE] [--format md|json] [--explain]',
  'Decides every staged sink of a recorded trace with the taint validator and prints its decision and attribution path.',
  FLAGS,
);

export async function validateCommand(argv: string[], out: { write(s: string): unknown }): Promise<number> {
  if (argv.includes('--help')) {
    out.write(`${VALIDATE_USAGE}\n`);
    return 0;
  }
  const { flags, positionals } = parseArgs(argv, FLAGS, VALIDATE_USAGE);
  const traceFile = (flags.trace as string | undefined) ?? positionals[0];
  if (!traceFile) throw new UsageError(`name the trace with --trace FILE\n\n${VALIDATE_USAGE}`);
  const format = (flags.format as string | undefined) ?? 'md';
  if (format !== 'md' && format !== 'json') throw new UsageError(`--format must be md or json, got "${format}"`);
  const scope = (flags.scope as string | undefined) ?? 'full';
  if (scope !== 'full' && scope !== 'one-hop' && scope !== 'local')
    throw new UsageError(`--scope must be full, one-hop or local, got "${scope}"`);
  const { exitCode, text } = await validateTrace({
    traceFile,
    policyFile: flags.policy as string | undefined,
    toolsFile: flags.tools as string | undefined,
    format,
    scope,
    propagate: flags['no-propagation'] !== true,
    explain: flags.explain === true,
  });
  out.write(text.endsWith('\n') ? text : `${text}\n`);
  return exitCode;
}
