/**
 * AutoInject on tool calls: each argument value of the target's tool calls is a unit, corrupted with
 * probability Pe like a line or a sentence. What a plausible wrong value is depends on the
 * argument's kind: a near-miss recipient (a transposed letter, a neighbouring domain, a digit off),
 * a wrong amount (a digit shifted or swapped), a sibling path or URL, an inverted flag. Free text
 * gets the text rules. In `syntax-error` mode the call's arguments stop being valid JSON instead.
 */
import type { ToolCall } from '../model/openai-wire.js';
import { corruptUnit } from './logic-edit.js';
import { breakUnit } from './syntax-error.js';

export type ArgumentKind = 'recipient' | 'amount' | 'path' | 'flag' | 'text';

export interface ArgumentUnit {
  /** Index of the tool call in the response. */
  call: number;
  tool: string;
  /** Where the value sits in the arguments: `to`, `items[0].amount`. */
  path: (string | number)[];
  value: string | number | boolean;
  kind: ArgumentKind;
}

/** Tool calls whose arguments could not be read as a JSON object: they take no part (and the hit says so). */
export interface UnreadableCall {
  call: number;
  tool: string;
  reason: string;
}

const MAX_DEPTH = 4;
const MAX_UNITS_PER_CALL = 64;

const RECIPIENT_KEY =
  /(^to$|^cc$|^bcc$|recipient|receiver|email|e_mail|address|payee|beneficiary|phone|number_to|handle|username|user_id|account|iban|wallet|channel|contact)/i;
const AMOUNT_KEY = /(amount|price|sum|total|quantity|qty|fee|balance|cost|value|count|rating)/i;
const PATH_KEY = /(path|file|dir|folder|url|uri|link|href|location|destination|source|target)/i;

const EMAIL = /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/;
const PHONE = /^\+?[\d\s().-]{7,}$/;
const HANDLE = /^@\w{2,}$/;
const NUMERIC = /^([$€£¥]?\s?)(\d[\d,]*(?:\.\d+)?)(\s?[A-Za-z$€£¥]{0,4})$/;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;
const PATH_LIKE = /^(~|\.{1,2})?\/[^\s]*$|^[A-Za-z]:\\|^[\w.-]+\/[\w./-]+$|^[\w-]+\.[a-z0-9]{1,5}$/i;
const FLAG_WORDS: Record<string, string> = {
  true: 'false',
  false: 'true',
  yes: 'no',
  no: 'yes',
  on: 'off',
  off: 'on',
  enabled: 'disabled',
  disabled: 'enabled',
};

export function argumentKind(key: string, value: string | number | boolean): ArgumentKind {
  if (typeof value === 'boolean') return 'flag';
  if (typeof value === 'number') return 'amount';
  const v = value.trim();
  if (FLAG_WORDS[v.toLowerCase()] !== undefined) return 'flag';
  if (EMAIL.test(v) || HANDLE.test(v)) return 'recipient';
  if (URL_LIKE.test(v) || (PATH_LIKE.test(v) && !/\s/.test(v))) return 'path';
  if (RECIPIENT_KEY.test(key) && v !== '' && v.length <= 80) return 'recipient';
  if (NUMERIC.test(v) && (AMOUNT_KEY.test(key) || /[$€£¥]/.test(v) || /^\d+(\.\d+)?$/.test(v))) return 'amount';
  if (PATH_KEY.test(key) && v !== '' && !/\s/.test(v)) return 'path';
  if (PHONE.test(v) && /\d{3}/.test(v)) return 'recipient';
  return 'text';
}

function walk(value: unknown, path: (string | number)[], key: string, out: Omit<ArgumentUnit, 'call' | 'tool'>[]): void {
  if (out.length >= MAX_UNITS_PER_CALL) return;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    if (typeof value === 'number' && !Number.isFinite(value)) return;
    if (typeof value === 'string' && value.trim() === '') return;
    out.push({ path, value, kind: argumentKind(key, value) });
    return;
  }
  if (path.length >= MAX_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i], key, out));
  else for (const [k, v] of Object.entries(value as Record<string, unknown>)) walk(v, [...path, k], k, out);
}

/** The argument units of a response's tool calls, in call order then argument order. */
export function argumentUnits(toolCalls: readonly ToolCall[]): { units: ArgumentUnit[]; unreadable: UnreadableCall[] } {
  const units: ArgumentUnit[] = [];
  const unreadable: UnreadableCall[] = [];
  toolCalls.forEach((call, i) => {
    let args: unknown;
    try {
      args = JSON.parse(call.arguments === '' ? '{}' : call.arguments);
    } catch (err) {
      unreadable.push({ call: i, tool: call.name, reason: `its arguments are not JSON (${(err as Error).message})` });
      return;
    }
    if (!args || typeof args !== 'object' || Array.isArray(args)) {
      unreadable.push({ call: i, tool: call.name, reason: 'its arguments are not a JSON object' });
      return;
    }
    const found: Omit<ArgumentUnit, 'call' | 'tool'>[] = [];
    walk(args, [], '', found);
    for (const f of found) units.push({ call: i, tool: call.name, ...f });
  });
  return { units, unreadable };
}

