/**
 * Classification beyond tool names: structure first (MCP annotations, the HTTP method, the
 * argument schema), then the verbs of the name and description with their objects, shown as a
 * guess; argument roles from JSON-schema formats, names and values; directories; fail-closed
 * staging of tools nothing places that take something a sink needs; and what a policy can say
 * instead (`unknown-tools`, `arguments`, tool rules on the description). Cases go by class: reads
 * with verb-like names, searches whose descriptions say "post", opaque names with only structure.
 */
import { describe, expect, it } from '@jest/globals';
import { classifyTool } from '../../src/taint/classify.js';
import { argumentRole, isFreeText, structuralRole } from '../../src/taint/argument-roles.js';
import { labelsOf } from '../../src/taint/labels.js';
import { defaultPolicy, parsePolicy } from '../../src/taint/policy.js';
import type { ToolDefinition } from '../../src/taint/tool-profile.js';
import { definitionOf } from '../../src/taint/trace/tool-definitions.js';

const policy = defaultPolicy();
const labels = (name: string, args: Record<string, unknown> = {}, def: Partial<ToolDefinition> = {}, p = policy) => {
  const c = classifyTool(p, name, args, {}, { name, ...def });
  return { sinks: labelsOf(c.sinks), sources: labelsOf(c.sources), profile: c.profile, evidence: c.evidence.map((e) => e.why).join(' | ') };
};

