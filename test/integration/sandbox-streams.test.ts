import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ExchangeError } from '../../framework/exchange/errors.js';
import { ApiCredentials } from '../../framework/exchange/rest/credentials.js';
import { PublicSession } from '../../framework/exchange/ws/public-session.js';
import { TradingSession } from '../../framework/exchange/ws/trading-session.js';
import { WalletSession } from '../../framework/exchange/ws/wallet-session.js';
import type { BookFrame } from '../../framework/exchange/book/order-book-frame.js';
import type { BalanceNotification, TransactionNotification } from '../../framework/model/stream/balance-update.js';
import type { OrderReportNotification } from '../../framework/model/stream/order-report.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';
import { LiveClock } from '../../framework/time/clock.js';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { bookSnapshot, eventually, startSandbox, tradeFrame } from '../backtest/sandbox/support/sandbox-fixture.js';

let server: SandboxServer | undefined;
const closers: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await server?.close();
  server = undefined;
});

function credentials(s: SandboxServer, scheme: 'basic' | 'hs256'): ApiCredentials {
  const key = s.apiKeys[0]!;
  return ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme });
}

function trading(s: SandboxServer, scheme: 'basic' | 'hs256' = 'hs256'): TradingSession {
  const session = TradingSession.create({ url: `${s.wsBaseUrl}/api/3/ws/trading`, clock: new LiveClock(), credentials: credentials(s, scheme) });
  closers.push(() => session.close());
  return session;
}

