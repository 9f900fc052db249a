import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RetryPolicy, mayHaveTakenEffect } from '../../../framework/exchange/rest/retry-policy.js';
import type { RestRequest } from '../../../framework/exchange/rest/rest-request.js';
import { ExchangeError, NetworkError, RateLimitError, TimeoutError } from '../../../framework/exchange/errors.js';
import { ParseError, ValidationError } from '../../../framework/model/errors.js';

const get: RestRequest<unknown> = { method: 'GET', path: '/spot/balance', auth: true, scope: 'other', idempotent: true, parse: (b) => b };
const postNoId: RestRequest<unknown> = { method: 'POST', path: '/spot/order', auth: true, scope: 'trading', idempotent: false, parse: (b) => b };
const postWithId: RestRequest<unknown> = { ...postNoId, clientOrderId: 'c1', lookupAfterDuplicate: async () => 'found' };

const timeoutAfterSend = new TimeoutError('t', { outcomeUnknown: true });
const dropAfterSend = new NetworkError('n', { outcomeUnknown: true });
const refused = new NetworkError('n', { outcomeUnknown: false });
const http500 = new ExchangeError(500, 'Internal server error', undefined, 500);
const tooMany = new RateLimitError(1000);
const badPrice = new ExchangeError(2022, 'Bad price', undefined, 400);
const duplicate = new ExchangeError(20008, 'Duplicate clientOrderId', undefined, 400);

describe('RetryPolicy.shouldRetry', () => {
  const policy = new RetryPolicy({ maxAttempts: 3 });

  it('retries retryable errors of idempotent requests and of orders with a client id', () => {
    for (const error of [timeoutAfterSend, dropAfterSend, refused, http500, tooMany]) {
      expect(policy.shouldRetry(get, error, 1)).toBe(true);
      expect(policy.shouldRetry(postWithId, error, 1)).toBe(true);
    }
  });

  it('never retries final errors', () => {
    for (const error of [badPrice, duplicate, new ParseError('x', 'y'), new ValidationError('f', 'r'), new Error('plain')]) {
      expect(policy.shouldRetry(get, error, 1)).toBe(false);
      expect(policy.shouldRetry(postWithId, error, 1)).toBe(false);
    }
  });

  it('does not repeat a POST without client id whose outcome is unknown or that the server answered with 5xx', () => {
    for (const error of [timeoutAfterSend, dropAfterSend, http500]) expect(policy.shouldRetry(postNoId, error, 1)).toBe(false);
  });

  it('repeats a POST without client id that the exchange certainly did not act on', () => {
    expect(policy.shouldRetry(postNoId, tooMany, 1)).toBe(true);
    expect(policy.shouldRetry(postNoId, refused, 1)).toBe(true);
  });

  it('stops at maxAttempts', () => {
    expect(policy.shouldRetry(get, http500, 2)).toBe(true);
    expect(policy.shouldRetry(get, http500, 3)).toBe(false);
    expect(new RetryPolicy({ maxAttempts: 1 }).shouldRetry(get, http500, 1)).toBe(false);
  });
});

describe('RetryPolicy.delayMs', () => {
  it('is full jitter under an exponential ceiling capped at maxDelayMs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const policy = new RetryPolicy({ baseDelayMs: 100, maxDelayMs: 3000, random: () => r });
        const ceiling = Math.min(3000, 100 * 2 ** (attempt - 1));
        const delay = policy.delayMs(attempt);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(ceiling);
        expect(delay).toBe(Math.floor(r * ceiling));
      }),
    );
  });

  it('follows the injected random source', () => {
    const policy = new RetryPolicy({ baseDelayMs: 100, maxDelayMs: 10_000, random: () => 0.5 });
    expect([1, 2, 3, 4].map((n) => policy.delayMs(n))).toEqual([50, 100, 200, 400]);
  });

  it('refuses bad settings', () => {
    expect(() => new RetryPolicy({ maxAttempts: 0 })).toThrow(ValidationError);
    expect(() => new RetryPolicy({ baseDelayMs: 500, maxDelayMs: 100 })).toThrow(/maxDelayMs/);
  });
});

describe('duplicate client order id on a retry', () => {
  const policy = new RetryPolicy();

  it('means the earlier attempt went through only after an attempt that may have acted', () => {
    expect(policy.isDuplicateOfEarlierAttempt(postWithId, duplicate, true)).toBe(true);
    expect(policy.isDuplicateOfEarlierAttempt(postWithId, duplicate, false)).toBe(false);
    expect(policy.isDuplicateOfEarlierAttempt(postNoId, duplicate, true)).toBe(false);
    expect(policy.isDuplicateOfEarlierAttempt(postWithId, badPrice, true)).toBe(false);
  });

  it('knows which failures may have acted', () => {
    expect([timeoutAfterSend, dropAfterSend, http500, refused, tooMany, badPrice].map(mayHaveTakenEffect))
      .toEqual([true, true, true, false, false, false]);
  });
});
