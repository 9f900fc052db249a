import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '../../framework/model/decimal.js';
import { RuntimeState } from '../../framework/runtime/runtime-state.js';
import { orderUpdate } from './runtime-fixtures.js';

describe('RuntimeState open orders', () => {
  it('tracks active orders from reports and accepted answers, drops final ones for good', () => {
    const state = new RuntimeState();
    state.applyReport(orderUpdate({ clientOrderId: 'a', status: 'new', updatedAt: 1 }));
    state.applyReport(orderUpdate({ clientOrderId: 'b', status: 'new', symbol: 'ETHUSDT', updatedAt: 1 }));
    expect(state.openOrders().map((o) => o.client_order_id)).toEqual(['a', 'b']);
    expect(state.openOrders('ETHUSDT').map((o) => o.client_order_id)).toEqual(['b']);

    state.applyReport(orderUpdate({ clientOrderId: 'a', status: 'canceled', reportType: 'canceled', updatedAt: 2 }));
    // A late `accepted` answer showing the order as new must not resurrect it.
    const late = orderUpdate({ clientOrderId: 'a', status: 'new', updatedAt: 1 }).report;
    state.applyReport({ kind: 'accepted', intent: { kind: 'cancelAll', intentId: 'x-1', strategyId: 'x' }, orders: [late], time: 3 });
    expect(state.openOrders().map((o) => o.client_order_id)).toEqual(['b']);

    // An older state never overwrites a newer one.
    state.applyReport(orderUpdate({ clientOrderId: 'b', status: 'partiallyFilled', updatedAt: 5 }));
    state.applyReport(orderUpdate({ clientOrderId: 'b', status: 'new', updatedAt: 4 }));
    expect(state.openOrders()[0]?.status).toBe('partiallyFilled');

    // A replacement removes the order it replaced.
    state.applyReport(orderUpdate({ clientOrderId: 'c', status: 'new', reportType: 'replaced', original: 'b', updatedAt: 6 }));
    expect(state.openOrders().map((o) => o.client_order_id)).toEqual(['c']);
    state.applyReport(orderUpdate({ clientOrderId: 'd', status: 'new', reportType: 'rejected', updatedAt: 6 }));
    expect(state.openOrders().map((o) => o.client_order_id)).toEqual(['c']);
  });

  it('keeps balances per currency (absolute values replace)', () => {
    const state = new RuntimeState();
    state.applyBalances([{ currency: 'USDT', available: dec('10'), reserved: dec('0') }]);
    state.applyBalances([{ currency: 'USDT', available: dec('7.5'), reserved: dec('2.5') }]);
    expect(state.balance('USDT')?.available.toFixed()).toBe('7.5');
    expect(state.balance('BTC')).toBeUndefined();
  });
});

describe('RuntimeState positions from fills (realized PnL before fees: the one position rule)', () => {
  const fill = (state: RuntimeState, id: string, side: 'buy' | 'sell', quantity: string, price: string, fee = '0') =>
    state.applyReport(orderUpdate({ clientOrderId: `o-${id}`, status: 'partiallyFilled', side, trade: { id, quantity, price, fee } }));

  it('average price and realized PnL, exactly, through a reversal', () => {
    const state = new RuntimeState();
    fill(state, '1', 'buy', '0.3', '100.1');
    fill(state, '2', 'buy', '0.1', '100.5', '0.01');
    let p = state.position('BTCUSDT');
    expect(p?.quantity.toFixed()).toBe('0.4');
    expect(p?.averagePrice?.toFixed()).toBe('100.2'); // (30.03 + 10.05) / 0.4
    expect(p?.realizedPnl.toFixed()).toBe('0'); // the 0.01 fee is the fee currency's, not the position's

    fill(state, '3', 'sell', '0.1', '101.2', '0.02');
    p = state.position('BTCUSDT');
    expect(p?.quantity.toFixed()).toBe('0.3');
    expect(p?.averagePrice?.toFixed()).toBe('100.2');
    expect(p?.realizedPnl.toFixed()).toBe('0.1'); // 0.1 * (101.2 - 100.2)

    fill(state, '3', 'sell', '0.1', '101.2', '0.02'); // repeated trade id: ignored
    fill(state, '4', 'sell', '0.5', '99.2');
    p = state.position('BTCUSDT');
    expect(p?.quantity.toFixed()).toBe('-0.2');
    expect(p?.averagePrice?.toFixed()).toBe('99.2');
    expect(p?.realizedPnl.toFixed()).toBe('-0.2'); // 0.1 + 0.3 * (99.2 - 100.2)

    fill(state, '5', 'buy', '0.2', '98.7');
    p = state.position('BTCUSDT');
    expect(p?.quantity.isZero()).toBe(true);
    expect(p?.averagePrice).toBeUndefined();
    expect(p?.realizedPnl.toFixed()).toBe('-0.1'); // short 0.2 closed 0.5 lower
  });

  it('property: a round trip at one price with no fees realizes exactly zero and ends flat', () => {
    const qty = fc.integer({ min: 1, max: 10_000 }).map((n) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`);
    fc.assert(fc.property(fc.array(qty, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 1_000_000 }), (lots, cents) => {
      const state = new RuntimeState();
      const price = dec(cents).div(100).toFixed();
      lots.forEach((q, i) => fill(state, `b${i}`, 'buy', q, price));
      lots.forEach((q, i) => fill(state, `s${i}`, 'sell', q, price));
      const p = state.position('BTCUSDT');
      expect(p?.quantity.isZero()).toBe(true);
      expect(p?.realizedPnl.isZero()).toBe(true);
    }));
  });
});