describe('sandbox streams with the framework sessions', () => {
  it('trading: login, order reports snapshot and changes, fills from the market, balances, errors', async () => {
    let market;
    ({ server, market } = await startSandbox());
    const session = trading(server);
    const reports: OrderReportNotification[] = [];
    const balances: BalanceNotification[] = [];
    closers.push(() => void s1.unsubscribe(), () => void s2.unsubscribe());
    const s1 = session.orderReports$.subscribe((r) => reports.push(r));
    const s2 = session.balances$.subscribe((b) => balances.push(b));
    await session.start(3000);
    await session.spot.subscribe();
    await session.spot.balanceSubscribe();
    await eventually(() => reports.length === 1 && balances.length === 1);
    expect(reports[0]).toMatchObject({ snapshot: true, reports: [] });

    const order = await session.spot.newOrder({ client_order_id: 'w1', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '100' });
    expect([order.client_order_id, order.status]).toEqual(['w1', 'new']);
    await eventually(() => reports.length === 2);
    expect(reports[1]?.reports[0]).toMatchObject({ client_order_id: 'w1', report_type: 'new' });
    const replaced = await session.spot.replaceOrder({ client_order_id: 'w1', new_client_order_id: 'w2', quantity: '1', price: '99' });
    expect(replaced.client_order_id).toBe('w2');
    expect((await session.spot.getOrders()).map((o) => o.client_order_id)).toEqual(['w2']);

    market.push(tradeFrame('98', '3', 2));
    await eventually(() => reports.some((r) => r.reports[0]?.report_type === 'trade'));
    const fill = reports.find((r) => r.reports[0]?.report_type === 'trade')?.reports[0];
    expect([fill?.client_order_id, fill?.status, fill?.trade_quantity?.toFixed()]).toEqual(['w2', 'filled', '1']);
    const btc = await session.spot.balance('BTC');
    expect(btc.available.toFixed()).toBe('2');
    expect((await session.spot.fee('BTCUSDT')).make_rate.toFixed()).toBe('0.0005');
    expect(balances.length).toBeGreaterThan(1);

    const refused = await session.spot.cancelOrder('nope').then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(ExchangeError);
    expect((refused as ExchangeError).exchangeCode).toBe(20002);
    await session.spot.newOrder({ client_order_id: 'w3', symbol: 'BTCUSDT', side: 'sell', quantity: '0.1', price: '200' });
    expect((await session.spot.cancelOrders()).map((o) => o.client_order_id)).toEqual(['w3']);
  });

  it('trading: BASIC login works; calls before login get 1001 with no id when the request had none', async () => {
    ({ server } = await startSandbox());
    const ws = new WebSocket(`${server.wsBaseUrl}/api/3/ws/trading`);
    closers.push(() => ws.terminate());
    const frames: unknown[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ method: 'spot_balances', id: 5 }));
    ws.send(JSON.stringify({ method: 'spot_balances' }));
    const key = server.apiKeys[0]!;
    ws.send(JSON.stringify({ method: 'login', params: { type: 'BASIC', api_key: key.apiKey, secret_key: key.secretKey } }));
    await eventually(() => frames.length === 3);
    expect(frames[0]).toMatchObject({ error: { code: 1001 }, id: 5 });
    expect(frames[1]).not.toHaveProperty('id');
    expect(frames[2]).toEqual({ jsonrpc: '2.0', result: true });
    const basic = trading(server, 'basic');
    await basic.start(3000);
    expect((await basic.spot.balances()).map((b) => b.currency).sort()).toEqual(['BTC', 'USDT']);
  });

  it('wallet: balances, transfer notifications and transactions', async () => {
    ({ server } = await startSandbox());
    const wallet = WalletSession.create({ url: `${server.wsBaseUrl}/api/3/ws/wallet`, clock: new LiveClock(), credentials: credentials(server, 'hs256') });
    closers.push(() => wallet.close());
    const balances: BalanceNotification[] = [];
    const txs: TransactionNotification[] = [];
    const subs = [wallet.balances$.subscribe((b) => balances.push(b)), wallet.transactions$.subscribe((t) => txs.push(t))];
    closers.push(() => subs.forEach((s) => s.unsubscribe()));
    await wallet.start(3000);
    await wallet.subscribeWalletBalances();
    await wallet.subscribeTransactions();
    await eventually(() => balances.length === 1);
    expect((await wallet.walletBalance('USDT')).available.toFixed()).toBe('500');
    const key = server.apiKeys[0]!;
    const rest = Buffer.from(`${key.apiKey}:${key.secretKey}`).toString('base64');
    const res = await fetch(`${server.baseUrl}/api/3/wallet/transfer`, {
      method: 'POST', headers: { authorization: `Basic ${rest}`, 'content-type': 'application/json' },
      body: JSON.stringify({ currency: 'USDT', amount: '20', source: 'wallet', destination: 'spot' }), signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(200);
    await eventually(() => txs.length === 1 && balances.length === 2);
    expect(balances[1]?.balances.find((b) => b.currency === 'USDT')?.available.toFixed()).toBe('480');
    expect((await wallet.getTransactions()).map((t) => [t.type, t.status])).toEqual([['TRANSFER', 'SUCCESS']]);
  });

  it('public: book snapshot then sequenced updates, trades and derived candles', async () => {
    let market;
    ({ server, market } = await startSandbox());
    market.push(bookSnapshot(10));
    await eventually(() => server!.framesServed === 1);
    const session = PublicSession.create({ url: `${server.wsBaseUrl}/api/3/ws/public`, clock: new LiveClock() });
    closers.push(() => session.close());
    const books: BookFrame[] = [];
    const events: MarketEvent[] = [];
    const subs = [session.orderBookFrames$.subscribe((f) => books.push(f)), session.marketEvents$.subscribe((e) => events.push(e))];
    closers.push(() => subs.forEach((s) => s.unsubscribe()));
    await session.connect();
    await session.subscribe('orderbook/full', ['BTCUSDT']);
    await session.subscribe('trades', ['BTCUSDT']);
    await session.subscribe('candles/M1', ['BTCUSDT']);
    await eventually(() => books.length === 1);
    expect([books[0]?.snapshot, books[0]?.sequence]).toEqual([true, 10]);
    market.push({ ch: 'orderbook/full', update: { BTCUSDT: { t: 1_700_000_000_050, s: 11, a: [['101.00', '0']], b: [] } } });
    market.push(tradeFrame('100', '0.5', 3));
    await eventually(() => books.length === 2 && events.some((e) => e.kind === 'candles'));
    expect([books[1]?.snapshot, books[1]?.sequence]).toEqual([false, 11]);
    expect(events.map((e) => e.kind)).toContain('trades');
  });

  it('drops a connection that stays silent past the idle time', async () => {
    ({ server } = await startSandbox({ idleTimeoutMs: 150 }));
    const ws = new WebSocket(`${server.wsBaseUrl}/api/3/ws/public`);
    closers.push(() => ws.terminate());
    await new Promise((resolve) => ws.once('open', resolve));
    const closed = new Promise((resolve) => ws.once('close', resolve));
    await expect(Promise.race([closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 3000))])).resolves.toBe('closed');
  });
});
