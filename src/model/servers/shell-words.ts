/**
 * Command lines as the user sees them: shell-quoted so an error message can be pasted into a
 * terminal, with credentials in flags (--api-key, --hf-token, …) masked, and the `{port}`,
 * `{model}`, `{host}` placeholders of a `command` server filled in safely.
 */

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quotes one word for a POSIX shell; plain words stay as they are. */
export function shellQuote(word: string): string {
  if (word !== '' && SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A flag whose value must never reach a log: --api-key, --hf-token, --password, … */
const SECRET_FLAG = /^--?[\w-]*(key|token|secret|password)[\w-]*$/i;

/** The command as one line, values of secret-looking flags replaced by ***. */
export function displayCommand(file: string, args: readonly string[]): string {
  const out = [shellQuote(file)];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf('=');
    if (arg.startsWith('-') && eq > 0 && SECRET_FLAG.test(arg.slice(0, eq))) {
      out.push(`${arg.slice(0, eq)}=***`);
    } else if (SECRET_FLAG.test(arg) && i + 1 < args.length) {
      out.push(arg, '***');
      i++;
    } else {
      out.push(shellQuote(arg));
    }
  }
  return out.join(' ');
}

export const PLACEHOLDERS = ['port', 'model', 'host'] as const;

/**
 * Fills `{port}`, `{model}` and `{host}` in a shell command. Values are shell-quoted: a model name
 * from a workflow input can never run code of its own. Other braces (JSON in the command) stay.
 */
export function fillPlaceholders(template: string, values: Partial<Record<(typeof PLACEHOLDERS)[number], string>>): string {
  return template.replace(/\{(port|model|host)\}/g, (whole, name: (typeof PLACEHOLDERS)[number]) => {
    const value = values[name];
    return value === undefined ? whole : shellQuote(value);
  });
}

/** The placeholders a template uses. */
export function placeholdersIn(template: string): string[] {
  return [...new Set([...template.matchAll(/\{(port|model|host)\}/g)].map((m) => m[1]))];
}
