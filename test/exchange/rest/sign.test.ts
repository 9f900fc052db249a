import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { basicAuthorization, hs256Authorization, hs256Message } from '../../../framework/exchange/rest/sign.js';
import { ValidationError } from '../../../framework/model/errors.js';

const decodeHeader = (header: string, scheme: string): string[] => {
  expect(header.startsWith(`${scheme} `)).toBe(true);
  return Buffer.from(header.slice(scheme.length + 1), 'base64').toString('utf8').split(':');
};

describe('basicAuthorization', () => {
  it('is Basic base64(key:secret)', () => {
    // Vector from `printf 'key:secret' | base64`.
    expect(basicAuthorization('key', 'secret')).toBe('Basic a2V5OnNlY3JldA==');
  });
});

describe('hs256Authorization', () => {
  it('matches an HMAC computed with openssl for a GET without query or body', () => {
    // printf 'GET/api/3/spot/balance1700000000000' | openssl dgst -sha256 -hmac secret
    const header = hs256Authorization({
      apiKey: 'key', secretKey: 'secret', method: 'GET', pathAndQuery: '/api/3/spot/balance', timestamp: 1_700_000_000_000,
    });
    expect(decodeHeader(header, 'HS256')).toEqual([
      'key', 'd81056589c3311cc894be38b126c0271d5d281a82142a146f8471205efa4c653', '1700000000000',
    ]);
  });

  it('covers query, body and window in that order, and puts the window in the header', () => {
    // printf 'POST/api/3/spot/order?symbol=ETHBTC{"side":"buy","quantity":"0.063"}170000000000010000' | openssl ...
    const header = hs256Authorization({
      apiKey: 'key', secretKey: 'secret', method: 'POST', pathAndQuery: '/api/3/spot/order?symbol=ETHBTC',
      body: '{"side":"buy","quantity":"0.063"}', timestamp: 1_700_000_000_000, window: 10_000,
    });
    expect(decodeHeader(header, 'HS256')).toEqual([
      'key', '5f7bb16a5ae1179d4ac9e46d78e60cba1ef7e98fe2f1007b5f917254e4360f2c', '1700000000000', '10000',
    ]);
  });

  it('adds nothing for an empty body', () => {
    const base = { apiKey: 'k', secretKey: 's', method: 'DELETE', pathAndQuery: '/api/3/spot/order', timestamp: 5 };
    expect(hs256Message({ ...base, body: '' })).toBe('DELETE/api/3/spot/order5');
    expect(hs256Message(base)).toBe('DELETE/api/3/spot/order5');
  });

  it('is the lowercase hex HMAC-SHA256 of the concatenation, for any inputs', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
        fc.stringMatching(/^\/api\/3\/[a-z/_]{0,20}(\?[a-z=&,]{1,20})?$/),
        fc.option(fc.json(), { nil: undefined }),
        fc.nat({ max: 2 ** 45 }),
        fc.option(fc.integer({ min: 1, max: 60_000 }), { nil: undefined }),
        fc.string({ minLength: 1, maxLength: 40 }),
        (method, pathAndQuery, body, timestamp, window, secretKey) => {
          const header = hs256Authorization({ apiKey: 'api', secretKey, method, pathAndQuery, body, timestamp, window });
          const message = `${method}${pathAndQuery}${body ?? ''}${timestamp}${window ?? ''}`;
          const expected = createHmac('sha256', secretKey).update(message).digest('hex');
          const parts = decodeHeader(header, 'HS256');
          expect(parts).toEqual(['api', expected, String(timestamp), ...(window === undefined ? [] : [String(window)])]);
          expect(parts[1]).toMatch(/^[0-9a-f]{64}$/);
        },
      ),
    );
  });

  it('refuses a fractional timestamp and an out-of-range window', () => {
    const base = { apiKey: 'k', secretKey: 's', method: 'GET', pathAndQuery: '/api/3/x' };
    expect(() => hs256Authorization({ ...base, timestamp: 1.5 })).toThrow(ValidationError);
    expect(() => hs256Authorization({ ...base, timestamp: 1, window: 60_001 })).toThrow(/window/);
    expect(() => hs256Authorization({ ...base, method: 'get', timestamp: 1 })).toThrow(/method/);
  });

  it('never puts the secret in an error', () => {
    try {
      hs256Authorization({ apiKey: 'k', secretKey: 'TOPSECRET', method: 'GET', pathAndQuery: 'x', timestamp: 1 });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain('TOPSECRET');
    }
  });
});