describe('tool profile', () => {
  it.each([
    ['enroll_attendee', { email: 'a@b.example' }, 'DESTRUCTIVE_WRITE'],
    ['topup_wallet', { amount: 20 }, 'FINANCIAL_TRANSFER'],
    ['update_autopay_amount', { amount: 30 }, 'FINANCIAL_TRANSFER'],
    ['add_board_collaborator', { user: 'x' }, 'EXTERNAL_SEND'],
    ['publish_changelog', { text: 'v2' }, 'PUBLIC_POST'],
    ['slack_post_message', { channel: '#ops', text: 'hi' }, 'EXTERNAL_SEND'],
    ['rotate_api_key', { service: 'billing' }, 'DESTRUCTIVE_WRITE'],
    ['install_plugin', { name: 'x' }, 'CODE_EXEC'],
    ['search_and_reserve_table', { restaurant: 'x', card_number: '4111 1111 1111 1111' }, 'FINANCIAL_TRANSFER'],
  ])('%s → %s', (name, args, sink) => {
    expect(labels(name, args).sinks).toEqual([sink]);
  });

  it('reads a tool whose name or description reads; the objects after a read verb do not make it act', () => {
    expect(labels('list_shared_calendars').sinks).toEqual([]);
    expect(labels('read_payment_messages').sinks).toEqual([]);
    expect(labels('fx_rates', {}, { description: 'Returns the latest exchange rates.' }).sinks).toEqual([]);
    expect(labels('weather_forecast').profile?.read).toBe(true);
  });

  it('takes the action from the description when the name has no verb', () => {
    const v = labels('itinerary_mailer', { to: 'sam@halcyon.example' }, { description: 'E-mail a trip itinerary to a traveller.' });
    expect(v.sinks).toEqual(['EXTERNAL_SEND']);
    expect(v.evidence).toMatch(/a guess from its description \("E-mail a trip itinerary to a traveller"\): send/);
  });

  it('a tool that writes a message sends it; one that edits a note changes it', () => {
    const annotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
    const chat = { description: 'Write a message into a channel.', annotations };
    expect(labels('chat_post_message', { channel: '#ops', text: 'hi' }, chat).sinks).toEqual(['EXTERNAL_SEND']);
    const edit = { description: 'Edit a note on a patient record.', annotations };
    expect(labels('record_notes', { record: 'P-7', text: 'seen' }, edit).sinks).toEqual(['DESTRUCTIVE_WRITE']);
  });

  it('gives sources by what a read returns, and spots directories', () => {
    expect(labels('get_portal_inbox').sources).toContain('UNTRUSTED_CONTENT');
    expect(labels('fetch_patient_chart').sources).toContain('SENSITIVE_READ');
    const dir = labels('list_staff_directory');
    expect(dir.sources).toContain('PII_READ');
    expect(dir.profile?.directory).toBe(true);
  });

  it('stages a tool nothing places (fail-closed) when it takes something a sink needs, by what that argument points at', () => {
    expect(labels('frobnicate', { recipient: 'x@y.example' }).sinks).toEqual(['EXTERNAL_SEND']);
    expect(labels('frobnicate', { iban: 'DE44 5001 0517 5407 3249 31' }).sinks).toEqual(['FINANCIAL_TRANSFER']);
    const text = labels('frobnicate', { widget: 'w-1', body: 'hello' });
    expect(text.sinks).toEqual(['DESTRUCTIVE_WRITE']);
    expect(text.profile?.unknown).toBe(true);
    expect(text.evidence).toMatch(/fail-closed/);
  });

  it('reads a tool nothing places that takes nothing a sink needs, as a guess the model may replace', () => {
    const bare = labels('frobnicate', { widget: 'w-1' });
    expect(bare.sinks).toEqual([]);
    expect(bare.profile).toMatchObject({ read: true, unknown: true });
    expect(bare.evidence).toMatch(/a guess: nothing says what frobnicate does, and it takes nothing a sink needs/);
  });

  it('lets a policy release unplaced tools instead', () => {
    const p = parsePolicy('unknown-tools: release\n', 'p.yml');
    expect(labels('frobnicate', { widget: 'w-1', body: 'hello' }, {}, p).sinks).toEqual([]);
  });

  it('reads MCP annotations first: readOnlyHint makes a read of a tool no argument of which points out, whatever its name says', () => {
    expect(labels('frobnicate', {}, { annotations: { readOnlyHint: true } }).sinks).toEqual([]);
    const v = labels('purge_snapshot', { snapshot_id: 's-1' }, { annotations: { readOnlyHint: true } });
    expect(v.sinks).toEqual([]);
    expect(v.evidence).toMatch(/readOnlyHint annotation says it only reads.*reads like delete, a guess not taken/);
    // A URL makes a read-only tool a fetch, judged by that URL.
    expect(labels('frobnicate', { target: 'https://x.example/a' }, { annotations: { readOnlyHint: true } })).toMatchObject({
      sinks: ['EXTERNAL_SEND'],
      evidence: expect.stringMatching(/a fetch/),
    });
  });

  it('reads an open-world tool that pays as a payment, its memo going to the payee, not as a send besides', () => {
    const transfer = labels(
      'utalasInditasa',
      { kedvezmenyezettSzamla: '10402142-49575052-51521010', osszeg: 1016635, kozlemeny: 'CV-25-03318' },
      {
        description: 'Átutalási megbízás indítása az ügyfél bankszámlájáról.',
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
        inputSchema: {
          type: 'object',
          properties: { kedvezmenyezettSzamla: { type: 'string' }, osszeg: { type: 'number' }, kozlemeny: { type: 'string' } },
        },
      },
    );
    expect(transfer.sinks).toEqual(['FINANCIAL_TRANSFER']);
  });

  it('reads a read-only tool its server keeps in its own system (openWorldHint: false) as a read, an address it takes being a filter', () => {
    const closed = { annotations: { readOnlyHint: true, openWorldHint: false } };
    const v = labels('postfach_durchsuchen', { absender: 'ana@corp.example', suchtext: 'Wochenplan' }, closed);
    expect(v.sinks).toEqual([]);
    expect(v.evidence).toMatch(/openWorldHint: false keeps it inside its own system/);
    // Money or code is never a filter.
    expect(labels('tili_tarkista', { summa: 40, saaja_iban: 'DE44500105175407324931' }, closed).sinks).not.toEqual([]);
  });

  it('judges a readOnlyHint tool that takes a recipient, payee, amount, command or free text by those, not by the hint', () => {
    const ro = { annotations: { readOnlyHint: true } };
    expect(labels('frobnicate', { contact: 'x@y.example' }, ro).sinks).toEqual(['EXTERNAL_SEND']);
    expect(labels('frobnicate', { to_iban: 'DE44 5001 0517 5407 3249 31', amount: 40 }, ro).sinks).toEqual(['FINANCIAL_TRANSFER']);
    expect(labels('broadcast_notice', { text: 'hi' }, ro).sinks).toEqual(['EXTERNAL_SEND']);
    expect(labels('broadcast_notice', { text: 'hi' }, ro).evidence).toMatch(/readOnlyHint annotation is not taken, as it takes free text/);
  });

  it('takes destructiveHint or readOnlyHint: false as "it acts"; its words then only say which sink, as a guess', () => {
    expect(labels('frobnicate', {}, { annotations: { destructiveHint: true } }).sinks).toEqual(['DESTRUCTIVE_WRITE']);
    const grant = labels(
      'member_role_put',
      { member: 'ana', role: 'admin' },
      { description: 'Give a member a role.', annotations: { readOnlyHint: false } },
    );
    expect(grant.sinks).toEqual(['EXTERNAL_SEND']);
    expect(grant.evidence).toMatch(/not read-only; which sink is a guess from its description/);
    const reads = labels('fetch_report', { report_id: 'r-1' }, { annotations: { readOnlyHint: false, destructiveHint: true } });
    expect(reads.sinks).toEqual(['DESTRUCTIVE_WRITE']);
    expect(reads.evidence).toMatch(/reads like a read, a guess not taken over that/);
    // openWorldHint: a recipient or a URL is where data leaves to; openWorldHint: false keeps it inside.
    const open = { annotations: { readOnlyHint: false, openWorldHint: true } };
    expect(labels('frobnicate', { contact: 'x@y.example' }, open).sinks).toEqual(['EXTERNAL_SEND']);
    const closed = { annotations: { readOnlyHint: false, openWorldHint: false } };
    expect(labels('frobnicate', { contact: 'x@y.example' }, closed).sinks).toEqual(['DESTRUCTIVE_WRITE']);
    expect(labels('frobnicate', {}, { annotations: { openWorldHint: true, destructiveHint: false } }).sinks).toEqual([]);
  });

  it('reads an open-world tool that acts as reaching others: a send, unless it only destroys; a message it carries goes out either way', () => {
    // Names in a language neither the lexicon nor a grammar reads (Finnish): only the annotations and the values speak.
    const open = { annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true } };
    expect(labels('viesti_laheta', { vastaanottaja: 'Alice', sisalto: 'Hi' }, open).sinks).toEqual(['EXTERNAL_SEND']);
    const destroys = { annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true } };
    expect(labels('tiedosto_poista', { tiedostonimi: 'plan' }, destroys).sinks).toEqual(['DESTRUCTIVE_WRITE']);
    expect(labels('julkaisu_korvaa', { sisalto: 'The launch moves to Friday, see you there' }, destroys).sinks.sort()).toEqual([
      'DESTRUCTIVE_WRITE',
      'EXTERNAL_SEND',
    ]);
  });

  it("lets a name and a description that both read outvote readOnlyHint: false, MCP's default, never a destructive hint", () => {
    const def = (annotations: ToolDefinition['annotations']): Partial<ToolDefinition> => ({
      description: 'Zeigt geplante Einsätze für eine Klientin in einem Zeitraum.',
      annotations,
      inputSchema: { type: 'object', properties: { klientNr: { type: 'string' }, von: { type: 'string' } } },
    });
    expect(labels('einsatzplanHolen', { klientNr: 'K-20102', von: '2025-05-12' }, def({ readOnlyHint: false })).sinks).toEqual([]);
    expect(
      labels('einsatzplanHolen', { klientNr: 'K-20102', von: '2025-05-12' }, def({ readOnlyHint: false, destructiveHint: true })).sinks,
    ).not.toEqual([]);
    expect(
      labels(
        'einsatzAnlegen',
        { klientNr: 'K-20102', von: '2025-05-12' },
        { ...def({ readOnlyHint: false }), description: 'Legt einen Einsatz an.' },
      ).sinks,
    ).not.toEqual([]);
  });

  it('takes digits the schema types as a string for an identifier the call acts on, and a number for a quantity', () => {
    expect(argumentRole(policy, 'datei_loeschen', 'dateikennung', '13', { type: 'string' })).toBe('object');
    expect(argumentRole(policy, 'datei_loeschen', 'anzahl', '13', { type: 'integer' })).toBe('other');
    // An identifier under an address word names a record, not whom something goes to.
    expect(argumentRole(policy, 'delete_email', 'email_id', '34')).toBe('object');
    expect(argumentRole(policy, 'archive_thread', 'contact_ref', 'c-17')).toBe('object');
    expect(argumentRole(policy, 'send_email', 'email', 'ana@corp.example')).toBe('recipient');
    expect(argumentRole(policy, 'datei_loeschen', 'dateikennung', 'plan B', { type: 'string' })).toBe('other');
    // A one-word name that ends with a numbering word numbers a record, whatever its value.
    expect(argumentRole(policy, 'datei_loeschen', 'dateinummer', 'plan B', { type: 'string' })).toBe('object');
  });

  it('reads the HTTP method a definition states after the annotations: GET reads, DELETE destroys, POST acts', () => {
    expect(labels('order_payment', { order_id: 'o-1' }, { method: 'GET' }).sinks).toEqual([]);
    expect(labels('frobnicate', { item_id: 'i-1' }, { method: 'DELETE' }).sinks).toEqual(['DESTRUCTIVE_WRITE']);
    expect(labels('frobnicate', { hook: 'https://x.example' }, { method: 'POST' }).sinks).toEqual(['EXTERNAL_SEND']);
    expect(labels('booking_overview', {}, { method: 'GET', annotations: { destructiveHint: true } }).sinks).toEqual(['DESTRUCTIVE_WRITE']);
    expect(definitionOf({ name: 'x', method: 'get', parameters: {} })?.method).toBe('GET');
    expect(definitionOf({ type: 'function', function: { name: 'x', 'x-http-method': 'DELETE' } })?.method).toBe('DELETE');
    expect(definitionOf({ name: 'x', method: 'frob' })?.method).toBeUndefined();
  });

  // Class: reads whose names use a word the lexicon knows as a verb, taking nothing a sink needs.
  it.each([
    ['posts_search', { query: 'launch' }, {}],
    ['messages_in_room', { room: 'general' }, {}],
    ['orders_by_customer', { customer_id: 'c-1' }, {}],
    ['guest_feedback_list', { hotel: 'Riverside' }, { description: 'Feedback guests posted about a hotel.' }],
    ['room_members', { room: 'general' }, {}],
    ['town_hotels', { town: 'Porto' }, {}],
    ['account_latest_activity', {}, {}],
    ['payment_history', {}, { annotations: { readOnlyHint: true } }],
    ['booking_details', { booking_id: 'b-1' }, { method: 'GET' }],
  ] as [string, Record<string, unknown>, Partial<ToolDefinition>][])('%s is a read, not a sink because of its name', (name, args, def) => {
    const v = labels(name, args, def);
    expect(v.sinks).toEqual([]);
    expect(v.profile?.read).toBe(true);
  });

  // Class: searches whose descriptions use "post" (or another action word) as a noun or a participle.
  it.each([
    ['feed_search', 'Posts matching a query, newest first.'],
    ['community_lookup', 'Posts and comments that mention a term.'],
    ['thread_finder', 'Messages posted in threads that match the query.'],
    ['kb_search', 'Published articles and posts, best match first.'],
  ])('%s ("%s") is a read', (name, description) => {
    const v = labels(name, { query: 'refund policy' }, { description });
    expect(v.sinks).toEqual([]);
    expect(v.evidence).toMatch(
      /a guess from its name: it names data, and takes nothing a sink needs|a guess from its (name|description): it reads|nothing says what \w+ does, and it takes nothing a sink needs/,
    );
  });

  it('keeps what a name or a description says a tool does, as a guess, where the tool takes what a sink needs or says so in a verb', () => {
    expect(labels('feed_tool', { text: 'hi' }, { description: 'Posts an article to the feed.' }).sinks).toEqual(['PUBLIC_POST']);
    expect(
      labels('attendee_list', { event_id: 'e-1', email: 'a@b.example' }, { description: 'Adds the attendee to an event.' }).sinks,
    ).toEqual(['DESTRUCTIVE_WRITE']);
    const del = labels('scrap_snapshot', { snapshot_id: 's-1' });
    expect(del.sinks).toEqual(['DESTRUCTIVE_WRITE']);
    expect(del.evidence).toMatch(/a guess from its name \(scrap\): delete/);
  });

  // Class: a description that opens like an order with its object, its verb one the lexicon does not know: it acts, a change.
  it.each([
    ['case_verdict', 'Render an admission decision on an application.', { case_id: 'A-1', verdict: 'admit' }],
    ['lane_award', 'Tender a booking to a carrier at a quoted rate.', { booking: 'B-7', carrier: 'HLCU' }],
    ['port_dispute', 'Lodge a dispute with the port authority.', { booking: 'B-1' }],
  ])('%s ("%s") is staged as a change', (name, description, args) => {
    const v = labels(name, args, { description });
    expect(v.sinks).toEqual(['DESTRUCTIVE_WRITE']);
    expect(v.evidence).toMatch(/opens with a verb and the thing it acts on/);
  });

  it('reads "pay" and "order" leading a name as verbs, not as the nouns of a resource-first name', () => {
    const note = { description: 'Adds an internal staff note to an order. Notes are not visible to the customer.' };
    expect(labels('orderNoteAdd', { orderId: '24-11517', note: 'Refund pending the return check.' }, note).sinks).toEqual([
      'DESTRUCTIVE_WRITE',
    ]);
    expect(labels('payVendorInvoice', { vendor: 'V-1', amount: 120 }).sinks).toContain('FINANCIAL_TRANSFER');
    expect(labels('order_food', { item: 'pizza' }).sinks).toContain('FINANCIAL_TRANSFER');
  });

  it('reads a resource-first name whose last word reads, whatever verbs its nouns spell, unless it takes what a sink needs', () => {
    // "order", "message", "shared": a purchase, a send and a share as verbs; the thing read here.
    const detail = { description: 'Full detail of one order: slot, address, lines with prices and refund history.' };
    expect(labels('orderGet', { order_id: 'FB-5120394' }, detail).sinks).toEqual([]);
    expect(labels('messageGet', { message_id: 'MSG-1' }, { description: 'Full text of one message in the message centre.' }).sinks).toEqual(
      [],
    );
    const list = { description: 'A shared shopping list the customer owns or belongs to, with its members and items.' };
    expect(labels('sharedListGet', { name: 'Flat 2F2' }, list).sinks).toEqual([]);
    // A recipient given is still a send's, whatever the last word says.
    expect(labels('messageGet', { message_id: 'MSG-1', to: 'ann@mail.example' }).sinks).not.toEqual([]);
    expect(labels('refundCreate', { order_id: 'FB-1', amount: 7.85 }).sinks).toContain('FINANCIAL_TRANSFER');
  });

  it('reads a description that opens with a verb of reading the lexicon knows, such as "Display"', () => {
    expect(labels('tkt_disp', { ticket: '125-1' }, { description: 'Display a ticket record by number.' }).sinks).toEqual([]);
  });

  it('reads a post the description says is e-mailed to someone as a send, and a post it does not as a publication', () => {
    const reply = { ticket_id: 'T-1', body: 'Hi Tom' };
    expect(labels('desk_reply', reply, { description: 'Post a public reply on a ticket (emailed to the customer).' }).sinks).toEqual([
      'EXTERNAL_SEND',
    ]);
    expect(labels('desk_reply', reply, { description: 'Post a public reply to a review.' }).sinks).toEqual(['PUBLIC_POST']);
  });

  // Class: names whose verb sits behind a service prefix, or whose head is a thing one sends.
  it.each([
    ['gmail_delete_messages', { ids: ['m-1'] }, 'DESTRUCTIVE_WRITE'],
    ['crm_send_invoice', { invoice_id: 'i-1' }, 'FINANCIAL_TRANSFER'],
    ['acme_post_message', { thread_id: 't-1', text: 'hi' }, 'DESTRUCTIVE_WRITE'],
  ])('%s is not taken for a read (%j → %s)', (name, args, sink) => {
    expect(labels(name, args).sinks).toEqual([sink]);
  });

  // A word that is also a noun for what is sent (transfer, post, deposit) behind a prefix is the verb only where the description opens with it.
  it.each([
    ['BankTransferFunds', 'Transfer funds to another account.', ['FINANCIAL_TRANSFER']],
    ['bank_manager_transfer_funds', 'Transfer funds between two accounts.', ['FINANCIAL_TRANSFER']],
    ['ForumPostReply', 'Post a reply in a thread.', ['PUBLIC_POST']],
    ['bank_transfer_fees', 'Get the fees of a transfer.', []],
    ['twitter_post_replies', 'Get the replies to a post.', []],
    ['bank_deposit_records', undefined, []],
  ] as [string, string | undefined, string[]][])('%s (%s) → %j', (name, description, sinks) => {
    const args = { from_account_number: 'X', to_account_number: 'Y', thread_id: 't-1' };
    expect(labels(name, args, description ? { description } : {}).sinks).toEqual(sinks);
  });

  // Class: opaque names, only the schema, the annotations or a policy.
  it.each([
    ['t_1a2b', { a_3c4d: '17' }, { annotations: { readOnlyHint: true } }, []],
    ['t_5e6f', { a_7a8b: '17' }, { annotations: { destructiveHint: true } }, ['DESTRUCTIVE_WRITE']],
    ['t_9c0d', { a_1e2f: 'x@y.example', a_3a4b: 'hi' }, { annotations: { readOnlyHint: false, openWorldHint: true } }, ['EXTERNAL_SEND']],
    ['t_5c6d', { a_7e8f: 'DE44 5001 0517 5407 3249 31' }, { annotations: { readOnlyHint: false } }, ['FINANCIAL_TRANSFER']],
    [
      't_9a0b',
      { a_1c2d: 'someone' },
      { inputSchema: { properties: { a_1c2d: { type: 'string', format: 'email' } } }, annotations: { readOnlyHint: true } },
      ['EXTERNAL_SEND'],
    ],
    ['t_3e4f', { a_5a6b: '17' }, { method: 'GET' }, []],
    ['t_7c8d', { a_9e0f: '17' }, { method: 'DELETE' }, ['DESTRUCTIVE_WRITE']],
    ['t_1b2c', { a_3d4e: 'https://x.example/hook' }, { method: 'POST' }, ['EXTERNAL_SEND']],
    ['t_5f6a', { a_7b8c: '17' }, {}, []],
  ] as [string, Record<string, unknown>, Partial<ToolDefinition>, string[]][])('opaque %s %j → %j', (name, args, def, sinks) => {
    expect(labels(name, args, def).sinks).toEqual(sinks);
  });

  it('takes an opaque argument’s role from the team’s policy, and a tool’s labels from a policy rule', () => {
    const p = parsePolicy(
      [
        'arguments:',
        '  - { tool: t_5c6d, argument: a_1111, role: amount }',
        '  - { tool: t_9c0d, argument: a_2222, role: recipient }',
        'tools:',
        '  - { name: t_7777, sinks: [PUBLIC_POST], why: "posts to the web page" }',
      ].join('\n'),
      'p.yml',
    );
    expect(labels('t_5c6d', { a_1111: '40' }, { annotations: { readOnlyHint: false } }, p).sinks).toEqual(['FINANCIAL_TRANSFER']);
    expect(labels('t_9c0d', { a_2222: 'ana' }, { annotations: { readOnlyHint: true } }, p).sinks).toEqual(['EXTERNAL_SEND']);
    expect(labels('t_7777', { a_1: 'x' }, { annotations: { readOnlyHint: true } }, p).sinks).toEqual(['PUBLIC_POST']);
  });

  it('reads a name led by a noun that is a verb too as a compound noun when its description names what it returns', () => {
    // "order", "booking": a purchase verb, and the record a read returns.
    const sheet = labels('order_sheet', { order_no: 'ORD-1' }, { description: 'One order with its lines, their state and the charges.' });
    expect(sheet.sinks).toEqual([]);
    const booking = labels('booking_sheet', { booking_ref: 'KX7Q2P' }, { description: 'A booking with its crossings and payments.' });
    expect(booking.sinks).toEqual([]);
    expect(labels('booking_record', { ref: 'KX7Q2P' }, { description: 'Return a booking with its travellers.' }).sinks).toEqual([]);
    // A verb and its object stays one, with no description or with one that uses the verb.
    expect(labels('update_autopay_amount', { amount: 30 }).sinks).toEqual(['FINANCIAL_TRANSFER']);
    expect(labels('order_parts', { sku: 'P-1' }, { description: 'Order the parts on a list.' }).sinks).toContain('FINANCIAL_TRANSFER');
    // A noun after the verb is its object, not its action: `reroute_order` changes an address.
    const reroute = labels(
      'reroute_order',
      { order_no: 'ORD-1', line1: '4 Mill Run' },
      { description: 'Set the delivery address of an order.' },
    );
    expect(reroute.sinks).toEqual(['DESTRUCTIVE_WRITE']);
  });

  it('reads no action in a description that names what the tool returns, nor in a hyphenated noun', () => {
    const overview = { description: 'The plan, add-ons, SIM, device instalments and latest bill of a line.' };
    expect(labels('line_overview', { line_id: 'LN-1' }, overview).sinks).toEqual([]);
    const catalogue = { description: 'Lists the plans and add-ons on sale, with their monthly price and conditions.' };
    expect(labels('plan_catalogue', { segment: 'consumer' }, catalogue).sinks).toEqual([]);
    // A description that opens with its verb still says what the tool does.
    expect(labels('addon_toggle', { line_id: 'LN-1', code: 'A-1' }, { description: 'Add an add-on to a line.' }).sinks).toEqual([
      'DESTRUCTIVE_WRITE',
    ]);
  });

  it('leaves declared labels and the policy’s own rules alone', () => {
    expect(labelsOf(classifyTool(policy, 'frobnicate', {}, { sources: ['UNTRUSTED_CONTENT'] }).sinks)).toEqual([]);
    expect(labelsOf(classifyTool(policy, 'send_email', { to: 'x' }).sinks)).toEqual(['EXTERNAL_SEND']);
    const p = parsePolicy(
      'tools:\n  - { name: "*", description: "wire transfer", sinks: [FINANCIAL_TRANSFER], why: "moves money by its description" }\n',
      'p.yml',
    );
    expect(labelsOf(classifyTool(p, 'do_thing', {}, {}, { name: 'do_thing', description: 'Starts a wire transfer.' }).sinks)).toEqual([
      'FINANCIAL_TRANSFER',
    ]);
  });
});

