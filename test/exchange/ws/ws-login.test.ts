import { describe, expect, it } from 'vitest';
import { ApiCredentials } from '../../../framework/exchange/rest/credentials.js';
import { wsLoginParams, wsLoginSignature } from '../../../framework/exchange/ws/ws-login.js';

describe('wsLoginParams', () => {
  it('signs String(timestamp) + String(window) with HMAC-SHA256 in lowercase hex', () => {
    const credentials = ApiCredentials.from({ apiKey: 'AK', secretKey: 'SK', scheme: 'hs256', window: 5_000 });
    const params = wsLoginParams(credentials, 1_700_000_000_000.7);
    // Known-answer value computed once with `openssl dgst -sha256 -hmac SK` over "17000000000005000".
    expect(params).toEqual({
      type: 'HS256', api_key: 'AK', timestamp: 1_700_000_000_000, window: 5_000,
      signature: '863317acea8fbf661bb8e0a974b0942d3775bf562aded1b8a7f0b7988c9307d0',
    });
    expect(params.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('leaves the window out of message and params when not configured', () => {
    const credentials = ApiCredentials.from({ apiKey: 'AK', secretKey: 'SK', scheme: 'hs256' });
    const params = wsLoginParams(credentials, 42);
    expect(params).not.toHaveProperty('window');
    expect(params.signature).toBe(wsLoginSignature('SK', 42));
    expect(params.signature).not.toBe(wsLoginSignature('SK', 42, 10_000));
  });

  it('sends the key pair for BASIC', () => {
    const credentials = ApiCredentials.from({ apiKey: 'AK', secretKey: 'SK', scheme: 'basic' });
    expect(wsLoginParams(credentials, 1)).toEqual({ type: 'BASIC', api_key: 'AK', secret_key: 'SK' });
  });

  it('refuses a non-integer or negative timestamp', () => {
    expect(() => wsLoginSignature('SK', -1)).toThrow(/timestamp/);
  });
});
