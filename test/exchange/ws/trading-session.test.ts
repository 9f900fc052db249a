import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExchangeError } from '../../../framework/exchange/errors.js';
import { ApiCredentials, type ApiCredentialsInput } from '../../../framework/exchange/rest/credentials.js';
import { ValidationError } from '../../../framework/model/errors.js';
import type { BalanceNotification } from '../../../framework/model/stream/balance-update.js';
import type { OrderReportNotification } from '../../../framework/model/stream/order-report.js';
import type { Resubscription, SessionEvent } from '../../../framework/exchange/ws/session-event.js';
import { TradingSession } from '../../../framework/exchange/ws/trading-session.js';
import { VirtualClock } from '../../../framework/time/clock.js';
import { until, WsTestServer, type TestClient } from '../../support/ws-test-server.js';

const API_KEY = 'key-public-123';
const SECRET = 'super-secret-456';
const NOW = 1_700_000_000_000;

let server: WsTestServer;
let authed: Set<TestClient>;
let session: TradingSession;
/** How long the fake takes to accept a login (the client must not send other calls meanwhile). */
let loginDelayMs = 0;

function report(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 583502239, client_order_id: 'abc1', symbol: 'BTCUSDT', side: 'buy', status: 'new', type: 'limit', time_in_force: 'GTC',
    quantity: '0.01', quantity_cumulative: '0', price: '30000.50', post_only: false,
    created_at: '2023-11-14T22:13:20.000Z', updated_at: '2023-11-14T22:13:20.000Z', report_type: 'new', ...overrides,
  };
}

/** A fake trading endpoint that checks the login independently of the client's signing code. */
function fakeTrading(message: Record<string, unknown>, client: TestClient): void {
  const id = message.id;
  const params = (message.params ?? {}) as Record<string, unknown>;
  if (message.method === 'login') {
    const ok = params.type === 'HS256'
      ? params.api_key === API_KEY && params.signature === createHmac('sha256', SECRET)
        .update(`${String(params.timestamp)}${params.window === undefined ? '' : String(params.window)}`).digest('hex')
      : String(params.type).toUpperCase() === 'BASIC' && params.api_key === API_KEY && params.secret_key === SECRET;
    if (!ok) return server.replyError(client, id, 1002, 'Authorization is required or has been failed');
    const accept = (): void => {
      authed.add(client);
      server.reply(client, id, true);
    };
    if (loginDelayMs > 0) setTimeout(accept, loginDelayMs);
    else accept();
    return;
  }
  if (!authed.has(client)) return server.replyError(client, id, 1001, 'Authorization required');
  switch (message.method) {
    case 'spot_subscribe':
      server.reply(client, id, true);
      return server.send(client, { jsonrpc: '2.0', method: 'spot_orders', params: [report({ report_type: 'status' })] });
    case 'spot_balance_subscribe':
      return server.reply(client, id, true);
    case 'spot_new_order':
    case 'futures_new_order':
      if (params.symbol === 'POORUSDT') return server.replyError(client, id, 20001, 'Insufficient funds');
      return server.reply(client, id, report({ ...params, id: '9007199254740993' }));
    case 'margin_cancel_orders':
      return server.reply(client, id, [report({ status: 'canceled', report_type: 'canceled' })]);
    case 'spot_get_orders':
      return server.reply(client, id, [report()]);
    case 'spot_balances':
      return server.reply(client, id, [{ currency: 'USDT', available: '100.5', reserved: '0', reserved_margin: '0' }]);
    case 'spot_fee':
      return server.reply(client, id, { symbol: params.symbol, take_rate: '0.001', make_rate: '-0.0001' });
    default:
      return server.reply(client, id, true);
  }
}

function makeSession(input: Partial<ApiCredentialsInput> = {}): TradingSession {
  session = TradingSession.create({
    url: server.url('/api/3/ws/trading'),
    clock: new VirtualClock(NOW),
    credentials: ApiCredentials.from({ apiKey: API_KEY, secretKey: SECRET, scheme: 'hs256', ...input }),
    pingIntervalMs: 0,
    backoff: { initialMs: 10, maxMs: 40, factor: 2 },
    random: () => 0.5,
    requestTimeoutMs: 1_000,
  });
  return session;
}

