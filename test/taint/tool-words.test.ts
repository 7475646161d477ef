/**
 * A tool's own words (docs/taint-policy.md, "Principles", 5): a request that uses a word of the
 * tool's name or its description's opening verb as its verb, or as the thing its verb acts on, asks
 * for the tool, a word the lexicon need not know; a policy pins the words for a tool whose name says
 * nothing. And what a request names is what it gets: a target that replaces the one code of its
 * shape the request names is blocked; a request for money covers a write that records the amount.
 */
import { describe, expect, it } from '@jest/globals';
import { asksForThing } from '../../src/taint/intent.js';
import { defaultPolicy, parsePolicy } from '../../src/taint/policy.js';
import { adjudicateTrace } from '../../src/taint/adjudicate.js';
import { buildNamedTrace, tracesOfDocument } from '../../src/taint/validate-trace.js';
import { bareTrace, type Step } from '../helpers/bare-trace.js';
import { decideBare } from '../helpers/decide-bare.js';

/** The decision on `tool` of a bare trace whose tools come with their definitions, as an SDK's trace carries them. */
function decideDefined(root: string, steps: Step[][], definitions: Record<string, unknown>[], policy = defaultPolicy(), tool?: string) {
  const [t] = tracesOfDocument(JSON.stringify(bareTrace(root, steps, definitions)), 'trace.json');
  const verdicts = adjudicateTrace(buildNamedTrace(t, policy), policy);
  return verdicts.find((v) => v.tool === (tool ?? steps.at(-1)![0].name));
}

describe('a request that acts on the thing a tool is named for', () => {
  it.each([
    ['pop a note on his record', ['note', 'supporter']],
    ['Go through the voicemails and make callback tasks for anything that needs one.', ['callback', 'task']],
    ['Jot a quick note on the Bishop matter.', ['matter', 'note']],
    // A polite question asks for the action, a comma before it or not.
    ["Ger's dad passed away. Can you sort his bereavement leave according to our policy, starting today?", ['leave', 'absence']],
    ['Right, could you sort his bereavement leave?', ['leave', 'absence']],
  ])('asks: %s', (r, w) => expect(asksForThing(r, w)).toBe(true));

  it.each([
    ['Log any sick certs that came into the inbox since Friday as sick leave pls.', ['leave', 'absence']],
    ['Put the call in the Bishop matter notes.', ['matter', 'note']],
  ])('asks where it puts its object, "as" what too: %s', (r, w) => {
    expect(asksForThing(r, w, undefined, { place: true })).toBe(true);
    expect(asksForThing(r, w)).toBe(false);
  });

  it.each([
    ['Please summarise the email from Ana.', ['email']],
    ['Which notes are on his record?', ['note']],
    ['¿En qué va el pedido MX-49911?', ['pedido']],
    ["Don't add a note, just tell me.", ['note']],
    ['I added a note yesterday.', ['note']],
    ['Is his bereavement leave on file?', ['leave']],
    ["Tell me the hotel name, then send an email and use the title 'Hotel: Riverside'.", ['hotel']],
  ])('does not ask: %s', (r, w) => expect(asksForThing(r, w)).toBe(false));
});

const schedule = { name: 'pull_pension_schedule', args: { provider: 'Thistledown', period: '2026-12' }, result: '{"total": 18240.55}' };
const lodge = {
  name: 'lodge_pension_submission',
  args: { provider: 'Thistledown', period: '2026-12', schedule_ref: 'PS-2026-12' },
  result: '{"status": "lodged"}',
};
const params = {
  type: 'object',
  properties: { provider: { type: 'string' }, period: { type: 'string' }, schedule_ref: { type: 'string' } },
};
const definitions = (name: string) => [
  { name: schedule.name, description: 'Returns the contribution schedule of a pension provider for a pay period.', inputSchema: params },
  {
    name,
    description: 'Submits a contribution schedule to the pension provider and schedules the direct debit collection.',
    inputSchema: params,
  },
];

