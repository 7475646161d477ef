/**
 * What each argument of a tool call is for, from the policy's target rules, the tool's JSON schema
 * (format, type, enum) and the argument's name and value. Authority-bearing roles decide where the
 * call acts (recipient, url, payee, path, command) or what it moves or unlocks (amount,
 * credential): these need provenance. Content (subject, title, body) is written by the model and
 * only carries the labels of its context; an object (a ticket, booking or document id) names what
 * the call acts on and can show that the request named it.
 */
import { stem, words } from './lexicon.js';
import type { Policy } from './policy.js';

export const ARGUMENT_ROLES = [
  'recipient',
  'url',
  'payee',
  'path',
  'command',
  'amount',
  'credential',
  'object',
  'content',
  'choice',
  'other',
] as const;
export type ArgumentRole = (typeof ARGUMENT_ROLES)[number];

/** Roles whose value must come from somewhere the request or the policy vouches for. */
export const TARGET_ROLES: ReadonlySet<ArgumentRole> = new Set(['recipient', 'url', 'payee', 'path', 'command']);
/** Roles that need provenance: the targets, plus what an attacker would want to set (an amount, a secret). */
export const AUTHORITY_ROLES: ReadonlySet<ArgumentRole> = new Set([...TARGET_ROLES, 'amount', 'credential']);

export interface SchemaProperty {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  description?: string;
  items?: SchemaProperty;
}

/** The JSON-schema property of an argument, looked up by name at any depth. */
export function schemaProperty(schema: Record<string, unknown> | undefined, name: string): SchemaProperty | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const props = (schema as { properties?: Record<string, unknown> }).properties;
  if (props && typeof props === 'object') {
    const direct = props[name];
    if (direct && typeof direct === 'object') return direct as SchemaProperty;
    for (const p of Object.values(props)) {
      if (!p || typeof p !== 'object') continue;
      const nested =
        schemaProperty(p as Record<string, unknown>, name) ?? schemaProperty((p as { items?: Record<string, unknown> }).items, name);
      if (nested) return nested;
    }
  }
  return undefined;
}

const SETS = new Map<string, ReadonlySet<string>>();
/** Whether the (stemmed) words include any of `xs`; the stemmed lists are built once. */
const has = (ws: readonly string[], ...xs: string[]) => {
  const key = xs.join(' ');
  let set = SETS.get(key);
  if (!set) SETS.set(key, (set = new Set(xs.map(stem))));
  return ws.some((w) => set!.has(w));
};

