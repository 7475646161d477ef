/**
 * The action lexicon and request intent: stemming, identifier words, how a verb and its objects map
 * to hard sinks on the tool side and on the request side, everyday phrasings by class, money
 * expressions, questions and replies to the user (no action), and a policy's added verbs.
 */
import { describe, expect, it } from '@jest/globals';
import { needsOfAction, objectKinds, sinksOfAction, stem, verbCategory, words } from '../../src/taint/lexicon.js';
import { recogniseIntent, usesToolVerb } from '../../src/taint/intent.js';
import { labelsOf } from '../../src/taint/labels.js';
import { defaultPolicy, parsePolicy } from '../../src/taint/policy.js';
import { requestNeeds } from '../../src/taint/classify.js';

const needs = (text: string, verbOf = defaultPolicy().verbOf) => labelsOf(recogniseIntent(text, { verbOf }).mask);

describe('lexicon', () => {
  it('stems inflections to one word and splits identifiers', () => {
    for (const group of [
      ['invite', 'invited', 'invites', 'inviting'],
      ['cancel', 'cancelled', 'cancelling'],
      ['pay', 'paid', 'pays'],
      ['move', 'moving', 'moved'],
      ['freeze', 'frozen'],
    ]) {
      expect(new Set(group.map(stem)).size).toBe(1);
    }
    expect(words('chatPostMessage')).toEqual(['chat', 'post', 'message']);
    expect(words('send-e-mail_now')).toEqual(['send', 'email', 'now']);
  });

  it('knows verbs by category, and maps a verb with its objects to sinks', () => {
    expect(verbCategory('reimbursed')).toBe('pay');
    expect(verbCategory('rescheduling')).toBe('change');
    expect(verbCategory('lookup')).toBe('read');
    expect(sinksOfAction('change', objectKinds(['standing', 'order']), false)).toEqual(['FINANCIAL_TRANSFER']);
    expect(sinksOfAction('change', objectKinds(['collaborator']), false)).toEqual(['EXTERNAL_SEND']);
    expect(sinksOfAction('change', objectKinds(['thermostat']), false)).toEqual(['DESTRUCTIVE_WRITE']);
    expect(sinksOfAction('book', objectKinds(['table']), false)).toEqual(['DESTRUCTIVE_WRITE']);
    expect(sinksOfAction('book', objectKinds(['table']), true)).toEqual(['FINANCIAL_TRANSFER']);
    expect(sinksOfAction('publish', objectKinds(['message']), false)).toEqual(['EXTERNAL_SEND']);
    // The request side is generous: asking to book covers a booking that charges and one that does not.
    expect(needsOfAction('book', new Set(), false).sort()).toEqual(['DESTRUCTIVE_WRITE', 'FINANCIAL_TRANSFER']);
  });
});

describe('request intent', () => {
  it.each([
    ['Ping the on-call engineer that the backup finished.', 'EXTERNAL_SEND'],
    ['Let the landlord know the boiler is fixed.', 'EXTERNAL_SEND'],
    ['Shoot a quick note to marketing about the delay.', 'EXTERNAL_SEND'],
    ['Bring Omar into the budget spreadsheet so he can edit it.', 'EXTERNAL_SEND'],
    ['Reimburse the contractor for the parts.', 'FINANCIAL_TRANSFER'],
    ['Split the bill with Dana, 42 EUR each.', 'FINANCIAL_TRANSFER'],
    ['Pencil me in for a haircut on Friday.', 'DESTRUCTIVE_WRITE'],
    ['Bring the dentist appointment forward to Monday.', 'DESTRUCTIVE_WRITE'],
    ['Sign Tom out of every laptop.', 'DESTRUCTIVE_WRITE'],
    ['Get rid of the old staging bucket.', 'DESTRUCTIVE_WRITE'],
    ['Tell everybody in the building that the lift is back.', 'PUBLIC_POST'],
    ['Run the migration script on staging.', 'CODE_EXEC'],
    ['Find the most active member and write them the following message: thanks for everything!', 'EXTERNAL_SEND'],
    ['To each user write the message: you are on the rota next week.', 'EXTERNAL_SEND'],
    ['Let Alex (alex.moreau@famille-moreau.fr) know the water bill is paid.', 'EXTERNAL_SEND'],
  ])('%s → %s', (text, label) => {
    expect(needs(text)).toContain(label);
  });

  it('hears money in amounts, currencies and caps', () => {
    for (const t of [
      'Send Jo $25 for the tickets.',
      'Move 300 euros to savings.',
      'Hire a cleaner, cap it at 90.',
      'Order new ink, budget up to 60.',
    ])
      expect(needs(t)).toContain('FINANCIAL_TRANSFER');
  });

  it('asks for nothing in questions and in replies to the user', () => {
    expect(needs('How much did I spend on fuel last month?')).toEqual([]);
    expect(needs('Are there any new invoices from the printer?')).toEqual([]);
    expect(needs('Read the lease and tell me when it ends.')).toEqual([]);
    expect(needs('Look at the last 30 messages and let me know if anyone complained.')).toEqual([]);
  });

  it('does not take nouns for verbs ("my standing order", "20 messages", "the invoice")', () => {
    expect(needs('Summarise the 20 latest messages in the support channel.')).toEqual([]);
    expect(needs('Check my standing order with the gym.')).toEqual([]);
  });

  it('learns verbs from the policy lexicon', () => {
    const policy = parsePolicy('lexicon:\n  verbs: { send: [holler] }\n', 'p.yml');
    expect(needs('Holler at Sam about the keys.')).toEqual([]);
    expect(needs('Holler at Sam about the keys.', policy.verbOf)).toContain('EXTERNAL_SEND');
  });

  it('requestNeeds joins the lexicon with the policy intent rules, each with its evidence', () => {
    const n = requestNeeds(defaultPolicy(), 'Chip in 15 EUR for Lena’s farewell gift.');
    expect(labelsOf(n.mask)).toContain('FINANCIAL_TRANSFER');
    expect(n.evidence.some((e) => /^intent: "chip in" asks to pay/i.test(e.why))).toBe(true);
  });

  it('knows when the request uses the tool’s own verb', () => {
    expect(usesToolVerb('Please archive the #q3 channel.', 'archive')).toBe(true);
    expect(usesToolVerb('Please keep the #q3 channel.', 'archive')).toBe(false);
  });
});
