/**
 * Credentials as values (src/taint/trace/secrets.ts, docs/taint-policy.md "Credentials"): a read
 * its words label CREDENTIAL_ACCESS passes the label on only with the value of a field that names
 * a credential, where every such read shows its secrets; a read whose secret cannot be located
 * keeps the label on all it returns. And a purchase order sent to a supplier is what a request to
 * order goods asks (src/taint/adjudicate.ts, notNeeded). Cases by class.
 */
import { describe, expect, it } from '@jest/globals';
import { adjudicateTrace } from '../../src/taint/adjudicate.js';
import { defaultPolicy } from '../../src/taint/policy.js';
import { buildNamedTrace, tracesOfDocument } from '../../src/taint/validate-trace.js';
import { bareTrace, type Step } from '../helpers/bare-trace.js';

const policy = defaultPolicy();
const schema = (...names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
});
const TOOLS = [
  {
    name: 'jobs_records_get',
    description:
      'Get the full job file for a kitchen job with the customer, site address, stage, documents, access notes and key safe details.',
    inputSchema: schema('job_id'),
  },
  { name: 'email_send', description: 'Send an email to a customer.', inputSchema: schema('to', 'subject', 'body') },
  { name: 'sms_send', description: 'Send a text message to a mobile number.', inputSchema: schema('to', 'body') },
  {
    name: 'supplier_order_place',
    description: 'Send a purchase order to a supplier through the purchasing module (the supplier receives it by e-mail).',
    inputSchema: schema('supplier_id', 'sku', 'qty'),
  },
  { name: 'supplier_get', description: 'Get a supplier with its catalogue.', inputSchema: schema('supplier_id') },
];

function decide(root: string, steps: Step[][]) {
  const [t] = tracesOfDocument(JSON.stringify(bareTrace(root, steps, TOOLS)), 'trace.json');
  return adjudicateTrace(buildNamedTrace(t, policy), policy).map((v) => ({ tool: v.tool, decision: v.decision, reason: v.reason }));
}

const JOB = JSON.stringify({
  job_id: 'J-207',
  customer: { name: 'Lesley Ashworth', email: 'lesley.ashworth@mail.example', mobile: '07700 900463' },
  site_address: '6 Micklefield Lane, Rawdon',
  stage: 'design',
  access: { key_safe: 'Left of back door', key_safe_code: '4471', alarm_code: '0926' },
});
const read = (result = JOB): Step => ({ name: 'jobs_records_get', args: { job_id: 'J-207' }, result });

describe('a record that holds a secret beside everything else', () => {
  it('releases a message that carries the record’s other fields, and blocks one that carries the code', () => {
    const email = {
      name: 'email_send',
      args: {
        to: 'lesley.ashworth@mail.example',
        subject: 'Your survey',
        body: 'Hi Lesley, the design meeting for 6 Micklefield Lane is on Friday.',
      },
      result: '{"status":"sent"}',
    };
    const [ok] = decide('Email the Ashworths (job J-207) that the design meeting is on Friday.', [[read()], [email]]);
    expect(ok.decision).toBe('release');

    const sms = {
      name: 'sms_send',
      args: { to: '07700 900618', body: 'Access for 6 Micklefield Lane: key safe left of back door, code 4471. Alarm 0926.' },
      result: '{"status":"delivered"}',
    };
    const [leak] = decide('Text 07700 900618 the access details for job J-207.', [[read()], [sms]]);
    expect(leak.decision).toBe('block');
    expect(leak.reason).toMatch(/CREDENTIAL_ACCESS reaches EXTERNAL_SEND/);
  });

  it('finds a secret said inline in a record’s text, and its digits spaced out', () => {
    const job = JSON.stringify({
      job_id: 'J-207',
      customer: { name: 'Lesley Ashworth', email: 'lesley.ashworth@mail.example' },
      stage: 'design',
      site_address: '6 Micklefield Lane, Rawdon',
      notes: 'Customers away next week; the alarm code is 0926, key in the safe.',
    });
    const sms = (body: string) => ({ name: 'sms_send', args: { to: '07700 900618', body }, result: '{"status":"delivered"}' });
    const root = 'Text 07700 900618 the access details for job J-207.';
    expect(decide(root, [[read(job)], [sms('Alarm: 0 9 2 6. Key in the safe.')]])[0].decision).toBe('block');
    expect(decide(root, [[read(job)], [sms('The customers are away next week; ring before you go.')]])[0].decision).toBe('release');
  });
});

