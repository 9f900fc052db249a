import { afterEach, describe, expect, it } from 'vitest';
import { ApiCredentials } from '../../framework/exchange/rest/credentials.js';
import { RestClient } from '../../framework/exchange/rest/rest-client.js';
import { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import { RetryPolicy } from '../../framework/exchange/rest/retry-policy.js';
import type { TradingSession } from '../../framework/exchange/ws/trading-session.js';
import type { BalanceNotification } from '../../framework/model/stream/balance-update.js';
import type { OrderReport, OrderReportNotification } from '../../framework/model/stream/order-report.js';
import { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import { RecordingReader } from '../../backtest/recording/recording-reader.js';
import type { SandboxApiKey, SandboxOptions } from '../../backtest/sandbox/sandbox-config.js';
import { simulatedVenueFactory } from '../../backtest/sandbox/simulated-venue-factory.js';
import { parseSymbolInfo } from '../../framework/model/resources/symbol.js';
import { bookSnapshot, codeOf, eventually, PushedMarket, startSandbox, SYMBOLS, tradeFrame, tradingSessionOf } from '../backtest/sandbox/support/sandbox-fixture.js';

/** BTCUSDT of the fixture and ETHUSDT, for lists spanning two symbols. */
const TWO_SYMBOLS = {
  ...SYMBOLS,
  ETHUSDT: parseSymbolInfo({
    type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', tick_size: '0.1', quantity_increment: '0.001',
    take_rate: '0.002', make_rate: '0.001', fee_currency: 'USDT', expiry: null,
  }),
};

let server: SandboxServer | undefined;
const closers: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await server?.close();
  server = undefined;
});

/** A sandbox over the real SimulatedVenue, the pushed test market holding one book snapshot. */
async function start(overrides: Partial<SandboxOptions> = {}): Promise<{ s: SandboxServer; market: PushedMarket }> {
  const market = new PushedMarket();
  const started = await startSandbox({
    venue: simulatedVenueFactory(), market: { kind: 'frames', symbols: TWO_SYMBOLS, startTime: PushedMarket.START, frames: () => market.frames() }, ...overrides,
  });
  server = started.server;
  market.push(bookSnapshot());
  market.push({ ch: 'orderbook/full', snapshot: { ETHUSDT: { t: 1_700_000_000_000, s: 1, a: [['2000.0', '2']], b: [['1990.0', '2']] } } });
  await eventually(() => started.server.framesServed === 2);
  return { s: started.server, market };
}

function rest(s: SandboxServer, key: SandboxApiKey = s.apiKeys[0]!): RestClient {
  const transport = new RestTransport({
    baseUrl: s.baseUrl, credentials: ApiCredentials.from({ apiKey: key.apiKey, secretKey: key.secretKey, scheme: 'hs256' }),
    retryPolicy: new RetryPolicy({ maxAttempts: 1 }), timeouts: { overallMs: 5000 },
  });
  closers.push(() => transport.close());
  return new RestClient(transport);
}

async function tradingStream(s: SandboxServer): Promise<{ session: TradingSession; reports: OrderReport[]; balances: BalanceNotification[] }> {
  const session = tradingSessionOf(s);
  closers.push(() => session.close());
  const reports: OrderReport[] = [];
  const balances: BalanceNotification[] = [];
  let snapshots = 0;
  const subs = [
    session.orderReports$.subscribe((n: OrderReportNotification) => (n.snapshot ? snapshots++ : reports.push(...n.reports))),
    session.balances$.subscribe((b) => balances.push(b)),
  ];
  closers.push(() => subs.forEach((sub) => sub.unsubscribe()));
  await session.start(3000);
  await session.spot.subscribe();
  await session.spot.balanceSubscribe();
  await eventually(() => snapshots === 1 && balances.length === 1);
  balances.length = 0;
  return { session, reports, balances };
}

const summary = (r: OrderReport) => [r.client_order_id, r.report_type, r.status, r.quantity_cumulative.toFixed()];
const balanceOf = (b: BalanceNotification | undefined, currency: string) => {
  const found = b?.balances.find((x) => x.currency === currency);
  return found ? [found.available.toFixed(), found.reserved.toFixed()] : undefined;
};

