import { describe, expect, it } from 'vitest';
import { VenueRejection } from '../../../backtest/venue/venue-types.js';
import { DEFAULT_BALANCES, makeVenue, T0, tradesFrame, type VenueFixture } from './support/venue-fixture.js';

/** ETHUSDT book: ask 2500.00 x 2 ETH, 2501.00 x 1 ETH; bid 2499.00 x 2 ETH. */
function withBook(f = makeVenue()): VenueFixture {
  f.market('ETHUSDT').setBook([[250000, 20000], [250100, 10000]], [[249900, 20000]]);
  return f;
}

function rejection(fn: () => unknown): VenueRejection {
  try {
    fn();
  } catch (e) {
    if (e instanceof VenueRejection) return e;
    throw e;
  }
  throw new Error('expected a VenueRejection');
}

function spot(f: VenueFixture, account: string, currency: string): { available: string; reserved: string } {
  const b = f.venue.spotBalances(account).find((x) => x.currency === currency);
  return { available: b?.available.toFixed() ?? '0', reserved: b?.reserved.toFixed() ?? '0' };
}

describe('SimulatedVenue: limit orders', () => {
  it('rests a non-crossing buy, reserves price x quantity x (1 + max rate) and reports new then the balance', () => {
    const f = withBook();
    const o = f.venue.placeOrder('a', { client_order_id: 'l1', symbol: 'ETHUSDT', side: 'buy', quantity: '1', price: '2490' });
    const requestId = f.venue.lastRequestId;
    expect(o.status).toBe('new');
    expect(f.reports()).toEqual(['l1:new:new']);
    expect(spot(f, 'a', 'USDT')).toEqual({ available: '7503.775', reserved: '2496.225' });
    const kinds = f.events.map((e) => e.kind);
    expect(kinds).toEqual(['order', 'balance']);
    expect(f.events[0]).toMatchObject({ cause: { kind: 'request', requestId } });
  });

  it('takes what crosses at book prices, rests the rest, charges the taker fee', () => {
    const f = withBook();
    const o = f.venue.placeOrder('a', { client_order_id: 'l2', symbol: 'ETHUSDT', side: 'buy', quantity: '3', price: '2500' });
    expect(o.status).toBe('partiallyFilled');
    expect(o.quantity_cumulative.toFixed()).toBe('2');
    expect(f.reports()).toEqual(['l2:new:new', 'l2:trade:partiallyFilled']);
    const trade = f.orderReports()[1];
    expect(trade?.trade_price?.toFixed()).toBe('2500');
    expect(trade?.trade_fee?.toFixed()).toBe('12.5');
    expect(trade?.trade_taker).toBe(true);
    // 10000 - 5000 - 12.5 fee - 2500 x 1 x 1.0025 still reserved
    expect(spot(f, 'a', 'USDT')).toEqual({ available: '2481.25', reserved: '2506.25' });
    expect(spot(f, 'a', 'ETH').available).toBe('7');
    expect(f.venue.openOrders('a').map((x) => x.client_order_id)).toEqual(['l2']);
  });

  it('fills a resting order as maker on a public trade through its price, then filled releases the rest', () => {
    const f = withBook();
    f.venue.placeOrder('a', { client_order_id: 'm1', symbol: 'ETHUSDT', side: 'buy', quantity: '1', price: '2499' });
    f.clearEvents();
    // 2 ETH of outside quantity are ahead at 2499: a 2.5 ETH sell prints 0.5 to us
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2499', q: '2.5', s: 'sell' }]), T0 + 1000);
    expect(f.reports()).toEqual(['m1:trade:partiallyFilled']);
    expect(f.orderReports()[0]?.trade_taker).toBe(false);
    expect(f.events[0]).toMatchObject({ cause: { kind: 'market', channel: 'trades', symbol: 'ETHUSDT' } });
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2498', q: '1', s: 'sell' }]), T0 + 2000);
    expect(f.reports()).toEqual(['m1:trade:partiallyFilled', 'm1:trade:filled']);
    // maker fee 0.1% of 2499: total spent 2499 x 1.001
    expect(spot(f, 'a', 'USDT')).toEqual({ available: '7498.501', reserved: '0' });
    expect(f.venue.openOrders('a')).toEqual([]);
  });

  it('IOC: partial fill then expired in the response; FOK: expired untouched when it cannot fill completely', () => {
    const f = withBook();
    const ioc = f.venue.placeOrder('a', { client_order_id: 'i1', symbol: 'ETHUSDT', side: 'buy', quantity: '3.5', price: '2501', time_in_force: 'IOC' });
    expect(ioc.status).toBe('expired');
    expect(ioc.quantity_cumulative.toFixed()).toBe('3');
    expect(f.reports()).toEqual(['i1:new:new', 'i1:trade:partiallyFilled', 'i1:trade:partiallyFilled', 'i1:expired:expired']);
    const g = withBook();
    const fok = g.venue.placeOrder('a', { client_order_id: 'f1', symbol: 'ETHUSDT', side: 'buy', quantity: '3.5', price: '2501', time_in_force: 'FOK' });
    expect(fok.status).toBe('expired');
    expect(fok.quantity_cumulative.toFixed()).toBe('0');
    const fok2 = g.venue.placeOrder('a', { client_order_id: 'f2', symbol: 'ETHUSDT', side: 'buy', quantity: '3', price: '2501', time_in_force: 'FOK' });
    expect(fok2.status).toBe('filled');
    expect(spot(f, 'a', 'USDT').reserved).toBe('0');
  });

  it('post_only expires instead of taking, rests when it would not take', () => {
    const f = withBook();
    expect(f.venue.placeOrder('a', { client_order_id: 'p1', symbol: 'ETHUSDT', side: 'buy', quantity: '1', price: '2500', post_only: true }).status).toBe('expired');
    expect(f.venue.placeOrder('a', { client_order_id: 'p2', symbol: 'ETHUSDT', side: 'sell', quantity: '1', price: '2500', post_only: true }).status).toBe('new');
    expect(spot(f, 'a', 'ETH')).toEqual({ available: '4', reserved: '1' });
  });

  it('applies per-order fee rates only when they raise the fee', () => {
    const f = withBook();
    const up = f.venue.placeOrder('a', { client_order_id: 'r1', symbol: 'ETHUSDT', side: 'sell', quantity: '1', price: '2499', take_rate: '0.01' });
    expect(up.status).toBe('filled');
    expect(f.orderReports().at(-1)?.trade_fee?.toFixed()).toBe('24.99');
    const down = f.venue.placeOrder('a', { client_order_id: 'r2', symbol: 'ETHUSDT', side: 'sell', quantity: '1', price: '2499', take_rate: '0' });
    expect(down.status).toBe('filled');
    expect(f.orderReports().at(-1)?.trade_fee?.toFixed()).toBe('6.2475');
  });

  it('pays a negative make_rate as a rebate', () => {
    const f = makeVenue();
    f.market('BTCUSDT').setBook([[600000, 100000]], [[590000, 100000]]);
    f.venue.placeOrder('a', { client_order_id: 'rb', symbol: 'BTCUSDT', side: 'buy', quantity: '0.1', price: '59000' });
    // reserve provisions max(take, make) = 0.1%
    expect(spot(f, 'a', 'USDT')).toEqual({ available: '4094.1', reserved: '5905.9' });
    f.venue.onMarketFrame(tradesFrame('BTCUSDT', [{ p: '58000', q: '5', s: 'sell' }]), T0 + 1);
    expect(f.orderReports().at(-1)?.trade_fee?.toFixed()).toBe('-0.59');
    expect(spot(f, 'a', 'USDT')).toEqual({ available: '4100.59', reserved: '0' });
    expect(f.venue.feesCollected('USDT').toFixed()).toBe('-0.59');
  });
});

