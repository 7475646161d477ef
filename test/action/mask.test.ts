/** The action's registrar of secrets (core.setSecret, `::add-mask::`), with a fake setSecret: each value once, a value of several lines line by line. */
import { describe, expect, it } from '@jest/globals';
import { secretMasker } from '../../src/action/mask.js';

describe('secretMasker', () => {
  it('tells setSecret each value once, and a value of several lines one line at a time', () => {
    const set: string[] = [];
    const mask = secretMasker((v) => set.push(v));
    mask('ghs_token0123456789');
    mask('ghs_token0123456789');
    mask('-----BEGIN OPENSSH PRIVATE KEY-----\r\nb3BlbnNzaC1rZXktdjEAAAAA\n\n  QyNTUxOQAAACDx  \n-----END OPENSSH PRIVATE KEY-----\n');
    mask('QyNTUxOQAAACDx');
    expect(set).toEqual([
      'ghs_token0123456789',
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      'b3BlbnNzaC1rZXktdjEAAAAA',
      'QyNTUxOQAAACDx',
      '-----END OPENSSH PRIVATE KEY-----',
    ]);
  });
});
