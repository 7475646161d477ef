import { describe, expect, it } from '@jest/globals';
import { parseRequestBody } from '../../src/proxy/proxy-server.js';

describe('parseRequestBody', () => {
  it('returns a JSON object as it is', () => {
    expect(parseRequestBody(Buffer.from('{"model":"m","messages":[]}'))).toEqual({ model: 'm', messages: [] });
  });
  it('says why a body is refused: not JSON, not an object, nested too deep', () => {
    expect(parseRequestBody(Buffer.from('nope'))).toMatch(/^the request body is not a JSON object: /);
    expect(parseRequestBody(Buffer.from('[1]'))).toBe('the request body is not a JSON object: not a JSON object');
    const deep = '{"a":'.repeat(500) + '1' + '}'.repeat(500);
    expect(parseRequestBody(Buffer.from(deep))).toMatch(/^the request body is nested deeper than \d+ levels$/);
  });
});