describe('sandbox end to end over the SimulatedVenue', () => {
  it('a resting limit buy filled by market trades: new, trades, filled; balances to the last digit; history', async () => {
    const { s, market } = await start();
    const { reports, balances } = await tradingStream(s);
    const client = rest(s);
    const placed = await client.spot.createOrder({ client_order_id: 'b1', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '100' });
    expect(placed.status).toBe('new');
    await eventually(() => reports.length === 1 && balances.length === 1);
    // The buy holds price x quantity plus the taker fee it could pay (0.1%).
    expect(balanceOf(balances[0], 'USDT')).toEqual(['899.9', '100.1']);
    market.push(tradeFrame('100', '0.4', 2));
    market.push(tradeFrame('99.5', '2', 3));
    await eventually(() => reports.some((r) => r.status === 'filled'));
    expect(reports.map(summary)).toEqual([['b1', 'new', 'new', '0'], ['b1', 'trade', 'partiallyFilled', '0.4'], ['b1', 'trade', 'filled', '1']]);
    const fills = reports.filter((r) => r.report_type === 'trade');
    expect(fills.map((r) => [r.trade_quantity?.toFixed(), r.trade_price?.toFixed(), r.trade_fee?.toFixed(), r.trade_taker])).toEqual([
      ['0.4', '100', '0.02', false], ['0.6', '100', '0.03', false],
    ]);
    expect(new Set(fills.map((r) => r.trade_id)).size).toBe(2);
    await eventually(() => balanceOf(balances.at(-1), 'USDT')?.[1] === '0');
    expect([balanceOf(balances.at(-1), 'USDT'), balanceOf(balances.at(-1), 'BTC')]).toEqual([['899.95', '0'], ['2', '0']]);
    expect((await client.spot.getBalances()).map((b) => [b.currency, b.available.toFixed(), b.reserved.toFixed()])).toEqual([
      ['BTC', '2', '0'], ['USDT', '899.95', '0'],
    ]);
    const history = await client.spot.getOrderHistory();
    expect(history.map((o) => [o.client_order_id, o.status, o.quantity_cumulative.toFixed(), o.created_at > 0])).toEqual([['b1', 'filled', '1', true]]);
    const trades = await client.spot.getTradeHistory();
    expect(trades.map((t) => [t.client_order_id, t.quantity.toFixed(), t.price.toFixed(), t.fee.toFixed(), t.taker]).sort()).toEqual([
      ['b1', '0.4', '100', '0.02', false], ['b1', '0.6', '100', '0.03', false],
    ]);
  });

  it('a market buy takes the book and pays the taker fee exactly', async () => {
    const { s } = await start();
    const { reports } = await tradingStream(s);
    const client = rest(s);
    const order = await client.spot.createOrder({ client_order_id: 'm1', symbol: 'BTCUSDT', side: 'buy', type: 'market', quantity: '2' });
    expect([order.status, order.quantity_cumulative.toFixed()]).toEqual(['filled', '2']);
    await eventually(() => reports.some((r) => r.status === 'filled'));
    const fills = reports.filter((r) => r.report_type === 'trade');
    // 1.5 at 101 and 0.5 at 102: 202.5 USDT, fee 0.1% of each fill.
    expect(fills.map((r) => [r.trade_quantity?.toFixed(), r.trade_price?.toFixed(), r.trade_fee?.toFixed(), r.trade_taker])).toEqual([
      ['1.5', '101', '0.1515', true], ['0.5', '102', '0.051', true],
    ]);
    expect((await client.spot.getBalances()).map((b) => [b.currency, b.available.toFixed(), b.reserved.toFixed()])).toEqual([
      ['BTC', '3', '0'], ['USDT', '797.2975', '0'],
    ]);
  });

  it('replace reports replaced and the new order carries original_client_order_id; cancel reports canceled', async () => {
    const { s } = await start();
    const { reports } = await tradingStream(s);
    const client = rest(s);
    await client.spot.createOrder({ client_order_id: 'r1', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '95' });
    const replaced = await client.spot.replaceOrder('r1', { new_client_order_id: 'r2', quantity: '0.5', price: '96' });
    expect([replaced.client_order_id, replaced.original_client_order_id, replaced.price?.toFixed()]).toEqual(['r2', 'r1', '96']);
    expect(await codeOf(client.spot.replaceOrder('r2', { quantity: '0.5', price: '96' }))).toBe(20009);
    const canceled = await client.spot.cancelOrder('r2');
    expect(canceled.status).toBe('canceled');
    await eventually(() => reports.length >= 3);
    // As the real exchange: one report for the replacement (report_type replaced) naming the old order.
    expect(reports.map((r) => [r.client_order_id, r.report_type, r.status, r.original_client_order_id])).toEqual([
      ['r1', 'new', 'new', undefined], ['r2', 'replaced', 'new', 'r1'], ['r2', 'canceled', 'canceled', 'r1'],
    ]);
    expect((await client.spot.getBalances()).find((b) => b.currency === 'USDT')?.available.toFixed()).toBe('1000');
    expect(await client.spot.getActiveOrders()).toEqual([]);
  });

  it('an OCO list: one leg fills, the other is canceled', async () => {
    const { s, market } = await start();
    const { reports } = await tradingStream(s);
    const client = rest(s);
    const orders = await client.spot.createOrderList({
      order_list_id: 'tp', contingency_type: 'oneCancelOther',
      orders: [
        { client_order_id: 'tp', symbol: 'BTCUSDT', side: 'sell', quantity: '0.5', price: '110' },
        { client_order_id: 'sl', symbol: 'BTCUSDT', side: 'sell', type: 'stopLimit', quantity: '0.5', price: '89', stop_price: '90' },
      ],
    });
    expect(orders.map((o) => [o.client_order_id, o.status, o.order_list_id])).toEqual([['tp', 'new', 'tp'], ['sl', 'suspended', 'tp']]);
    market.push({ ch: 'trades', update: { BTCUSDT: [{ t: 1_700_000_000_200, i: 7, p: '111', q: '5', s: 'buy' }] } });
    await eventually(() => reports.some((r) => r.client_order_id === 'sl' && r.status === 'canceled') && reports.some((r) => r.status === 'filled'));
    expect(reports.filter((r) => r.client_order_id === 'sl').map((r) => r.report_type).at(-1)).toBe('canceled');
    expect(reports.filter((r) => r.client_order_id === 'tp').map((r) => [r.report_type, r.status]).at(-1)).toEqual(['trade', 'filled']);
    expect(await client.spot.getActiveOrders()).toEqual([]);
    expect((await client.spot.getBalance('BTC')).available.toFixed()).toBe('0.5');
  });

  it('an allOrNone list fills every leg or none', async () => {
    const { s } = await start();
    const client = rest(s);
    const leg = (symbol: string, price: string, quantity: string, id: string) =>
      ({ client_order_id: id, symbol, side: 'buy' as const, quantity, price, time_in_force: 'FOK' as const });
    const none = await client.spot.createOrderList({
      contingency_type: 'allOrNone', orders: [leg('BTCUSDT', '101', '1', 'a1'), leg('ETHUSDT', '1999.9', '0.4', 'a2')],
    }).catch((e: unknown) => e);
    const after = await client.spot.getBalances();
    expect(after.find((b) => b.currency === 'BTC')?.available.toFixed()).toBe('1');
    expect(none).toEqual([expect.objectContaining({ client_order_id: 'a1', status: 'expired' }), expect.objectContaining({ client_order_id: 'a2', status: 'expired' })]);
    const all = await client.spot.createOrderList({
      contingency_type: 'allOrNone', orders: [leg('BTCUSDT', '101', '1', 'b1'), leg('ETHUSDT', '2000', '0.1', 'b2')],
    });
    expect(all.map((o) => [o.client_order_id, o.status])).toEqual([['b1', 'filled'], ['b2', 'filled']]);
    const balances = await client.spot.getBalances();
    expect(balances.map((b) => [b.currency, b.available.toFixed()])).toEqual([['BTC', '2'], ['ETH', '0.1'], ['USDT', '698.499']]);
  });

  it('rejects with the exchange codes', async () => {
    const { s } = await start({
      accounts: [{ id: 'main', spot: { USDT: '100', BTC: '1' } }],
      apiKeys: [{ apiKey: 'trader', secretKey: 'trader-secret' }, { apiKey: 'reader', secretKey: 'reader-secret', rights: ['orderbook'] }],
    });
    const client = rest(s);
    const buy = { symbol: 'BTCUSDT', side: 'buy' as const };
    expect(await codeOf(client.spot.createOrder({ ...buy, quantity: '2', price: '95' }))).toBe(20001);
    // 0.99 at 101 is 99.99 USDT, within the balance, but the taker fee on top is not.
    expect(await codeOf(client.spot.createOrder({ ...buy, type: 'market', quantity: '0.99' }))).toBe(20001);
    expect(await codeOf(client.spot.cancelOrder('none'))).toBe(20002);
    await client.spot.createOrder({ ...buy, client_order_id: 'd1', quantity: '0.1', price: '95' });
    expect(await codeOf(client.spot.createOrder({ ...buy, client_order_id: 'd1', quantity: '0.1', price: '95' }))).toBe(20008);
    expect(await codeOf(client.spot.replaceOrder('d1', { quantity: '0.1', price: '95' }))).toBe(20009);
    expect(await codeOf(client.spot.createOrder({ ...buy, symbol: 'NOPEUSDT', quantity: '0.1', price: '95' }))).toBe(2001);
    const strict = { ...buy, strict_validate: true };
    // Without strict_validate a quantity is rounded half down to the grid: to zero here.
    expect(await codeOf(client.spot.createOrder({ ...buy, quantity: '0.00001', price: '95' }))).toBe(2011);
    expect(await codeOf(client.spot.createOrder({ ...strict, quantity: '0.00015', price: '95' }))).toBe(2012);
    expect(await codeOf(client.spot.createOrder({ ...strict, quantity: '0.1', price: '95.005' }))).toBe(2022);
    // The client checks what it can; the expiry being past is the exchange's to judge.
    expect(await codeOf(client.spot.createOrder({ ...buy, quantity: '0.1', price: '95', time_in_force: 'GTD', expire_time: '2001-01-01T00:00:00Z' })))
      .toBe(10001);
    const reader = rest(s, s.apiKeys[1]);
    expect(await codeOf(reader.spot.createOrder({ ...buy, quantity: '0.1', price: '95' }))).toBe(1003);
    expect(await codeOf(reader.spot.getActiveOrders())).toBe(1003);
    expect((await reader.spot.getBalance('USDT')).reserved.toFixed()).toBe('9.5095');
  });

  it('answers 429 once the trading budget is spent', async () => {
    // The client keeps the documented 300/s; the server is set far tighter.
    const { s } = await start({ rateLimits: { tradingPerSecond: 3 } });
    const client = rest(s);
    const codes: Array<number | undefined> = [];
    for (let i = 0; i < 6; i++) codes.push(await codeOf(client.spot.cancelOrder(`x${i}`)));
    expect(codes.slice(0, 3)).toEqual([20002, 20002, 20002]);
    expect(codes.slice(3)).toContain(429);
  });
});

