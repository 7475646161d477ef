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
    expect(role('notify', 'target', '6414853307', 'Mobile number to text')).toBe('recipient');
    expect(role('lookup', 'nummer', '07700 900 873')).toBe('recipient');
  });
  it('reads a bound as a filter, in any language', () => {
    for (const name of ['min_amount', 'max_price', 'min_kwota', 'maximum_budget'])
      expect([name, role('arrears_list', name, '500')]).toEqual([name, 'other']);
    expect(role('refund', 'amount', '500')).toBe('amount');
  });
  it('reads a date under `to` and a message id under `in_reply_to` as no one reached', () => {
    expect(role('schedule_get', 'to', '2024-11-15')).not.toBe('recipient');
    expect(role('clientmail', 'in_reply_to', 'MSG-55340')).toBe('object');
    expect(role('clientmail', 'to', 'ana@example.com')).toBe('recipient');
    expect(role('chat_post', 'channel', 'C024BE91L')).toBe('recipient');
  });
});

describe('names and descriptions', () => {
  const def = (name: string, description: string, properties: Record<string, unknown>, annotations?: ToolDefinition['annotations']) => ({
    name,
    description,
    inputSchema: { type: 'object', properties },
    ...(annotations ? { annotations } : {}),
  });
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
});
