/**
 * The action lexicon shared by tool classification and request intent: verbs by action category,
 * object nouns, and how a (verb, objects) pair maps to hard sinks. Both sides stem words the same
 * way and use the same mapping, so a tool called `amend_standing_order` and a request that says
 * "tweak my standing order" meet on the same label (FINANCIAL_TRANSFER). Documented in the README
 * ("How the validator reads tools, requests and traces"); a policy adds verbs with `lexicon.verbs`.
 */
import type { SinkLabel, SourceLabel } from './labels.js';

export const CATEGORIES = ['read', 'send', 'share', 'publish', 'pay', 'book', 'change', 'delete', 'exec'] as const;
export type Category = (typeof CATEGORIES)[number];

const IRREGULAR: Record<string, string> = {
  paid: 'pay',
  sent: 'send',
  bought: 'buy',
  made: 'make',
  gave: 'give',
  given: 'give',
  told: 'tell',
  wrote: 'write',
  written: 'write',
  sold: 'sell',
  kept: 'keep',
  shown: 'show',
  ran: 'run',
  got: 'get',
  put: 'put',
  set: 'set',
  cut: 'cut',
  found: 'find',
  held: 'hold',
  frozen: 'freeze',
  note: 'note',
  notes: 'note',
  noted: 'note',
  news: 'news',
  does: 'do',
  is: 'is',
  was: 'was',
  has: 'has',
  this: 'this',
  us: 'us',
};

const STEMS = new Map<string, string>();

/** A light stemmer: enough to make "invited", "invites", "inviting" and "invite" one word. Memoised (a trace repeats its words). */
export function stem(word: string): string {
  let s = STEMS.get(word);
  if (s === undefined) {
    s = stemWord(word);
    if (STEMS.size < 100_000) STEMS.set(word, s);
  }
  return s;
}

