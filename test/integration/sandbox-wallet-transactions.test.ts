import { afterEach, describe, expect, it } from 'vitest';
import type { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { startFuturesSandbox } from '../backtest/sandbox/support/futures-sandbox-fixture.js';

let server: SandboxServer | undefined;
let transport: RestTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  server = transport = undefined;
});

/** A raw GET with Basic auth: status, and the body (the error code for a refusal, else the answer). */
async function get(query: string): Promise<{ status: number; body: unknown }> {
  const key = server!.apiKeys[0]!;
  const response = await fetch(`${server!.baseUrl}/api/3/wallet/transactions${query}`, {
    headers: { authorization: `Basic ${Buffer.from(`${key.apiKey}:${key.secretKey}`).toString('base64')}` },
  });
  const body = (await response.json()) as { error?: { code: number } } | Array<Record<string, unknown>>;
  return { status: response.status, body: Array.isArray(body) || body.error === undefined ? body : body.error.code };
}

/** The transaction ids of a listing; a refusal's status and code as they are. */
async function ids(query: string): Promise<unknown> {
  const { status, body } = await get(query);
  return Array.isArray(body) ? body.map((tx: Record<string, unknown>) => tx['id']) : [status, body];
}

describe('GET /wallet/transactions filters, orders and pages as document 002 lists', () => {
  it('applies types, subtypes, statuses, currencies, tx_ids, id and time bounds, sort, limit and offset', async () => {
    // Many reads: the per-key budget of 20 a second would refuse some (429).
    ({ server, transport } = await startFuturesSandbox({}, { rateLimits: { publicPerSecond: 1000, tradingPerSecond: 1000, otherPerSecond: 1000 } }));
    const post = async (body: Record<string, string>): Promise<string> => {
      const key = server!.apiKeys[0]!;
      const response = await fetch(`${server!.baseUrl}/api/3/wallet/transfer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${key.apiKey}:${key.secretKey}`).toString('base64')}` },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { id: string }).id;
    };
    // Transactions 1, 2, 3: wallet -> spot 100 USDT, spot -> wallet 0.5 BTC, spot -> wallet 50 USDT.
    await post({ currency: 'USDT', amount: '100', source: 'wallet', destination: 'spot' });
    const btcTransfer = await post({ currency: 'BTC', amount: '0.5', source: 'spot', destination: 'wallet' });
    await post({ currency: 'USDT', amount: '50', source: 'spot', destination: 'wallet' });

    expect(await ids('')).toEqual([3, 2, 1]);
    expect(await ids('?sort=ASC')).toEqual([1, 2, 3]);
    expect(await ids('?order_by=id&sort=DESC')).toEqual([3, 2, 1]);
    // No deposit or withdrawal happened: transfers are neither.
    expect(await ids('?types=DEPOSIT')).toEqual([]);
    expect(await ids('?types=WITHDRAW,DEPOSIT')).toEqual([]);
    expect(await ids('?types=TRANSFER')).toEqual([3, 2, 1]);
    expect(await ids('?currencies=BTC')).toEqual([2]);
    expect(await ids('?currencies=USDT,BTC&sort=ASC')).toEqual([1, 2, 3]);
    expect(await ids(`?tx_ids=${btcTransfer}`)).toEqual([2]);
    expect(await ids('?statuses=SUCCESS,FAILED')).toEqual([3, 2, 1]);
    expect(await ids('?statuses=PENDING')).toEqual([]);
    expect(await ids('?id_from=2')).toEqual([3, 2]);
    expect(await ids('?id_from=2&id_till=2')).toEqual([2]);
    expect(await ids('?limit=1&offset=1')).toEqual([2]);
    expect(await ids('?limit=2&sort=ASC')).toEqual([1, 2]);
    expect(await ids('?from=2100-01-01T00:00:00.000Z')).toEqual([]);
    expect(await ids('?till=2000-01-01T00:00:00.000Z')).toEqual([]);
    expect(await ids('?from=2000-01-01T00:00:00.000Z&till=2100-01-01T00:00:00.000Z')).toEqual([3, 2, 1]);
    // One transaction by its tx_id; an unknown one is 800 (HTTP 404).
    const one = await get(`/${btcTransfer}`);
    expect([one.status, (one.body as { id?: number }).id, (one.body as { native?: { currency?: string } }).native?.currency]).toEqual([200, 2, 'BTC']);
    expect(await get('/no-such-tx')).toEqual({ status: 404, body: 800 });
    // Values outside the spec's are validation errors (10001, HTTP 400).
    expect(await ids('?statuses=DONE')).toEqual([400, 10001]);
    expect(await ids('?order_by=amount')).toEqual([400, 10001]);
    expect(await ids('?sort=UP')).toEqual([400, 10001]);
    expect(await ids('?limit=1001')).toEqual([400, 10001]);
    expect(await ids('?id_from=-1')).toEqual([400, 10001]);
  });
});