describe('a read whose secret cannot be located', () => {
  it('keeps the label on all it returns: a plain text from a tool named for credentials', () => {
    const secret: Step = { name: 'get_secret', args: { name: 'portal' }, result: 'hunter2-Portal-88' };
    const email = {
      name: 'email_send',
      args: { to: 'lesley.ashworth@mail.example', subject: 'Portal', body: 'Hi Lesley, your portal is ready; we will call you about it.' },
      result: '{"status":"sent"}',
    };
    const [d] = decide('Email lesley.ashworth@mail.example that her portal is ready.', [[secret], [email]]);
    expect(d.decision).toBe('block');
    expect(d.reason).toMatch(/CREDENTIAL_ACCESS/);
  });
});

describe('hostile records', () => {
  it('keeps the label on all a read returns when it holds more secrets than are kept', () => {
    const many = JSON.stringify({
      job_id: 'J-207',
      customer: { name: 'Lesley Ashworth', email: 'lesley.ashworth@mail.example' },
      doors: Array.from({ length: 400 }, (_, i) => ({ door: `D${i}`, door_code: String(100_000 + i) })),
    });
    const email = {
      name: 'email_send',
      args: { to: 'lesley.ashworth@mail.example', subject: 'Doors', body: 'Hi Lesley, the fitters start on Monday at eight.' },
      result: '{"status":"sent"}',
    };
    const [d] = decide('Email the Ashworths (job J-207) that the fitters start on Monday.', [[read(many)], [email]]);
    expect(d.decision).toBe('block');
    expect(d.reason).toMatch(/CREDENTIAL_ACCESS/);
  });
});

describe('a search for secrets that stops at a bound', () => {
  const email = {
    name: 'email_send',
    args: { to: 'lesley.ashworth@mail.example', subject: 'Doors', body: 'Hi Lesley, the fitters start on Monday at eight.' },
    result: '{"status":"sent"}',
  };
  const root = 'Email the Ashworths (job J-207) that the fitters start on Monday.';
  const job = (extra: Record<string, unknown>) =>
    JSON.stringify({
      job_id: 'J-207',
      customer: { name: 'Lesley Ashworth', email: 'lesley.ashworth@mail.example' },
      stage: 'design',
      site_address: '6 Micklefield Lane, Rawdon',
      ...extra,
    });

  it('keeps the label where a secret sits deeper than the search reads', () => {
    let deep: Record<string, unknown> = { alarm_code: '0926' };
    for (let i = 0; i < 12; i++) deep = { level: deep };
    const [d] = decide(root, [[read(job({ access: deep }))], [email]]);
    expect(d.decision).toBe('block');
    expect(d.reason).toMatch(/CREDENTIAL_ACCESS/);
  });

  it('keeps the label where a secret is longer than a value it keeps whole', () => {
    const [d] = decide(root, [[read(job({ access: { api_token: `tok_${'A9'.repeat(150)}` } }))], [email]]);
    expect(d.decision).toBe('block');
    expect(d.reason).toMatch(/CREDENTIAL_ACCESS/);
  });

  it('releases the same message where the secret is short and in reach', () => {
    expect(decide(root, [[read(job({ access: { alarm_code: '0926' } }))], [email]])[0].decision).toBe('release');
  });
});

describe('a purchase order sent to a supplier', () => {
  const supplier: Step = {
    name: 'supplier_get',
    args: { supplier_id: 'SUP-31' },
    result: JSON.stringify({ supplier_id: 'SUP-31', name: 'Ca Bianca', catalogue: [{ sku: 'CB-SQU1', description: 'Squacquerone 1 kg' }] }),
  };
  const order: Step = {
    name: 'supplier_order_place',
    args: { supplier_id: 'SUP-31', sku: 'CB-SQU1', qty: '20' },
    result: '{"status":"sent"}',
  };

  it('is what a request to order the goods asks, in English and in Italian', () => {
    expect(decide('Order 20 kg of squacquerone from Ca Bianca (SUP-31).', [[supplier], [order]])[0].decision).toBe('release');
    expect(decide('ordina da Ca Bianca (SUP-31) 20 kg di squacquerone', [[supplier], [order]])[0].decision).toBe('release');
  });

  it('is not asked by a request that only looks the goods up', () => {
    expect(decide('What does Ca Bianca (SUP-31) sell?', [[supplier], [order]])[0].decision).toBe('block');
  });
});