describe('venue time at start', () => {
  it('a pushed market: orders before the first frame carry the source start time', async () => {
    const market = new PushedMarket();
    ({ server } = await startSandbox({
      venue: simulatedVenueFactory(), market: { kind: 'frames', symbols: TWO_SYMBOLS, startTime: PushedMarket.START, frames: () => market.frames() },
    }));
    const order = await rest(server).spot.createOrder({ client_order_id: 'early', symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '90' });
    expect([order.created_at, order.updated_at]).toEqual([PushedMarket.START, PushedMarket.START]);
  });

  it('a recording: the venue starts at the first market frame time', async () => {
    const path = new URL('../fixtures/fmfw-public-excerpt.v3.jsonl', import.meta.url).pathname;
    let first: number | undefined;
    for await (const frame of new RecordingReader(path).frames()) {
      if (frame.src === 'ws/public') {
        first = frame.t;
        break;
      }
    }
    server = await SandboxServer.start({
      venue: simulatedVenueFactory(), market: { kind: 'recording', path }, paused: true,
      accounts: [{ id: 'main', spot: { USDT: '1000' } }],
    });
    expect(first).toBeGreaterThan(0);
    expect(server.venue.now()).toBe(first);
  });

  it('a frame source without a start time: the wall clock', async () => {
    const market = new PushedMarket();
    ({ server } = await startSandbox({
      venue: simulatedVenueFactory(), market: { kind: 'frames', symbols: TWO_SYMBOLS, frames: () => market.frames() }, now: () => 1_800_000_000_123,
    }));
    expect(server.venue.now()).toBe(1_800_000_000_123);
  });
});
