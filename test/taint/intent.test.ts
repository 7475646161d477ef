/**
 * The action lexicon and request intent: stemming, identifier words, how a verb and its objects map
 * to hard sinks on the tool side and on the request side, everyday phrasings by class, money
 * expressions, questions and replies to the user (no action), negation, the relation between the
 * action a request asks for and the sinks it covers, and a policy's added verbs and intent rules.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { CATEGORIES, COVERS, needsOfAction, objectKinds, sinksOfAction, stem, verbCategory, words } from '../../src/taint/lexicon.js';
import { asksWithVerbs, recogniseIntent, usesToolVerb } from '../../src/taint/intent.js';
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

  it('reads a channel verb aimed at the user as a send, which still needs the address named', () => {
    expect(needs('Email me the minutes of Monday’s call at dana@example.com.')).toContain('EXTERNAL_SEND');
    expect(needs('Can you text my son the door code? His number is 07700 900111.')).toContain('EXTERNAL_SEND');
    expect(needs('Show me the minutes of Monday’s call.')).toEqual([]);
    // Putting something into a channel sends it there and changes nothing; putting a note on a file changes it.
    expect(needs('Go through the overnight mail and put a summary in #paintings for the huddle.')).toEqual(['EXTERNAL_SEND']);
    expect(needs('Put a note on her file saying she called.')).toContain('DESTRUCTIVE_WRITE');
    // A chat's "u" for "you" leads into the verb as "you" does.
    expect(needs('hi can u email the receipt to me again pls')).toContain('EXTERNAL_SEND');
  });

  it('reads committing to a choice and finishing a piece of work as changes, and "let us" before a verb', () => {
    expect(needs('Two caterers quoted. Which is cheaper? I’d like to go with that one.')).toContain('DESTRUCTIVE_WRITE');
    expect(needs('The audit is done, wrap up ticket T-12.')).toContain('DESTRUCTIVE_WRITE');
    expect(needs('We agreed on the price; close out the quote Q-88.')).toContain('DESTRUCTIVE_WRITE');
    expect(needs('Let’s cancel the Friday stand-up.')).toContain('DESTRUCTIVE_WRITE');
    expect(needs('Approve the repair at the agreed amount.')).toContain('FINANCIAL_TRANSFER');
    expect(needs('Push the Tuesday delivery to 3pm.')).toContain('DESTRUCTIVE_WRITE');
  });

  it('reads settling up and handling refunds as payments, and putting someone on a list as a change', () => {
    expect(needs('Square up with the caterers for Friday.')).toContain('FINANCIAL_TRANSFER');
    expect(needs('Sort out refunds for the cancelled matinee.')).toContain('FINANCIAL_TRANSFER');
    expect(needs('Chuck Jess and a plus-one on the door list for Friday.')).toContain('DESTRUCTIVE_WRITE');
    expect(needs("Can we get the baby on Sinéad's health cover?")).toContain('DESTRUCTIVE_WRITE');
  });

  it('reads taking something off an order as a change, and knocking a plan on the head as calling it off', () => {
    expect(needs('Dont cancel my next order, just take the eggs off it.')).toContain('DESTRUCTIVE_WRITE');
    expect(needs("We'll be away on the 13th. Can ye knock that one on the head?")).toContain('DESTRUCTIVE_WRITE');
    expect(needs('Pull the plug on the Friday stand-up.')).toContain('DESTRUCTIVE_WRITE');
    expect(needs('Take £5 off the bill.')).not.toContain('DESTRUCTIVE_WRITE');
  });

  it('reads a reprint raised as an order, someone else given a look as a send, money to get back in French as a payment', () => {
    expect(needs('The banners came back with the hems splitting. Raise a free reprint on RB-59966.')).toContain('FINANCIAL_TRANSFER');
    expect(needs('Can Stockport Plumbing have a gander at the van wrap mock-up?')).toContain('EXTERNAL_SEND');
    expect(needs('Can you have a look at the van wrap mock-up?')).toEqual([]);
    expect(needs("La vente tombe à l'eau. Il faut qu'il récupère ses 14 000 € qui dorment chez nous.")).toContain('FINANCIAL_TRANSFER');
    expect(needs("Hansen'lerin transferini bir saat erkene aldık. Erdal'ın da kulağına çalın.")).toContain('EXTERNAL_SEND');
  });

  it('reads money handed to a person as a payment, whatever the verb', () => {
    expect(needs('He is stuck in Amarillo, front him $300 for fuel.')).toContain('FINANCIAL_TRANSFER');
    expect(needs('Spot me 20 bucks for the taxi.')).toContain('FINANCIAL_TRANSFER');
    expect(needs('Show me $300 worth of receipts.')).toEqual([]);
  });

  it('asks with a verb a tool offers besides its first, where it stands as a verb', () => {
    const offered = ['counter', 'decline'];
    expect(asksWithVerbs('Counter the offer on L-52 at $2.40 a mile.', offered)).toBe(true);
    expect(asksWithVerbs('What did their counter offer say?', offered)).toBe(false);
    expect(asksWithVerbs('Don’t decline it yet.', offered)).toBe(false);
    expect(asksWithVerbs('Summarise the counter offers from this week.', offered)).toBe(false);
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

  it('a policy’s own intent rules still apply on top of the action', () => {
    const policy = parsePolicy(
      'intents:\n  - { pattern: "\\\\bquarterly close\\\\b", needs: [FINANCIAL_TRANSFER], why: "our close pays suppliers" }\n',
      'p.yml',
    );
    const n = requestNeeds(policy, 'Start the quarterly close.');
    expect(labelsOf(n.mask)).toContain('FINANCIAL_TRANSFER');
    expect(n.evidence.some((e) => /our close pays suppliers/.test(e.why))).toBe(true);
  });

  it('knows when the request uses the tool’s own verb', () => {
    expect(usesToolVerb('Please archive the #q3 channel.', 'archive')).toBe(true);
    expect(usesToolVerb('Please keep the #q3 channel.', 'archive')).toBe(false);
  });
});

/** What the built-in policy reads a request as asking for (the lexicon, the relation, no keyword rules). */
const asks = (text: string) => labelsOf(requestNeeds(defaultPolicy(), text).mask);