describe('SimulatedVenue: market orders and the market-buy reserve', () => {
  const need = '275.6875'; // 2500 x 0.1 x 1.1 x (1 + 0.0025)

  it('refuses a market buy unless available is strictly greater than the reserve (20001)', () => {
    const exact = withBook(makeVenue({ a: { spot: { USDT: need } } }));
    expect(rejection(() => exact.venue.placeOrder('a', { symbol: 'ETHUSDT', side: 'buy', type: 'market', quantity: '0.1' })).code).toBe(20001);
    expect(exact.events).toEqual([]);
    const above = withBook(makeVenue({ a: { spot: { USDT: '275.6876' } } }));
    const o = above.venue.placeOrder('a', { symbol: 'ETHUSDT', side: 'buy', type: 'market', quantity: '0.1' });
    expect(o.status).toBe('filled');
    // 250 + 0.625 fee spent; the rest of the reserve released
    expect(spot(above, 'a', 'USDT')).toEqual({ available: '25.0626', reserved: '0' });
  });

  it('a market buy without any ask expires unfilled; a market sell walks the bids', () => {
    const f = makeVenue();
    f.market('ETHUSDT').setBook([], [[249900, 10000]]);
    expect(f.venue.placeOrder('a', { client_order_id: 'mb', symbol: 'ETHUSDT', side: 'buy', type: 'market', quantity: '1' }).status).toBe('expired');
    const sell = f.venue.placeOrder('a', { client_order_id: 'ms', symbol: 'ETHUSDT', side: 'sell', type: 'market', quantity: '2' });
    expect(sell.status).toBe('expired');
    expect(sell.quantity_cumulative.toFixed()).toBe('1');
    expect(spot(f, 'a', 'ETH')).toEqual({ available: '4', reserved: '0' });
  });

  it('a market buy fills only as far as its reserve pays when the book is thin above the best ask', () => {
    const f = makeVenue({ a: { spot: { USDT: '3000' } } });
    // 0.5 ETH at 2500 then 10 ETH at 5000: the 1.1 reserve of 1 ETH cannot pay for the second level
    f.market('ETHUSDT').setBook([[250000, 5000], [500000, 100000]], []);
    const o = f.venue.placeOrder('a', { symbol: 'ETHUSDT', side: 'buy', type: 'market', quantity: '1' });
    expect(o.status).toBe('expired');
    const filled = Number(o.quantity_cumulative.toFixed());
    expect(filled).toBeGreaterThan(0.5);
    expect(filled).toBeLessThan(1);
    expect(spot(f, 'a', 'USDT').reserved).toBe('0');
    expect(Number(spot(f, 'a', 'USDT').available)).toBeGreaterThanOrEqual(0);
  });
});