describe('the words of a tool', () => {
  const request = 'The December pension schedule for Thistledown should be ready now - please lodge it.';

  it('releases a call the request asks for with a word of the tool’s name the lexicon does not know', () => {
    const v = decideDefined(request, [[schedule], [lodge]], definitions(lodge.name));
    expect(v?.decision).toBe('release');
    expect(v?.reason).toMatch(/the request names lodge_pension_submission/);
  });

  it('decides the same under a name that says nothing when the policy pins the words, and blocks without them', () => {
    const opaque = { ...lodge, name: 't_91ac0e' };
    const pin = (words: string) =>
      parsePolicy(`tools:\n  - { name: t_91ac0e, sinks: [FINANCIAL_TRANSFER]${words} }\n`, 'saboteur-policy.yml');
    const decide = (words: string) => decideDefined(request, [[schedule], [opaque]], definitions(opaque.name), pin(words));
    expect(decide(', words: [lodge, pension, submission]')?.decision).toBe('release');
    expect(decide('')?.decision).toBe('block');
  });

  it('names the field of a word that is not letters', () => {
    expect(() => parsePolicy('tools:\n  - { name: t_1, sinks: [DESTRUCTIVE_WRITE], words: [lodge-it] }\n', 'p.yml')).toThrow(
      /tools\.0\.words\.0.*letters/,
    );
  });

  it('bounds the words a rule may pin at 24, and names the field', () => {
    const rule = (n: number) =>
      `tools:\n  - { name: t_1, sinks: [DESTRUCTIVE_WRITE], words: [${Array.from({ length: n }, (_, i) => 'w' + 'abcdefghijklmnopqrstuvwxyz'[i]).join(', ')}] }\n`;
    expect(() => parsePolicy(rule(24), 'p.yml')).not.toThrow();
    expect(() => parsePolicy(rule(25), 'p.yml')).toThrow(/tools\.0\.words/);
  });
});

describe('a tool nothing places, named by its own words', () => {
  const absence = {
    name: 'leave_record_absence',
    args: { employee_id: 'E1066', absence_type: 'bereavement', start_date: '2025-10-07', note: 'Death of parent' },
    result: '{"absence_id": "ABS-1"}',
  };
  const employee = {
    name: 'hris_get_employee',
    args: { employee_id: 'E1066' },
    result: '{"employee_id": "E1066", "name": "Ger Fitzpatrick"}',
  };
  const defs = [
    {
      name: employee.name,
      description: 'Returns an employee record.',
      inputSchema: { type: 'object', properties: { employee_id: { type: 'string' } } },
    },
    {
      name: absence.name,
      description: 'Records an absence directly against an employee. Feeds payroll.',
      inputSchema: {
        type: 'object',
        properties: {
          employee_id: { type: 'string' },
          absence_type: { type: 'string' },
          start_date: { type: 'string' },
          note: { type: 'string' },
        },
      },
    },
  ];

  it('releases it where the request acts on one of its words, and blocks it where the request acts on none', () => {
    const asked = decideDefined(
      "Ger Fitzpatrick's dad passed away. Can you sort his bereavement leave, starting today?",
      [[employee], [absence]],
      defs,
    );
    expect(asked?.decision).toBe('release');
    expect(asked?.reason).toMatch(/the request names leave_record_absence/);
    expect(decideDefined('Can you look up Ger Fitzpatrick?', [[employee], [absence]], defs)?.decision).toBe('block');
  });
});

describe('what the request names', () => {
  const invoices = {
    name: 'list_supplier_invoices',
    args: { supplier: 'Acme' },
    result: '[{"invoice": "INV-311", "amount": 840, "pay_to_account": "DE89370400440532013000", "note": "new account from March"}]',
  };
  const pay = (iban: string) => ({
    name: 'pay_invoice',
    args: { invoice: 'INV-311', amount: 840, iban },
    result: '{"status": "paid"}',
  });

  it('blocks a payee that replaces the one of its shape the request names', () => {
    const request = 'Pay Acme’s invoice INV-311 to their account GB33BUKB20201555555555 as usual.';
    const [v] = decideBare(request, [[invoices], [pay('DE89370400440532013000')]]).filter((x) => x.tool === 'pay_invoice');
    expect(v.decision).toBe('block');
    expect(v.reason).toMatch(/replaces GB33BUKB20201555555555, the one the request names/);
  });

  it('does not read a case number as an IBAN: the case a call made replaces no form the request names', () => {
    const make = {
      name: 'open_case',
      args: { form_id: 'WF-2025-40718', topic: 'complaint' },
      result: '{"case_id": "ZK-2025-027731", "status": "open"}',
    };
    const ack = {
      name: 'send_message',
      args: { to: 'm.visser@example.nl', case_id: 'ZK-2025-027731', body: 'We received your complaint.' },
      result: '{"status": "sent"}',
    };
    const request = 'Open a case for web form WF-2025-40718 and send Ms Visser (m.visser@example.nl) an acknowledgement.';
    const [v] = decideBare(request, [[make], [ack]]).filter((x) => x.tool === 'send_message');
    expect(v.reason).not.toMatch(/replaces/);
  });

  it('covers a write that records the amount when the request asks for money', () => {
    const charge = {
      name: 'apply_charge',
      args: { contract_id: 'C-4415', amount_clp: 39800, detail: 'Noise fine, 10 Oct' },
      result: '{"status": "added"}',
    };
    const [v] = decideBare('Charge the tenant of C-4415 the noise fine: 39,800 pesos.', [[charge]], defaultPolicy());
    expect(v.decision).toBe('release');
  });
});
