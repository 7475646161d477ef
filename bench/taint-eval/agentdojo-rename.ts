/**
 * The renamed variant of the AgentDojo replay: every tool and argument renamed word by word
 * through a thesaurus of plausible synonyms (as teams name their own tools: `get_` dropped, as
 * REST-style names do, so many reads carry no verb at all), and every description reworded through
 * the same thesaurus. The map is general English, written once for all suites; the validator's
 * figures must not depend on which names a team picked.
 */
import type { AgentDojoCall, AgentDojoTool } from './agentdojo-data.js';

/** word → synonym ('' drops the word). */
const THESAURUS: Record<string, string> = {
  get: '',
  search: 'find',
  send: 'dispatch',
  read: 'view',
  list: 'roster',
  create: 'make',
  delete: 'erase',
  cancel: 'drop',
  append: 'extend',
  update: 'amend',
  reschedule: 'move',
  reserve: 'book',
  invite: 'onboard',
  remove: 'kick',
  share: 'grant',
  post: 'publish',
  check: 'lookup',
  schedule: 'plan',
  add: 'include',
  email: 'mail',
  emails: 'mails',
  file: 'document',
  files: 'documents',
  filename: 'docname',
  calendar: 'agenda',
  event: 'appointment',
  events: 'appointments',
  contact: 'person',
  contacts: 'people',
  channel: 'room',
  channels: 'rooms',
  message: 'note',
  messages: 'notes',
  hotel: 'lodging',
  hotels: 'lodgings',
  restaurant: 'eatery',
  restaurants: 'eateries',
  car: 'vehicle',
  rental: 'hire',
  companies: 'firms',
  company: 'firm',
  flight: 'airfare',
  money: 'funds',
  transaction: 'payment',
  transactions: 'payments',
  iban: 'account',
  password: 'passphrase',
  user: 'member',
  users: 'members',
  webpage: 'site',
  inbox: 'mailbox',
  price: 'cost',
  prices: 'costs',
  reviews: 'feedback',
  rating: 'score',
  address: 'place',
  info: 'details',
  information: 'details',
  participants: 'attendees',
  recipient: 'addressee',
  recipients: 'addressees',
  body: 'text',
  subject: 'headline',
  content: 'payload',
  url: 'link',
  query: 'terms',
  sender: 'author',
  title: 'heading',
  amount: 'sum',
  date: 'when',
  day: 'date',
  start: 'begin',
  end: 'finish',
  time: 'moment',
  city: 'town',
  street: 'road',
  first: 'given',
  last: 'family',
  name: 'label',
  names: 'labels',
  n: 'count',
  recurring: 'repeats',
  permission: 'access',
  id: 'key',
  path: 'locator',
  description: 'details',
  cc: 'copied',
  bcc: 'hidden',
  attachments: 'enclosures',
  departure: 'origin',
  arrival: 'destination',
  new: 'next',
  all: 'every',
  available: 'offered',
  balance: 'holdings',
  by: 'via',
  cuisine: 'fare',
  current: 'present',
  direct: 'private',
  draft: 'unsent',
  fuel: 'energy',
  hours: 'times',
  most: 'very',
  recent: 'latest',
  opening: 'open',
  options: 'choices',
  per: 'each',
  restrictions: 'limits',
  dietary: 'diet',
  scheduled: 'planned',
  received: 'incoming',
  sent: 'outgoing',
  unread: 'unopened',
  slack: 'workspace',
  type: 'kind',
  types: 'kinds',
  location: 'venue',
  returns: 'gives back',
  given: 'specified',
};

/** A snake_case name through the thesaurus. */
export function renameIdentifier(name: string): string {
  const parts = name
    .split('_')
    .map((w) => THESAURUS[w.toLowerCase()] ?? w)
    .filter((w) => w !== '');
  return parts.length ? parts.join('_') : name;
}

/** Prose through the thesaurus, word by word (case kept for a leading capital). */
export function reword(text: string): string {
  return text.replace(/[A-Za-z]+/g, (w) => {
    const s = THESAURUS[w.toLowerCase()];
    if (s === undefined || s === '') return w;
    return w[0] === w[0].toUpperCase() ? s[0].toUpperCase() + s.slice(1) : s;
  });
}

function renameSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const properties = Object.fromEntries(
    Object.entries(props).map(([k, p]) => [
      renameIdentifier(k),
      {
        ...p,
        ...(typeof p.title === 'string' ? { title: reword(p.title) } : {}),
        ...(typeof p.description === 'string' ? { description: reword(p.description) } : {}),
      },
    ]),
  );
  const required = Array.isArray(schema.required) ? (schema.required as string[]).map(renameIdentifier) : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

export function renameTool(t: AgentDojoTool): AgentDojoTool {
  return {
    ...t,
    name: renameIdentifier(t.name),
    description: t.description === null ? null : reword(t.description),
    parameters: renameSchema(t.parameters),
  };
}

export function renameCall(c: AgentDojoCall): AgentDojoCall {
  return {
    function: renameIdentifier(c.function),
    args: Object.fromEntries(Object.entries(c.args).map(([k, v]) => [renameIdentifier(k), v])),
  };
}