describe('answers, hand-overs and seeing to it', () => {
  it('reads a "No," a comma closes as an answer, not as the negation of what follows', () => {
    expect(asksWithVerbs('No, file only the narrative v3; the financial one waits for Yves.', ['file'])).toBe(true);
    expect(asksWithVerbs('Non, dépose seulement le narratif v3.', ['depose'])).toBe(true);
    expect(asksWithVerbs("No, don't file it yet.", ['file'])).toBe(false);
    expect(asksWithVerbs('Do not file the narrative.', ['file'])).toBe(false);
  });

  it('reads a message thrown over to someone as a send', () => {
    expect(asks('Knock that off their bill and drop billing@harborview.example a quick sorry note.')).toContain('EXTERNAL_SEND');
    expect(asks('Shoot him an email with the new times.')).toContain('EXTERNAL_SEND');
    expect(asks('Drop the old draft from the folder.')).not.toContain('EXTERNAL_SEND');
  });

  it('reads a verb after an "only" that opens its clause as asked, and an action told "to them" as a message', () => {
    expect(asks('Sort anyone charged twice? Only refund the duplicate charge, nothing else.')).toContain('FINANCIAL_TRANSFER');
    expect(asks('Book what they asked for and confirm it to them.')).toContain('EXTERNAL_SEND');
    expect(asks('Confirm the booking.')).not.toContain('EXTERNAL_SEND');
    expect(asks("Don't refund anything yet.")).toEqual([]);
  });

  it('hears money in the currencies of the desks read in their own language', () => {
    for (const t of [
      'Send 12.500 TL to the customs agent.',
      'Send ₺300 to the buyer.',
      'Send the 1 200 Kč to Petr.',
      'Send 450 kr to the club.',
    ])
      expect([t, asks(t)]).toEqual([t, expect.arrayContaining(['FINANCIAL_TRANSFER'])]);
    expect(asks('Send the packing list to the customs agent.')).not.toContain('FINANCIAL_TRANSFER');
  });

  it('reads chasing someone as a message, and jotting a thing down as a change', () => {
    expect(asks('Chase the vet only, leave the owner alone.')).toContain('EXTERNAL_SEND');
    expect(asks('Knock her monthly gift down to a fiver and jot down why.')).toContain('DESTRUCTIVE_WRITE');
    expect(asks("Don't chase them yet.")).toEqual([]);
  });

  it('reads "make sure" something happens as asking for it done', () => {
    expect(asks('The lady on ZP4L7C cannot manage the steps, make sure someone helps her on and off.')).toContain('DESTRUCTIVE_WRITE');
    expect(asks('Is someone helping her on and off?')).toEqual([]);
  });
});