beforeEach(async () => {
  server = await WsTestServer.start();
  authed = new Set();
  loginDelayMs = 0;
  server.handler = fakeTrading;
});

afterEach(async () => {
  await session.close();
  await server.stop();
});

describe('TradingSession login', () => {
  it('logs in with HS256 over the timestamp and window, verified by the server', async () => {
    makeSession({ window: 10_000 });
    await session.start();
    const login = server.clients[0]!.received[0]!;
    expect(login).toMatchObject({ method: 'login', params: { type: 'HS256', api_key: API_KEY, timestamp: NOW, window: 10_000 } });
    expect((login.params as Record<string, unknown>).signature).toMatch(/^[0-9a-f]{64}$/);
    expect(authed.size).toBe(1);
  });

  it('logs in with BASIC', async () => {
    makeSession({ scheme: 'basic' });
    await session.start();
    expect(server.clients[0]!.received[0]).toMatchObject({ params: { type: 'BASIC', api_key: API_KEY, secret_key: SECRET } });
    expect(authed.size).toBe(1);
  });

  it('rejects a bad signature with ExchangeError 1002 and never leaks the secret', async () => {
    makeSession({ secretKey: 'wrong-secret' });
    const events: SessionEvent[] = [];
    session.events$.subscribe((e) => events.push(e));
    await session.connect();
    const error = await session.login().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect(error).toMatchObject({ exchangeCode: 1002 });
    const signature = (server.clients[0]!.received[0]!.params as Record<string, unknown>).signature as string;
    const rendered = JSON.stringify(events) + String(error) + JSON.stringify(error) + (error as Error).stack;
    expect(events.some((e) => e.kind === 'login-failed')).toBe(true);
    for (const secret of ['wrong-secret', signature]) expect(rendered).not.toContain(secret);
  });
});

