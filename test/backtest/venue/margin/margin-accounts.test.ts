import { describe, expect, it } from 'vitest';
import { T0, tradesFrame } from '../support/venue-fixture.js';
import { rejection } from '../support/futures-fixture.js';
import { makeMarginVenue, type MarginFixture } from '../support/margin-fixture.js';

const SYMBOL = 'ETHUSDT';

/** Book: ask 2500.00 x 2, bid 2499.00 x 2 (ticks of 0.01, lots of 0.0001). */
function withBook(f = makeMarginVenue()): MarginFixture {
  f.market(SYMBOL).setBook([[250000, 20000]], [[249900, 20000]]);
  return f;
}

function account(f: MarginFixture, acc = 'm') {
  const view = f.venue.margin.account(acc, SYMBOL);
  const c = view.currencies[0];
  const p = view.positions?.[0];
  return {
    leverage: view.leverage.toFixed(),
    margin_balance: c?.margin_balance.toFixed(), reserved_orders: c?.reserved_orders.toFixed(), reserved_positions: c?.reserved_positions.toFixed(),
    position: p === undefined ? undefined : { quantity: p.quantity.toFixed(), price_entry: p.price_entry.toFixed(), pnl: p.pnl?.toFixed(), price_liquidation: p.price_liquidation?.toFixed() },
  };
}