export const EMAIL = /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/;
// A link with its scheme, or a host written as people write one ("www.informations.com/page").
/** A host written bare ("meet.google.com/abc-defg", "example.org"): a link without its scheme. */
const HOST_SHAPED = /^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.[a-z]{2,}(?:[/?#:]\S*)?$/iu;
const URL_VALUE = /^(?:(?:https?|ftp|wss?):\/\/\S+|www\.[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+(?:[/?#]\S*)?)$/iu;
export const IBAN = /^[A-Z]{2}\d{2}(?: ?[A-Z0-9]{2,4}){3,8}$/;
const PHONE_SHAPE = /^\+?\d[\d ()/-]{6,}\d$/;
/**
 * A phone number as people write one: at most fifteen digits past an international "00" (E.164);
 * a longer run in groups is an account ("11773016-20481156-00000000") or a record's number.
 */
const PHONE = { test: (v: string) => PHONE_SHAPE.test(v) && v.replace(/\D/g, '').replace(/^00/, '').length <= 15 };
export const DATE = /^\d{4}-\d{2}-\d{2}|^\d{1,2}[./]\d{1,2}[./]\d{2,4}$/;
/** The schema formats of a date, a time or a span of time: an argument in one says when, not what or whom. */
export const TIME_FORMATS: ReadonlySet<string> = new Set(['date', 'date-time', 'time', 'duration']);

/** The policy's rule for this argument (`arguments`, then target kinds, which are roles too): the team's own first, then a built-in one. */
function policyRule(policy: Policy, tool: string, name: string): Policy['argumentRoles'][number] | Policy['targets'][number] | undefined {
  const rules = [...policy.argumentRoles, ...policy.targets].filter((r) => r.tool.test(tool) && r.argument.test(name));
  return rules.find((r) => !r.at.startsWith('default ')) ?? rules[0];
}

/**
 * The words of argument names, by what they say the argument is (matched stemmed, by `has`);
 * `byName` decides in which order they are tried.
 */
const NAME_WORDS = {
  /** A command or script to run. */
  command: ['command', 'cmd', 'script', 'program', 'shell'],
  /** Source code: a command in a tool that runs code. */
  code: ['code', 'source', 'snippet'],
  /** A secret. */
  credential: ['password', 'passcode', 'passphrase', 'pin', 'secret', 'token', 'otp', 'apikey', 'credential', 'credentials'],
  /** What makes a `...key` a secret (api key, private key, access key). */
  keyKind: ['api', 'private', 'access', 'secret'],
  /** A `...code` that is not a secret (a country code, a promo code, an error code). */
  notASecretCode: [
    'country',
    'currency',
    'language',
    'postal',
    'zip',
    'fare',
    'promo',
    'discount',
    'airport',
    'product',
    'error',
    'status',
    'sort',
    'program',
    'programme',
    'course',
  ],
  /** Where a request goes. */
  url: ['url', 'uri', 'link', 'endpoint', 'webhook', 'website', 'domain', 'host', 'hostname', 'server', 'href', 'callback'],
  /** Where money goes. */
  // A bank's routing number: matched as written (`routing_number`), since "route" stems alike (`routeId` names a delivery route).
  // A bank account by its name in the languages whose tools are read (`rachunek`, `rekening`, `kontonr`, `cislo_uctu`):
  // where money goes. A bare `konto` is a ledger account as often ("konto: 4000").
  payee: [
    'iban',
    'bic',
    'swift',
    'payee',
    'beneficiary',
    'wallet',
    'rachunek',
    'rekening',
    'kontonr',
    'kontonummer',
    'bankkonto',
    'bankgiro',
    'plusgiro',
    'uctu',
    // The same in Hungarian, Romanian and Finnish: `kedvezmenyezettSzamla`, `bankszamla`, `cont_beneficiar`, `tilinumero`.
    'kedvezmenyezett',
    'bankszamla',
    'beneficiar',
    'tilinumero',
  ],
  /** An account that is a payee (account number, account to). */
  accountTarget: ['number', 'to', 'recipient', 'destination', 'target'],
  /** A membership whose number is a credential. */
  membership: ['member', 'loyalty', 'membership', 'frequent'],
  /** The number of a membership. */
  memberNumber: ['number', 'no', 'id'],
  /** How much money. */
  amount: [
    'amount',
    'price',
    'total',
    'sum',
    'budget',
    'rent',
    'fee',
    'cost',
    'payment',
    'credit',
    'salary',
    'wage',
    'tip',
    'donation',
    'refund',
    'monto',
    'importe',
    'montant',
    'valor',
    'importo',
    'bedrag',
    'kwota',
    // "Amount" in the Nordic languages, Czech and Turkish, as names fold them: `beløp`/`belop`, `belopp`, `beløb`, `summa`, `částka`, `tutar`.
    'belop',
    'belopp',
    'belob',
    'summa',
    'castka',
    'tutar',
    // And in Hungarian, Romanian, Croatian and Serbian: `osszeg`, `suma`, `iznos`.
    'osszeg',
    'suma',
    'iznos',
    // A currency code in a name (`amount_usd`, `monto_clp`, `price_eur`) says how much money.
    ...'usd eur gbp chf jpy cad aud nzd mxn clp ars cop pen brl inr cny sek nok dkk pln zar'.split(' '),
  ],
  /** A file or folder. */
  path: ['path', 'file', 'filename', 'filepath', 'directory', 'dir', 'folder'],
  /** Who gets a message, an invitation or a share. */
  recipient: [
    'to',
    'cc',
    'bcc',
    'recipient',
    'recipients',
    'receiver',
    'email',
    'emails',
    'member',
    'members',
    'user',
    'username',
    'handle',
    'phone',
    'contact',
    'channel',
    'chat',
    'room',
    'team',
    'group',
    'assignee',
    'attendee',
    'attendees',
    'invitee',
    'invitees',
    'participant',
    'participants',
    'guest',
    'grantee',
    'friend',
    'forum',
    'subreddit',
    'contractor',
    'vendor',
    'address',
    'mobile',
    'destination',
    // The same in the languages whose requests are read (languages.ts).
    'destinatario',
    'destinatarios',
    'destinataire',
    'destinataires',
    'celular',
    'telemovel',
    'courriel',
    'correo',
    'destinatari',
    'cellulare',
    'telefono',
    'ontvanger',
    'odbiorca',
    'adresat',
  ],
  /** Text the model writes. */
  content: [
    'subject',
    'title',
    'body',
    'text',
    'message',
    'note',
    'notes',
    'description',
    'comment',
    'content',
    'summary',
    'reason',
    'resolution',
    'review',
    'caption',
    'greeting',
    'html',
    'markdown',
    'reference',
    'memo',
    'job',
    'details',
    'question',
    'answer',
    'prompt',
    'query',
    'feedback',
    'instructions',
    'value',
    'name',
    'label',
    'texto',
    'mensagem',
    'mensaje',
    'corps',
    'cuerpo',
    'asunto',
    'assunto',
    'messaggio',
    'testo',
    'oggetto',
    'corpo',
    'bericht',
    'onderwerp',
    'tekst',
    'tresc',
    'temat',
    'wiadomosc',
  ],
  /** The thing the call acts on. */
  object: [
    'ticket',
    'order',
    'booking',
    'reservation',
    'unit',
    'slot',
    'visit',
    'doc',
    'document',
    'trip',
    'card',
    'account',
    'building',
    'product',
    'item',
    'listing',
    'project',
    'repo',
    'repository',
    'issue',
    'invoice',
    'bill',
    'customer',
    'patient',
    'flight',
    'hotel',
    'event',
    'meeting',
    'workspace',
    'primary',
    'duplicate',
    'airline',
  ],
  /** A tax number names a party for the record (`vatNumber` "NO923611458MVA" is shaped like an IBAN): nobody is paid at it. */
  taxId: ['vat', 'tax', 'gst', 'abn', 'nif', 'cif', 'siret', 'ust'],
} as const satisfies Record<string, readonly string[]>;

/** Words that number a record (`numero_commande`, `order_no`): stemmed, as byName's words are. */
const RECORD_NUMBER = new Set(['number', 'no', 'nr', 'num', 'numero', 'nummer', 'numer', 'numéro'].map(stem));

/** Last words that name an entry rather than hold its content (`program_code`, `script_name`). */
const NAMING_LAST = new Set(['code', 'name', 'type', 'title', 'label'].map(stem));

/** Last words that make a name an identifier (`order_id`, `payment_method_id`). */
const ID_LAST = new Set(['id', 'ids', 'ref', 'uuid', 'key']);

/** Whether a key names a secret (`alarm_code`, `apiToken`, `Passwort`), as an argument's name would. */
export function namesASecret(key: string): boolean {
  return byName(words(key).map(stem), false) === 'credential';
}

/** The role an argument's name (its stemmed words) says it has; the first rule that matches decides. */
function byName(ws: readonly string[], codeTool: boolean): ArgumentRole | undefined {
  if (ws.length === 0) return undefined;
  const W = NAME_WORDS;
  const last = ws[ws.length - 1];
  // A command word under a numbering word (`numero_commande`, `order_no`) names a record: French and Italian say "commande" for an order.
  // A command word before a naming word (`program_code`, `script_name`) names a catalogue entry, not code to run.
  const names = ws.length > 1 && !W.command.some((c) => stem(c) === last) && NAMING_LAST.has(last);
  if ((has(ws, ...W.command) && !ws.some((w) => RECORD_NUMBER.has(w)) && !ID_LAST.has(last) && !names) || (codeTool && has(ws, ...W.code)))
    return 'command';
  if (
    has(ws, ...W.credential) ||
    (has(ws, ...W.keyKind) && last === 'key') ||
    (!codeTool && last === stem('code') && !has(ws, ...W.notASecretCode))
  )
    return 'credential';
  if (has(ws, ...W.url)) return 'url';
  if (has(ws, ...W.payee) || (has(ws, 'account') && has(ws, ...W.accountTarget)) || (has(ws, 'card') && has(ws, 'number'))) return 'payee';
  if (has(ws, 'card')) return 'object';
  if (has(ws, ...W.membership) && has(ws, ...W.memberNumber)) return 'credential';
  // An identifier under a money word (`payment_method_id`, `refund_ref`) names the payer's own instrument or a record, not how much.
  if (has(ws, ...W.amount) && !ID_LAST.has(last)) return 'amount';
  if (has(ws, ...W.path)) return 'path';
  // An identifier under an address word (`email_id`, `contact_ref`) names a record, not whom something goes to.
  if ((has(ws, ...W.recipient) && !ID_LAST.has(last)) || (has(ws, 'share') && has(ws, 'with'))) return 'recipient';
  // An identifier under a content word (`reviewId`, `message_id`) names the record, not what is written.
  if (has(ws, ...W.content) && !ID_LAST.has(last)) return 'content';
  if (ID_LAST.has(last) || has(ws, ...W.object) || has(ws, ...W.taxId)) return 'object';
  return undefined;
}

/**
 * The role of argument `name` (value `value`) of `tool`: the policy's target rules first, then
 * the schema's format (email, uri, iban), an enum (a fixed choice), the argument's name, and last
 * the value's shape (an e-mail address, a URL, an IBAN, a phone number).
 */
export function argumentRole(
  policy: Policy,
  tool: string,
  name: string,
  value: string,
  prop?: SchemaProperty,
  siblings?: readonly string[],
): ArgumentRole {
  // A trace calls the same tools with the same arguments over and over: the role depends on the value only through its shape.
  const v = value.trim();
  const shape = EMAIL.test(v)
    ? 'e'
    : URL_VALUE.test(v)
      ? 'u'
      : IBAN.test(v.toUpperCase()) && /\d{2}/.test(v)
        ? 'i'
        : PHONE.test(v) && !DATE.test(v)
          ? 'p'
          : v === 'true' || v === 'false'
            ? 'b'
            : ID_VALUE.test(v)
              ? 'n'
              : sentence(v)
                ? 's'
                : '-';
  let cache = CACHE.get(policy);
  if (!cache) CACHE.set(policy, (cache = new Map()));
  const payeeBeside = siblings?.some((n) => n !== name && namesPayee(n)) ?? false;
  const key = `${tool}\u0000${name}\u0000${shape}${digitsOf(v)}\u0000${payeeBeside ? 'p' : ''}${prop ? JSON.stringify(prop) : ''}`;
  let role = cache.get(key);
  if (role === undefined) {
    role = computeRole(policy, tool, name, v, prop, payeeBeside);
    if (cache.size < 50_000) cache.set(key, role);
  }
  return role;
}

const CACHE = new WeakMap<Policy, Map<string, ArgumentRole>>();

/** What of a value's digits the roles read (notMoney): whether it is a sum, and whether it is an account's run of four digits or more. */
const digitsOf = (v: string) =>
  v === '' ? 'empty' : v.length > 64 ? 'long' : `${SUM.test(v.replace(CURRENCY, '')) ? 's' : '-'}${accountDigits(v) ? 'd' : '-'}`;
/** A run of four digits or more, however it is grouped ("4821 3370", "032-117"): how an account is written. */
const accountDigits = (v: string) => /^\d{4,}$/.test(v.replace(/[\s./-]/g, ''));

/**
 * An argument that says by itself where money goes (`beneficiary_id`, `payee_iban`, `to_account`): not a
 * bare `account`, nor a payee's name (`payee` "Bayview Plumbing", beside which the `account` is theirs).
 */
function namesPayee(name: string): boolean {
  const raw = words(name).map((w) => w.toLowerCase());
  if (byName(raw.map(stem), false) !== 'payee') return false;
  if (raw.some((w) => /^accounts?$/.test(w)) && !raw.some((w) => PAYEE_WORDS.has(w))) return false;
  return ID_LAST.has(raw[raw.length - 1]) || !raw.every((w) => !PAYEE_WORDS.has(w) || PARTY_WORDS.has(w));
}
/** Payee words that name a party, not where it is paid. */
const PARTY_WORDS = new Set(['payee', 'beneficiary', 'recipient', 'to']);

function computeRole(policy: Policy, tool: string, name: string, v: string, prop?: SchemaProperty, payeeBeside = false): ArgumentRole {
  // The team's own rules first, then the schema (a format, an enum: `channel: {enum: [sms, tablet]}`
  // is a choice, not a recipient), then the built-in rules, which read names.
  const rule = policyRule(policy, tool, name);
  if (rule && !rule.at.startsWith('default ')) return 'role' in rule ? rule.role : rule.kind;
  const fromSchema = schemaRole(prop);
  if (fromSchema) return fromSchema;
  const raw = words(name);
  if (rule) return notARecipient(notMoney('role' in rule ? rule.role : rule.kind, v, raw, payeeBeside), v, raw);
  const ws = raw.map(stem);
  // A bound (`min_amount`, `max_price`, `min_kwota`) narrows what is read or allowed: it pays no one and reaches no one.
  if (raw.some((w) => BOUNDS.has(w))) return 'other';
  const role = raw.some((w) => w.toLowerCase() === 'routing') ? 'payee' : byName(ws, isCodeTool(tool));
  if (role === 'object' && has(ws, ...NAME_WORDS.taxId)) return 'object';
  if (role === undefined || role === 'content' || role === 'object') {
    // A value that is plainly an address, a link or an account is that, whatever the argument is called.
    const fromValue = valueRole(v, role === undefined && phoneMayBe(tool, name, v, prop));
    if (fromValue) return fromValue === 'recipient' && sendersOwn(raw) ? 'object' : fromValue;
    // A compound that ends with a numbering word (`dateinummer`, `ordernumber`) numbers a record, where its value is no address or number to reach.
    if (role === undefined && raw.length === 1 && raw[0].length > 6 && /(?:nummer|number|numero|numer)$/i.test(raw[0])) return 'object';
  }
  // A sentence is what is said, not to whom: `note_to_buyer` holds "Partial refund for the chipped rim - sorry!".
  if (role === 'recipient' && sentence(v)) return 'content';
  // A flag is a choice, whatever it is called: `per_email: false` says whether to mail, not to whom.
  if (role === 'recipient' && (v === 'true' || v === 'false')) return 'choice';
  // A name that speaks of a link (`local_ou_link`, `meeting_url`) holding words and no link, host or
  // address ("Google Meet", "Rua Vergueiro, 2045") names a place or a service, not where anything goes.
  if (role === 'url' && /\s/.test(v) && /\p{L}{3,}/u.test(v) && !URL_VALUE.test(v) && !HOST_SHAPED.test(v) && !EMAIL.test(v))
    return 'other';
  // A number under a link's name (`link_expires_hours` 48, `url_ttl` 3600) is how long or how many, not where anything goes.
  if (role === 'url' && /^\d{1,9}(?:[.,]\d+)?$/.test(v.trim())) return 'other';
  if (role !== undefined) return notARecipient(notMoney(role, v, raw, payeeBeside), v, raw);
  const type = Array.isArray(prop?.type) ? prop?.type[0] : prop?.type;
  if (type === 'boolean' || v === 'true' || v === 'false') return 'choice';
  // Digits the schema types as a string are an identifier, not a quantity: the call acts on what they name.
  if (type === 'string' && ID_VALUE.test(v)) return 'object';
  return 'other';
}

/**
 * A value that is no sum is a choice (`fee_waiver` "GOODWILL" or "GW case 57980", `price_tier` "standard"), and
 * an account named by an identifier with letters and few digits (`account_id` "acc_9", "ACC-17") is
 * a record, not an account anyone is paid at: a bank account, a card or a wallet is a run of digits,
 * an IBAN or an address. An account the money comes from (`from_account`, `debit_account`, or a bare
 * `account_id` beside an argument that names the payee: `beneficiary_id`) is the payer's own: nobody
 * is paid at it.
 */
function notMoney(role: ArgumentRole, v: string, raw: readonly string[], payeeBeside: boolean): ArgumentRole {
  if (role === 'amount' && v !== '' && v.length <= 40 && !SUM.test(v.replace(CURRENCY, ''))) return 'choice';
  if (role !== 'payee' || v === '' || !raw.some((w) => /^accounts?$/i.test(w)) || raw.some((w) => PAYEE_WORDS.has(w.toLowerCase())))
    return role;
  if (payeeBeside || raw.some((w) => SOURCE_WORDS.has(w.toLowerCase()))) return 'object';
  const accountShaped =
    (v.length <= 64 && accountDigits(v)) || EMAIL.test(v) || (IBAN.test(v.toUpperCase()) && /\d{2}/.test(v)) || /^0x[0-9a-f]{6,}$/i.test(v);
  return accountShaped ? role : 'object';
}
/** Words that make an account the one money is taken from (`from_account`, `source_account_id`, `debit_account`). */
const SOURCE_WORDS = new Set(['from', 'source', 'debit', 'origin', 'originating', 'payer', 'funding', 'own', 'my']);
/** A sum as written: digits with their separators and sign, once a currency's code or sign is taken away ("EUR 1.250,00", "$29.70", "-15%"). */
const SUM = /^[\s+-]*\d[\d\s.,'’]*$/;
const CURRENCY = /\b[A-Za-z]{1,3}\b|[€$£¥₹%]/g;
/** The words that make an `account` argument a payee by its name (byName: a payee word, or an account target word), and `routing`. */
const PAYEE_WORDS = new Set<string>([...NAME_WORDS.payee, ...NAME_WORDS.accountTarget, 'routing']);

/** A date under `to` ends a range ("from … to 2024-11-15"); a message's id under `in_reply_to` names the thread: neither is whom the call reaches. */
function notARecipient(role: ArgumentRole, v: string, raw: readonly string[]): ArgumentRole {
  if (role !== 'recipient') return role;
  if (DATE.test(v)) return 'other';
  if (sendersOwn(raw)) return 'object';
  // A channel's own name (`channel` "sms", `via` "email") says how the message goes, not to whom.
  if (CHANNEL_NAMES.has(v.trim().toLowerCase())) return 'choice';
  // A name that ends in what sort of thing it is (`roomType`, `recipient_type`, `channel_kind`) picks a kind, not whom.
  const last = raw[raw.length - 1]?.toLowerCase();
  if (raw.length >= 2 && last !== undefined && KIND_WORDS.has(last)) return 'choice';
  // A short number under a word that numbers things (`roomNumber` 12, `member_no` 214) names a record; a phone has more digits.
  if (raw.length >= 2 && last !== undefined && NUMBER_WORDS.has(last) && /^\d{1,6}$/.test(v)) return 'object';
  // A quantity ("10", "12.5", "15%") reaches no one: an address has letters, a phone seven digits or more.
  if (/^\d{1,4}(?:[.,]\d+)?\s?%?$/.test(v.trim())) return 'other';
  if (/^[A-Za-z]{1,8}[-_]?\d[\w-]*$/.test(v) && raw.some((w) => w === 'reply' || w === 'thread')) return 'object';
  return role;
}

/** The mailbox a message is sent from (`from`, `from_mailbox`, `sender_email`) is the sender's own: it reaches no one. */
function sendersOwn(raw: readonly string[]): boolean {
  const lower = raw.map((w) => w.toLowerCase());
  return (lower[0] === 'from' || lower.includes('sender')) && !lower.some((w) => TO_WORDS.has(w));
}
/** Words that make a sender's argument name where something goes as well (`from_to`, `sender_reply_to`). */
const TO_WORDS = new Set(['to', 'recipient', 'recipients', 'reply', 'cc', 'bcc']);

/** The names of the ways a message goes, as a channel argument gives them. */
const CHANNEL_NAMES = new Set([
  'email',
  'e-mail',
  'mail',
  'sms',
  'text',
  'whatsapp',
  'letter',
  'post',
  'phone',
  'call',
  'push',
  'portal',
  'app',
  'courriel',
  'courrier',
  'correo',
  'brief',
  'telefoon',
  'telefon',
  'telefone',
]);
const BOUNDS = new Set(['min', 'max', 'minimum', 'maximum', 'minimal', 'maximal']);
const KIND_WORDS = new Set(['type', 'kind', 'category', 'class', 'tier', 'level', 'format', 'status']);
const NUMBER_WORDS = new Set(['number', 'no', 'nr', 'num']);

/** A sentence: five words or more, two of them lower-case words, no address in it. */
const SENTENCE = /^(?!.*@)(?=(?:.*?\b\p{Ll}{2,}\b){2})\S+(?:\s+\S+){4,}$/su;
/** SENTENCE, on a value short enough to be read whole (a longer one is text, and no recipient either way). */
const sentence = (v: string) => v.length <= 2_000 && SENTENCE.test(v);

/** Digits that name something when passed as a string (a file's id, "13"), not a quantity. */
export const ID_VALUE = /^\d{1,12}$/;

/** The role a JSON-schema property's format or enum gives. */
function schemaRole(prop: SchemaProperty | undefined): ArgumentRole | undefined {
  const format = (prop?.format ?? prop?.items?.format ?? '').toLowerCase();
  if (format === 'email' || format === 'idn-email') return 'recipient';
  if (format === 'uri' || format === 'url' || format === 'iri' || format === 'hostname') return 'url';
  if (format === 'iban') return 'payee';
  if (TIME_FORMATS.has(format)) return 'other';
  if (Array.isArray(prop?.enum) || Array.isArray(prop?.items?.enum)) return 'choice';
  // A value the schema says narrows a search ("Name, email or phone to filter by") picks what is
  // read, whatever it holds: an address there is no one the call reaches.
  if (FILTERS.test(prop?.description ?? '')) return 'other';
  return undefined;
}
const FILTERS = /\b(?:to filter|filter(?:s|ed)? (?:by|on)|para filtrar|filtr(?:o|a) (?:por|de))\b/i;

/** The role a value's shape shows: an e-mail address, a link, an IBAN, and (when nothing else speaks) a phone number. */
function valueRole(v: string, phone: boolean): ArgumentRole | undefined {
  if (EMAIL.test(v)) return 'recipient';
  if (URL_VALUE.test(v)) return 'url';
  if (IBAN.test(v.toUpperCase()) && /\d{2}/.test(v)) return 'payee';
  if (phone && PHONE.test(v) && !DATE.test(v)) return 'recipient';
  return undefined;
}

/**
 * Whether a number may be a phone number: one written as people write them ("07700 900 873",
 * "+31 6 …", "(608) 555-0109"), or a bare run of digits where the tool, the argument or the
 * schema's description speaks of phones. A bare run anywhere else is a record's number (a
 * document number "5105600231", a sales order "0000731622").
 */
function phoneMayBe(tool: string, name: string, v: string, prop: SchemaProperty | undefined): boolean {
  if (!/^\d+$/.test(v)) return true;
  return [...words(tool), ...words(name), ...words((prop?.description ?? '').slice(0, 500))].some((w) => PHONE_WORDS.has(w));
}
const PHONE_WORDS = new Set(
  'phone phones mobile mobiles cell cellphone tel telephone sms text whatsapp fax call msisdn telefono cellulare telefoon mobiel gsm handy telefon telefone celular movil portable'.split(
    ' ',
  ),
);

const isCodeTool = (tool: string) =>
  has(words(tool), 'exec', 'execute', 'run', 'eval', 'shell', 'bash', 'python', 'code', 'script', 'interpreter', 'terminal', 'command');

/**
 * The role of an argument as more than its name shows it: the team's own policy (not the built-in
 * defaults, which read names too), the schema's format or enum, or the value's shape. Undefined
 * when only the name speaks: `room` or `user` may select what a read returns as well as name who
 * gets a message (docs/validator.md, "How the validator reads tools, requests and traces").
 */
export function structuralRole(policy: Policy, tool: string, name: string, value: string, prop?: SchemaProperty): ArgumentRole | undefined {
  const rule = policyRule(policy, tool, name);
  if (rule && !rule.at.startsWith('default ')) return 'role' in rule ? rule.role : rule.kind;
  return schemaRole(prop) ?? valueRole(value.trim(), phoneMayBe(tool, name, value.trim(), prop));
}

/** Text written for someone to read (a body, a message, a note), as opposed to a search term, a name or a reason code. */
const FREE_TEXT = new Set(
  [
    'subject',
    'title',
    'body',
    'text',
    'message',
    'note',
    'notes',
    'description',
    'comment',
    'content',
    'summary',
    'review',
    'caption',
    'greeting',
    'html',
    'markdown',
    'memo',
    'details',
    'answer',
    'feedback',
    'instructions',
    'reply',
    'post',
    'letter',
    'payload',
  ].map(stem),
);

/** Whether an argument's name says where something goes (`to`, `forward_to`, `cc`), not whom the call is about (`user_email`). */
export function namesDestination(name: string): boolean {
  return words(name).some((x) => DESTINATION.has(x));
}
const DESTINATION = new Set(['to', 'forward', 'cc', 'bcc', 'recipient', 'recipients', 'destination']);

/** Whether an argument (by name) carries free text: what a sink could carry out, where a query only selects. */
export function isFreeText(name: string): boolean {
  const ws = words(name).map(stem);
  return ws.some((w) => FREE_TEXT.has(w)) && !ws.some((w) => w === 'query' || w === 'search' || w === 'filter' || w === 'keyword');
}
