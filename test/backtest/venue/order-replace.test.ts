import { describe, expect, it } from 'vitest';
import { placeSingle } from '../../../backtest/venue/order-placement.js';
import { replaceOrder } from '../../../backtest/venue/order-replace.js';
import { validateNewOrder } from '../../../backtest/venue/order-validation.js';
import { VenueEngine } from '../../../backtest/venue/venue-engine.js';
import { VenueRejection } from '../../../backtest/venue/venue-types.js';
import { FakeSymbolMarket } from './support/fake-symbol-market.js';
import { DEFAULT_BALANCES, ETHUSDT, makeVenue, T0, tradesFrame, type VenueFixture } from './support/venue-fixture.js';

function setup(): VenueFixture {
  const f = makeVenue();
  f.market('ETHUSDT').setBook([[250000, 20000]], [[249900, 20000]]);
  f.venue.placeOrder('a', { client_order_id: 'first', symbol: 'ETHUSDT', side: 'buy', quantity: '1', price: '2499' });
  f.venue.placeOrder('a', { client_order_id: 'second', symbol: 'ETHUSDT', side: 'buy', quantity: '1', price: '2499' });
  f.clearEvents();
  return f;
}

function code(fn: () => unknown): number {
  try {
    fn();
  } catch (e) {
    if (e instanceof VenueRejection) return e.code;
    throw e;
  }
  return 0;
}

function usdt(f: VenueFixture): string {
  return f.venue.spotBalances('a').find((b) => b.currency === 'USDT')?.reserved.toFixed() ?? '0';
}

