/**
 * Credentials told by their shape, whatever variable or field holds them (docs/security.md,
 * "Secrets"): the environment pass-through holds such values back from the pipeline, and the run
 * log is written without them.
 */

interface SecretShape {
  kind: string;
  /** Matches the credential itself (what a redaction replaces), never much around it. */
  pattern: RegExp;
}

/** A credential after an auth scheme: long, with digits, upper and lower case (not a word of prose). */
const AUTH_VALUE = '(?=[A-Za-z0-9._~+/-]*[0-9])(?=[A-Za-z0-9._~+/-]*[A-Z])(?=[A-Za-z0-9._~+/-]*[a-z])[A-Za-z0-9._~+/-]{16,}=*';

/** Each shape, most specific first. */
const SHAPES: SecretShape[] = [
  { kind: 'a private key', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/ },
  { kind: 'a URL with a password', pattern: /(?<=[a-z][a-z0-9+.-]*:\/\/)[^/\s:@"']*:[^/\s@"']+(?=@)/i },
  {
    kind: 'a webhook URL',
    pattern:
      /https:\/\/(hooks\.slack\.com\/(services|workflows|triggers)|(discord|discordapp)\.com\/api\/webhooks|[a-z0-9-]+\.webhook\.office\.com)\/[A-Za-z0-9/_+-]{10,}/i,
  },
  // Only where a run of token characters starts: tried at every `eyJ` inside one (eyJeyJeyJ…), the
  // pattern would scan the rest of the run from each, quadratic in a long line.
  { kind: 'a JWT', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  // At most 16 spaces after the scheme: the lookbehind is tried at every position of the text, and
  // an unbounded `\s+` would scan a long run of blanks back to its start from each, quadratic.
  {
    kind: 'an authorization header',
    pattern: new RegExp(`(?<=\\b([Bb]asic|[Bb]earer|[Tt]oken|BASIC|BEARER|TOKEN)\\s{1,16})${AUTH_VALUE}`),
  },
  {
    kind: 'a connection string with a key or password',
    pattern: /(?<=\b(AccountKey|SharedAccessKey|SharedAccessSignature|Password|Pwd)=)[^;\s"']{4,}/i,
  },
  {
    kind: 'a known token format',
    pattern:
      /(?<![A-Za-z0-9])(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{20,}|sk-[A-Za-z0-9_-]{20,}|[sr]k_(live|test)_[A-Za-z0-9]{16,}|(AKIA|ASIA)[0-9A-Z]{16}|xox[abposr]-[A-Za-z0-9-]{10,}|npm_[A-Za-z0-9]{30,}|AIza[0-9A-Za-z_-]{35}|pypi-[A-Za-z0-9_-]{50,})/,
  },
];

/** What makes `value` a credential whatever its name, or undefined. */
export function secretValueKind(value: string): string | undefined {
  return SHAPES.find((s) => s.pattern.test(value))?.kind;
}

const GLOBAL_SHAPES = SHAPES.map((s) => ({ kind: s.kind, pattern: new RegExp(s.pattern.source, `${s.pattern.flags}g`) }));

/** `text` with every credential of a known shape replaced by a marker naming its kind. */
export function redactSecretShapes(text: string): string {
  let out = text;
  for (const s of GLOBAL_SHAPES) out = out.replace(s.pattern, `[redacted: ${s.kind}]`);
  return out;
}
