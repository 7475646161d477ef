/**
 * What an argument or a tool's name is by its shape (src/taint/argument-roles.ts,
 * src/taint/tool-profile.ts): a bare run of digits is a record's number unless something speaks of
 * phones; a bound (`min_amount`) pays no one; a date under `to` ends a range and a message id under
 * `in_reply_to` names a thread; a participle before a noun in a description is no verb; a first
 * word in -ing is a noun; a name that ends with a word of reading reads, a bare plural that may be
 * a name does not; a last word that names a thing too is no verb where the tool takes nothing that
 * verb needs. Cases by class.
 */
import { describe, expect, it } from '@jest/globals';
import { argumentRole } from '../../src/taint/argument-roles.js';
import { classifyTool } from '../../src/taint/classify.js';
import { labelsOf } from '../../src/taint/labels.js';
import { defaultPolicy } from '../../src/taint/policy.js';
import type { ToolDefinition } from '../../src/taint/tool-profile.js';

const policy = defaultPolicy();
const role = (tool: string, name: string, value: string, description?: string) =>
  argumentRole(policy, tool, name, value, description ? { type: 'string', description } : { type: 'string' });
const profile = (def: ToolDefinition, args: Record<string, unknown>) => {
  const c = classifyTool(policy, def.name, args, {}, def);
  return { sinks: labelsOf(c.sinks), evidence: c.evidence.map((e) => e.why).join(' | ') };
};

describe('numbers, bounds, dates and threads', () => {
  it('reads a bare run of digits as a record’s number unless the tool, the argument or its description speaks of phones', () => {
    expect(role('BAPI_INCOMINGINVOICE_GETDETAIL', 'BELNR', '5105600231', 'Invoice document number')).not.toBe('recipient');
    expect(role('BAPI_SALESORDER_GETSTATUS', 'VBELN', '0000731622')).not.toBe('recipient');
    expect(role('send_sms', 'numero', '3331234567')).toBe('recipient');
    // A phone number has fifteen digits at most (E.164): a longer run in groups is an account ("8-8-8").
    expect(role('utalasInditasa', 'terhelesiSzamla', '11773016-20481156-00000000')).not.toBe('recipient');
    expect(role('send_sms', 'to', '0044 7700 900 873')).toBe('recipient');
    // The mailbox a message is sent from is the sender's own; where replies go is still a recipient.
    expect(role('sendGuestEmail', 'from_mailbox', 'info@poggioallequerce.example')).not.toBe('recipient');
    expect(role('send_mail', 'from', 'info@winery.example')).not.toBe('recipient');
    expect(role('send_mail', 'sender_email', 'info@winery.example')).not.toBe('recipient');
    expect(role('send_mail', 'reply_to', 'info@winery.example')).toBe('recipient');
    // Who is paid and how much, in Hungarian, Romanian, Serbian and Finnish names.
    expect(role('utalasInditasa', 'kedvezmenyezettSzamla', '10402142-49575052-51521010')).toBe('payee');
    expect(role('utalasInditasa', 'osszeg', '1016635')).toBe('amount');
    expect(role('plataFurnizor', 'contBeneficiar', 'RO49AAAA1B31007593840000')).toBe('payee');
    expect(role('nalogZaPlacanje', 'iznos', '148560')).toBe('amount');
    expect(role('maksu', 'tilinumero', 'FI2112345600000785')).toBe('payee');
    // A bank account by its name in the languages read: `kontonr`, `cislo_uctu`; a bare `konto` is a ledger account as often.
    expect(role('opprett-betaling', 'kontonr', '1506.77.27476')).toBe('payee');
    expect(role('zadat_platbu', 'cislo_uctu', '2801234567/2010')).toBe('payee');
    expect(role('notify', 'target', '6414853307', 'Mobile number to text')).toBe('recipient');
    expect(role('lookup', 'nummer', '07700 900 873')).toBe('recipient');
  });
  it('reads an amount by its name in the Nordic languages, Czech and Turkish', () => {
    for (const [tool, name] of [
      ['gi_tilgodelapp', 'belop'],
      ['gi_tilgodelapp', 'beløp'],
      ['aterbetala', 'belopp'],
      ['refunder', 'beløb'],
      ['palauta_maksu', 'summa'],
      ['vratit_platbu', 'castka'],
      ['iade_et', 'tutar'],
    ])
      expect([name, role(tool, name, '500')]).toEqual([name, 'amount']);
  });
  it('reads a number under a link’s name as how long or how many, not where anything goes', () => {
    expect(role('charge_deposit', 'link_expires_hours', '48')).toBe('other');
    expect(role('share_file', 'url_ttl', '3600')).toBe('other');
    expect(role('share_file', 'link', 'https://files.example/s/82hd')).toBe('url');
  });
  it('reads a bound as a filter, in any language', () => {
    for (const name of ['min_amount', 'max_price', 'min_kwota', 'maximum_budget'])
      expect([name, role('arrears_list', name, '500')]).toEqual([name, 'other']);
    expect(role('refund', 'amount', '500')).toBe('amount');
  });
  it('reads a room’s type and a short number under a numbering word as no one reached', () => {
    expect(role('createReservation', 'roomType', 'DCLA')).toBe('choice');
    expect(role('notify', 'recipient_type', 'email')).toBe('choice');
    expect(role('createHousekeepingTask', 'roomNumber', '12')).toBe('object');
    expect(role('send_sms', 'phone_number', '0412558903')).toBe('recipient');
    expect(role('invite', 'room', 'ops-war-room')).toBe('recipient');
  });
  it('reads a date under `to` and a message id under `in_reply_to` as no one reached', () => {
    expect(role('schedule_get', 'to', '2024-11-15')).not.toBe('recipient');
    expect(role('clientmail', 'in_reply_to', 'MSG-55340')).toBe('object');
    expect(role('clientmail', 'to', 'ana@example.com')).toBe('recipient');
    expect(role('chat_post', 'channel', 'C024BE91L')).toBe('recipient');
  });

  it('reads an identifier under a content word as the record, and a catalogue code under a command word as no code to run', () => {
    expect(role('review_reply_post', 'reviewId', 'g-7f3a91')).toBe('object');
    expect(role('review_reply_post', 'text', 'Thank you Joost!')).toBe('content');
    expect(role('offer_issue', 'program_code', 'TRA-MA')).not.toMatch(/^(?:command|credential)$/);
    expect(role('job_run', 'program', 'ls -la /srv')).toBe('command');
  });
});