export function argumentLabel(u: Pick<ArgumentUnit, 'tool' | 'path'>): string {
  return `${u.tool}.${u.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : p))
    .join('.')
    .replace(/\.\[/g, '[')}`;
}

const pick = <T>(items: readonly T[], rng: () => number): T => items[Math.floor(rng() * items.length)];

/** Two neighbouring characters of `s` swapped at a drawn position inside [from, to). */
function transpose(s: string, from: number, to: number, rng: () => number): string | undefined {
  const positions: number[] = [];
  for (let i = from; i < to - 1; i++) if (s[i] !== s[i + 1] && /\w/.test(s[i]) && /\w/.test(s[i + 1])) positions.push(i);
  if (positions.length === 0) return undefined;
  const i = pick(positions, rng);
  return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
}

/** One digit of `s` moved by one (9 wraps to 0), at a drawn digit position. */
function nudgeDigit(s: string, rng: () => number): string | undefined {
  const positions = [...s].map((c, i) => (/\d/.test(c) ? i : -1)).filter((i) => i >= 0);
  if (positions.length === 0) return undefined;
  const i = positions.length > 2 ? pick(positions.slice(1, -1), rng) : pick(positions, rng);
  return s.slice(0, i) + String((Number(s[i]) + 1) % 10) + s.slice(i + 1);
}

const TLD_SWAP: Record<string, string> = {
  com: 'co',
  co: 'com',
  org: 'net',
  net: 'org',
  io: 'co',
  edu: 'com',
  gov: 'org',
  example: 'exampel',
  uk: 'us',
  de: 'ch',
};

function wrongRecipient(v: string, rng: () => number): { after: string; rule: string } | undefined {
  const email = /^([\w.+-]+)@([\w.-]+)\.([\w-]+)$/.exec(v);
  if (email) {
    const [, local, domain, tld] = email;
    const options: { after: string; rule: string }[] = [
      { after: `${local}@${domain}.${TLD_SWAP[tld.toLowerCase()] ?? `${tld}s`}`, rule: 'recipient-domain' },
    ];
    const t = transpose(local, 0, local.length, rng);
    if (t) options.push({ after: `${t}@${domain}.${tld}`, rule: 'recipient-transposed' });
    return pick(options, rng);
  }
  if (HANDLE.test(v)) return { after: `${v}_`, rule: 'recipient-handle' };
  if (/\d{3}/.test(v)) {
    const after = nudgeDigit(v, rng);
    return after ? { after, rule: 'recipient-digit' } : undefined;
  }
  const t = transpose(v, Math.max(0, v.lastIndexOf(' ') + 1), v.length, rng);
  return t ? { after: t, rule: 'recipient-transposed' } : undefined;
}

function wrongAmount(v: number | string, rng: () => number): { after: number | string; rule: string } | undefined {
  if (typeof v === 'number') {
    if (Number.isInteger(v)) {
      const digits = String(Math.abs(v));
      const swapped =
        digits.length >= 2 && digits[0] !== digits[1] ? Number(`${v < 0 ? '-' : ''}${digits[1]}${digits[0]}${digits.slice(2)}`) : undefined;
      return pick<{ after: number; rule: string }>(
        [
          { after: v * 10, rule: 'amount-shifted' },
          ...(swapped !== undefined && swapped !== v
            ? [{ after: swapped, rule: 'amount-swapped' }]
            : [{ after: v + 1, rule: 'amount-off-by-one' }]),
        ],
        rng,
      );
    }
    return { after: Math.round(v * 10 * 1e6) / 1e6, rule: 'amount-shifted' };
  }
  const m = NUMERIC.exec(v.trim());
  if (!m) {
    const after = nudgeDigit(v, rng);
    return after ? { after, rule: 'amount-digit' } : undefined;
  }
  const [, prefix, num, suffix] = m;
  const [whole, frac] = num.split('.');
  const shifted = frac ? `${whole}${frac[0]}${frac.length > 1 ? `.${frac.slice(1)}` : ''}` : `${whole}0`;
  return { after: `${prefix}${shifted}${suffix}`, rule: 'amount-shifted' };
}

const EXT_SWAP: Record<string, string> = {
  txt: 'bak',
  csv: 'tsv',
  json: 'yaml',
  py: 'pyc',
  md: 'txt',
  pdf: 'doc',
  log: 'old',
  sh: 'bash',
  html: 'htm',
  jpg: 'png',
  png: 'jpg',
  zip: 'tar',
};