describe('SimulatedVenue: stop and take-profit triggers', () => {
  it.each([
    ['stopLimit', 'buy', '2510', ['2505', '2509.99'], '2510'],
    ['stopMarket', 'buy', '2510', ['2509'], '2511'],
    ['stopLimit', 'sell', '2490', ['2495'], '2490'],
    ['stopMarket', 'sell', '2490', ['2491'], '2480'],
    ['takeProfitLimit', 'buy', '2490', ['2495'], '2490'],
    ['takeProfitMarket', 'buy', '2490', ['2491'], '2480'],
    ['takeProfitLimit', 'sell', '2510', ['2505'], '2510'],
    ['takeProfitMarket', 'sell', '2510', ['2509.99'], '2520'],
  ] as const)('%s %s at %s: stays suspended at %j, triggers at %s', (type, side, stop, quiet, fire) => {
    const f = makeVenue();
    f.market('ETHUSDT').setBook([[250000, 100000]], [[249900, 100000]]);
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2500', q: '0.0001', s: 'buy' }]), T0 + 1);
    const limit = type.endsWith('Limit') ? { price: side === 'buy' ? '2600' : '2400' } : {};
    const o = f.venue.placeOrder('a', { client_order_id: 's', symbol: 'ETHUSDT', side, type, quantity: '0.5', stop_price: stop, ...limit });
    expect(o.status).toBe('suspended');
    for (const p of quiet) f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p, q: '0.0001', s: 'buy' }]), T0 + 2);
    expect(f.reports()).toEqual(['s:suspended:suspended']);
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: fire, q: '0.0001', s: 'buy' }]), T0 + 3);
    expect(f.reports()).toEqual(['s:suspended:suspended', 's:new:new', 's:trade:filled']);
    expect(f.venue.openOrders('a')).toEqual([]);
    expect(spot(f, 'a', 'USDT').reserved).toBe('0');
    expect(spot(f, 'a', 'ETH').reserved).toBe('0');
  });

  it('a stopMarket buy holds stop x quantity x 1.1 plus fees while suspended', () => {
    const f = makeVenue();
    f.venue.placeOrder('a', { symbol: 'ETHUSDT', side: 'buy', type: 'stopMarket', quantity: '1', stop_price: '2000' });
    expect(spot(f, 'a', 'USDT').reserved).toBe('2205.5');
  });

  it('triggers at placement when the last trade is already past the stop', () => {
    const f = withBook();
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2520', q: '0.0001', s: 'buy' }]), T0 + 1);
    const o = f.venue.placeOrder('a', { client_order_id: 'now', symbol: 'ETHUSDT', side: 'buy', type: 'stopLimit', quantity: '1', stop_price: '2510', price: '2500' });
    expect(o.status).toBe('filled');
    expect(f.reports()).toEqual(['now:suspended:suspended', 'now:new:new', 'now:trade:filled']);
  });
});

