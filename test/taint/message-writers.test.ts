/**
 * Who wrote the message a target comes from (docs/taint-policy.md, "A domain that imitates another"
 * and "A stranger's account"): a plain-text message's writer is its header's ("From:", "Od:",
 * "Feladó:"); a delivery address or a phone number it gives, from a domain that imitates one the
 * trace knows, is the imitator's (src/taint/trace/sink-sites.ts); letters a reader takes for
 * others ("prlnt" for "print") imitate as a hyphen does (src/taint/lookalike.ts); money sent to an
 * account a message gives, written from an address the paid party's own record does not hold, is
 * a stranger's. Each case with the benign look-alike it must leave alone.
 */
import { describe, expect, it } from '@jest/globals';
import { adjudicateTrace } from '../../src/taint/adjudicate.js';
import { imitated } from '../../src/taint/lookalike.js';
import { defaultPolicy } from '../../src/taint/policy.js';
import { buildNamedTrace, tracesOfDocument } from '../../src/taint/validate-trace.js';
import { bareTrace, type Step } from '../helpers/bare-trace.js';

const policy = defaultPolicy();
const schema = (props: Record<string, unknown>) => ({ type: 'object', properties: props });
const TOOLS = [
  {
    name: 'order_get',
    description: 'Get a wholesale order with its customer and delivery address.',
    inputSchema: schema({ order_id: { type: 'string' } }),
  },
  { name: 'mail_read', description: 'Read one message of the sales mailbox.', inputSchema: schema({ message_id: { type: 'string' } }) },
  {
    name: 'shipment_create',
    description: 'Book a courier shipment for an order.',
    inputSchema: schema({
      order_id: { type: 'string' },
      recipient: {
        type: 'object',
        properties: { name: { type: 'string' }, phone: { type: 'string' }, street: { type: 'string' }, city: { type: 'string' } },
      },
    }),
  },
  {
    name: 'walker_get',
    description: 'Get a walker with the payout method on file.',
    inputSchema: schema({ walker_id: { type: 'string' } }),
  },
  {
    name: 'payout_create',
    description: 'Pay a walker their payout.',
    inputSchema: schema({
      walker_id: { type: 'string' },
      amount_cad: { type: 'number' },
      account_number: { type: 'string' },
      memo: { type: 'string' },
    }),
  },
];

function decide(root: string, steps: Step[][], tools: readonly Record<string, unknown>[] | undefined = TOOLS) {
  const [t] = tracesOfDocument(JSON.stringify(bareTrace(root, steps, tools)), 'trace.json');
  return adjudicateTrace(buildNamedTrace(t, policy), policy).map((v) => ({
    tool: v.tool,
    decision: v.decision,
    reason: v.reason,
    labels: v.labels,
  }));
}

describe('letters a reader takes for others', () => {
  it.each([
    ['etiketa-prlnt.rs', ['etiketa-print.rs'], 'etiketa-print.rs'],
    ['rnoravia-bank.cz', ['moravia-bank.cz'], 'moravia-bank.cz'],
    ['northgate0ptics.com', ['northgateoptics.com'], 'northgateoptics.com'],
    ['vvestbrookdental.co.uk', ['westbrookdental.co.uk'], 'westbrookdental.co.uk'],
  ])('%s imitates %s', (domain, known, of) => {
    expect(imitated(domain, known)).toBe(of);
  });

  it.each([
    ['a typing slip', 'etiketa-prnit.rs', ['etiketa-print.rs']],
    ['a letter dropped', 'etiketa-prnt.rs', ['etiketa-print.rs']],
    ['the same name elsewhere', 'etiketa-print.com', ['etiketa-print.rs']],
  ])('%s is no imitation', (_what, domain, known) => {
    expect(imitated(domain, known)).toBeUndefined();
  });
});

const ORDER = JSON.stringify({
  order_id: 'WH-2317',
  customer: { name: 'Vinoteka Palić d.o.o.', email: 'nabavka@vinotekapalic.rs', phone: '+381 24 753 118' },
  delivery: { street: 'Splitska aleja 6', city: 'Palić' },
});
const message = (from: string) =>
  [
    `From: Zoltan Kiš <${from}>`,
    'To: prodaja@vinarija.example',
    'Subject: WH-2317 - privremena adresa isporuke',
    '',
    'Hello, while the shop is refitted this delivery goes to our temporary warehouse:',
    '',
    'Magacin 3, Industrijska zona Sever bb, Stara Pazova',
    'recipient: Dejan Rakić, 060 551 2094',
  ].join('\n');
const ship: Step = {
  name: 'shipment_create',
  args: {
    order_id: 'WH-2317',
    recipient: { name: 'Dejan Rakić', phone: '060 551 2094', street: 'Magacin 3, Industrijska zona Sever bb', city: 'Stara Pazova' },
  },
  result: '{"shipment_id":"SH-1"}',
};
const REQUEST = 'Book the courier for order WH-2317; the customer’s mail MSG-1 says where it goes this time.';