const def = (name: string, description: string, properties: Record<string, unknown>, annotations?: ToolDefinition['annotations']) => ({
  name,
  description,
  inputSchema: { type: 'object', properties },
  ...(annotations ? { annotations } : {}),
});

describe('names and descriptions', () => {
  it('does not read a participle before a noun as a description’s verb, nor a first word in -ing as a name’s', () => {
    const list = def('ME2L_PO_LIST', 'ME2L: purchasing documents per vendor. Returns EBELN, MATNR, NETPR.', { LIFNR: { type: 'string' } });
    expect(profile(list, { LIFNR: '100311' }).sinks).toEqual([]);
    expect(profile(list, { LIFNR: '100311' }).evidence).not.toContain('nothing says what');
    const book = def(
      'viewing-book',
      'Book a viewing in the diary.',
      { property_ref: { type: 'string' } },
      { readOnlyHint: false, destructiveHint: false },
    );
    expect(profile(book, { property_ref: 'HAR14' }).evidence).toContain('book');
  });
  it('reads a name that ends with a verb of reading, and leaves a bare plural that may be a name unplaced', () => {
    expect(profile(def('claims_list', '', { claim: { type: 'string' } }), { claim: 'C-1' }).evidence).not.toContain('nothing says what');
    expect(
      profile(def('hermes', '', { handle: { type: 'string' }, ref: { type: 'string' } }), { handle: 'drop', ref: 'q3' }).evidence,
    ).toContain('nothing says what hermes does');
  });
  it('does not take a last word that names a thing for the verb where the tool takes nothing that verb needs', () => {
    const mails = def('lista_wiadomosci_email', 'Lista wiadomości w skrzynce administracji z filtrem po nadawcy.', {
      nadawca: { type: 'string' },
      szukaj: { type: 'string' },
      limit: { type: 'integer' },
    });
    expect(profile(mails, { nadawca: 'Nowak' }).sinks).toEqual([]);
    const sends = def('biuro_email', '', { do: { type: 'string' }, tresc: { type: 'string' } });
    expect(profile(sends, { do: 'ana@example.com', tresc: 'Dzień dobry, przesyłam protokół z zebrania zarządu.' }).sinks).toContain(
      'EXTERNAL_SEND',
    );
  });
  it('does not take a first word that names a thing for the verb where only unknown words follow and the tool takes nothing it needs', () => {
    const reads = def('email_lesen', 'Gibt den vollständigen Inhalt einer E-Mail zurück.', { email_id: { type: 'string' } });
    expect(profile(reads, { email_id: 'M-4471' }).sinks).toEqual([]);
    const abrufen = def('nachricht_abrufen', '', { nachricht_id: { type: 'string' } });
    expect(profile(abrufen, { nachricht_id: 'N-12' }).sinks).toEqual([]);
    // With someone to reach, or a known word after it, the first word stays the action.
    const sends = def('email_kunde', '', { an: { type: 'string' }, text: { type: 'string' } });
    expect(profile(sends, { an: 'ana@example.com', text: 'Guten Tag, anbei die Rechnung für März.' }).sinks).toContain('EXTERNAL_SEND');
    expect(profile(def('email_invoice', '', { invoice_id: { type: 'string' } }), { invoice_id: 'INV-9' }).sinks).not.toEqual([]);
  });
});

