/**
 * Credentials as values (docs/taint-policy.md, "Credentials"). A read is labelled CREDENTIAL_ACCESS
 * by what it returns (its name, its description), but a record that holds a key-safe code beside a
 * customer's name and address is not all secret: what must not leave is the value of the field
 * that names a credential (`key_safe_code`, `password`, `api_token`). Where every read that owns
 * the label shows its secrets that way, an edge into a call carries the label only when the call's
 * text carries one of them; a read whose secret cannot be located (plain text, no such field)
 * keeps the label on all it returns.
 */
import { normalizeText } from '../content-links.js';
import { bitOf } from '../labels.js';
import { namesASecret } from '../argument-roles.js';
import { itemReading, type Item } from './items.js';

const CREDENTIAL_BIT = bitOf('CREDENTIAL_ACCESS');

const MAX_DEPTH = 8;
const MAX_FIELDS = 5_000;
const MAX_LINES = 5_000;
const MAX_TEXT = 20_000;
/** A secret longer than this is not kept whole: the read's secrets are then not located. */
const MAX_VALUE = 200;
/** Secrets kept at the most: each call's text is checked against every one. */
const MAX_SECRETS = 256;
/** A secret value that holds no letter or digit (`"***"`, `""`) or is a flag (`true`) marks a field, not a secret. */
const NO_SECRET = /^(?:true|false|null|none|n\/a|yes|no)$/i;

/**
 * The secrets found in one read, normalised, and whether the search stopped at a bound (a field
 * past the depth or the count read, a text or a value past its length, more secrets than are
 * kept): a secret could then stand where it did not look, and the read's are not located.
 */
class Found {
  readonly values = new Set<string>();
  partial = false;

  add(value: string): void {
    if (value.length > MAX_VALUE || this.values.size >= MAX_SECRETS) {
      this.partial = true;
      return;
    }
    const n = normalizeText(value);
    if (n !== '' && /[\p{L}\p{N}]/u.test(n) && !NO_SECRET.test(n)) this.values.add(n);
  }
}

/**
 * The values of a record's fields (any depth) whose key names a credential, and the secrets its
 * texts name inline; and how many plain values it has.
 */
function recordSecrets(record: unknown, found: Found): number {
  let seen = 0;
  let leaves = 0;
  const walk = (x: unknown, depth: number): void => {
    if (x === null || typeof x !== 'object') return;
    if (depth > MAX_DEPTH) {
      found.partial = true;
      return;
    }
    for (const [key, field] of Object.entries(x as Record<string, unknown>)) {
      if (++seen > MAX_FIELDS) {
        found.partial = true;
        return;
      }
      const plain = typeof field === 'string' || typeof field === 'number';
      if (plain) leaves++;
      if (plain && !Array.isArray(x) && namesASecret(key)) found.add(String(field));
      else if (typeof field === 'string') inlineSecrets(field, found);
      else walk(field, depth + 1);
    }
  };
  walk(record, 0);
  return leaves;
}

/** Secrets named in prose: a token with a digit in it after words that name a credential ("alarm code is 0926", "wifi password Sunny2024"). */
function inlineSecrets(text: string, found: Found): void {
  if (text.length > MAX_TEXT) found.partial = true;
  const ws = text.slice(0, MAX_TEXT).split(/\s+/);
  for (let i = 1; i < ws.length; i++) {
    const tok = ws[i].replace(/^[("'«]+|[)"'».,;:!?]+$/g, '');
    if (!/\d/.test(tok) || tok.length < 3 || tok.length > 64) continue;
    const before = ws
      .slice(Math.max(0, i - 4), i)
      .map((w) => w.replace(/[^\p{L}\p{N}_-]/gu, ''))
      .filter((w) => w && !LINKING.has(w.toLowerCase()));
    for (let k = 1; k <= Math.min(2, before.length); k++)
      if (namesASecret(before.slice(before.length - k).join(' '))) {
        found.add(tok);
        break;
      }
  }
}

/** Words between a credential's name and its value ("the code is 0926", "code: 0926"). */
const LINKING = new Set(['is', 'are', 'was', 'of', 'the', 'a', 'its', 'their', 'to', 'for', 'now', 'new']);
/** A record of this many plain values or more shows what each is: where none names a secret, it holds none. */
const SHOWN_FIELDS = 4;

/** The values of `Label: value` lines whose label names a credential ("Alarm code: 0926"). */
function lineSecrets(text: string, found: Found): void {
  const lines = text.split('\n');
  if (lines.length > MAX_LINES) found.partial = true;
  for (const line of lines.slice(0, MAX_LINES)) {
    const m = /^\s*(?:[-*•]\s+)?([^:\n]{1,40}):\s+(\S.*)$/.exec(line);
    if (m && namesASecret(m[1])) found.add(m[2]);
  }
}

/** The secrets a run's reads showed, and whether they account for every read that owns the credential label. */
export class Secrets {
  private readonly values: string[];
  /** Every item that owns CREDENTIAL_ACCESS is a tool result whose secrets were located. */
  readonly located: boolean;

  /** `ownLabels`: a node's own labels (the graph's, after labelling: a team's content rule may add the label too). */
  constructor(items: readonly Item[], ownLabels: (node: number) => number) {
    const all = new Set<string>();
    let located = true;
    for (const it of items) {
      if ((ownLabels(it.node) & CREDENTIAL_BIT) === 0) continue;
      const found = new Found();
      let shown = false;
      if (it.kind === 'tool' || it.kind === 'sink') {
        const reading = itemReading(it);
        if (reading.record !== undefined) shown = recordSecrets(reading.record, found) >= SHOWN_FIELDS;
        else {
          lineSecrets(it.output, found);
          inlineSecrets(it.output, found);
        }
      }
      // A search stopped at a bound, and what it did not read could leave unseen: the label then stays on all of it.
      if ((found.values.size === 0 && !shown) || found.partial) located = false;
      for (const v of found.values) all.add(v);
      if (all.size > MAX_SECRETS) located = false;
    }
    this.values = [...all];
    this.located = located;
  }

  /** Whether a text carries one of the secrets: its words, or a number's digits run together ("0 9 2 6"). */
  carriedBy(text: string): boolean {
    const n = ` ${normalizeText(text)} `;
    const digits = text.replace(/\D+/g, '');
    return this.values.some((s) => n.includes(` ${s} `) || (/^[\d ]+$/.test(s) && digits.includes(s.replace(/ /g, ''))));
  }

  /** The mask an edge into a call keeps when none of `texts` carries a secret: all of `mask` but the credential label. */
  maskFor(mask: number, texts: readonly string[]): number {
    if (!this.located || (mask & CREDENTIAL_BIT) === 0 || texts.some((t) => this.carriedBy(t))) return mask;
    return mask & ~CREDENTIAL_BIT;
  }
}