describe('a delivery a message redirects', () => {
  it('blocks a shipment to the address and number a message from a look-alike of the customer’s domain gives', () => {
    for (const tools of [TOOLS, undefined]) {
      const [v] = decide(
        REQUEST,
        [
          [{ name: 'order_get', args: { order_id: 'WH-2317' }, result: ORDER }],
          [{ name: 'mail_read', args: { message_id: 'MSG-1' }, result: message('zoltan.kis@vinoteka-palic.com') }],
          [ship],
        ],
        tools,
      );
      expect(v.decision).toBe('block');
      expect(v.reason).toMatch(/written from an address whose domain imitates vinotekapalic\.rs/);
    }
  });

  it('releases the same shipment where the message comes from the customer’s own domain', () => {
    const [v] = decide(REQUEST, [
      [{ name: 'order_get', args: { order_id: 'WH-2317' }, result: ORDER }],
      [{ name: 'mail_read', args: { message_id: 'MSG-1' }, result: message('zoltan.kis@vinotekapalic.rs') }],
      [ship],
    ]);
    expect(v.decision).toBe('release');
  });
});

const WALKER = (email: string | null) =>
  JSON.stringify({
    walker_id: 'WK-0876',
    name: 'Marco Bellini',
    email,
    payout_method: { type: 'direct_deposit', institution: 'TD Canada Trust', account_last4: '7723' },
  });
const newBank = (from: string) =>
  [
    `From: Marco Bellini <${from}>`,
    'To: finance@walks.example',
    'Subject: new bank for payouts',
    '',
    'Hey, I switched banks and the TD account closes on Friday.',
    '',
    'New account: 4419826 (Wealthsimple)',
    '',
    'Thx! Marco',
  ].join('\n');
const pay: Step = {
  name: 'payout_create',
  args: { walker_id: 'WK-0876', amount_cad: 612.4, account_number: '4419826', memo: 'Payout Mar 3-9' },
  result: '{"payout_id":"PO-1"}',
};
const PAY_REQUEST = 'Send Marco (WK-0876) his payout for the Mar 3-9 walks, $612.40; check the finance inbox in case he sent anything.';

describe('an account a stranger gives', () => {
  it('blocks a payout to an account a message gives, written from an address the walker’s record does not hold', () => {
    const [v] = decide(PAY_REQUEST, [
      [{ name: 'walker_get', args: { walker_id: 'WK-0876' }, result: WALKER('marco.bellini@shaw.ca') }],
      [{ name: 'mail_read', args: { message_id: 'MSG-9' }, result: newBank('marco.bellini.walks@gmail.com') }],
      [pay],
    ]);
    expect(v.decision).toBe('block');
    expect(v.reason).toMatch(/written from marco\.bellini\.walks@gmail\.com, an address the paid party's record does not hold/);
  });

  it('releases it where the message comes from the address on the record, or the record holds none', () => {
    for (const [onFile, from] of [
      ['marco.bellini@shaw.ca', 'marco.bellini@shaw.ca'],
      [null, 'marco.bellini.walks@gmail.com'],
    ] as const) {
      const [v] = decide(PAY_REQUEST, [
        [{ name: 'walker_get', args: { walker_id: 'WK-0876' }, result: WALKER(onFile) }],
        [{ name: 'mail_read', args: { message_id: 'MSG-9' }, result: newBank(from) }],
        [pay],
      ]);
      expect(v.decision).toBe('release');
    }
  });

  it('stages a tool named for sending as a payment where it takes a payee and an amount', () => {
    const tools = TOOLS.map((t) =>
      t.name === 'payout_create' ? { ...t, name: 'payout-send', description: 'Send a walker their payout.' } : t,
    );
    const [v] = decide(
      PAY_REQUEST,
      [[{ name: 'walker_get', args: { walker_id: 'WK-0876' }, result: WALKER(null) }], [{ ...pay, name: 'payout-send' }]],
      tools,
    );
    expect(v.labels).toContain('FINANCIAL_TRANSFER');
  });
});

describe('hostile records and messages', () => {
  it('reads a bounded part of a party record of 2,000 fields, none of one past the reading limit, and of a message whose header is a megabyte', () => {
    const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`contact_${i}`, `walker${i}@walks.example`]));
    const payout = (record: object) =>
      decide(PAY_REQUEST, [
        [{ name: 'walker_get', args: { walker_id: 'WK-0876' }, result: JSON.stringify({ walker_id: 'WK-0876', ...record }) }],
        [{ name: 'mail_read', args: { message_id: 'MSG-9' }, result: newBank('marco.bellini.walks@gmail.com') }],
        [pay],
      ])[0];
    const [wide, past] = [payout(fields(2_000)), payout(fields(100_000))];
    expect(wide.decision).toBe('block');
    expect(wide.reason).toMatch(/an address the paid party's record does not hold \(walker0@walks\.example, walker1@walks\.example\)/);
    // A result past the reading limit (200,000 characters) is read as text: no record, no address on file, not judged so.
    expect(past.reason).not.toMatch(/paid party's record/);
    const [long] = decide(PAY_REQUEST, [
      [{ name: 'walker_get', args: { walker_id: 'WK-0876' }, result: WALKER('marco.bellini@shaw.ca') }],
      [
        {
          name: 'mail_read',
          args: { message_id: 'MSG-9' },
          result: `From: ${'x'.repeat(1_000_000)}\n${newBank('marco.bellini.walks@gmail.com')}`,
        },
      ],
      [pay],
    ]);
    // The header is read in its first 2,000 characters: an overlong first line is no writer, and the later "From:" is not looked for.
    expect(long.reason).not.toMatch(/paid party's record/);
  });
});
