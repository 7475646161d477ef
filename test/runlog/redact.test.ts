/**
 * The run log's redaction, pure: credentials by shape in any text, and the job's own secret values
 * (by name or by shape) with the forms they take in a header. Prose and settings stay as they are.
 */
import { describe, expect, it } from '@jest/globals';
import { redactDeep, redactText, secretValuesOf } from '../../src/runlog/redact.js';
import { redactSecretShapes, secretValueKind } from '../../src/util/secrets.js';

describe('credentials by shape', () => {
  it('names each kind the issue lists, and leaves look-alikes alone', () => {
    const cases: Array<[string, string]> = [
      ['AKIAIOSFODNN7EXAMPLE', 'a known token format'],
      [`sk_live_${'a1B2'.repeat(6)}`, 'a known token format'],
      [`sk-proj-${'a1B2'.repeat(8)}`, 'a known token format'],
      [`ghs_${'a1B2'.repeat(9)}`, 'a known token format'],
      [`github_pat_${'a1B2'.repeat(8)}`, 'a known token format'],
      ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'a JWT'],
      ['https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX', 'a webhook URL'],
      ['DefaultEndpointsProtocol=https;AccountName=a;AccountKey=bXlrZXk=;', 'a connection string with a key or password'],
      ['Server=db;User Id=app;Password=hunter2x;', 'a connection string with a key or password'],
      ['https://user:pw@mirror.corp/simple', 'a URL with a password'],
      ['AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzXzEyMzQ1Ng==', 'an authorization header'],
    ];
    for (const [value, kind] of cases) expect([value, secretValueKind(value)]).toEqual([value, kind]);
    for (const plain of [
      'http://proxy.corp:3128',
      'a basic understanding of tokens',
      'sk-short',
      'Bearer of bad news',
      'Password=',
      '/home/runner/.cache',
    ]) {
      expect([plain, secretValueKind(plain)]).toEqual([plain, undefined]);
    }
  });

  it('replaces only the credential inside a text', () => {
    expect(redactSecretShapes('push to https://bot:s3cretPw@github.com/o/r and AccountKey=abcd1234; done')).toBe(
      'push to https://[redacted: a URL with a password]@github.com/o/r and AccountKey=[redacted: a connection string with a key or password]; done',
    );
  });
});

describe("the job's own secrets", () => {
  it('are found by name and by shape, with the forms they take in a header, and not in settings', () => {
    const token = 'ghs_0123456789abcdefghijABCDEFGHIJ';
    const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
    const known = secretValuesOf({
      'INPUT_GITHUB-TOKEN': token,
      'INPUT_FAIL-ON-GATE': 'true',
      DB_PASSWORD: 'plainword99',
      GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
      SSH_AUTH_SOCK: '/tmp/agent.1',
      OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1',
      TOKENIZERS_PARALLELISM: 'false',
    });
    expect(known).toEqual(expect.arrayContaining([token, basic, 'plainword99', `AUTHORIZATION: basic ${basic}`]));
    for (const setting of ['true', '/tmp/agent.1', 'http://127.0.0.1:8000/v1', 'false']) expect(known).not.toContain(setting);
    const log = { instances: [{ output: { answer: `found ${token} and plainword99` }, error: `header ${basic}` }], [`key ${token}`]: 1 };
    expect(redactDeep(log, known)).toEqual({
      instances: [{ output: { answer: 'found [redacted] and [redacted]' }, error: 'header [redacted]' }],
      'key [redacted]': 1,
    });
    expect(redactText('nothing here', known)).toBe('nothing here');
  });
});