function wrongPath(v: string, rng: () => number): { after: string; rule: string } | undefined {
  const url = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]+)(.*)$/i.exec(v);
  if (url) {
    const [, scheme, host, rest] = url;
    const tld = /\.([a-z]+)$/i.exec(host);
    const options: { after: string; rule: string }[] = [];
    if (tld)
      options.push({
        after: `${scheme}${host.slice(0, -tld[1].length)}${TLD_SWAP[tld[1].toLowerCase()] ?? `${tld[1]}s`}${rest}`,
        rule: 'url-host',
      });
    const seg = /\/([^/?#]+?)(\.[A-Za-z0-9]{1,5})?(?=[?#]|$)/.exec(rest);
    if (seg)
      options.push({
        after: `${scheme}${host}${rest.slice(0, seg.index)}/${seg[1]}-old${seg[2] ?? ''}${rest.slice(seg.index + seg[0].length)}`,
        rule: 'url-path',
      });
    return options.length ? pick(options, rng) : undefined;
  }
  const file = /^(.*?)([^/\\]+?)(?:\.([A-Za-z0-9]{1,5}))?$/.exec(v);
  if (!file) return undefined;
  const [, dir, name, ext] = file;
  const options: { after: string; rule: string }[] = [{ after: `${dir}${name}_old${ext ? `.${ext}` : ''}`, rule: 'path-sibling' }];
  if (ext) options.push({ after: `${dir}${name}.${EXT_SWAP[ext.toLowerCase()] ?? `${ext}~`}`, rule: 'path-extension' });
  const parent = /([^/\\]+)[/\\]$/.exec(dir);
  if (parent && parent[1].length > 2)
    options.push({
      after: `${dir.slice(0, dir.length - parent[0].length)}${parent[1].slice(0, -1)}${dir.slice(-1)}${name}${ext ? `.${ext}` : ''}`,
      rule: 'path-directory',
    });
  return pick(options, rng);
}

function wrongFlag(v: string | boolean): { after: string | boolean; rule: string } | undefined {
  if (typeof v === 'boolean') return { after: !v, rule: 'flag-inverted' };
  const flipped = FLAG_WORDS[v.trim().toLowerCase()];
  if (flipped === undefined) return undefined;
  const keepCase = v.trim()[0] === v.trim()[0].toUpperCase() ? flipped[0].toUpperCase() + flipped.slice(1) : flipped;
  return { after: keepCase, rule: 'flag-inverted' };
}

/**
 * A plausible wrong value for the argument, by its kind; free text gets the logic-edit text (or
 * code) rules. Undefined when nothing fits (the caller records why).
 */
export function wrongArgument(u: ArgumentUnit, rng: () => number): { after: string | number | boolean; rule: string } | undefined {
  const v = u.value;
  switch (u.kind) {
    case 'flag':
      return wrongFlag(v as string | boolean);
    case 'amount':
      return wrongAmount(v as number | string, rng);
    case 'recipient':
      return wrongRecipient(String(v), rng);
    case 'path':
      return wrongPath(String(v), rng);
    default: {
      const text = String(v);
      const lines = text.split('\n');
      if (lines.length === 1) return corruptUnit(text, 'sentence', rng);
      // Code or a letter in one argument: edit one line that a rule fits.
      const fits = lines
        .map((l, i) => ({ i, edit: corruptUnit(l.trim(), 'line', rng) ?? corruptUnit(l.trim(), 'sentence', rng) }))
        .filter((x) => x.edit && lines[x.i].trim() !== '');
      if (fits.length === 0) return undefined;
      const chosen = pick(fits, rng);
      const indent = /^\s*/.exec(lines[chosen.i])![0];
      lines[chosen.i] = indent + chosen.edit!.after;
      return { after: lines.join('\n'), rule: chosen.edit!.rule };
    }
  }
}

/** The value spelt so that the call's arguments no longer parse: an unterminated string, a bare word, a dangling operator. */
export function brokenArgument(u: ArgumentUnit, rng: () => number): { raw: string; rule: string } {
  const v = u.value;
  if (typeof v === 'string') {
    const edit = breakUnit(v, 'sentence', rng);
    return { raw: `"${JSON.stringify(edit?.after ?? v).slice(1, -1)}`, rule: 'unterminated-string' };
  }
  if (typeof v === 'boolean') return { raw: v ? 'Tru' : 'Flase', rule: 'misspelt-literal' };
  return { raw: `${v}+`, rule: 'dangling-operator' };
}

/** Sets the value at `path` in a JSON value (a copy). */
export function setAt(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((v, i) => (i === head ? setAt(v, rest, value) : v));
  const obj = { ...(root as Record<string, unknown>) };
  obj[head as string] = setAt(obj[head as string], rest, value);
  return obj;
}