describe('what the call gives', () => {
  const loads = def('loads', 'Load management. action=update changes ETA or appointments; action=create books a new load at a rate.', {
    action: { type: 'string', enum: ['search', 'create', 'update', 'cancel'] },
    load_id: { type: 'string' },
    rate_usd: { type: 'number' },
    eta: { type: 'string' },
  });
  it('moves money only where the call gives an amount or a payee, not where its schema offers one for another operation', () => {
    expect(profile(loads, { action: 'update', load_id: '51877', eta: '2024-10-15T15:45:00-05:00' }).sinks).toEqual(['DESTRUCTIVE_WRITE']);
    expect(profile(loads, { action: 'create', load_id: '51877', rate_usd: 2400 }).sinks).toContain('FINANCIAL_TRANSFER');
  });
  it('reads a date argument’s name as when, not what (`dueAt` is no amount due)', () => {
    const task = def('createHousekeepingTask', 'Create a housekeeping task for a room.', {
      roomNumber: { type: 'string' },
      dueAt: { type: 'string', format: 'date-time' },
    });
    expect(profile(task, { roomNumber: '12', dueAt: '2025-10-15T11:00:00' }).sinks).toEqual(['DESTRUCTIVE_WRITE']);
    const bill = def('createCharge', 'Create a charge on a folio.', { folio: { type: 'string' }, amountDue: { type: 'number' } });
    expect(profile(bill, { folio: 'F-1', amountDue: 36 }).sinks).toContain('FINANCIAL_TRANSFER');
  });
  it('reads posting a charge to an account as money moved, not as a publication', () => {
    const charge = def('createFolioCharge', "Post a charge (or a negative correction) to a reservation's folio.", {
      reservationId: { type: 'string' },
      description: { type: 'string' },
      amount: { type: 'number' },
    });
    expect(profile(charge, { reservationId: 'R-2410377', description: 'Dinner for two', amount: 76 }).sinks).toEqual([
      'FINANCIAL_TRANSFER',
    ]);
    const post = def('publish_post', 'Publish a post on the company page.', { text: { type: 'string' } });
    expect(profile(post, { text: 'We are open on Sunday from ten until four.' }).sinks).toEqual(['PUBLIC_POST']);
  });
  it('counts a value given inside a list as its argument given', () => {
    const guests = def('guestlist', 'Add people to an event’s door list.', {
      event_id: { type: 'string' },
      guests: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
    });
    const given = profile(guests, { event_id: 'EV-1', guests: [{ name: 'Dylan Marsh' }] }).sinks;
    expect(given).toEqual(profile(guests, {}).sinks);
  });
});