describe('argument roles', () => {
  it('tells roles shown by the policy, the schema or the value from roles only a name suggests, and free text from a query', () => {
    const p = parsePolicy('arguments:\n  - { tool: t_1, argument: a_1, role: recipient }\n', 'p.yml');
    expect(structuralRole(p, 't_1', 'a_1', 'ana')).toBe('recipient');
    expect(structuralRole(policy, 'room_members', 'room', 'general')).toBeUndefined();
    expect(structuralRole(policy, 'list_contacts', 'channel', 'general')).toBeUndefined();
    expect(structuralRole(policy, 't', 'x', 'ana@corp.example')).toBe('recipient');
    expect(structuralRole(policy, 't', 'x', 'y', { type: 'string', format: 'uri' })).toBe('url');
    expect(['body', 'message_text', 'payload', 'note'].every(isFreeText)).toBe(true);
    expect(['query', 'search_text', 'name', 'room', 'ticket_id'].some(isFreeText)).toBe(false);
  });

  it('reads schema formats, enums, names and value shapes', () => {
    expect(argumentRole(policy, 't', 'member', 'x', { type: 'string', format: 'email' })).toBe('recipient');
    expect(argumentRole(policy, 't', 'target', 'x', { type: 'string', format: 'uri' })).toBe('url');
    expect(argumentRole(policy, 't', 'role', 'editor', { type: 'string', enum: ['viewer', 'editor'] })).toBe('choice');
    expect(argumentRole(policy, 't', 'to_iban', 'DE44 5001 0517 5407 3249 31')).toBe('payee');
    expect(argumentRole(policy, 't', 'budget', '400')).toBe('amount');
    expect(argumentRole(policy, 't', 'door_code', '4471')).toBe('credential');
    expect(argumentRole(policy, 't', 'subject', 'Hello')).toBe('content');
    expect(argumentRole(policy, 't', 'ticket_id', 'T-1')).toBe('object');
    expect(argumentRole(policy, 't', 'note', 'ops@corp.example')).toBe('recipient');
    expect(argumentRole(policy, 't', 'when', '2026-06-02')).toBe('other');
    expect(argumentRole(policy, 't', 'callback', '+44 7700 900123')).toBe('url');
    expect(argumentRole(policy, 't', 'contact_number', '+44 7700 900123')).toBe('recipient');
  });

  it('lets the policy say what an argument is', () => {
    const p = parsePolicy('arguments:\n  - { tool: renew_lease, argument: rent, role: content }\n', 'p.yml');
    expect(argumentRole(p, 'renew_lease', 'rent', '950')).toBe('content');
    expect(argumentRole(p, 'other_tool', 'rent', '950')).toBe('amount');
  });

  // Class: tools whose words say "send" but whose schema carries nothing to anyone.
  it('reads a send with no recipient, link, free text or prose in its schema as a change, and keeps a send that has one', () => {
    const trigger = { repo: { type: 'string' }, pipeline: { type: 'string' }, branch: { type: 'string' } };
    expect(
      labels(
        'pipelines.dispatch',
        { repo: 'a/b', pipeline: 'nightly', branch: 'main' },
        { inputSchema: { type: 'object', properties: trigger } },
      ).sinks,
    ).toEqual(['DESTRUCTIVE_WRITE']);
    const notify = { ...trigger, email: { type: 'string', format: 'email' } };
    expect(
      labels('pipelines.dispatch', { repo: 'a/b', email: 'ops@b.example' }, { inputSchema: { type: 'object', properties: notify } }).sinks,
    ).toEqual(['EXTERNAL_SEND']);
    // Without a schema the call's values may hide a recipient: the guess stands.
    expect(labels('pipelines.dispatch', { repo: 'a/b', pipeline: 'nightly' }).sinks).toEqual(['EXTERNAL_SEND']);
    // A server that says the tool reaches the outside world has it send, whatever it takes.
    const outward = { inputSchema: { type: 'object', properties: trigger }, annotations: { readOnlyHint: false, openWorldHint: true } };
    expect(labels('pipelines.dispatch', { repo: 'a/b', pipeline: 'nightly' }, outward).sinks).toEqual(['EXTERNAL_SEND']);
  });

  // Class: descriptions that name things by what happened to them.
  it.each([
    ['case_files', 'Documents uploaded to a case by the client or the court, returned as text.'],
    ['mailbox', 'Emails received in the shared mailbox, newest first.'],
    ['dm_log', 'Messages sent to the team channel since a date.'],
    ['trip_ledger', 'Payments, deposits and refunds recorded against a school trip, optionally for one family.'],
  ])('%s ("%s") is a read', (name, description) => {
    expect(labels(name, { case_id: 'C-1' }, { description }).sinks).toEqual([]);
  });

  it('takes an argument’s name alone for a filter when the description names what the tool returns', () => {
    const props = { teacher: { type: 'string' }, class_group: { type: 'string' }, day: { type: 'string' } };
    const def = (description: string) => ({ description, inputSchema: { type: 'object', properties: props } });
    expect(
      labels('timetable', { teacher: 'Byrne, Kevin', day: 'Thu' }, def('A teacher’s or a class group’s timetable for one day.')).sinks,
    ).toEqual([]);
    // The same arguments with an address in them are still what a sink needs.
    const withEmail = { ...props, email: { type: 'string', format: 'email' } };
    const staged = labels(
      'timetable',
      { email: 'kb@school.example' },
      { description: 'A teacher’s timetable.', inputSchema: { type: 'object', properties: withEmail } },
    );
    expect(staged.sinks).toEqual(['EXTERNAL_SEND']);
  });

  it('keeps a verb followed by a participle and its noun as the action: "Delete selected rows"', () => {
    expect(labels('rows_tool', { table: 't' }, { description: 'Deletes archived rows from a table.' }).sinks).toEqual([
      'DESTRUCTIVE_WRITE',
    ]);
  });

  it('offers the other verbs of a description that opens with several and its name’s words, none for one verb and its object', () => {
    const def = (description: string) => ({
      description,
      inputSchema: { type: 'object', properties: { offerId: { type: 'string' }, rate: { type: 'number' } } },
    });
    expect(labels('offer_tool', { offerId: 'o-1' }, def('Accept, counter or decline an offer from a broker.')).profile?.alsoVerbs).toEqual([
      'counter',
      'decline',
      'offer',
    ]);
    expect(labels('x1', { offerId: 'o-1' }, def('Accept an offer from a broker.')).profile?.alsoVerbs).toBeUndefined();
    // A verb the lexicon does not know, where the description opens with it before its object.
    expect(labels('x1', { offerId: 'o-1' }, def('Countersigns an offer and sends it to the broker.')).profile?.alsoVerbs).toEqual([
      'countersigns',
    ]);
  });

  it('reads a name that puts its verb last when its description says the same, and keeps a verb that leads', () => {
    const def = (description: string) => ({ description, inputSchema: { type: 'object', properties: { faxId: { type: 'string' } } } });
    expect(labels('faxGet', { faxId: 'F-1' }, def('Returns the OCR text of a received fax.')).sinks).toEqual([]);
    expect(labels('paymentTransactionList', { faxId: 'F-1' }, def('Lists card transactions for a patient.')).sinks).toEqual([]);
    expect(labels('forward_fax', { faxId: 'F-1' }, def('Forwards a fax to another number.')).profile?.verb).toBe('forward');
  });

  it('reads a property the schema describes as a filter as no recipient, and a currency code in a name as an amount', () => {
    const filter = { type: 'string', description: 'Nombre, correo o teléfono para filtrar' };
    expect(argumentRole(policy, 'bandeja', 'remitente', 'admin@edificio.example', filter)).toBe('other');
    expect(argumentRole(policy, 'inbox', 'sender', 'a@b.example', { type: 'string', description: 'An address to filter by' })).toBe(
      'other',
    );
    expect(argumentRole(policy, 'inbox', 'to', 'a@b.example', { type: 'string' })).toBe('recipient');
    expect(argumentRole(policy, 'cargo_aplicar', 'monto_clp', '39800', { type: 'integer' })).toBe('amount');
    expect(argumentRole(policy, 'refund', 'amount_usd', '12.5', { type: 'number' })).toBe('amount');
  });

  it('takes an enum over the built-in rules on names: a `channel` with a fixed set of values is a choice, not a recipient', () => {
    const enumChannel = { type: 'string', enum: ['tablet', 'sms'] };
    expect(argumentRole(policy, 'driver_message', 'channel', 'sms', enumChannel)).toBe('choice');
    expect(argumentRole(policy, 'driver_message', 'channel', '#ops', { type: 'string' })).toBe('recipient');
    const team = parsePolicy('targets:\n  - { tool: driver_message, argument: channel, kind: recipient }\n', 'p.yml');
    expect(argumentRole(team, 'driver_message', 'channel', 'sms', enumChannel)).toBe('recipient');
  });
  it('reads a channel named by its value as a choice of channel, not whom it reaches', () => {
    expect(argumentRole(policy, 'notify_member', 'channel', 'sms', { type: 'string' })).toBe('choice');
    expect(argumentRole(policy, 'notify_member', 'via', 'E-mail', undefined)).not.toBe('recipient');
    // A quantity reaches no one, and a name that speaks of a link holding none names a place.
    expect(argumentRole(policy, 'consign_lot', 'vendor_commission_pct', '10', { type: 'number' })).toBe('other');
    expect(argumentRole(policy, 'schedule_meeting', 'meeting_url', 'Office - 2045 High Street', { type: 'string' })).toBe('other');
    expect(argumentRole(policy, 'schedule_meeting', 'meeting_url', 'https://meet.example.com/abc-defg', { type: 'string' })).toBe('url');
  });

  it('reads a GET route as a read, whatever a passive later in its description says was done, and a card looked up as no payee', () => {
    const voucher = labels(
      'get_voucher',
      { card_number: '6011 0009 9013 9424' },
      { description: 'Look up a store voucher by its number: balance, expiry and the branch where it was sold.' },
    );
    expect(voucher.sinks).toEqual([]);
    expect(voucher.evidence).toContain('both read');
    // A sum beside the card makes it a payment again, and a name that does not read is not outvoted.
    expect(
      labels('get_voucher', { card_number: '6011 0009 9013 9424', amount: 25 }, { description: 'Look up a store voucher.' }).sinks,
    ).toContain('FINANCIAL_TRANSFER');
    // A passive says what was done to the thing; the tool's own verb is its third person.
    const logged = labels(
      'fault_report_file',
      { machine: 'PR-7', text: 'Bent guard rail' },
      { description: 'Records a fault against a press, linked to the shift during which it was found.' },
    );
    expect(logged.sinks).not.toEqual([]);
  });
});
