import { afterEach, describe, expect, it } from 'vitest';
import type { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { startSandbox } from '../backtest/sandbox/support/sandbox-fixture.js';
import { startFuturesSandbox } from '../backtest/sandbox/support/futures-sandbox-fixture.js';

let server: SandboxServer | undefined;
let transport: RestTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  server = transport = undefined;
});

/** A raw request with Basic auth: the JSON exactly as served, before any client parses it. */
async function raw(method: string, path: string, body?: Record<string, unknown>, keyIndex = 0): Promise<{ status: number; json: unknown }> {
  const key = server!.apiKeys[keyIndex]!;
  const res = await fetch(`${server!.baseUrl}/api/3${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${key.apiKey}:${key.secretKey}`).toString('base64')}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

describe('sandbox futures wire shapes (document 001)', () => {
  it('serves accounts, positions, balances and position history in the exchange shapes', async () => {
    ({ server, transport } = await startFuturesSandbox());
    expect((await raw('PUT', '/futures/account/isolated/BTCUSDT_PERP', { margin_balance: '300', leverage: '5' })).status).toBe(200);
    expect((await raw('POST', '/futures/order', { symbol: 'BTCUSDT_PERP', side: 'sell', type: 'market', quantity: '0.5' })).status).toBe(200);

    const accounts = (await raw('GET', '/futures/account')).json as Record<string, unknown>[];
    expect(accounts).toHaveLength(1);
    const account = accounts[0]!;
    expect(account).toMatchObject({ symbol: 'BTCUSDT_PERP', type: 'isolated', leverage: '5' });
    expect(account['created_at']).toMatch(ISO);
    expect(account['updated_at']).toMatch(ISO);
    const [currency] = account['currencies'] as Record<string, unknown>[];
    expect(Object.keys(currency!).sort()).toEqual(['code', 'margin_balance', 'reserved_orders', 'reserved_positions']);
    expect(currency).toMatchObject({ code: 'USDT', reserved_orders: '0', reserved_positions: '9.9' });
    const [position] = account['positions'] as Record<string, unknown>[];
    expect(typeof position!['id']).toBe('number');
    expect(position).toMatchObject({ symbol: 'BTCUSDT_PERP', quantity: '-0.5', price_entry: '99' });
    expect(position!['pnl']).toMatch(DECIMAL);
    expect(position!['created_at']).toMatch(ISO);

    const balances = (await raw('GET', '/futures/balance')).json as Record<string, unknown>[];
    expect(balances.map((b) => Object.keys(b).sort())).toEqual([['available', 'currency', 'reserved', 'reserved_margin']]);
    expect(Object.values(balances[0]!).slice(1).every((v) => typeof v === 'string' && DECIMAL.test(v))).toBe(true);
    expect((await raw('GET', '/futures/balance/BTC')).json).toEqual({ currency: 'BTC', available: '0', reserved: '0', reserved_margin: '0' });

    const history = (await raw('GET', '/futures/history/positions')).json as Record<string, unknown>[];
    expect(history[0]).toMatchObject({ id: position!['id'], symbol: 'BTCUSDT_PERP', state: 'active', margin_mode: 'isolated', quantity: '-0.5', leverage: '5' });
    // Nanoseconds as exact digit text: the position opened at the millisecond its account shows.
    expect(history[0]!['create_timestamp']).toBe(`${Date.parse(position!['created_at'] as string)}000000`);

    // A limit close sent with a JSON body on DELETE, as many clients send it: the position as it stood.
    const closed = await raw('DELETE', '/futures/position/isolated/BTCUSDT_PERP', { price: '100' });
    expect(closed.status).toBe(200);
    expect(closed.json).toEqual([position]);
    const [closing] = (await raw('GET', '/futures/order')).json as Record<string, unknown>[];
    expect(closing).toMatchObject({ symbol: 'BTCUSDT_PERP', side: 'buy', type: 'limit', price: '100', quantity: '0.5', reduce_only: true });
    const allOrNone = await raw('POST', '/futures/order/list', {
      contingency_type: 'allOrNone',
      orders: [{ symbol: 'BTCUSDT_PERP', side: 'buy', quantity: '1', price: '90' }, { symbol: 'BTCUSDT_PERP', side: 'buy', quantity: '1', price: '91' }],
    });
    expect([allOrNone.status, (allOrNone.json as { error: { code: number } }).error.code]).toEqual([400, 10001]);
    const wrongSort = await raw('GET', '/futures/history/positions?sort=UP');
    expect([wrongSort.status, (wrongSort.json as { error: { code: number } }).error.code]).toEqual([400, 10001]);
    expect(((await raw('GET', '/futures/history/positions?from=1x')).json as { error: { code: number } }).error.code).toBe(10001);
  });

  it('asks the spot routes\' rights: R1 reads, R2 trades and moves margin', async () => {
    ({ server, transport } = await startFuturesSandbox({}, {
      apiKeys: [{ apiKey: 'trader', secretKey: 'trader-secret' }, { apiKey: 'reader', secretKey: 'reader-secret', rights: ['orderbook'] }],
    }));
    const code = (answer: { json: unknown }) => (answer.json as { error?: { code: number } }).error?.code;
    for (const path of ['/futures/balance', '/futures/account', '/futures/account/isolated/BTCUSDT_PERP', '/futures/history/positions', '/futures/config']) {
      expect([path, (await raw('GET', path, undefined, 1)).status]).toEqual([path, 200]);
    }
    const refused = [
      await raw('GET', '/futures/order', undefined, 1),
      await raw('POST', '/futures/order', { symbol: 'BTCUSDT_PERP', side: 'buy', quantity: '1', price: '90' }, 1),
      await raw('PUT', '/futures/account/isolated/BTCUSDT_PERP', { margin_balance: '10' }, 1),
      await raw('DELETE', '/futures/position', undefined, 1),
    ];
    expect(refused.map((a) => [a.status, code(a)])).toEqual(Array(4).fill([403, 1003]));
  });

  it('lists the futures contract among the public symbols', async () => {
    ({ server, transport } = await startFuturesSandbox());
    const symbols = (await (await fetch(`${server.baseUrl}/api/3/public/symbol`)).json()) as Record<string, Record<string, unknown>>;
    expect(symbols['BTCUSDT_PERP']).toMatchObject({ type: 'futures', contract_type: 'perpetual', base_currency: null, quote_currency: 'USDT' });
  });

  it('keeps the futures paths at 404 over a venue without futures accounts', async () => {
    ({ server } = await startSandbox());
    const answer = await raw('GET', '/futures/balance');
    expect([answer.status, (answer.json as { error: { code: number } }).error.code]).toEqual([404, 800]);
  });
});
