import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { startSandbox } from '../backtest/sandbox/support/sandbox-fixture.js';

let server: SandboxServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A raw request with Basic auth: the status and the body (an error's code, else the JSON answer). */
async function request(method: string, path: string, body?: Record<string, string>): Promise<[number, unknown]> {
  const key = server!.apiKeys[0]!;
  const response = await fetch(`${server!.baseUrl}/api/3${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${key.apiKey}:${key.secretKey}`).toString('base64')}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { error?: { code: number } };
  return [response.status, json.error?.code ?? json];
}

describe('sandbox deposit addresses and withdrawals (document 002): the paths exist; the currencies take no deposits or withdrawals', () => {
  it('lists none, refuses to generate one, knows no address, and tells an unknown currency', async () => {
    ({ server } = await startSandbox());
    // The currencies say why: payin_enabled false.
    const currencies = (await (await fetch(`${server.baseUrl}/api/3/public/currency`)).json()) as Record<string, { payin_enabled: boolean; payout_enabled: boolean }>;
    expect(currencies['USDT']?.payin_enabled).toBe(false);

    expect(await request('GET', '/wallet/crypto/address')).toEqual([200, []]);
    expect(await request('GET', '/wallet/crypto/address?currency=USDT')).toEqual([200, []]);
    expect(await request('GET', '/wallet/crypto/address/recent-deposit?currency=BTC')).toEqual([200, []]);
    expect(await request('GET', '/wallet/crypto/address/recent-withdraw?currency=BTC')).toEqual([200, []]);
    expect(await request('GET', '/wallet/crypto/address/check-mine?address=1BoatSLRHtKNngkdXEeobR76b53LETtpyT')).toEqual([200, { result: false }]);
    expect(await request('POST', '/wallet/crypto/address', { currency: 'USDT' })).toEqual([400, 600]);
    expect(currencies['USDT']?.payout_enabled).toBe(false);
    expect(await request('POST', '/wallet/crypto/withdraw', { currency: 'USDT', amount: '1', address: '0xabc' })).toEqual([400, 600]);
    expect(await request('POST', '/wallet/crypto/withdraw', { currency: 'XYZ', amount: '1', address: '0xabc' })).toEqual([400, 2002]);
    expect(await request('POST', '/wallet/crypto/withdraw', { currency: 'USDT', amount: '0', address: '0xabc' })).toEqual([400, 10001]);
    expect(await request('POST', '/wallet/crypto/withdraw', { currency: 'USDT', amount: '1' })).toEqual([400, 10001]);

    // Unknown currency: 2002; missing required parameters: 10001.
    expect(await request('GET', '/wallet/crypto/address?currency=XYZ')).toEqual([400, 2002]);
    expect(await request('POST', '/wallet/crypto/address', { currency: 'XYZ' })).toEqual([400, 2002]);
    expect(await request('POST', '/wallet/crypto/address', {})).toEqual([400, 10001]);
    expect(await request('GET', '/wallet/crypto/address/recent-deposit')).toEqual([400, 10001]);
    expect(await request('GET', '/wallet/crypto/address/check-mine')).toEqual([400, 10001]);
  });

  it('needs the payment right for addresses and the withdraw right for withdrawals (403, 1003)', async () => {
    ({ server } = await startSandbox({ apiKeys: [{ apiKey: 'k'.repeat(32), secretKey: 's'.repeat(32), rights: ['orderbook', 'trading', 'payment'] }] }));
    expect(await request('GET', '/wallet/crypto/address')).toEqual([200, []]);
    expect(await request('POST', '/wallet/crypto/withdraw', { currency: 'USDT', amount: '1', address: '0xabc' })).toEqual([403, 1003]);
    await server.close();
    ({ server } = await startSandbox({ apiKeys: [{ apiKey: 'k'.repeat(32), secretKey: 's'.repeat(32), rights: ['orderbook', 'trading'] }] }));
    expect(await request('GET', '/wallet/crypto/address')).toEqual([403, 1003]);
  });
});