describe('replaceOrder', () => {
  it('reports the replacement once, report_type replaced, carrying original_client_order_id', () => {
    const f = setup();
    const o = f.venue.replaceOrder('a', { client_order_id: 'first', new_client_order_id: 'first-b', quantity: '0.5', price: '2499' });
    expect(o).toMatchObject({ client_order_id: 'first-b', original_client_order_id: 'first', status: 'new' });
    expect(f.reports()).toEqual(['first-b:replaced:new']);
    expect(f.venue.openOrders('a').map((x) => x.client_order_id).sort()).toEqual(['first-b', 'second']);
    expect(usdt(f)).toBe('3757.87125'); // (0.5 + 1) x 2499 x 1.0025
  });

  it('a quantity decrease keeps the queue place (reduce in place)', () => {
    const f = setup();
    const before = f.venue.queueState('a', 'first');
    f.venue.replaceOrder('a', { client_order_id: 'first', new_client_order_id: 'r', quantity: '0.5', price: '2499' });
    const after = f.venue.queueState('a', 'r');
    expect(after?.aheadLots).toBe(before?.aheadLots);
    expect(after?.remainingLots).toBe(5000);
    // still ahead of `second`: the next sell print fills `r` first
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2499', q: '2.5', s: 'sell' }]), T0 + 1);
    expect(f.reports().at(-1)).toBe('r:trade:filled');
  });

  it('a quantity increase or a price change loses the queue place', () => {
    const f = setup();
    f.venue.replaceOrder('a', { client_order_id: 'first', new_client_order_id: 'up', quantity: '1.5', price: '2499' });
    const keys = f.market('ETHUSDT').restingKeys();
    expect(keys.at(-1)).toBe(keys.at(-1));
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2499', q: '2.5', s: 'sell' }]), T0 + 1);
    expect(f.reports().filter((r) => r.includes(':trade:'))).toEqual(['second:trade:partiallyFilled']);
    const g = setup();
    g.venue.replaceOrder('a', { client_order_id: 'first', new_client_order_id: 'px', quantity: '1', price: '2498.99' });
    expect(g.venue.queueState('a', 'px')?.aheadLots).toBe(0);
  });

  it('a price change that crosses takes liquidity at once', () => {
    const f = setup();
    const o = f.venue.replaceOrder('a', { client_order_id: 'first', new_client_order_id: 'x', quantity: '1', price: '2500' });
    expect(o.status).toBe('filled');
    expect(f.reports()).toEqual(['x:replaced:new', 'x:trade:filled']);
  });

  it('20009 when nothing changes, 20002 for unknown or closed orders, 20008 for a used new id', () => {
    const f = setup();
    expect(code(() => f.venue.replaceOrder('a', { client_order_id: 'first', quantity: '1', price: '2499' }))).toBe(20009);
    expect(code(() => f.venue.replaceOrder('a', { client_order_id: 'nope', quantity: '1', price: '2499' }))).toBe(20002);
    f.venue.cancelOrder('a', 'second');
    expect(code(() => f.venue.replaceOrder('a', { client_order_id: 'second', quantity: '2', price: '2499' }))).toBe(20002);
    expect(code(() => f.venue.replaceOrder('a', { client_order_id: 'first', new_client_order_id: 'second', quantity: '2', price: '2499' }))).toBe(20008);
    expect(code(() => f.venue.replaceOrder('a', { client_order_id: 'first', quantity: '2' }))).toBe(10001);
  });

  it('the new quantity must exceed the executed quantity (10001)', () => {
    const f = setup();
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2499', q: '2.6', s: 'sell' }]), T0 + 1);
    expect(f.venue.getOpenOrder('a', 'first').quantity_cumulative.toFixed()).toBe('0.6');
    expect(code(() => f.venue.replaceOrder('a', { client_order_id: 'first', quantity: '0.6', price: '2499' }))).toBe(10001);
    const o = f.venue.replaceOrder('a', { client_order_id: 'first', new_client_order_id: 'z', quantity: '0.7', price: '2499' });
    expect(o.status).toBe('partiallyFilled');
    expect(o.quantity_cumulative.toFixed()).toBe('0.6');
  });

  it('recomputes the reservation and refuses what does not fit (20001)', () => {
    const f = setup();
    expect(code(() => f.venue.replaceOrder('a', { client_order_id: 'first', quantity: '3', price: '2499' }))).toBe(20001);
    expect(f.events).toEqual([]);
    f.venue.replaceOrder('a', { client_order_id: 'first', new_client_order_id: 'cheap', quantity: '1', price: '1000' });
    expect(usdt(f)).toBe('3507.7475'); // (1000 + 2499) x 1.0025
  });

  it('replaces a suspended stop order without triggering it', () => {
    const f = setup();
    f.venue.placeOrder('a', { client_order_id: 'st', symbol: 'ETHUSDT', side: 'sell', type: 'stopMarket', quantity: '1', stop_price: '2400' });
    const o = f.venue.replaceOrder('a', { client_order_id: 'st', new_client_order_id: 'st2', quantity: '2' });
    expect(o.status).toBe('suspended');
    expect(f.reports().slice(-1)).toEqual(['st2:replaced:suspended']);
    f.venue.onMarketFrame(tradesFrame('ETHUSDT', [{ p: '2400', q: '0.1', s: 'sell' }]), T0 + 1);
    expect(f.reports().slice(-2)).toEqual(['st2:new:new', 'st2:trade:filled']);
  });
});

describe('replaceOrder record', () => {
  it('carries every field of the old record but the new identity, size, price and times', () => {
    const engine = new VenueEngine(new Map([[ETHUSDT.symbol, ETHUSDT]]), DEFAULT_BALANCES, (inst) => new FakeSymbolMarket(inst.symbol, inst), () => undefined, T0);
    const ctx = { instruments: engine.instruments, exchangeOpen: true, now: T0 };
    placeSingle(engine, 'a', validateNewOrder({
      client_order_id: 'gtd', symbol: 'ETHUSDT', side: 'sell', quantity: '1', price: '2600', time_in_force: 'GTD', expire_time: T0 + 60_000,
    }, ctx));
    const old = engine.activeByClientId('a', 'gtd');
    if (old === undefined) throw new Error('not placed');
    const snapshot = { ...old, trades: [...old.trades] };
    engine.time = T0 + 10;
    const next = replaceOrder(engine, 'a', { client_order_id: 'gtd', new_client_order_id: 'gtd-2', quantity: '2', price: '2601' });
    expect(next).toEqual({
      ...snapshot,
      id: next.id, clientOrderId: 'gtd-2', quantityLots: 20000, priceTicks: 260100, originalClientOrderId: 'gtd',
      createdAt: T0 + 10, updatedAt: T0 + 10, resting: next.resting,
    });
    expect(Object.keys(next).sort()).toEqual(Object.keys(snapshot).sort());
    expect(next.id).not.toBe(old.id);
    expect(next.trades).not.toBe(old.trades);
  });
});
