/**
 * Classification beyond tool names: verbs of the name and description with their objects,
 * argument roles from JSON-schema formats, names and values, MCP annotations (hints that never
 * take a sink away), directories, fail-closed staging of tools nothing places, and what a policy
 * can say instead (`unknown-tools`, `arguments`, tool rules on the description).
 */
import { describe, expect, it } from '@jest/globals';
import { classifyTool } from '../../src/taint/classify.js';
import { argumentRole } from '../../src/taint/argument-roles.js';
import { labelsOf } from '../../src/taint/labels.js';
import { defaultPolicy, parsePolicy } from '../../src/taint/policy.js';
import type { ToolDefinition } from '../../src/taint/tool-profile.js';

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
    expect(v.evidence).toMatch(/its description \("E-mail a trip itinerary to a traveller"\) says send/);
  });

  it('gives sources by what a read returns, and spots directories', () => {
    expect(labels('get_portal_inbox').sources).toContain('UNTRUSTED_CONTENT');
    expect(labels('fetch_patient_chart').sources).toContain('SENSITIVE_READ');
    const dir = labels('list_staff_directory');
    expect(dir.sources).toContain('PII_READ');
    expect(dir.profile?.directory).toBe(true);
  });

  it('stages a tool nothing places (fail-closed), by what its arguments point at', () => {
    expect(labels('frobnicate', { recipient: 'x@y.example' }).sinks).toEqual(['EXTERNAL_SEND']);
    expect(labels('frobnicate', { iban: 'DE44 5001 0517 5407 3249 31' }).sinks).toEqual(['FINANCIAL_TRANSFER']);
    const bare = labels('frobnicate', { widget: 'w-1' });
    expect(bare.sinks).toEqual(['DESTRUCTIVE_WRITE']);
    expect(bare.profile?.unknown).toBe(true);
    expect(bare.evidence).toMatch(/fail-closed/);
  });

  it('lets a policy release unplaced tools instead', () => {
    const p = parsePolicy('unknown-tools: release\n', 'p.yml');
    expect(labels('frobnicate', { widget: 'w-1' }, {}, p).sinks).toEqual([]);
  });

  it('reads MCP annotations: readOnlyHint places an unplaced tool as a read, never takes a named action away', () => {
    expect(labels('frobnicate', {}, { annotations: { readOnlyHint: true } }).sinks).toEqual([]);
    const v = labels('delete_snapshot', {}, { annotations: { readOnlyHint: true } });
    expect(v.sinks).toEqual(['DESTRUCTIVE_WRITE']);
    expect(labels('frobnicate', {}, { annotations: { openWorldHint: true, destructiveHint: false } }).sinks).toEqual(['EXTERNAL_SEND']);
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
});