describe('values that say what an argument is not, and descriptions that say what a tool does not do', () => {
  it('reads a command word under a numbering word as a record, not code to run', () => {
    expect(role('rechercher_commandes_achat', 'numero_commande', 'BC-2024-0318')).not.toBe('command');
    expect(role('order_lookup', 'command_no', '4411')).not.toBe('command');
    expect(role('run_shell', 'command', 'ls -la /tmp')).toBe('command');
    const search: ToolDefinition = {
      name: 'rechercher_commandes_achat',
      description: 'Recherche des bons de commande dans l’ERP achats.',
      inputSchema: { type: 'object', properties: { numero_commande: { type: 'string' } } },
      annotations: { readOnlyHint: true, openWorldHint: false },
    };
    expect(profile(search, { numero_commande: 'BC-2024-0318' }).sinks).toEqual([]);
  });

  it('reads a money word over a value that is no sum as a choice, and a sum as an amount', () => {
    expect(role('seat_asgn', 'fee_waiver', 'INVOL-SKCHG')).toBe('choice');
    expect(role('seat_asgn', 'fee_waiver', 'GW case 57980')).toBe('choice');
    expect(role('refund', 'amount', 'EUR 1.250,00')).toBe('amount');
    expect(role('refund', 'amount', '$29.70')).toBe('amount');
    expect(role('refund', 'amount', '')).toBe('amount');
  });

  it('reads an account named by an identifier with letters as a record, and a run of digits or an IBAN as a payee', () => {
    expect(role('CrmNoteCreate', 'account_id', '0015g00000Lp2Vx')).toBe('object');
    expect(role('CrmNoteCreate', 'account_id', 'acc_9')).toBe('object');
    expect(role('transfer', 'account_id', '12345678')).toBe('payee');
    expect(role('transfer', 'account', 'DE89370400440532013000')).toBe('payee');
    expect(role('transfer', 'to_account', 'acc_9')).toBe('payee');
  });

  it('places a seat assignment with a waiver code and a CRM note as changes, not payments', () => {
    const seat: ToolDefinition = {
      name: 'seat_asgn',
      description: 'Assign a seat to a passenger on a segment.',
      inputSchema: {
        type: 'object',
        properties: { rloc: { type: 'string' }, seat: { type: 'string' }, fee_waiver: { type: 'string' } },
      },
    };
    expect(profile(seat, { rloc: '4LDX8R', seat: '2C', fee_waiver: 'INVOL-SKCHG' }).sinks).toEqual(['DESTRUCTIVE_WRITE']);
    const note: ToolDefinition = {
      name: 'CrmNoteCreate',
      description: 'Adds a note to a CRM account or contact timeline.',
      inputSchema: { type: 'object', properties: { account_id: { type: 'string' }, body: { type: 'string' } } },
    };
    expect(profile(note, { account_id: '0015g00000Lp2Vx', body: 'Voided the duplicate invoice.' }).sinks).toEqual(['DESTRUCTIVE_WRITE']);
  });

  it('reads a description that opens with a noun as naming what the tool returns', () => {
    const availability: ToolDefinition = {
      name: 'flt_avl',
      description: 'Flight availability and schedule for a city pair and date.',
      inputSchema: { type: 'object', properties: { org: { type: 'string' }, dst: { type: 'string' }, date: { type: 'string' } } },
    };
    expect(profile(availability, { org: 'VIE', dst: 'OTP', date: '2025-07-02' }).sinks).toEqual([]);
    const plan: ToolDefinition = {
      name: 'brewplan_get_schedule',
      description: 'Brewhouse schedule - brews, fermenters, CIP slots, packaging runs - for a date range.',
      inputSchema: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } } },
    };
    expect(profile(plan, { from: '2025-05-01', to: '2025-05-14' }).sinks).toEqual([]);
    // A verb in the third person, or after an adverb, still acts.
    const lodge: ToolDefinition = {
      name: 'Customs.LodgeDeclaration',
      description: 'Lodges an import declaration with customs. Returns the MRN.',
      inputSchema: { type: 'object', properties: { shipment: { type: 'string' }, declaration: { type: 'string' } } },
    };
    expect(profile(lodge, { shipment: 'SH-1', declaration: 'IM4' }).sinks).not.toEqual([]);
  });

  it('reads a tool whose description says it makes no change as a read, whatever operation its enum names', () => {
    const quote: ToolDefinition = {
      name: 'fare_qte',
      description: 'Quote a change, upgrade, cancellation or refund against the ticketed fare rules. No booking is made.',
      inputSchema: {
        type: 'object',
        properties: { rloc: { type: 'string' }, action: { type: 'string', enum: ['change', 'upgrade', 'cancel', 'refund'] } },
      },
    };
    const read = profile(quote, { rloc: 'W5HC2N', action: 'upgrade' });
    expect(read.sinks).toEqual([]);
    expect(read.evidence).toContain('No booking is made');
    // An annotation that says it acts outranks the sentence.
    expect(profile({ ...quote, annotations: { readOnlyHint: false } }, { rloc: 'W5HC2N', action: 'refund' }).sinks).not.toEqual([]);
  });

  it('reads a reply into a chat or a case by its structure, not as a public post by its name', () => {
    const reply: ToolDefinition = {
      name: 'chat_reply',
      description: 'Post a reply in a live chat case.',
      inputSchema: { type: 'object', properties: { case_id: { type: 'string' }, text: { type: 'string' } } },
    };
    expect(profile(reply, { case_id: '58390', text: 'Your fare includes one ski bag.' }).sinks).not.toContain('PUBLIC_POST');
    const social: ToolDefinition = { name: 'post_x_reply', description: 'Reply to a post on X.' };
    expect(profile(social, { post_id: '1', content: 'Great!' }).sinks).toContain('PUBLIC_POST');
  });
});
