/** A small, strict argv parser: unknown flags are errors that show the command's usage. */
import { InputError } from '../util/input-error.js';

export class UsageError extends InputError {}

export interface FlagSpec {
  [name: string]: { type: 'string' | 'number' | 'boolean'; description: string; list?: boolean };
}

export interface Parsed {
  positionals: string[];
  flags: Record<string, string | number | boolean | string[] | undefined>;
}

export function parseArgs(argv: string[], spec: FlagSpec, usage: string): Parsed {
  const positionals: string[] = [];
  const flags: Parsed['flags'] = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const def = spec[name];
    if (!def) throw new UsageError(`unknown option --${name}\n\n${usage}`);
    if (def.type === 'boolean') {
      flags[name] = eq === -1 ? true : arg.slice(eq + 1) !== 'false';
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new UsageError(`--${name} needs a value\n\n${usage}`);
    if (def.type === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0 || !Number.isInteger(n))
        throw new UsageError(`--${name} must be a positive whole number, got "${value}"\n\n${usage}`);
      flags[name] = n;
    } else if (def.list) {
      flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
    } else {
      flags[name] = value;
    }
  }
  return { positionals, flags };
}

export function usageOf(command: string, summary: string, spec: FlagSpec): string {
  const lines = Object.entries(spec).map(
    ([name, d]) => `  --${name}${d.type === 'boolean' ? '' : ` <${d.type === 'number' ? 'n' : 'value'}>`}`.padEnd(28) + d.description,
  );
  return `usage: saboteur ${command}\n${summary}\n\noptions:\n${lines.join('\n')}`;
}