describe('SimulatedVenue isolated margin accounts', () => {
  it('the account update moves the margin balance from spot and back; 0 returns everything', () => {
    const f = withBook();
    const view = f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '1000', leverage: '5' });
    expect(view).toMatchObject({ symbol: SYMBOL, type: 'isolated', positions: null });
    expect(account(f)).toEqual({ leverage: '5', margin_balance: '1000', reserved_orders: '0', reserved_positions: '0', position: undefined });
    expect(f.spot('m')).toEqual({ available: '4000', reserved: '0' });
    f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '0' });
    expect(f.spot('m')).toEqual({ available: '5000', reserved: '0' });
    expect(account(f).margin_balance).toBe('0');
  });

  it('refuses more than spot has (20001), a leverage out of 1..10 (10001), a symbol without margin trading (10001)', () => {
    const f = withBook();
    expect(rejection(() => f.venue.margin.updateAccount('n', SYMBOL, { margin_balance: '100.01' })).code).toBe(20001);
    expect(rejection(() => f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '10', leverage: '11' })).code).toBe(10001);
    expect(rejection(() => f.venue.margin.updateAccount('m', 'BTCUSDT', { margin_balance: '10' })).code).toBe(10001);
    expect(rejection(() => f.venue.margin.account('m', 'NOPE')).code).toBe(2001);
    // The refused leverage changed nothing, and no funds moved.
    expect(account(f).leverage).toBe('1');
    expect(f.spot('m')).toEqual({ available: '5000', reserved: '0' });
  });

  it('a limit order holds notional / leverage + fee at max(take, make) of the account, never spot funds', () => {
    const f = withBook();
    f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '1000', leverage: '5' });
    f.venue.margin.placeOrder('m', { client_order_id: 'l1', symbol: SYMBOL, side: 'buy', quantity: '1', price: '2490' });
    // 2490 / 5 = 498, fee provision 2490 x 0.001 = 2.49.
    expect(account(f).reserved_orders).toBe('500.49');
    expect(f.spot('m')).toEqual({ available: '4000', reserved: '0' });
    expect(f.venue.margin.balances('m').map((b) => [b.currency, b.available.toFixed(), b.reserved.toFixed()])).toEqual([['USDT', '499.51', '500.49']]);
    f.venue.margin.cancelOrder('m', 'l1');
    expect(account(f).reserved_orders).toBe('0');
    expect(f.reports('m')).toEqual(['l1:new:new:margin', 'l1:canceled:canceled:margin']);
  });

  it('long: entry, unrealized PnL at the mid, margin and liquidation price as computed by hand; closing at market', () => {
    const f = withBook();
    f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '1000', leverage: '5' });
    const order = f.venue.margin.placeOrder('m', { client_order_id: 'b1', symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    expect(order.status).toBe('filled');
    // Bought 1 at 2500, fee 2.5: cash 997.5; margin 2500 / 5 = 500; mark (2500 + 2499) / 2 = 2499.5, PnL -0.5.
    // Liquidation (K = 5 x 2 = 10): (2500 - 997.5) / (1 x 0.9) = 1669.444..., up to the tick: 1669.45.
    expect(account(f)).toEqual({
      leverage: '5', margin_balance: '997', reserved_orders: '0', reserved_positions: '500',
      position: { quantity: '1', price_entry: '2500', pnl: '-0.5', price_liquidation: '1669.45' },
    });
    expect(f.venue.margin.accounts('m').map((a) => a.symbol)).toEqual([SYMBOL]);
    const trade = f.events.flatMap((e) => (e.kind === 'order' && e.report.report_type === 'trade' ? [e.report] : []))[0];
    expect(trade?.trade_position_id).toBeDefined();
    // Closing sells 1 at the bid 2499: realized -1, fee 2.499; cash 997.5 - 1 - 2.499 = 994.001.
    f.venue.margin.closePosition('m', SYMBOL);
    expect(account(f)).toEqual({ leverage: '5', margin_balance: '994.001', reserved_orders: '0', reserved_positions: '0', position: undefined });
    const history = f.venue.margin.positionHistory('m');
    expect(history.map((h) => [h.symbol, h.state, h.pnl?.toFixed(), h.leverage?.toFixed()])).toEqual([[SYMBOL, 'closed', '-1', '5']]);
    // The spot account never moved: the 5.999 of losses and fees came from the margin balance.
    expect(f.spot('m')).toEqual({ available: '4000', reserved: '0' });
    f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '0' });
    expect(f.spot('m')).toEqual({ available: '4994.001', reserved: '0' });
  });

  it('short with a limit close: the position is negative, the close is a reduce-only limit that rests until traded', () => {
    const f = withBook();
    f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '2000', leverage: '2' });
    f.venue.margin.placeOrder('m', { client_order_id: 's1', symbol: SYMBOL, side: 'sell', type: 'market', quantity: '0.5' });
    // Sold 0.5 at 2499: entry 1249.5, margin 624.75, fee 1.2495; mark 2499.5: PnL 0.5 x (2499 - 2499.5) = -0.25.
    expect(account(f).position).toMatchObject({ quantity: '-0.5', price_entry: '2499', pnl: '-0.25' });
    expect(account(f).reserved_positions).toBe('624.75');
    const close = f.venue.margin.closePosition('m', SYMBOL, '2450');
    expect([close.side, close.type, close.price?.toFixed(), close.reduce_only]).toEqual(['buy', 'limit', '2450', true]);
    f.venue.onMarketFrame(tradesFrame(SYMBOL, [{ p: '2450', q: '1', s: 'sell' }]), T0 + 1000);
    // Bought back at 2450: realized 0.5 x 49 = 24.5, maker fee 1225 x 0.0005 = 0.6125:
    // cash 2000 - 1.2495 + 24.5 - 0.6125 = 2022.638.
    expect(account(f)).toMatchObject({ margin_balance: '2022.638', position: undefined });
  });

  it('reduce_only: refused when it cannot reduce (20044); spot rejects reduce_only (10001)', () => {
    const f = withBook();
    f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '1000' });
    expect(rejection(() => f.venue.margin.placeOrder('m', { symbol: SYMBOL, side: 'sell', quantity: '0.1', price: '2600', reduce_only: true })).code).toBe(20044);
    expect(rejection(() => f.venue.placeOrder('m', { symbol: SYMBOL, side: 'sell', quantity: '0.1', price: '2600', reduce_only: true })).code).toBe(10001);
    expect(rejection(() => f.venue.margin.closePosition('m', SYMBOL)).code).toBe(20002);
  });

  it('an order without a margin account is 20001; a symbol without margin trading is 10001', () => {
    const f = withBook();
    expect(rejection(() => f.venue.margin.placeOrder('m', { symbol: SYMBOL, side: 'buy', quantity: '0.1', price: '2400' })).code).toBe(20001);
    expect(rejection(() => f.venue.margin.placeOrder('m', { symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '2400' })).code).toBe(10001);
  });

  it('spot and margin orders are apart: each side neither lists nor changes the other\'s (20002)', () => {
    const f = withBook();
    f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '1000', leverage: '2' });
    f.venue.margin.placeOrder('m', { client_order_id: 'mo', symbol: SYMBOL, side: 'buy', quantity: '0.1', price: '2400' });
    f.venue.placeOrder('m', { client_order_id: 'so', symbol: SYMBOL, side: 'buy', quantity: '0.1', price: '2400' });
    expect(f.venue.openOrders('m').map((o) => o.client_order_id)).toEqual(['so']);
    expect(f.venue.margin.openOrders('m').map((o) => o.client_order_id)).toEqual(['mo']);
    expect(rejection(() => f.venue.cancelOrder('m', 'mo')).code).toBe(20002);
    expect(rejection(() => f.venue.margin.cancelOrder('m', 'so')).code).toBe(20002);
    expect(rejection(() => f.venue.replaceOrder('m', { client_order_id: 'mo', quantity: '0.2', price: '2400' })).code).toBe(20002);
    expect(rejection(() => f.venue.margin.getOpenOrder('m', 'so')).code).toBe(20002);
    expect(f.venue.cancelAll('m').map((o) => o.client_order_id)).toEqual(['so']);
    expect(f.venue.margin.openOrders('m').map((o) => o.client_order_id)).toEqual(['mo']);
    // A client_order_id is unique over both.
    expect(rejection(() => f.venue.placeOrder('m', { client_order_id: 'mo', symbol: SYMBOL, side: 'buy', quantity: '0.1', price: '2400' })).code).toBe(20008);
  });

  it('replace: the new margin order takes over, holding margin at the new price', () => {
    const f = withBook();
    f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '1000', leverage: '4' });
    f.venue.margin.placeOrder('m', { client_order_id: 'r1', symbol: SYMBOL, side: 'buy', quantity: '1', price: '2400' });
    const next = f.venue.margin.replaceOrder('m', { client_order_id: 'r1', new_client_order_id: 'r2', quantity: '1', price: '2000' });
    expect([next.client_order_id, next.original_client_order_id, next.price?.toFixed()]).toEqual(['r2', 'r1', '2000']);
    // 2000 / 4 = 500 + 2000 x 0.001 = 2.
    expect(account(f).reserved_orders).toBe('502');
    expect(f.venue.margin.cancelAll('m').map((o) => o.client_order_id)).toEqual(['r2']);
    expect(account(f).reserved_orders).toBe('0');
  });

  it('liquidation: below the maintenance margin the position closes at the mark and the account keeps the rest', () => {
    const f = withBook();
    f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '300', leverage: '10' });
    f.venue.margin.placeOrder('m', { client_order_id: 'b1', symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    // Cash 300 - 2.5 = 297.5; maintenance = mark / 20; liquidated once 297.5 + (M - 2500) < M / 20, i.e. M < 2318.42...
    f.market(SYMBOL).setBook([[232000, 20000]], [[231900, 20000]]);
    f.venue.onMarketFrame(tradesFrame(SYMBOL, []), T0 + 1000);
    expect(account(f).position?.quantity).toBe('1');
    f.market(SYMBOL).setBook([[230100, 20000]], [[230000, 20000]]);
    f.venue.onMarketFrame(tradesFrame(SYMBOL, []), T0 + 2000);
    // Closed at the mark 2300.5: realized -199.5; cash 297.5 - 199.5 = 98.
    expect(account(f)).toMatchObject({ margin_balance: '98', position: undefined });
    expect(f.venue.margin.positionHistory('m').map((h) => [h.state, h.pnl?.toFixed()])).toEqual([['liquidated', '-199.5']]);
    const liquidations = f.events.flatMap((e) => (e.kind === 'liquidation' ? [[e.margin, e.liquidation.symbol, e.liquidation.price.toFixed(), e.liquidation.deficit.toFixed()]] : []));
    expect(liquidations).toEqual([[true, SYMBOL, '2300.5', '0']]);
    expect(f.venue.margin.clearing('m')).toEqual([]);
  });

  it('emits margin balance and position events', () => {
    const f = withBook();
    f.venue.margin.updateAccount('m', SYMBOL, { margin_balance: '1000', leverage: '5' });
    f.venue.margin.placeOrder('m', { client_order_id: 'b1', symbol: SYMBOL, side: 'buy', type: 'market', quantity: '1' });
    const margin = f.events.filter((e) => e.kind === 'margin');
    const last = margin[margin.length - 1];
    expect(last?.kind === 'margin' ? last.positions.map((p) => [p.symbol, p.quantity.toFixed()]) : []).toEqual([[SYMBOL, '1']]);
    // Available = cash 997.5 + min(0, PnL -0.5) - margin 500.
    expect(last?.kind === 'margin' ? last.balances.map((b) => [b.currency, b.available.toFixed(), b.reserved.toFixed()]) : []).toEqual([['USDT', '497', '500']]);
  });
});

describe('SimulatedVenue isolated margin accounts: starting balances', () => {
  it('funds an isolated account from the venue\'s starting balances, and refuses a symbol without margin trading', () => {
    const f = makeMarginVenue({ m: { margin: { ETHUSDT: '250' } } });
    expect(f.venue.margin.account('m', SYMBOL).currencies[0]?.margin_balance.toFixed()).toBe('250');
    expect(f.venue.margin.accounts('m').map((a) => a.symbol)).toEqual([SYMBOL]);
    expect(() => makeMarginVenue({ m: { margin: { BTCUSDT: '1' } } })).toThrow(/BTCUSDT is not a symbol with margin trading/);
  });
});
