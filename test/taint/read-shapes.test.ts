/**
 * Reads a name rule or an argument would have staged, and writes that send (docs/validator.md, "How
 * a tool's effect is read"): a name that ends with a verb of reading after what it reads, with a
 * description that opens with one, reads even where its first word spells an action or it takes an
 * address to filter by; a tool named for running something that takes no code and says it returns
 * data reads; an argument called for a delivery route is no bank routing number; a change with an
 * argument that says where it sends (`forward_to`) sends as well.
 */
import { describe, expect, it } from '@jest/globals';
import { classifyTool } from '../../src/taint/classify.js';
import { argumentRole } from '../../src/taint/argument-roles.js';
import { labelsOf } from '../../src/taint/labels.js';
import { defaultPolicy } from '../../src/taint/policy.js';
import type { ToolDefinition } from '../../src/taint/tool-profile.js';

const policy = defaultPolicy();
const sinks = (name: string, args: Record<string, unknown>, description: string, properties: Record<string, object> = {}) => {
  const def: ToolDefinition = { name, description, inputSchema: { type: 'object', properties } };
  const c = classifyTool(policy, name, args, {}, def);
  return { sinks: labelsOf(c.sinks), evidence: c.evidence.map((e) => e.why).join(' | ') };
};

describe('a name that ends with a read', () => {
  it.each([
    [
      'transferLookup',
      { confirmation: 'LX-51002', date: '2024-10-17' },
      'Shows transfers booked for a reservation and the options and prices of our partners.',
    ],
    ['payment_status_check', { payment_ref: 'P-1' }, 'Returns the state of a payment.'],
    [
      'licenses-assignments-list',
      { user_email: 'omar@x.example' },
      'List licence assignments for a product, or all products assigned to one user.',
    ],
    [
      'prescriberGet',
      { npi: '1427389015' },
      'Returns the prescriber directory entry for an NPI: practice name, address, phone and fax on file.',
    ],
  ])('%s reads, whatever its first word or an address it filters by', (name, args, description) => {
    const got = sinks(name, args, description);
    expect(got.sinks).toEqual([]);
  });

  it('keeps a verb that leads the name, and a name-end read whose description acts', () => {
    expect(sinks('transfer_funds_lookup_and_send', { to: 'a@b.example', amount: 5 }, 'Sends money to an account.').sinks).not.toEqual([]);
    expect(sinks('orderLookup', { amount: 20, payee: 'Acme' }, 'Shows an order and pays its balance.').sinks).toContain(
      'FINANCIAL_TRANSFER',
    );
  });

  it('reads a list of nouns after a verb of reading as that verb’s object, not as a description of what is returned', () => {
    // "Shows transfers booked for …": the participle describes the transfers the tool shows.
    expect(sinks('bookingsView', { ref: 'B-1' }, 'Shows bookings made for a guest and the prices paid.').evidence).toMatch(
      /opens with a read/,
    );
  });
});

describe('a tool named for running something', () => {
  it.each([
    [
      'reportRun',
      { reportName: 'patients_by_prescriber', params: { prescriberName: 'Lin' } },
      'Runs a stored report (dispensing log, etc.) and returns rows as JSON.',
    ],
    ['compile_payroll_register', { period: '2024-11', fields: ['full_name'] }, 'Produces the payroll register for a closed period as CSV.'],
  ])('%s reads when it takes no code and returns data', (name, args, description) => {
    const got = sinks(name, args, description);
    expect(got.sinks).toEqual([]);
    expect(got.evidence).toMatch(/runs no code here/);
  });

  it('stays code with a command, a code argument or free text, or when it returns nothing', () => {
    expect(sinks('run_script', { script: 'rm -rf /' }, 'Runs a shell script and returns its output.').sinks).toContain('CODE_EXEC');
    expect(sinks('job_run', { job: 'nightly' }, 'Starts a job on the cluster.').sinks).toContain('CODE_EXEC');
  });
});

describe('arguments that say where a call goes', () => {
  it('reads a delivery route as an object, and a routing number as a payee', () => {
    expect(argumentRole(policy, 'deliveryRouteUpdate', 'routeId', 'RT-1030-M')).toBe('object');
    expect(argumentRole(policy, 'wire', 'routing_number', '121000248')).toBe('payee');
  });

  it('makes a change that names where it sends a send as well', () => {
    const forward = sinks(
      'mail_forwarding_set',
      { mailbox: 'leah@corp.example', forward_to: 'leah@proton.example' },
      'Sets mail forwarding for a mailbox.',
    );
    expect(forward.sinks).toEqual(expect.arrayContaining(['EXTERNAL_SEND']));
    expect(forward.evidence).toMatch(/argument forward_to names where it sends/);
    // The address a change is about is no destination: a licence goes to the user, nothing is sent.
    expect(
      sinks('licenses-assign', { product: 'gong', user_email: 'leah@corp.example' }, 'Assigns a licence to a user.').sinks,
    ).not.toContain('EXTERNAL_SEND');
  });
});