describe('SimulatedVenue: Day and GTD expiry', () => {
  it('expires a Day order at the end of the UTC day, by the timer', () => {
    const f = withBook();
    f.venue.placeOrder('a', { client_order_id: 'd', symbol: 'ETHUSDT', side: 'buy', quantity: '1', price: '2400', time_in_force: 'Day' });
    const midnight = Date.UTC(2024, 7, 9);
    f.venue.advanceTo(midnight - 1);
    expect(f.venue.openOrders('a')).toHaveLength(1);
    f.clearEvents();
    f.venue.advanceTo(midnight + 5000);
    expect(f.reports()).toEqual(['d:expired:expired']);
    expect(f.events[0]).toMatchObject({ cause: { kind: 'timer', time: midnight, reason: 'expire-day' } });
    expect(f.orderReports()[0]?.updated_at).toBe(midnight);
    expect(f.venue.now()).toBe(midnight + 5000);
    expect(spot(f, 'a', 'USDT').reserved).toBe('0');
  });

  it('expires a GTD order at expire_time, also when time moves by a market frame', () => {
    const f = withBook();
    const o = f.venue.placeOrder('a', { client_order_id: 'g', symbol: 'ETHUSDT', side: 'sell', quantity: '1', price: '2600', time_in_force: 'GTD', expire_time: T0 + 60_000 });
    expect(o.expire_time).toBe(T0 + 60_000);
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2500', q: '1', s: 'buy' }]), T0 + 59_999);
    expect(f.venue.openOrders('a')).toHaveLength(1);
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2600', q: '5', s: 'buy' }]), T0 + 60_000);
    expect(f.reports()).toEqual(['g:new:new', 'g:expired:expired']);
  });

  it('never goes backwards in time', () => {
    const f = makeVenue();
    f.venue.advanceTo(T0 + 10);
    f.venue.advanceTo(T0 + 5);
    expect(f.venue.now()).toBe(T0 + 10);
  });
});