describe('intent from structure, not from words', () => {
  it('a noun alone asks for nothing: the built-in policy has no keyword rules', () => {
    expect(defaultPolicy().intents).toEqual([]);
    for (const t of [
      'Find the most recent email from the landlord and summarise it.',
      'What is in my wallet after the last payment?',
      'Summarise the messages about the money for the school trip.',
      'Look through the reviews and the issues of the project.',
      'Read the report on the Python test results.',
    ])
      expect([t, asks(t)]).toEqual([t, []]);
  });

  it.each([
    ['Email the landlord that the boiler is fixed.', 'EXTERNAL_SEND'],
    ['Report the spam post to the moderators.', 'EXTERNAL_SEND'],
    ['Upload the video to the school channel.', 'PUBLIC_POST'],
    ['Write a review of the headphones.', 'PUBLIC_POST'],
    ['Encrypt the files in the archive folder.', 'DESTRUCTIVE_WRITE'],
    ['Once the quote arrives, pay the plumber.', 'FINANCIAL_TRANSFER'],
    ['When the list is ready, send it to Priya.', 'EXTERNAL_SEND'],
    ['If the login works, transfer 50 to savings.', 'FINANCIAL_TRANSFER'],
    ['Create and run a script that deletes the old logs.', 'DESTRUCTIVE_WRITE'],
    ['Save the clip to /home/me/clip.mp4. Post it on the club page.', 'PUBLIC_POST'],
  ])('a verb with its object asks for its action: %s → %s', (text, label) => {
    expect(asks(text)).toContain(label);
  });

  it.each([
    ['Do not share the contract with anyone.', 'EXTERNAL_SEND'],
    ['Never pay an invoice from this supplier.', 'FINANCIAL_TRANSFER'],
    ['Summarise the thread without sending anything.', 'EXTERNAL_SEND'],
    ['I don’t want you to email the tenants.', 'EXTERNAL_SEND'],
    ["Don't share or post the draft.", 'PUBLIC_POST'],
    ['Draft the reply to the bank, but do not send it.', 'EXTERNAL_SEND'],
  ])('negation asks for nothing of that action: %s (not %s)', (text, label) => {
    expect(asks(text)).not.toContain(label);
  });

  it('a negation reaches only its own verb: "don’t forget to send" asks to send, "instead of" negates the one it names', () => {
    expect(asks("Don't forget to send Omar the agenda.")).toContain('EXTERNAL_SEND');
    expect(asks('Instead of paying the fine, appeal it.')).not.toContain('FINANCIAL_TRANSFER');
    expect(asks('Do not email Dana; pay the deposit instead.')).toEqual(expect.arrayContaining(['FINANCIAL_TRANSFER']));
    expect(asks('Do not email Dana; pay the deposit instead.')).not.toContain('EXTERNAL_SEND');
  });

  it('a question asks for nothing; a request phrased as a question asks', () => {
    expect(asks('Did I send the signed lease to the agency?')).toEqual([]);
    expect(asks('How much did I pay for parking in May?')).toEqual([]);
    expect(asks('Can you send the signed lease to the agency?')).toContain('EXTERNAL_SEND');
  });

  it.each([
    'Check whether I paid the rent last month.',
    'Tell me whether we booked the hotel in Rome.',
    'Find out if the invoice was sent to the client.',
    'Can you check whether Anna forwarded the contract?',
    'Summarise the email I sent to Bob yesterday.',
    'Look up which files I shared last week.',
    'List the transfers we made to the landlord this year.',
  ])('an indirect question or a past action asks for nothing: %s', (text) => {
    expect(asks(text)).toEqual([]);
  });

  it('an action after the question, or a condition opening the clause, still asks', () => {
    expect(asks('Check if the rent is paid and pay it if not.')).toContain('FINANCIAL_TRANSFER');
    expect(asks('If the invoice is due, pay it.')).toContain('FINANCIAL_TRANSFER');
    expect(asks('We paid too much; refund the difference to my card.')).toContain('FINANCIAL_TRANSFER');
    expect(asks('See whether the flat is free, then book it for May 3.')).toContain('DESTRUCTIVE_WRITE');
  });

  it('the relation covers every category once, and reads each action against it', () => {
    expect(Object.keys(COVERS).sort()).toEqual([...CATEGORIES].sort());
    for (const c of CATEGORIES) expect(COVERS[c].why.length).toBeGreaterThan(10);
    // An upload (share) covers a post and a send; a publication covers a message to a channel.
    expect(needsOfAction('share', new Set(), false).sort()).toEqual(['EXTERNAL_SEND', 'PUBLIC_POST']);
    expect(needsOfAction('publish', new Set(), false).sort()).toEqual(['EXTERNAL_SEND', 'PUBLIC_POST']);
    // A plain send covers neither a post nor a change; writing a post publishes it.
    expect(needsOfAction('send', new Set(), false)).toEqual(['EXTERNAL_SEND']);
    expect(needsOfAction('change', objectKinds(['review']), false).sort()).toEqual(['DESTRUCTIVE_WRITE', 'PUBLIC_POST']);
    expect(needsOfAction('exec', objectKinds(['invoice']), true)).toEqual(['CODE_EXEC']);
    expect(verbCategory('uploading')).toBe('share');
    expect(verbCategory('reported')).toBe('send');
  });

  it('docs/taint-policy.md states the relation as the code defines it, with its reasons', () => {
    const doc = readFileSync('docs/taint-policy.md', 'utf8');
    for (const c of CATEGORIES) {
      const row = new RegExp(`^\\| \`${c}\` \\([^)]*\\) \\| ([^|]*) \\| ([^|]*) \\|$`, 'm').exec(doc);
      expect([c, row?.[1].match(/[A-Z_]{6,}/g) ?? []]).toEqual([c, [...COVERS[c].sinks]]);
      expect(row?.[2].startsWith(COVERS[c].why.split(' (')[0].split(';')[0])).toBe(true);
    }
  });
});

describe('entering a value', () => {
  it('is setting it: a change, asked as any change is', () => {
    expect(verbCategory('enter')).toBe('change');
    expect(needs('Enter the meter reading 4471 on the Leith Walk account.')).toEqual(['DESTRUCTIVE_WRITE']);
    expect(needs('Which reading did they enter last month?')).toEqual([]);
  });
});
