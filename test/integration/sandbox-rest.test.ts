import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeError } from '../../framework/exchange/errors.js';
import { ApiCredentials } from '../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import { RetryPolicy } from '../../framework/exchange/rest/retry-policy.js';
import { hs256Authorization } from '../../framework/exchange/rest/sign.js';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { bookSnapshot, eventually, startSandbox, tradeFrame } from '../backtest/sandbox/support/sandbox-fixture.js';

let server: SandboxServer | undefined;
const transports: RestTransport[] = [];

afterEach(async () => {
  for (const t of transports.splice(0)) await t.close();
  await server?.close();
  server = undefined;
});

function client(s: SandboxServer, scheme: 'basic' | 'hs256' = 'hs256'): RestClient {
  const key = s.apiKeys[0];
  if (!key) throw new Error('no key');
  const transport = new RestTransport({
    baseUrl: s.baseUrl,
    credentials: ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme }),
    retryPolicy: new RetryPolicy({ maxAttempts: 1 }),
    timeouts: { overallMs: 5000 },
  });
  transports.push(transport);
  return new RestClient(transport);
}

async function raw(s: SandboxServer, path: string, init: RequestInit = {}): Promise<{ status: number; body: { error?: { code: number; message: string; description: string } } }> {
  const res = await fetch(`${s.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: (await res.json()) as { error?: { code: number; message: string; description: string } } };
}

describe('sandbox REST: envelopes, auth and limits over HTTP', () => {
  it('answers an unknown path with 404 and the 800 envelope', async () => {
    ({ server } = await startSandbox());
    for (const path of ['/api/3/nothing/here', '/elsewhere']) {
      const { status, body } = await raw(server, path);
      expect(status).toBe(404);
      expect(body.error).toEqual({ code: 800, message: 'Resource not found', description: expect.any(String) });
    }
  });

  it('maps every auth failure to its code and HTTP status', async () => {
    ({ server } = await startSandbox({
      apiKeys: [{ apiKey: 'trader', secretKey: 'trader-secret' }, { apiKey: 'reader', secretKey: 'reader-secret', rights: ['orderbook'] }],
    }));
    const s = server;
    const hs = (secret: string, timestamp: number) => hs256Authorization({
      apiKey: 'trader', secretKey: secret, method: 'GET', pathAndQuery: '/api/3/spot/balance', timestamp,
    });
    const cases: Array<[Record<string, string>, string, number, number]> = [
      [{}, '/api/3/spot/balance', 401, 1001],
      [{ authorization: 'Digest abc' }, '/api/3/spot/balance', 401, 1004],
      [{ authorization: hs('wrong-secret', Date.now()) }, '/api/3/spot/balance', 401, 1002],
      [{ authorization: hs('trader-secret', Date.now() - 30_000) }, '/api/3/spot/balance', 401, 1002],
      [{ authorization: `Basic ${Buffer.from('reader:reader-secret').toString('base64')}` }, '/api/3/spot/order', 403, 1003],
    ];
    for (const [headers, path, status, code] of cases) {
      const answer = await raw(s, path, { headers });
      expect([answer.status, answer.body.error?.code]).toEqual([status, code]);
    }
    const ok = await raw(s, '/api/3/spot/balance', { headers: { authorization: hs('trader-secret', Date.now()) } });
    expect(ok.status).toBe(200);
  });

  it('answers 429 with the envelope once the public budget is spent', async () => {
    ({ server } = await startSandbox({ rateLimits: { publicPerSecond: 3 } }));
    const statuses: number[] = [];
    let last: { error?: { code: number } } = {};
    for (let i = 0; i < 5; i++) {
      const answer = await raw(server, '/api/3/public/symbol');
      statuses.push(answer.status);
      last = answer.body;
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(last.error?.code).toBe(429);
  });

  it('injects seeded 429 bursts', async () => {
    ({ server } = await startSandbox({ faults: { burst429Every: 2, burst429Length: 1 } }));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await raw(server, '/api/3/public/symbol')).status);
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
  });
});

describe('sandbox REST: end to end with RestClient and RestTransport', () => {
  it('serves market data from the replayed market', async () => {
    let market;
    ({ server, market } = await startSandbox());
    market.push(bookSnapshot());
    market.push(tradeFrame('100.50', '0.2', 1));
    const rest = client(server);
    await eventually(() => server!.framesServed === 2);
    const symbols = await rest.marketData.getSymbols();
    expect(Object.keys(symbols)).toEqual(['BTCUSDT']);
    const book = await rest.marketData.getOrderBook('BTCUSDT', { depth: 1 });
    expect(book.ask.map((l) => [...l])).toEqual([['101.00', '1.5000']]);
    const trades = await rest.marketData.getSymbolTrades('BTCUSDT');
    expect(String(trades[0]?.price)).toBe('100.50');
    const candles = await rest.marketData.getSymbolCandles('BTCUSDT', { period: 'M1' });
    expect(candles.map((c) => [String(c.open), String(c.volume)])).toEqual([['100.5', '0.2']]);
    const currencies = await rest.marketData.getCurrencies();
    expect(Object.keys(currencies).sort()).toEqual(['BTC', 'USDT']);
    const ticker = await rest.marketData.getTicker('BTCUSDT');
    expect([ticker.bid, ticker.ask, ticker.last]).toEqual(['99.00', '101.00', '100.50']);
  });

  it('places, gets, replaces, lists, fills and cancels orders; balances and transfer', async () => {
    let market;
    ({ server, market } = await startSandbox());
    const rest = client(server);
    const placed = await rest.spot.createOrder({ client_order_id: 'a1', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '100' });
    expect([placed.client_order_id, placed.status]).toEqual(['a1', 'new']);
    expect((await rest.spot.getActiveOrder('a1')).price?.toFixed()).toBe('100');
    const replaced = await rest.spot.replaceOrder('a1', { new_client_order_id: 'a2', quantity: '2', price: '99' });
    expect([replaced.client_order_id, replaced.quantity.toFixed()]).toEqual(['a2', '2']);
    expect((await rest.spot.getActiveOrders()).map((o) => o.client_order_id)).toEqual(['a2']);
    const usdt = await rest.spot.getBalance('USDT');
    expect([usdt.available.toFixed(), usdt.reserved.toFixed()]).toEqual(['802', '198']);

    market.push(tradeFrame('98.5', '5', 7));
    await eventually(() => server!.framesServed === 1);
    expect(await rest.spot.getActiveOrders()).toEqual([]);
    const fills = await rest.spot.getTradeHistory({ symbol: 'BTCUSDT' });
    expect(fills.map((t) => [t.client_order_id, t.quantity.toFixed(), t.price.toFixed()])).toEqual([['a2', '2', '99']]);
    const history = await rest.spot.getOrderHistory({ client_order_id: 'a2' });
    expect(history[0]?.status).toBe('filled');

    await rest.spot.createOrder({ client_order_id: 'b1', symbol: 'BTCUSDT', side: 'sell', quantity: '0.5', price: '150' });
    expect((await rest.spot.cancelOrder('b1')).status).toBe('canceled');
    await rest.spot.createOrder({ client_order_id: 'b2', symbol: 'BTCUSDT', side: 'sell', quantity: '0.5', price: '150' });
    expect((await rest.spot.cancelOrders({ symbol: 'BTCUSDT' })).map((o) => o.client_order_id)).toEqual(['b2']);

    const transfer = await rest.wallet.transfer({ currency: 'USDT', amount: '100', source: 'wallet', destination: 'spot' });
    expect(transfer.id).toMatch(/transfer/);
    const wallet = await rest.wallet.getBalances();
    expect(wallet.find((b) => b.currency === 'USDT')?.available.toFixed()).toBe('400');
    expect((await rest.spot.getFee('BTCUSDT')).take_rate.toFixed()).toBe('0.001');
  });

  it('surfaces 20001, 20002 and 20008 as ExchangeError with the code', async () => {
    ({ server } = await startSandbox());
    const rest = client(server, 'basic');
    const codeOf = async (p: Promise<unknown>) => {
      const error = await p.then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ExchangeError);
      return [(error as ExchangeError).exchangeCode, (error as ExchangeError).httpStatus];
    };
    expect(await codeOf(rest.spot.createOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '100', price: '100' }))).toEqual([20001, 400]);
    expect(await codeOf(rest.spot.cancelOrder('missing'))).toEqual([20002, 400]);
    await rest.spot.createOrder({ client_order_id: 'dup', symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '10' });
    expect(await codeOf(rest.spot.createOrder({ client_order_id: 'dup', symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '10' })))
      .toEqual([20008, 400]);
  });

  it('accepts form-encoded bodies signed over the raw bytes', async () => {
    ({ server } = await startSandbox());
    const key = server.apiKeys[0]!;
    const body = 'symbol=BTCUSDT&side=buy&quantity=0.1&price=10&client_order_id=form1';
    const timestamp = Date.now();
    const authorization = hs256Authorization({
      apiKey: key.apiKey, secretKey: key.secretKey, method: 'POST', pathAndQuery: '/api/3/spot/order', body, timestamp,
    });
    const answer = await raw(server, '/api/3/spot/order', {
      method: 'POST', body, headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status).toBe(200);
    expect((answer.body as { client_order_id?: string }).client_order_id).toBe('form1');
  });
});
