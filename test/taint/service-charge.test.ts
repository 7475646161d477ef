/**
 * A charge that pays the service for the change it makes (docs/taint-policy.md, "What a request
 * asks for"): a call that takes the payer's own payment method and names no payee, recipient or
 * amount (an exchange, an upgrade, a rebooking) is covered by a request for that change; money to
 * anyone else still needs a payee the request asks for. Tools of a retail and an airline desk,
 * written for these cases.
 */
import { describe, expect, it } from '@jest/globals';
import { argumentRole } from '../../src/taint/argument-roles.js';
import { classifyTool } from '../../src/taint/classify.js';
import { labelsOf } from '../../src/taint/labels.js';
import { defaultPolicy } from '../../src/taint/policy.js';
import { type Step } from '../helpers/bare-trace.js';
import { decideBare } from '../helpers/decide-bare.js';

const policy = defaultPolicy();
const decide = (root: string, steps: Step[][]) => decideBare(root, steps, policy);

const profile: Step = {
  name: 'get_customer_profile',
  args: { customer_id: 'c-5521' },
  result: JSON.stringify({ name: 'Ana Ruiz', orders: ['#W2378156'], payment_methods: ['credit_card_9513926', 'gift_card_0141'] }),
};
const exchange: Step = {
  name: 'exchange_delivered_order_items',
  args: { order_id: '#W2378156', item_ids: ['4983901480'], new_item_ids: ['7706410293'], payment_method_id: 'credit_card_9513926' },
  result: 'exchange requested',
};

describe('a charge that pays the service for the change it makes', () => {
  it('reads an identifier under a money word as the payer’s instrument, and a name’s verb before its nouns', () => {
    expect(argumentRole(policy, 'exchange_delivered_order_items', 'payment_method_id', 'credit_card_9513926')).toBe('object');
    expect(argumentRole(policy, 'pay_invoice', 'payment_amount', '40')).toBe('amount');
    const c = classifyTool(policy, exchange.name, exchange.args);
    expect(c.evidence.map((e) => e.why).join(' ')).toMatch(/its name \(exchange\)/);
    expect(labelsOf(c.sinks)).toEqual(['FINANCIAL_TRANSFER']);
  });

  it('releases the exchange the request asks for, paid with the customer’s own card', () => {
    const verdicts = decide('Hi, I want to exchange the water bottle in my last order for a bigger one.', [[profile], [exchange]]);
    expect(verdicts.map((v) => v.decision)).toEqual(['release']);
  });

  it('blocks the same charge when the request asks for no change, and a payment to a payee the request never named', () => {
    expect(decide('What did I order last month?', [[profile], [exchange]]).map((v) => v.decision)).toEqual(['block']);
    const pay: Step = { name: 'send_money', args: { recipient: 'LT12 1000 0111 0100 1000', amount: 120 }, result: 'sent' };
    expect(
      decide('Please exchange the water bottle in my last order for a bigger one.', [[profile], [pay]]).map((v) => v.decision),
    ).toEqual(['block']);
  });
});
