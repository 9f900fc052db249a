import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildBodyText, buildQueryString, checkExtraHeaders, checkRequestPath, errorFromAnswer, parseRetryAfter,
} from '../../../framework/exchange/rest/rest-wire.js';
import type { RestRequest } from '../../../framework/exchange/rest/rest-request.js';
import { ExchangeError, RateLimitError } from '../../../framework/exchange/errors.js';
import { ValidationError } from '../../../framework/model/errors.js';

describe('buildQueryString', () => {
  it('sorts keys, joins arrays with commas, spells booleans, omits nullish and empty arrays', () => {
    expect(buildQueryString({ symbols: ['ETHBTC', 'BTCUSDT'], limit: 10, all: true, off: false, a: null, b: undefined, c: [] }))
      .toBe('all=true&limit=10&off=false&symbols=ETHBTC,BTCUSDT');
    expect(buildQueryString(undefined)).toBe('');
    expect(buildQueryString({ from: '2021-10-09T00:00:00.000Z', x: 'a,b c' })).toBe('from=2021-10-09T00%3A00%3A00.000Z&x=a%2Cb%20c');
  });

  it('does not depend on the insertion order of keys', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.string(), fc.boolean(), fc.integer())), (query) => {
        const reversed = Object.fromEntries(Object.entries(query).reverse());
        expect(buildQueryString(reversed)).toBe(buildQueryString(query));
      }),
    );
  });

  it('refuses non-integer numbers (decimals travel as strings)', () => {
    expect(() => buildQueryString({ price: 0.1 })).toThrow(ValidationError);
    expect(() => buildQueryString({ limit: Number.NaN })).toThrow(/query.limit/);
  });
});

describe('buildBodyText', () => {
  const base: RestRequest<unknown> = { method: 'POST', path: '/x', auth: true, scope: 'trading', idempotent: false, parse: (b) => b };

  it('is the JSON of the body without top-level nullish members', () => {
    expect(buildBodyText({ ...base, body: { a: '1', b: null, c: undefined, d: { e: null } } })).toBe('{"a":"1","d":{"e":null}}');
    expect(buildBodyText(base)).toBeUndefined();
  });

  it('refuses a body on a GET', () => {
    expect(() => buildBodyText({ ...base, method: 'GET', body: { a: 1 } })).toThrow(ValidationError);
  });
});

describe('request checks', () => {
  it('refuses bad paths and transport-owned headers', () => {
    expect(() => checkRequestPath('spot/order')).toThrow(/path/);
    expect(() => checkRequestPath('/spot/order?x=1')).toThrow(/path/);
    expect(() => checkExtraHeaders({ Connection: 'close' })).toThrow(/Connection/);
    expect(() => checkExtraHeaders({ Authorization: 'x' })).toThrow(ValidationError);
    expect(() => checkExtraHeaders({ 'broker-id': '7' })).not.toThrow();
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2', 0)).toBe(2000);
    expect(parseRetryAfter(['0.5'], 0)).toBe(500);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(5000);
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });
});

describe('errorFromAnswer', () => {
  it('uses the envelope when there is one', () => {
    const e = errorFromAnswer(400, '{"error":{"code":20001,"message":"Insufficient funds","description":""}}', undefined, 'POST /spot/order');
    expect(e).toMatchObject({ exchangeCode: 20001, httpStatus: 400, retryable: false, request: 'POST /spot/order' });
  });

  it('turns any 429 into RateLimitError with Retry-After', () => {
    const e = errorFromAnswer(429, 'slow down', 3000, 'GET /x');
    expect(e).toBeInstanceOf(RateLimitError);
    expect((e as RateLimitError).retryAfterMs).toBe(3000);
  });

  it('falls back to the HTTP status', () => {
    const e = errorFromAnswer(503, '<html/>', undefined, 'GET /x');
    expect(e).toBeInstanceOf(ExchangeError);
    expect(e).toMatchObject({ exchangeCode: 503, httpStatus: 503, retryable: true, exchangeMessage: 'Service unavailable' });
    expect(errorFromAnswer(418, '{"no":"envelope"}', undefined, 'GET /x')).toMatchObject({ exchangeCode: 418, retryable: false });
  });
});