describe('TradingSession methods and streams', () => {
  beforeEach(async () => {
    makeSession();
    await session.start();
  });

  it('places an order with validated exact params and parses the reply as an Order', async () => {
    const order = await session.spot.newOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '0.01', price: '30000.50', client_order_id: 'abc1' });
    expect(server.clients[0]!.received.at(-1)).toMatchObject({
      method: 'spot_new_order', params: { symbol: 'BTCUSDT', side: 'buy', quantity: '0.01', price: '30000.5', client_order_id: 'abc1' },
    });
    expect(order.id).toBe('9007199254740993');
    expect(order.price?.toFixed()).toBe('30000.5');
    expect(order.quantity.toFixed()).toBe('0.01');
  });

  it('rejects invalid orders before sending and exchange rejects with their code', async () => {
    const sent = server.clients[0]!.received.length;
    await expect(session.spot.newOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '1', type: 'limit' })).rejects.toThrow(/price: is required/);
    await expect(session.spot.newOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: 0.1 as unknown as string, type: 'market' }))
      .rejects.toBeInstanceOf(ValidationError);
    await expect(session.spot.newOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '1', type: 'stopMarket' })).rejects.toThrow(/stop_price/);
    await expect(session.spot.newOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '1', time_in_force: 'GTD' })).rejects.toThrow(/expire_time/);
    await expect(session.spot.newOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '1', reduce_only: true })).rejects.toThrow(/reduce_only/);
    expect(server.clients[0]!.received.length).toBe(sent);
    const error = await session.spot.newOrder({ symbol: 'POORUSDT', side: 'buy', quantity: '1', type: 'market' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ exchangeCode: 20001, retryable: false });
  });

  it('uses the margin_ and futures_ method names', async () => {
    await session.futures.newOrder({ symbol: 'BTCUSDT_PERP', side: 'sell', quantity: '1', type: 'market', reduce_only: true });
    await session.margin.cancelOrders();
    const methods = server.clients[0]!.received.map((m) => m.method);
    expect(methods.slice(-2)).toEqual(['futures_new_order', 'margin_cancel_orders']);
  });

  it('parses orders, balances and fees replies', async () => {
    const [order] = await session.spot.getOrders();
    expect(order?.client_order_id).toBe('abc1');
    const [balance] = await session.spot.balances();
    expect(balance?.available.toFixed()).toBe('100.5');
    const fee = await session.spot.fee('BTCUSDT');
    expect(fee.make_rate.toFixed()).toBe('-0.0001');
    expect(server.clients[0]!.received.at(-1)).toMatchObject({ method: 'spot_fee', params: { symbol: 'BTCUSDT' } });
  });

  it('delivers typed order reports and balance notifications', async () => {
    const reports: OrderReportNotification[] = [];
    const balances: BalanceNotification[] = [];
    session.orderReports$.subscribe((r) => reports.push(r));
    session.balances$.subscribe((b) => balances.push(b));
    await session.spot.subscribe();
    await session.spot.balanceSubscribe('batches');
    const client = server.clients[0]!;
    server.send(client, { jsonrpc: '2.0', method: 'spot_order', params: report({
      status: 'partiallyFilled', report_type: 'trade', quantity_cumulative: '0.004', trade_id: 77, trade_quantity: '0.004',
      trade_price: '30000.50', trade_fee: '0.12', trade_taker: false,
    }) });
    server.send(client, { jsonrpc: '2.0', method: 'spot_balance', params: [{ currency: 'BTC', available: '0.004', reserved: '0', reserved_margin: '0' }] });
    await until(() => reports.length === 2 && balances.length === 1);
    expect(reports[0]).toMatchObject({ account: 'spot', snapshot: true });
    const trade = reports[1]!;
    expect(trade.snapshot).toBe(false);
    expect(trade.receivedAt).toBe(NOW);
    expect(trade.reports[0]).toMatchObject({ report_type: 'trade', trade_id: '77', trade_taker: false });
    expect(trade.reports[0]!.trade_price?.toFixed()).toBe('30000.5');
    expect(balances[0]).toMatchObject({ account: 'spot' });
    expect(balances[0]!.balances[0]!.available.toFixed()).toBe('0.004');
    expect(server.clients[0]!.received.at(-1)).toMatchObject({ method: 'spot_balance_subscribe', params: { mode: 'batches' } });
  });

  it('reports a malformed order report and skips it', async () => {
    const reports: OrderReportNotification[] = [];
    const events: SessionEvent[] = [];
    session.orderReports$.subscribe((r) => reports.push(r));
    session.events$.subscribe((e) => events.push(e));
    const client = server.clients[0]!;
    server.send(client, { jsonrpc: '2.0', method: 'spot_order', params: report({ quantity: 'lots' }) });
    server.send(client, { jsonrpc: '2.0', method: 'spot_order', params: report() });
    await until(() => reports.length === 1);
    expect(events.filter((e) => e.kind === 'parse-error')).toMatchObject([{ ch: 'spot_order' }]);
  });

  it('after a drop, logs in again before restoring the subscriptions and announces them', async () => {
    await session.spot.subscribe();
    await session.spot.balanceSubscribe();
    const restored: Resubscription[] = [];
    session.resubscribed$.subscribe((r) => restored.push(r));
    server.dropAll();
    await until(() => restored.length === 2);
    const second = server.clients[0]!;
    expect(server.connections).toBe(2);
    expect(second.received.map((m) => m.method)).toEqual(['login', 'spot_subscribe', 'spot_balance_subscribe']);
    expect(restored.map((r) => r.ch).sort()).toEqual(['spot_balance_subscribe', 'spot_subscribe']);
    expect(authed.has(second)).toBe(true);
  });

  it('holds calls made during the restore until the new login is done', async () => {
    const during = new Promise<unknown>((resolve, reject) => {
      session.events$.subscribe((e) => {
        // The restore has just sent its login and awaits the answer.
        if (e.kind === 'connected' && e.attempt > 0) session.spot.balances().then(resolve, reject);
      });
    });
    loginDelayMs = 30;
    server.dropAll();
    await expect(during).resolves.toHaveLength(1);
    expect(server.clients[0]!.received.map((m) => m.method)).toEqual(['login', 'spot_balances']);
  });

  it('forgets an unsubscribed stream', async () => {
    await session.spot.subscribe();
    await session.spot.unsubscribe();
    server.dropAll();
    await until(() => server.connections === 2 && (server.clients[0]?.received.length ?? 0) >= 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.clients[0]!.received.map((m) => m.method)).toEqual(['login']);
  });
});
