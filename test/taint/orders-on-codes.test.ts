/**
 * What a request asks for beyond its verbs (docs/taint-policy.md, "What a request asks for"): an
 * order on an object the request names by its code asks for the action the call takes on that
 * object, whatever verb it uses; "get X sorted" asks for the participle's action; a verb that is a
 * word of the tool's own name asks for the tool when another of its words follows. Questions,
 * statements, negations and reads ask for nothing; money and code are never asked for this way.
 */
import { describe, expect, it } from '@jest/globals';
import { asksForThing, ordersDoneTo, recogniseIntent } from '../../src/taint/intent.js';
import { verbCategory } from '../../src/taint/lexicon.js';
import { labelsOf } from '../../src/taint/labels.js';
import { decideBare } from '../helpers/decide-bare.js';

const opts = { verbOf: verbCategory };

describe('an order on a code the request names', () => {
  it.each([
    ['Log the windscreen chip on 191-D-2207 from today’s return, RA-DUB-77420.', 'RA-DUB-77420'],
    ['Go through the return-damage procedure for 232-D-1189 - the customer dented a door.', '232-D-1189'],
    ['Skim the changelog. If nothing in it breaks us, switch on redis_client_v47 in staging.', 'redis_client_v47'],
    ['HD-5203: Tomas got a new phone, do the reset and let him know on the ticket.', 'HD-5203'],
    ['Please escalate INC-4410 to the vendor.', 'INC-4410'],
  ])('"%s" orders something done to %s', (request, code) => {
    expect(ordersDoneTo(request, code, opts)).toBe(true);
  });

  it.each([
    ['Which Macs are still below macOS 14.4?', '14.4'],
    ['My SIM stopped working, line LN-52001. Can you check what is wrong?', 'LN-52001'],
    ['Tom messaged about order 5530 yesterday.', '5530'],
    ['Summarise ticket HD-5203 for me.', 'HD-5203'],
    ['Don’t touch RA-DUB-77420 until the supervisor has looked.', 'RA-DUB-77420'],
    ['Log the chip on RA-DUB-77420.', 'RA-DUB-99999'],
  ])('"%s" orders nothing done to %s', (request, code) => {
    expect(ordersDoneTo(request, code, opts)).toBe(false);
  });

  const note = (agreement: string) => ({
    name: 'add_internal_note_to_rental_agreement',
    args: { agreement_number: agreement, note: 'Windscreen chip logged at check-in.' },
    result: '{"ok": true}',
  });
  const lookup = {
    name: 'look_up_rental_agreement',
    args: { agreement_number: 'RA-DUB-77420' },
    result: '{"agreement_number": "RA-DUB-77420", "status": "returned", "vehicle": "191-D-2207"}',
  };

  it('releases a write on the named object, and says why', () => {
    const [v] = decideBare('Log the windscreen chip on RA-DUB-77420.', [[lookup], [note('RA-DUB-77420')]]).filter((x) =>
      x.tool.startsWith('add_'),
    );
    expect(v.decision).toBe('release');
    expect(v.reason).toMatch(/orders something done to "RA-DUB-77420", which this DESTRUCTIVE_WRITE acts on/);
  });

  it('blocks the same write for a question about the object, or on an object the request does not name', () => {
    const asked = decideBare('Is RA-DUB-77420 back yet?', [[lookup], [note('RA-DUB-77420')]]).find((x) => x.tool.startsWith('add_'));
    expect(asked?.decision).toBe('block');
    const other = decideBare('Log the windscreen chip on RA-DUB-77420.', [[lookup], [note('RA-DUB-55555')]]).find((x) =>
      x.tool.startsWith('add_'),
    );
    expect(other?.decision).toBe('block');
  });

  it('asks for no money this way: a payment on a named claim needs a request to pay', () => {
    const settle = { name: 'settle_claim', args: { claim_id: 'EXP-5531', payee: 'Tom Bailey', amount: 48.7 }, result: '{"ok": true}' };
    const v = decideBare('Look into EXP-5531 against the policy.', [[settle]]).find((x) => x.tool === 'settle_claim');
    expect(v?.decision).toBe('block');
  });
});

describe('"get X done"', () => {
  const asks = (request: string) => labelsOf(recogniseIntent(request, opts).mask);

  it.each([
    ['Dana is taking my Thursday night on primary. Get that sorted.', 'DESTRUCTIVE_WRITE'],
    ['Leah starts Tuesday. Get her groups and licences sorted.', 'DESTRUCTIVE_WRITE'],
    ['Have the report emailed to the auditors.', 'EXTERNAL_SEND'],
  ])('"%s" asks for %s', (request, sink) => {
    expect(asks(request)).toContain(sink);
  });

  it('does not look for it in a clause longer than a sentence (pasted text)', () => {
    expect(asks(`Get that sorted ${'and more words '.repeat(200)}`)).toEqual([]);
  });

  it.each(['Can you get the approved form for me?', 'I got the invoice paid last week.', 'Don’t get it fixed yet.'])(
    '"%s" asks for nothing',
    (request) => {
      expect(asks(request)).toEqual([]);
    },
  );
});

describe('a verb that is a word of the tool’s name', () => {
  it('asks for the tool with another of its words after it, not alone', () => {
    expect(asksForThing('File it with STP and get the net pays out.', ['stp', 'file'])).toBe(true);
    expect(asksForThing('File it away.', ['stp', 'file'])).toBe(false);
    expect(asksForThing('Did you file it with STP?', ['stp', 'file'])).toBe(false);
  });
});