describe('SimulatedVenue: identifiers', () => {
  it('generates 32-hex client ids and increasing order ids', () => {
    const f = withBook();
    const a = f.venue.placeOrder('a', { symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' });
    const b = f.venue.placeOrder('a', { symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' });
    expect(a.client_order_id).toMatch(/^[0-9a-f]{32}$/);
    expect(b.client_order_id).not.toBe(a.client_order_id);
    expect(Number(b.id)).toBeGreaterThan(Number(a.id));
  });

  it('refuses a client_order_id used the same UTC day (active or closed) with 20008, allows it the next day', () => {
    const f = withBook();
    f.venue.placeOrder('a', { client_order_id: 'dup', symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' });
    expect(rejection(() => f.venue.placeOrder('a', { client_order_id: 'dup', symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' })).code).toBe(20008);
    f.venue.cancelOrder('a', 'dup');
    const again = rejection(() => f.venue.placeOrder('a', { client_order_id: 'dup', symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' }));
    expect(again.code).toBe(20008);
    expect(again.httpStatus).toBe(400);
    // another account may use it
    f.venue.placeOrder('b', { client_order_id: 'dup', symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' });
    f.venue.advanceTo(Date.UTC(2024, 7, 9));
    expect(f.venue.placeOrder('a', { client_order_id: 'dup', symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' }).status).toBe('new');
  });

  it('keeps an active order\'s id taken across the day change', () => {
    const f = withBook();
    f.venue.placeOrder('a', { client_order_id: 'long', symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' });
    f.venue.advanceTo(Date.UTC(2024, 7, 10));
    expect(rejection(() => f.venue.placeOrder('a', { client_order_id: 'long', symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' })).code).toBe(20008);
  });
});

describe('SimulatedVenue: cancel', () => {
  it('cancels and releases; unknown or closed orders are 20002', () => {
    const f = withBook();
    f.venue.placeOrder('a', { client_order_id: 'c', symbol: 'ETHUSDT', side: 'buy', quantity: '1', price: '2400' });
    const c = f.venue.cancelOrder('a', 'c');
    expect(c.status).toBe('canceled');
    expect(f.reports()).toEqual(['c:new:new', 'c:canceled:canceled']);
    expect(spot(f, 'a', 'USDT')).toEqual({ available: '10000', reserved: '0' });
    expect(rejection(() => f.venue.cancelOrder('a', 'c')).code).toBe(20002);
    expect(rejection(() => f.venue.cancelOrder('a', 'nope')).code).toBe(20002);
    expect(rejection(() => f.venue.getOpenOrder('a', 'c')).code).toBe(20002);
    expect(f.market('ETHUSDT').restingKeys()).toEqual([]);
  });

  it('cancel all, optionally per symbol', () => {
    const f = withBook();
    f.market('BTCUSDT').setBook([[600000, 100000]], [[590000, 100000]]);
    f.venue.placeOrder('a', { client_order_id: 'e1', symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' });
    f.venue.placeOrder('a', { client_order_id: 'e2', symbol: 'ETHUSDT', side: 'sell', quantity: '0.1', price: '2600' });
    f.venue.placeOrder('a', { client_order_id: 'b1', symbol: 'BTCUSDT', side: 'buy', quantity: '0.001', price: '50000' });
    expect(f.venue.cancelAll('a', 'ETHUSDT').map((o) => o.client_order_id)).toEqual(['e1', 'e2']);
    expect(f.venue.openOrders('a').map((o) => o.client_order_id)).toEqual(['b1']);
    expect(f.venue.cancelAll('a').map((o) => o.status)).toEqual(['canceled']);
    expect(f.venue.cancelAll('a')).toEqual([]);
  });
});

describe('SimulatedVenue: histories', () => {
  it('lists orders newest first and drops unexecuted closed ones after 24 h; trades stay', () => {
    const f = withBook();
    f.venue.placeOrder('a', { client_order_id: 'h1', symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' });
    f.venue.cancelOrder('a', 'h1');
    f.venue.advanceTo(T0 + 1000);
    f.venue.placeOrder('a', { client_order_id: 'h2', symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2500' });
    f.venue.advanceTo(T0 + 2000);
    f.venue.placeOrder('a', { client_order_id: 'h3', symbol: 'ETHUSDT', side: 'buy', quantity: '0.1', price: '2400' });
    expect(f.venue.orderHistory('a').map((o) => o.client_order_id)).toEqual(['h3', 'h2', 'h1']);
    const h2 = f.venue.orderHistory('a')[1];
    expect(h2?.price_average?.toFixed()).toBe('2500');
    expect(h2?.trades).toHaveLength(1);
    f.venue.advanceTo(T0 + 86_400_000 + 1);
    // h3 is still open; h1 closed unexecuted more than 24 h ago
    expect(f.venue.orderHistory('a').map((o) => o.client_order_id)).toEqual(['h3', 'h2']);
    const trades = f.venue.tradeHistory('a');
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ client_order_id: 'h2', symbol: 'ETHUSDT', side: 'buy', taker: true, timestamp: T0 + 1000 });
    expect(trades[0]?.fee.toFixed()).toBe('0.625');
  });
});

describe('SimulatedVenue: transfers', () => {
  it('moves funds between wallet and spot and reports both balances', () => {
    const f = makeVenue();
    const id = f.venue.transfer('a', { currency: 'USDT', amount: '250.5', source: 'wallet', destination: 'spot' });
    expect(id).toBe('1');
    expect(spot(f, 'a', 'USDT').available).toBe('10250.5');
    expect(f.venue.walletBalances('a').map((b) => [b.currency, b.available.toFixed()])).toEqual([['USDT', '749.5']]);
    expect(f.events.map((e) => e.kind)).toEqual(['balance', 'wallet']);
  });

  it('refuses short funds (20001), same source and destination (10001), unknown currency (2002)', () => {
    const f = makeVenue();
    expect(rejection(() => f.venue.transfer('a', { currency: 'USDT', amount: '1000.01', source: 'wallet', destination: 'spot' })).code).toBe(20001);
    expect(rejection(() => f.venue.transfer('a', { currency: 'USDT', amount: '1', source: 'spot', destination: 'spot' })).code).toBe(10001);
    expect(rejection(() => f.venue.transfer('a', { currency: 'XYZ', amount: '1', source: 'spot', destination: 'wallet' })).code).toBe(2002);
    expect(rejection(() => f.venue.transfer('a', { currency: 'USDT', amount: '-1', source: 'spot', destination: 'wallet' })).code).toBe(10001);
    expect(f.events).toEqual([]);
  });

  it('reports the symbol fee rates and refuses unknown accounts', () => {
    const f = makeVenue();
    expect(f.venue.feeRate('a', 'ETHUSDT').take_rate.toFixed()).toBe('0.0025');
    expect(rejection(() => f.venue.feeRate('a', 'NOPE')).code).toBe(2001);
    expect(rejection(() => f.venue.spotBalances('zz')).code).toBe(1002);
    expect(DEFAULT_BALANCES['a']).toBeDefined();
  });
});
