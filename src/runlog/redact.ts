/**
 * The run log and the live log without credentials (docs/security.md, "Secrets"): whatever way a
 * secret arrives — the pipeline's answer, a trace, an error message, a stderr tail, the cause of a
 * failure printed while the run goes — every string written or printed has the job's own secret
 * values (by name, by shape and by declaration, read from the environment) and any credential of a
 * known shape replaced by a marker. Pure but for the environment passed in.
 */
import { redactSecretShapes, secretValueKind } from '../util/secrets.js';

const REDACTED = '[redacted]';
const MIN_SECRET_LENGTH = 8;
/** Names of the job's credentials (the pipeline's secret-name rule without the INPUT_ and ACTIONS_ prefixes, whose values are mostly settings). */
const SECRET_NAME =
  /TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|COOKIE|PRIVATE|SIGNING|BEARER|JWT|(^|_)PASS($|_)|_PWD$|AUTH(?!OR)|(^|_)KEYS?($|_)|APIKEY|API_KEY|ACCESS_?KEY|_DSN$|GIT_CONFIG_VALUE/i;

/** Looks like a setting, not a secret: a path, a number, a word of a few letters. */
function isPlainSetting(value: string): boolean {
  return value.startsWith('/') || /^(\d+|true|false|yes|no|on|off)$/i.test(value) || (!/[0-9]/.test(value) && /^[a-z-]+$/i.test(value));
}

/** Adds `value` and the forms it takes in a header: the token of "basic …" and, decoded, the password of a basic-auth pair, or the basic-auth form of a bare token. */
function addWithHeaderForms(out: Set<string>, value: string): void {
  out.add(value);
  const scheme = /\b(basic|bearer|token)\s+(\S{8,})/i.exec(value);
  if (scheme) {
    out.add(scheme[2]);
    if (/^basic$/i.test(scheme[1])) {
      const pair = Buffer.from(scheme[2], 'base64').toString('utf8');
      const password = pair.slice(pair.indexOf(':') + 1);
      if (pair.includes(':') && password.length >= MIN_SECRET_LENGTH) out.add(password);
    }
  } else if (!/\s/.test(value)) {
    out.add(Buffer.from(`x-access-token:${value}`).toString('base64'));
  }
}

/**
 * The secret values of an environment: those under a secret's name, those of a credential's
 * shape, and those under the `declared` names whatever they look like (pipeline.secrets, the
 * model's and the judge's api-key-env), each also as it travels in a header.
 */
export function secretValuesOf(env: NodeJS.ProcessEnv, declared: readonly string[] = []): string[] {
  const out = new Set<string>();
  const named = new Set(declared);
  for (const [name, raw] of Object.entries(env)) {
    const value = raw?.trim();
    if (!value || value.length < MIN_SECRET_LENGTH) continue;
    const byName = named.has(name) || (SECRET_NAME.test(name) && !isPlainSetting(value));
    if (!byName && !secretValueKind(value)) continue;
    addWithHeaderForms(out, value);
  }
  // Longest first, so a value containing another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * What every string saboteur writes or prints passes through: the known values replaced by
 * `[redacted]`, then credentials of a known shape by `[redacted: <shape>]` (docs/security.md,
 * "Secrets"). One per run, shared by the run log and the live log, so both say the same.
 */
export interface Redactor {
  /** `text` without the known values and credentials of a known shape. */
  text(text: string): string;
  /** A copy of `value` with every string (keys included) redacted; the run log is bounded in depth already. */
  deep<T>(value: T): T;
  /** Values learned as the run goes (a key saboteur drew for a model server); redacted from then on. */
  add(...values: (string | undefined)[]): void;
  /** Every value known so far, longest first. */
  values(): readonly string[];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A redactor of `known` values; `onValue` is told each value once, as it becomes known (the action
 * masks it in the runner's log). The values are one precompiled alternation, longest first, so a
 * line is scanned once for all of them, and compiled again only when a value is added.
 */
export function createRedactor(known: Iterable<string>, onValue?: (value: string) => void): Redactor {
  const values = new Set<string>();
  let sorted: string[] = [];
  let matcher: RegExp | undefined;
  const add = (...more: (string | undefined)[]) => {
    let grew = false;
    for (const value of more) {
      if (!value || value.length < MIN_SECRET_LENGTH || values.has(value)) continue;
      values.add(value);
      grew = true;
      onValue?.(value);
    }
    if (!grew) return;
    sorted = [...values].sort((a, b) => b.length - a.length);
    matcher = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
  };
  add(...known);
  const text = (input: string): string => redactSecretShapes(matcher ? input.replace(matcher, REDACTED) : input);
  const deep = <T>(value: T): T => {
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return text(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object') {
        const out: Record<string, unknown> = {};
        for (const [k, inner] of Object.entries(v)) out[text(k)] = walk(inner);
        return out;
      }
      return v;
    };
    return walk(value) as T;
  };
  return { text, deep, add, values: () => sorted };
}

/** `text` without the known values and without credentials of a known shape. */
export function redactText(text: string, known: readonly string[]): string {
  return createRedactor(known).text(text);
}

/** A copy of `value` with every string (keys included) redacted. */
export function redactDeep<T>(value: T, known: readonly string[]): T {
  return createRedactor(known).deep(value);
}
