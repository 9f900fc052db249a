import { afterEach, describe, expect, it } from 'vitest';
import type { RestClient } from '../../framework/exchange/rest/rest-client.js';
import type { RestTransport } from '../../framework/exchange/rest/rest-transport.js';
import type { SandboxServer } from '../../backtest/sandbox/sandbox-server.js';
import type { SimulatedVenueOptions } from '../../backtest/venue/simulated-venue.js';
import { Decimal } from '../../framework/model/decimal.js';
import { startFuturesSandbox } from '../backtest/sandbox/support/futures-sandbox-fixture.js';
import { codeOf } from '../backtest/sandbox/support/sandbox-fixture.js';

let server: SandboxServer | undefined;
let transport: RestTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  server = transport = undefined;
});

async function start(venueOptions?: SimulatedVenueOptions): Promise<RestClient> {
  const started = await startFuturesSandbox(venueOptions);
  ({ server, transport } = started);
  return started.rest;
}

const text = (b: { available: { toFixed(): string }; reserved: { toFixed(): string } } | undefined) =>
  b === undefined ? undefined : `${b.available.toFixed()}/${b.reserved.toFixed()}`;

describe('sandbox futures REST over the SimulatedVenue, through the framework client', () => {
  it('funds the margin, opens a position, sees it, closes it and sees balances and the position history', async () => {
    const rest = await start();
    const funded = await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '500', leverage: '10' });
    expect(funded).toMatchObject({ symbol: 'BTCUSDT_PERP', type: 'isolated', positions: null });
    expect(funded.leverage.toFixed()).toBe('10');
    expect(funded.currencies.map((c) => [c.code, c.margin_balance.toFixed()])).toEqual([['USDT', '500']]);
    expect(text((await rest.spot.getBalances()).find((b) => b.currency === 'USDT'))).toBe('500/0');
    expect(text(await rest.futures.getBalance('USDT'))).toBe('500/0');

    // Market buy 1 at the ask 101: margin 101 / 10 = 10.1 held, fee 101 x 0.0005 = 0.0505 paid, and the
    // loss at the mark (the book's mid, 100) of 1 is not available either.
    const opened = await rest.futures.createOrder({ client_order_id: 'open1', symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '1' });
    expect(opened).toMatchObject({ client_order_id: 'open1', symbol: 'BTCUSDT_PERP', status: 'filled' });
    const [account] = await rest.futures.getAccounts();
    expect(account?.positions?.map((p) => [p.symbol, p.quantity.toFixed(), p.price_entry.toFixed()])).toEqual([['BTCUSDT_PERP', '1', '101']]);
    const balance = await rest.futures.getBalance('USDT');
    expect([balance.available.toFixed(), balance.reserved.toFixed(), balance.reserved_margin?.toFixed()]).toEqual(['488.8495', '10.1', '10.1']);
    const active = await rest.futures.getPositionHistory();
    expect(active.map((r) => [r.symbol, r.state, r.quantity.toFixed(), r.entry_price?.toFixed()])).toEqual([['BTCUSDT_PERP', 'active', '1', '101']]);

    // A reduce-only limit sell rests; the close at market then sells 1 at the bid 99.
    const reducing = await rest.futures.createOrder({ client_order_id: 'tp1', symbol: 'BTCUSDT_PERP', side: 'sell', quantity: '1', price: '120', reduce_only: true });
    expect(reducing).toMatchObject({ status: 'new', reduce_only: true });
    expect((await rest.futures.cancelOrder('tp1')).status).toBe('canceled');
    const closed = await rest.futures.closePosition('BTCUSDT_PERP');
    expect(closed.map((p) => [p.symbol, p.quantity.toFixed()])).toEqual([['BTCUSDT_PERP', '1']]);
    expect(await rest.futures.getAccounts()).toEqual([]);
    const history = await rest.futures.getPositionHistory();
    expect(history.map((r) => [r.id, r.state, r.quantity.toFixed(), r.pnl?.toFixed()])).toEqual([[active[0]!.id, 'closed', '0', '-2']]);
    expect(history[0]!.create_timestamp).toBe(active[0]!.create_timestamp);

    // 500 - 2 (loss) - 0.0505 - 0.0495 (fees) = 497.9, all free again; margin 0 returns it to spot.
    expect(text(await rest.futures.getBalance('USDT'))).toBe('497.9/0');
    const trades = await rest.futures.getTradeHistory({ sort: 'ASC' });
    expect(trades.map((t) => [t.symbol, t.side, t.quantity.toFixed(), t.price.toFixed(), t.fee.toFixed()]))
      .toEqual([['BTCUSDT_PERP', 'buy', '1', '101', '0.0505'], ['BTCUSDT_PERP', 'sell', '1', '99', '0.0495']]);
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '0' });
    expect(text((await rest.spot.getBalances()).find((b) => b.currency === 'USDT'))).toBe('997.9/0');
    expect(text(await rest.futures.getBalance('USDT'))).toBe('0/0');
    expect((await rest.futures.getOrderHistory()).map((o) => o.client_order_id).sort()).toContain('open1');
  });

  it('lists, gets, replaces and cancels futures orders apart from spot ones', async () => {
    const rest = await start();
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '500' });
    await rest.spot.createOrder({ client_order_id: 's1', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '90' });
    await rest.futures.createOrder({ client_order_id: 'f1', symbol: 'BTCUSDT_PERP', side: 'buy', quantity: '1', price: '95' });
    await rest.futures.createOrder({ client_order_id: 'f2', symbol: 'BTCUSDT_PERP', side: 'sell', quantity: '1', price: '110' });
    expect((await rest.futures.getActiveOrders()).map((o) => o.client_order_id).sort()).toEqual(['f1', 'f2']);
    expect((await rest.futures.getActiveOrders({ symbol: 'BTCUSDT_PERP' })).length).toBe(2);
    expect((await rest.futures.getActiveOrder('f1')).price?.toFixed()).toBe('95');
    const replaced = await rest.futures.replaceOrder('f1', { quantity: '2', price: '96', extra: { new_client_order_id: 'f1b' } });
    expect([replaced.client_order_id, replaced.quantity.toFixed(), replaced.price?.toFixed()]).toEqual(['f1b', '2', '96']);
    expect((await rest.futures.getFee('BTCUSDT_PERP')).take_rate.toFixed()).toBe('0.0005');
    expect((await rest.futures.getFees()).map((f) => f.symbol)).toEqual(['BTCUSDT_PERP']);
    // Each section's cancel-all leaves the other's orders alone.
    expect((await rest.spot.cancelOrders()).map((o) => o.client_order_id)).toEqual(['s1']);
    expect(await codeOf(rest.spot.createOrder({ symbol: 'BTCUSDT_PERP', side: 'buy', quantity: '1', price: '90' }))).toBe(2001);
    await rest.spot.createOrder({ client_order_id: 's2', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '90' });
    const canceled = await rest.futures.cancelOrders();
    expect(canceled.map((o) => [o.client_order_id, o.status]).sort()).toEqual([['f1b', 'canceled'], ['f2', 'canceled']]);
    expect((await rest.spot.getActiveOrders()).map((o) => o.client_order_id)).toEqual(['s2']);
  });

  it('places futures order lists (oneCancelOther) and keeps spot symbols out of them', async () => {
    const rest = await start();
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '500' });
    const oco = await rest.futures.createOrderList({
      contingency_type: 'oneCancelOther',
      orders: [
        { client_order_id: 'l1', symbol: 'BTCUSDT_PERP', side: 'buy', quantity: '1', price: '95' },
        { client_order_id: 'l2', symbol: 'BTCUSDT_PERP', side: 'buy', type: 'stopLimit', quantity: '1', price: '106', stop_price: '105' },
      ],
    });
    expect(oco.map((o) => [o.client_order_id, o.contingency_type])).toEqual([['l1', 'oneCancelOther'], ['l2', 'oneCancelOther']]);
    expect((await rest.futures.getActiveOrders()).map((o) => o.client_order_id).sort()).toEqual(['l1', 'l2']);
    expect(await codeOf(rest.futures.createOrderList({
      contingency_type: 'oneCancelOther',
      orders: [
        { symbol: 'BTCUSDT_PERP', side: 'buy', quantity: '1', price: '95' },
        { symbol: 'BTCUSDT', side: 'buy', type: 'stopLimit', quantity: '1', price: '106', stop_price: '105' },
      ],
    }))).toBe(2001);
  });

  it('refuses with the exchange codes', async () => {
    const rest = await start();
    await rest.spot.createOrder({ client_order_id: 's1', symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '90' });
    // Margin beyond spot's funds, leverage beyond the contract's maximum, an unknown contract.
    expect(await codeOf(rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '5000' }))).toBe(20001);
    expect(await codeOf(rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '100', leverage: '21' }))).toBe(10001);
    expect(await codeOf(rest.futures.getAccount('NOPE_PERP'))).toBe(2001);
    await rest.futures.updateAccount('BTCUSDT_PERP', { margin_balance: '100' });
    // A spot symbol or order is not seen by the futures section.
    expect(await codeOf(rest.futures.createOrder({ symbol: 'BTCUSDT', side: 'buy', quantity: '1', price: '90' }))).toBe(2001);
    expect(await codeOf(rest.futures.getActiveOrder('s1'))).toBe(20002);
    expect(await codeOf(rest.futures.cancelOrder('s1'))).toBe(20002);
    // Margin of 10 x 101 at leverage 1 is beyond 100; reduce-only on a flat contract; nothing to close.
    expect(await codeOf(rest.futures.createOrder({ symbol: 'BTCUSDT_PERP', side: 'buy', type: 'market', quantity: '10' }))).toBe(20001);
    expect(await codeOf(rest.futures.createOrder({ symbol: 'BTCUSDT_PERP', side: 'sell', quantity: '1', price: '120', reduce_only: true }))).toBe(20044);
    expect(await codeOf(rest.futures.closePosition('BTCUSDT_PERP'))).toBe(20002);
    expect(await codeOf(rest.futures.cancelOrder('none'))).toBe(20002);
    expect((await rest.spot.getActiveOrders()).map((o) => o.client_order_id)).toEqual(['s1']);
  });

  it('reports each contract\'s position configuration: the venue defaults, or the configuration it was given', async () => {
    let rest = await start();
    expect((await rest.futures.getConfig()).map((c) => [
      c.symbol, c.max_initial_leverage.toFixed(), c.margin_call_leverage_mul.toFixed(), c.liquidation_leverage_mul.toFixed(),
      c.force_close_fee.toFixed(), c.margin_mode, c.enabled, c.active, c.limit_base,
    ])).toEqual([['BTCUSDT_PERP', '20', '1.5', '2', '0', 'isolated', true, true, undefined]]);
    await transport?.close();
    await server?.close();
    const given = {
      symbol: 'BTCUSDT_PERP', margin_call_leverage_mul: new Decimal('1.2'), liquidation_leverage_mul: new Decimal('3'),
      max_initial_leverage: new Decimal('50'), margin_mode: 'isolated', force_close_fee: new Decimal('0.001'), enabled: true, active: true,
      limit_base: new Decimal('1000000'), limit_power: new Decimal('1'), unlimited_threshold: new Decimal('5'),
    };
    rest = await start({ futures: { configs: [given] } });
    const [config] = await rest.futures.getConfig();
    expect(Object.fromEntries(Object.entries(config!).map(([k, v]) => [k, Decimal.isDecimal(v) ? v.toFixed() : v])))
      .toEqual(Object.fromEntries(Object.entries(given).map(([k, v]) => [k, Decimal.isDecimal(v) ? v.toFixed() : v])));
  });

  it('answers the exchange envelope to a request without credentials', async () => {
    await start();
    const res = await fetch(`${server!.baseUrl}/api/3/futures/balance`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(1001);
  });
});