function stemWord(word: string): string {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR[lower];
  if (irregular !== undefined) return irregular === lower ? lower : stemWord(irregular);
  let w = lower;
  if (w.length <= 3) return w;
  const undouble = (x: string) => (/([bdgkmnprt])\1$/.test(x) || (x.endsWith('ll') && x.length > 5) ? x.slice(0, -1) : x);
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  else if (/(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** Words of an identifier or a text: `sendEmail`, `send_email`, `send-email` and "send e-mail" give [send, email]. */
export function words(text: string): string[] {
  // Accents and diacritics go ("Envía" is "envia", "Überweisung" "uberweisung"), so a word is not split at them.
  // Letters with a stroke have no decomposition: "ł" is "l" ("Wysyła" is one word), "ø" "o", "đ" "d", "ß" "ss", Turkish "ı" "i".
  const plain = /[^\x00-\x7f]/.test(text)
    ? text
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[łŁøØđĐßæÆœŒı]/g, (c) => STROKED[c] ?? c)
    : text;
  return plain
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/\be-mail/gi, 'email')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const STROKED: Record<string, string> = {
  ł: 'l',
  Ł: 'L',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ı: 'i',
};

/** A set of the words of a space-separated list. */
export const wordSet = (list: string): ReadonlySet<string> => new Set(list.split(' '));

/**
 * Each separator of a clause (`separators` matches them, with the `g` flag) and how many words, as
 * `count` splits them, stand before it: the word index where the part after it starts. Counted part
 * by part, since no word spans a separator: a clause of many commas is read once, not once per comma.
 */
export function wordsBeforeEach(clause: string, separators: RegExp, count: (text: string) => number): { separator: string; at: number }[] {
  const out: { separator: string; at: number }[] = [];
  let n = 0;
  let from = 0;
  for (const m of clause.matchAll(separators)) {
    n += count(clause.slice(from, m.index));
    out.push({ separator: m[0], at: n });
    from = m.index;
  }
  return out;
}

/**
 * The word indices where a comma, a colon or a dash between spaces starts a new part of a clause,
 * and the words a colon follows (a label: "Note : …", "Nota: …"), for readers that split a clause
 * that way; `count` counts a text's words as the reader does.
 */
export function clauseParts(clause: string, count: (text: string) => number): { parts: Set<number>; labels: Set<number> } {
  const parts = new Set<number>();
  const labels = new Set<number>();
  for (const { separator, at } of wordsBeforeEach(clause, /[,:]|\s[-–—]\s/g, count)) {
    parts.add(at);
    if (separator === ':' && at > 0) labels.add(at - 1);
  }
  return { parts, labels };
}

const VERBS: Record<Category, string[]> = {
  read: [
    'get',
    'list',
    'search',
    'find',
    'lookup',
    'look',
    'read',
    'fetch',
    'query',
    'check',
    'view',
    'show',
    'display',
    'describe',
    'count',
    'calculate',
    'compute',
    'estimate',
    'preview',
    'open',
    'load',
    'browse',
    'retrieve',
    'return',
    'inspect',
    'scan',
    'summarize',
    'summarise',
    'translate',
    'analyze',
    'analyse',
    'compare',
    'explain',
    'download',
    'watch',
    'monitor',
    'track',
    'recommend',
    'suggest',
    'convert',
    'extract',
    'parse',
    'peek',
    'see',
    'poll',
    'diff',
    'validate',
    'verify',
    'lint',
    'whois',
    'detect',
    'classify',
    'rank',
    'score',
    'evaluate',
    'quote',
    'discover',
    'explore',
    'skim',
    'crawl',
    'locate',
    'identify',
    'lookup',
    'review',
    'audit',
    'research',
    'measure',
    'forecast',
  ],
  send: [
    'send',
    'email',
    'mail',
    'message',
    'msg',
    'notify',
    'tell',
    'inform',
    'forward',
    'reply',
    'respond',
    'answer',
    'sms',
    'text',
    'dm',
    'ping',
    'contact',
    'ask',
    'request',
    'escalate',
    'dispatch',
    'deliver',
    'transmit',
    'submit',
    'report',
    'export',
    'sync',
    'relay',
    'alert',
    'remind',
    'cc',
    'hand',
    'route',
    'fax',
    'reach',
    'greet',
    'introduce',
    'chase',
  ],
  share: [
    'share',
    'grant',
    'invite',
    'allow',
    'authorize',
    'authorise',
    'permit',
    'release',
    'loop',
    'provision',
    'delegate',
    'collaborate',
    'onboard',
    'give',
    'upload',
    'distribute',
  ],
  publish: ['post', 'publish', 'announce', 'tweet', 'broadcast', 'blog', 'comment', 'repost', 'retweet', 'advertise', 'promote', 'caption'],
  pay: [
    'pay',
    'payment',
    'transfer',
    'wire',
    'remit',
    'refund',
    'reimburse',
    'credit',
    'settle',
    'charge',
    'purchase',
    'buy',
    'order',
    'checkout',
    'donate',
    'tip',
    'deposit',
    'withdraw',
    'fund',
    'spend',
    'cash',
    'invest',
    'trade',
    'sell',
    'bid',
    'redeem',
    'subscribe',
    'topup',
  ],
  book: ['book', 'reserve', 'hold', 'rebook', 'schedule', 'arrange', 'hire', 'rent'],
  change: [
    'change',
    'update',
    // Entering a value is setting it ("enter the following as the delivery address").
    'enter',
    'input',
    'edit',
    'modify',
    'set',
    'amend',
    'adjust',
    'tweak',
    'alter',
    'configure',
    'move',
    'reschedule',
    'postpone',
    'shift',
    'swap',
    'exchange',
    'replace',
    'rename',
    'renew',
    'extend',
    'demote',
    'enable',
    'disable',
    'lock',
    'unlock',
    'freeze',
    'unfreeze',
    'block',
    'unblock',
    'suspend',
    'reset',
    'rotate',
    'revoke',
    'kick',
    'merge',
    'fold',
    'close',
    'reopen',
    'resolve',
    'assign',
    'apply',
    'mark',
    'approve',
    'reject',
    'restore',
    'create',
    'add',
    'insert',
    'register',
    'save',
    'store',
    'append',
    'patch',
    'put',
    // "Pop the tasting in the diary", "stick it on the rota": put, as people say it.
    'pop',
    'stick',
    'restart',
    'start',
    'stop',
    'pause',
    'resume',
    'sign',
    'enroll',
    'enrol',
    'link',
    'unlink',
    'attach',
    'detach',
    'tag',
    'label',
    'flag',
    'pin',
    'mute',
    'accept',
    'decline',
    'confirm',
    'migrate',
    'upgrade',
    'downgrade',
    'import',
    'toggle',
    'turn',
    'switch',
    'bump',
    'increase',
    'decrease',
    'reduce',
    'raise',
    'lower',
    'limit',
    'cap',
    'fix',
    'repair',
    'correct',
    'write',
    'overwrite',
    'upsert',
    'copy',
    'duplicate',
    'encrypt',
    'decrypt',
    'jot',
  ],
  delete: [
    'delete',
    'remove',
    'cancel',
    'scrap',
    'drop',
    'erase',
    'wipe',
    'purge',
    'clear',
    'archive',
    'tidy',
    'discard',
    'destroy',
    'trash',
    'unsubscribe',
    'terminate',
    'kill',
    'shred',
    'truncate',
    'void',
    'dismiss',
    'unpublish',
    'deactivate',
    'offboard',
  ],
  exec: [
    'run',
    'execute',
    'exec',
    'eval',
    'shell',
    'script',
    'compile',
    'invoke',
    'spawn',
    'bash',
    'python',
    'interpret',
    'install',
    'deploy',
    'clone',
    'build',
  ],
};

/** Object nouns that turn an action into a money movement, a booking, an access grant, a message. */
const OBJECTS = {
  money: [
    'money',
    'payment',
    'fund',
    'cash',
    'amount',
    'invoice',
    'bill',
    'fee',
    'price',
    'rent',
    'salary',
    'wage',
    'credit',
    'refund',
    'charge',
    'deposit',
    'balance',
    'transfer',
    'standing',
    'debit',
    'subscription',
    'tip',
    'donation',
    'wallet',
    'iban',
    'crypto',
    'bitcoin',
    'btc',
    'eth',
    'payee',
    'payout',
    'budget',
    'loan',
    'mortgage',
    'dues',
    'tuition',
    'reimbursement',
    'allowance',
    'eur',
    'euro',
    'usd',
    'dollar',
    'gbp',
    'pound',
    'chf',
    'buck',
    'giftcard',
    'voucher',
    'coupon',
  ],
  booking: [
    'seat',
    'flight',
    'ticket',
    'room',
    'hotel',
    'table',
    'reservation',
    'booking',
    'appointment',
    'visit',
    'slot',
    'meeting',
    'session',
    'class',
    'stay',
    'trip',
    'car',
    'ride',
    'tour',
  ],
  access: [
    'access',
    'permission',
    'role',
    'right',
    'admin',
    'owner',
    'editor',
    'collaborator',
    'member',
    'guest',
    'viewer',
    'commenter',
    'invite',
    'invitation',
    'acl',
    'sharing',
    'grantee',
  ],
  message: [
    'message',
    'msg',
    'note',
    'email',
    'mail',
    'reply',
    'notice',
    'text',
    'dm',
    'memo',
    'letter',
    'digest',
    'summary',
    'update',
    'line',
    'notification',
    'heads',
    'reminder',
  ],
  publication: ['post', 'article', 'story', 'review', 'tweet', 'announcement', 'blog', 'comment', 'thread', 'status'],
  credential: [
    'password',
    'passcode',
    'pin',
    'factor',
    'mfa',
    '2fa',
    'otp',
    'token',
    'secret',
    'credential',
    'login',
    'code',
    'passphrase',
    'apikey',
    'key',
  ],
};

const STEM_OF_CATEGORY = new Map<string, Category>();
for (const c of CATEGORIES)
  for (const v of VERBS[c]) if (!v.includes('_') && !STEM_OF_CATEGORY.has(stem(v))) STEM_OF_CATEGORY.set(stem(v), c);
const OBJECT_STEMS = Object.fromEntries(Object.entries(OBJECTS).map(([k, ws]) => [k, new Set(ws.map(stem))])) as Record<
  keyof typeof OBJECTS,
  Set<string>
>;

export type ObjectKind = keyof typeof OBJECTS;

/** The category of a word used as a verb, if the lexicon knows it. */
export function verbCategory(word: string): Category | undefined {
  return STEM_OF_CATEGORY.get(stem(word));
}

export function objectKinds(ws: readonly string[]): Set<ObjectKind> {
  const out = new Set<ObjectKind>();
  for (const w of ws) {
    const s = stem(w);
    for (const k of Object.keys(OBJECT_STEMS) as ObjectKind[]) if (OBJECT_STEMS[k].has(s)) out.add(k);
  }
  return out;
}

/** Verbs a policy adds (`lexicon:`), merged into the built-in table at compile time. */
export interface LexiconExtension {
  verbs?: Partial<Record<Category, string[]>>;
}

export function extendLexicon(ext: LexiconExtension | undefined): (word: string) => Category | undefined {
  if (!ext?.verbs) return verbCategory;
  const extra = new Map<string, Category>();
  for (const [c, vs] of Object.entries(ext.verbs) as [Category, string[]][]) for (const v of vs ?? []) extra.set(stem(v), c);
  return (word) => extra.get(stem(word)) ?? verbCategory(word);
}

/**
 * Hard sinks of an action: its category refined by its objects. Money objects (or payment
 * arguments) make any creating, changing or sending action a money movement; a booking with no
 * money in sight changes state; publishing a message to a channel is sending it.
 */
export function sinksOfAction(category: Category, objects: ReadonlySet<ObjectKind>, money: boolean): SinkLabel[] {
  const paid = money || objects.has('money');
  switch (category) {
    case 'read':
      return [];
    case 'pay':
      return ['FINANCIAL_TRANSFER'];
    case 'book':
      return paid ? ['FINANCIAL_TRANSFER'] : ['DESTRUCTIVE_WRITE'];
    case 'send':
      return paid && !objects.has('message') ? ['FINANCIAL_TRANSFER'] : ['EXTERNAL_SEND'];
    case 'share':
      return paid && !objects.has('access') ? ['FINANCIAL_TRANSFER'] : ['EXTERNAL_SEND'];
    case 'publish':
      // Posting a charge or a payment to an account is book-keeping: money moves, nothing is published.
      if (paid && !objects.has('publication') && !objects.has('message')) return ['FINANCIAL_TRANSFER'];
      return objects.has('message') && !objects.has('publication') ? ['EXTERNAL_SEND'] : ['PUBLIC_POST'];
    case 'change':
      // Adding someone to a document or making them an admin changes who can see the data.
      return paid ? ['FINANCIAL_TRANSFER'] : objects.has('access') ? ['EXTERNAL_SEND'] : ['DESTRUCTIVE_WRITE'];
    case 'delete':
      return ['DESTRUCTIVE_WRITE'];
    case 'exec':
      return ['CODE_EXEC'];
  }
}

/**
 * What a request for an action covers: the one relation between the action a request asks for
 * (its category) and the sinks of the calls that may carry it out, each with its reason
 * (docs/taint-policy.md, "What a request asks for"). It is generous where the tool side is exact:
 * the request says what should happen, the tool says how, and one action is carried out by tools
 * of more than one kind ("upload it to the video site" is a post; "let #launch know" a message).
 */
export const COVERS: Readonly<Record<Category, { sinks: readonly SinkLabel[]; why: string }>> = {
  read: { sinks: [], why: 'reading changes nothing and sends nothing (a fetch is judged by its URL)' },
  send: { sinks: ['EXTERNAL_SEND'], why: 'content goes to the people or the place the request names' },
  share: {
    sinks: ['EXTERNAL_SEND', 'PUBLIC_POST'],
    why: 'sharing or uploading makes content or access available to others: named people (a send, a grant) or an audience (a post, a video site)',
  },
  publish: { sinks: ['PUBLIC_POST', 'EXTERNAL_SEND'], why: 'a post reaches an audience; one to a channel is delivered as a message' },
  pay: { sinks: ['FINANCIAL_TRANSFER'], why: 'money moves' },
  book: { sinks: ['FINANCIAL_TRANSFER', 'DESTRUCTIVE_WRITE'], why: 'a booking holds something, and may charge for it' },
  change: { sinks: ['DESTRUCTIVE_WRITE'], why: 'something is created, changed or overwritten' },
  delete: { sinks: ['DESTRUCTIVE_WRITE'], why: 'something is removed' },
  exec: { sinks: ['CODE_EXEC'], why: 'the code or the command runs' },
};

/** What an action's objects add to what it covers, for the categories each names, with the reason. */
export const OBJECT_COVERS: readonly {
  object: ObjectKind | 'amount';
  for: readonly Category[];
  adds: readonly SinkLabel[];
  why: string;
}[] = [
  {
    object: 'amount',
    for: ['send', 'share', 'publish', 'pay', 'book', 'change', 'delete'],
    adds: ['FINANCIAL_TRANSFER', 'DESTRUCTIVE_WRITE'],
    why: 'an action on money (a bill, a standing order, 35 EUR) moves money or changes how it moves',
  },
  {
    object: 'access',
    for: ['change'],
    adds: ['EXTERNAL_SEND'],
    why: 'adding someone to a document or making them an admin gives them its data',
  },
  {
    object: 'publication',
    for: ['change', 'send'],
    adds: ['PUBLIC_POST'],
    why: 'writing a post, a review or a comment, or replying to one, publishes it',
  },
];

/**
 * The sinks a request for this action covers (COVERS and OBJECT_COVERS), with the sinks the tool
 * side would read from the same action, so that a request and a tool meet whenever their words do.
 */
export function needsOfAction(category: Category, objects: ReadonlySet<ObjectKind>, money: boolean): SinkLabel[] {
  const out = new Set<SinkLabel>([...sinksOfAction(category, objects, money), ...COVERS[category].sinks]);
  for (const r of OBJECT_COVERS) {
    const present = r.object === 'amount' ? money || objects.has('money') : objects.has(r.object);
    if (present && r.for.includes(category)) for (const s of r.adds) out.add(s);
  }
  return [...out];
}

/**
 * Whether an action's words say it is carried out by a message ("confirm it to him by email",
 * "bevestig het per mail", "confermalo via sms", "par courriel"): a preposition of means, up to two
 * small words, then a channel; or a channel in a case of its own ("potvrď mailem", "e-postayla bildir"). The action then writes to someone, whatever its own verb is. A
 * channel named as a thing ("update it with the email address") is none.
 */
export function byChannel(ws: readonly string[]): boolean {
  // A channel in a case of its own, no preposition: Czech and Polish "mailem", "SMS-kou", Turkish "e-postayla".
  if (ws.some((w) => CHANNEL_CASES.has(w))) return true;
  for (let i = 0; i < ws.length - 1; i++) {
    const strict = BY_MEANS.has(ws[i]);
    if (!strict && !WITH_MEANS.has(ws[i])) continue;
    let j = i + 1;
    while (j < i + 3 && CHANNEL_FILLERS.has(ws[j])) j++;
    const noun = ws[j];
    if (noun === undefined || ADDRESS_WORDS.has(ws[j + 1] ?? '')) continue;
    if (strict ? CHANNELS.has(noun) || LOOSE_CHANNELS.has(noun) : CHANNELS.has(noun)) return true;
  }
  return false;
}
const CHANNEL_CASES = wordSet('mailem emailem esemeskou smskou mailowo epostayla epostaile mailile smsle smsile');
const BY_MEANS = wordSet('by via per par por pelo tramite');
const WITH_MEANS = wordSet('with met con com mit');
const CHANNEL_FILLERS = wordSet(
  'a an the een de het un una une le la el il um uma o ein eine einer einem kort korte kurze breve short quick',
);
const CHANNELS = wordSet('email emails mail mails mailtje sms whatsapp courriel correo');
/** Channels that are also plain nouns ("with the text of …"): read only after a preposition of means. */
const LOOSE_CHANNELS = wordSet('text bericht berichtje message messaggio mensaje mensagem nachricht');
const ADDRESS_WORDS = wordSet('address addresses adres adresse indirizzo direccion endereco');

/** The words of a read tool's name and description, by what they say it returns (`sourcesOfRead`). */
const READ_WORDS = {
  /** A list of people, said as one: matched as written, not stemmed. */
  directory: [
    'contacts',
    'directory',
    'members',
    'people',
    'staff',
    'team',
    'roster',
    'employees',
    'tenants',
    'payees',
    'colleagues',
    'users',
    'customers',
    'patients',
    'addressbook',
    'recipients',
    'participants',
    'attendees',
  ],
  /** Someone's own details. */
  personal: ['profile', 'friends', 'followers', 'guests'],
  /** Secrets. */
  credentials: ['password', 'secret', 'token', 'credential', 'credentials', 'login', 'apikey', 'keys', 'vault', 'keychain'],
  /** Private records and files. */
  sensitive: [
    'file',
    'files',
    'document',
    'documents',
    'doc',
    'docs',
    'drive',
    'folder',
    'record',
    'records',
    'chart',
    'account',
    'activity',
    'transactions',
    'statement',
    'balance',
    'orders',
    'order',
    'lease',
    'invoice',
    'bill',
    'trip',
    'itinerary',
    'booking',
    'calendar',
    'audit',
    'database',
    'db',
    'medical',
    'health',
    'payroll',
  ],
  /** Text written by others: mail, messages, the web. */
  untrusted: [
    'inbox',
    'email',
    'emails',
    'mail',
    'message',
    'messages',
    'ticket',
    'tickets',
    'channel',
    'chat',
    'comments',
    'reviews',
    'feedback',
    'web',
    'page',
    'webpage',
    'url',
    'site',
    'website',
    'news',
    'feed',
    'posts',
    'search',
    'requests',
    'forum',
    'rss',
    'results',
  ],
} as const satisfies Record<string, readonly string[]>;

/** Sources a read of these objects returns (a read tool's name and description). */
export function sourcesOfRead(ws: readonly string[]): { sources: SourceLabel[]; directory: boolean } {
  const s = new Set(ws.map(stem));
  const has = (xs: readonly string[]) => xs.some((x) => s.has(stem(x)));
  // A directory is a list of people, said as one: "members", "contacts", a "roster"; "a member's
  // mailbox" reads one person's things, not the list. So these are matched as written, not stemmed.
  const raw = new Set(ws.map((w) => w.toLowerCase()));
  const sources = new Set<SourceLabel>();
  const directory = READ_WORDS.directory.some((x) => raw.has(x));
  if (directory || has(READ_WORDS.personal)) sources.add('PII_READ');
  if (has(READ_WORDS.credentials)) sources.add('CREDENTIAL_ACCESS');
  if (has(READ_WORDS.sensitive)) sources.add('SENSITIVE_READ');
  if (has(READ_WORDS.untrusted) || sources.size === 0) sources.add('UNTRUSTED_CONTENT');
  return { sources: [...sources], directory };
}

/** Agent nouns of read-only tools (`weather`, `price_checker`, `translator`): a name made only of these reads. */
const READ_NOUNS = new Set(
  [
    'weather',
    'forecast',
    'price',
    'quote',
    'status',
    'info',
    'information',
    'data',
    'detail',
    'details',
    'stats',
    'statistic',
    'analytics',
    'time',
    'date',
    'calculator',
    'converter',
    'translator',
    'checker',
    'finder',
    'reader',
    'viewer',
    'monitor',
    'tracker',
    'analyzer',
    'analyser',
    'summarizer',
    'lookup',
    'search',
    'report',
    'history',
    'availability',
    'rate',
    'rates',
    'definition',
    'dictionary',
    'map',
    'maps',
    'directions',
    'news',
    'feed',
  ].map(stem),
);

export function isReadNoun(word: string): boolean {
  return READ_NOUNS.has(stem(word));
}

const DATA_NOUNS = new Set(
  Object.entries(READ_WORDS)
    .filter(([k]) => k !== 'directory')
    .flatMap(([, ws]) => ws.map(stem)),
);

/**
 * A noun for data a read returns (`activity`, `feedback`, `members`, `weather`): the head of a
 * name that says what it returns. A directory is a list, so only its plural counts (`members`,
 * not `member`).
 */
export function isDataNoun(word: string): boolean {
  const w = word.toLowerCase();
  return READ_NOUNS.has(stem(w)) || DATA_NOUNS.has(stem(w)) || (READ_WORDS.directory as readonly string[]).includes(w);
}
