import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SandboxAuth } from '../../../backtest/sandbox/sandbox-auth.js';
import { resolveSandboxOptions, defaultApiKey } from '../../../backtest/sandbox/sandbox-config.js';
import { VenueRejection } from '../../../backtest/venue/venue-types.js';
import { ValidationError } from '../../../framework/model/errors.js';
import { basicAuthorization, hs256Authorization } from '../../../framework/exchange/rest/sign.js';
import { wsLoginParams } from '../../../framework/exchange/ws/ws-login.js';
import { ApiCredentials } from '../../../framework/exchange/rest/credentials.js';

const NOW = 1_700_000_000_000;
const options = resolveSandboxOptions({
  venue: () => { throw new Error('unused'); },
  market: { kind: 'recording', path: 'x.jsonl' },
  apiKeys: [
    { apiKey: 'full', secretKey: 'full-secret' },
    { apiKey: 'reader', secretKey: 'reader-secret', rights: ['orderbook'] },
  ],
});
const auth = new SandboxAuth(options.apiKeys, () => NOW);

function code(fn: () => unknown): number {
  try {
    fn();
  } catch (error) {
    if (error instanceof VenueRejection) return error.code;
    throw error;
  }
  return 0;
}

const signed = (over: Partial<{ key: string; secret: string; timestamp: number; window: number; body: string }> = {}) =>
  hs256Authorization({
    apiKey: over.key ?? 'full', secretKey: over.secret ?? 'full-secret', method: 'POST', pathAndQuery: '/api/3/spot/order?x=1',
    body: over.body ?? '{"a":1}', timestamp: over.timestamp ?? NOW, window: over.window,
  });
const request = { method: 'POST', target: '/api/3/spot/order?x=1', body: Buffer.from('{"a":1}') };

describe('SandboxAuth (REST)', () => {
  it('accepts the framework signer\'s HS256 header and Basic header', () => {
    expect(auth.authenticateRest(signed(), request).apiKey).toBe('full');
    expect(auth.authenticateRest(signed({ window: 60_000, timestamp: NOW - 50_000 }), request).apiKey).toBe('full');
    expect(auth.authenticateRest(basicAuthorization('reader', 'reader-secret'), request).account).toBe('main');
  });

  it('answers every failure with the exchange code', () => {
    expect(code(() => auth.authenticateRest(undefined, request))).toBe(1001);
    expect(code(() => auth.authenticateRest('Bearer abc', request))).toBe(1004);
    expect(code(() => auth.authenticateRest(signed({ secret: 'wrong' }), request))).toBe(1002);
    expect(code(() => auth.authenticateRest(signed({ key: 'nobody' }), request))).toBe(1002);
    expect(code(() => auth.authenticateRest(signed({ timestamp: NOW - 10_001 }), request))).toBe(1002);
    expect(code(() => auth.authenticateRest(signed({ timestamp: NOW - 20_000, window: 10_000 }), request))).toBe(1002);
    expect(code(() => auth.authenticateRest(basicAuthorization('full', 'nope'), request))).toBe(1002);
    const reader = auth.authenticateRest(basicAuthorization('reader', 'reader-secret'), request);
    expect(code(() => SandboxAuth.requireRight(reader, 'trading'))).toBe(1003);
    expect(code(() => SandboxAuth.requireRight(reader, 'orderbook'))).toBe(0);
  });

  it('never puts a secret or a signature in an error', () => {
    const header = signed({ secret: 'wrong' });
    try {
      auth.authenticateRest(header, request);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('full-secret');
      expect(String((error as Error).message)).not.toContain(header.slice(6));
    }
  });

  it('refuses any body other than the one signed (signature over the raw bytes)', () => {
    fc.assert(fc.property(fc.string({ minLength: 1 }), (other) => {
      fc.pre(other !== '{"a":1}');
      return code(() => auth.authenticateRest(signed(), { ...request, body: Buffer.from(other) })) === 1002;
    }));
  });
});

describe('SandboxAuth (stream login)', () => {
  it('accepts the framework login params, HS256 with and without window, and BASIC in any case', () => {
    for (const creds of [
      ApiCredentials.from({ apiKey: 'full', secretKey: 'full-secret', scheme: 'hs256' }),
      ApiCredentials.from({ apiKey: 'full', secretKey: 'full-secret', scheme: 'hs256', window: 5000 }),
      ApiCredentials.from({ apiKey: 'full', secretKey: 'full-secret', scheme: 'basic' }),
    ]) expect(auth.authenticateLogin(wsLoginParams(creds, NOW)).apiKey).toBe('full');
    expect(auth.authenticateLogin({ type: 'Basic', api_key: 'full', secret_key: 'full-secret' }).apiKey).toBe('full');
  });

  it('refuses bad logins with 1002 / 1004', () => {
    const sig = createHmac('sha256', 'full-secret').update(String(NOW - 11_000)).digest('hex');
    expect(code(() => auth.authenticateLogin({ type: 'HS256', api_key: 'full', timestamp: NOW - 11_000, signature: sig }))).toBe(1002);
    expect(code(() => auth.authenticateLogin({ type: 'HS256', api_key: 'full', timestamp: NOW, signature: 'ab' }))).toBe(1002);
    expect(code(() => auth.authenticateLogin({ type: 'OAUTH', api_key: 'full' }))).toBe(1004);
  });
});

describe('sandbox options', () => {
  it('derives the same default key from the same seed, and another from another seed', () => {
    expect(defaultApiKey('a')).toEqual(defaultApiKey('a'));
    expect(defaultApiKey('a').apiKey).not.toBe(defaultApiKey('b').apiKey);
  });

  it('names the field and the rule of a bad option', () => {
    const base = { venue: () => { throw new Error('unused'); }, market: { kind: 'recording' as const, path: 'x' } };
    expect(() => resolveSandboxOptions({ ...base, port: 70_000 })).toThrow(ValidationError);
    expect(() => resolveSandboxOptions({ ...base, apiKeys: [{ apiKey: 'k', secretKey: 's', rights: ['fly' as never] }] }))
      .toThrow(/apiKeys\[0\]\.rights\[0\]/);
    expect(() => resolveSandboxOptions({ ...base, rateLimits: { publicPerSecond: 0 } })).toThrow(/rateLimits\.publicPerSecond/);
  });
});
