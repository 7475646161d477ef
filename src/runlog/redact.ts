/**
 * The run log without credentials (docs/security.md, "Secrets"): whatever way a secret arrives —
 * the pipeline's answer, a trace, an error message, a stderr tail — every string of the run log is
 * written with the job's own secret values (by name and by shape, read from the environment) and
 * any credential of a known shape replaced by a marker. Pure but for the environment passed in.
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

/**
 * The secret values of an environment: those under a secret's name and those of a credential's
 * shape, each also as it travels in a header (the token part of "basic …" and, decoded, the
 * password of a basic-auth pair, and the basic-auth form of a bare token).
 */
export function secretValuesOf(env: NodeJS.ProcessEnv): string[] {
  const out = new Set<string>();
  for (const [name, raw] of Object.entries(env)) {
    const value = raw?.trim();
    if (!value || value.length < MIN_SECRET_LENGTH) continue;
    const byName = SECRET_NAME.test(name) && !isPlainSetting(value);
    if (!byName && !secretValueKind(value)) continue;
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
  // Longest first, so a value containing another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

/** `text` without the known values and without credentials of a known shape. */
export function redactText(text: string, known: readonly string[]): string {
  let out = text;
  for (const value of known) if (out.includes(value)) out = out.split(value).join(REDACTED);
  return redactSecretShapes(out);
}

/** A copy of `value` with every string (keys included) redacted; the run log is bounded in depth already. */
export function redactDeep<T>(value: T, known: readonly string[]): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, known);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) out[redactText(k, known)] = walk(inner);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
