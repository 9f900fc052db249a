import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AccountState } from '../../framework/execution/account-state.js';
import { OrderTracker, TRANSITIONS, type TrackedStatus } from '../../framework/execution/order-tracker.js';
import { dec } from '../../framework/model/decimal.js';
import { ORDER_STATUSES, type Order, type OrderStatus } from '../../framework/model/resources/order.js';
import type { OrderReport, ReportType } from '../../framework/model/stream/order-report.js';

const BASE: Omit<Order, 'status' | 'quantity_cumulative'> = {
  id: '1', client_order_id: 'c1', symbol: 'BTCUSDT', side: 'buy', type: 'limit', time_in_force: 'GTC', quantity: dec('3'),
  price: dec('100'), post_only: false, created_at: 1, updated_at: 1,
};

function report(status: OrderStatus, cumulative: string, reportType: ReportType = 'status', at = 1): OrderReport {
  return { ...BASE, status, quantity_cumulative: dec(cumulative), report_type: reportType, updated_at: at };
}

function trade(id: string, qty: string, cumulative: string, price = '100', fee = '0.01'): OrderReport {
  const status: OrderStatus = dec(cumulative).equals(3) ? 'filled' : 'partiallyFilled';
  return {
    ...report(status, cumulative, 'trade'), trade_id: id, trade_quantity: dec(qty), trade_price: dec(price), trade_fee: dec(fee),
  };
}

function trackerIn(status: TrackedStatus): OrderTracker {
  const t = new OrderTracker({ clientOrderId: 'c1', intentId: 'i1', strategyId: 's', symbol: 'BTCUSDT', side: 'buy', quantity: dec('3') });
  if (status !== 'pending') t.applyReport(report(status, status === 'filled' ? '3' : status === 'partiallyFilled' ? '1' : '0'));
  return t;
}

describe('OrderTracker state machine (document 001 statuses table)', () => {
  const from: TrackedStatus[] = ['pending', ...ORDER_STATUSES];
  for (const start of from) {
    for (const to of ORDER_STATUSES) {
      const allowed = TRANSITIONS[start].includes(to) || start === to;
      it(`${start} -> ${to}: ${allowed ? 'moves' : 'refused'}`, () => {
        const t = trackerIn(start);
        expect(t.status).toBe(start);
        const cumulative = to === 'filled' ? '3' : to === 'partiallyFilled' ? '2' : start === 'partiallyFilled' ? '1' : start === 'filled' ? '3' : '0';
        t.applyReport(report(to, cumulative));
        expect(t.status).toBe(allowed ? to : start);
      });
    }
  }

  it('knows its intent; pending is not active; terminal is not active', () => {
    const t = trackerIn('pending');
    expect([t.intentId, t.active]).toEqual(['i1', false]);
    t.applyReport(report('new', '0', 'new'));
    expect(t.active).toBe(true);
    t.applyReport(report('canceled', '0', 'canceled'));
    expect(t.active).toBe(false);
  });

  it('duplicated trade reports count once; a stale status never moves back', () => {
    const t = trackerIn('new');
    const first = t.applyReport(trade('t1', '1', '1'));
    expect(first.fills.map((f) => f.tradeId)).toEqual(['t1']);
    expect(t.applyReport(trade('t1', '1', '1'))).toMatchObject({ changed: false, fills: [] });
    const stale = t.applyReport(report('new', '0', 'status'));
    expect([stale.stale, t.status, t.quantityCumulative.toFixed()]).toEqual([true, 'partiallyFilled', '1']);
  });

  it('a late trade report after the terminal status still books its fill, once', () => {
    const t = trackerIn('new');
    t.applyReport(trade('t2', '2', '3'));
    expect(t.status).toBe('filled');
    const late = t.applyReport(trade('t1', '1', '1'));
    expect([late.fills.length, t.status, t.quantityCumulative.toFixed()]).toEqual([1, 'filled', '3']);
    expect(t.unattributedQuantity.toFixed()).toBe('0');
  });

  it('a canceled report racing a fill: the fill still counts and the final cumulative is learned', () => {
    const t = trackerIn('new');
    t.applyReport(report('canceled', '0', 'canceled'));
    const update = t.applyReport(trade('t9', '1', '1'));
    expect([update.fills.length, t.status]).toEqual([1, 'canceled']);
    // Cumulative 1 < 3 keeps the terminal status, but the executed quantity is known.
    expect(t.quantityCumulative.toFixed()).toBe('1');
  });

  it('trades from an order answer and from the stream count once together', () => {
    const t = trackerIn('pending');
    const order: Order = {
      ...BASE, status: 'partiallyFilled', quantity_cumulative: dec('1'),
      trades: [{ id: 't1', quantity: dec('1'), price: dec('99.5'), fee: dec('0.05'), timestamp: 5 }],
    };
    expect(t.applyOrder(order).fills).toHaveLength(1);
    expect(t.applyReport(trade('t1', '1', '1', '99.5')).fills).toHaveLength(0);
    expect(t.status).toBe('partiallyFilled');
  });

  it('a status snapshot ahead of missing trade reports shows as unattributed quantity', () => {
    const t = trackerIn('new');
    t.applyReport(report('partiallyFilled', '2'));
    expect(t.unattributedQuantity.toFixed()).toBe('2');
  });
});

describe('AccountState bookkeeping', () => {
  it('books fills exactly into positions and currency flows, once per trade across a replacement', () => {
    const account = new AccountState(() => ({ base: 'BTC', quote: 'USDT', fee: 'USDT' }));
    const a = account.track({ clientOrderId: 'c1', intentId: 'i1', strategyId: 's', symbol: 'BTCUSDT', side: 'buy', quantity: dec('3') });
    account.applyReport(report('new', '0', 'new'));
    account.applyReport(trade('t1', '0.1', '0.1', '100.01', '0.000000001'));
    account.applyReport(trade('t1', '0.1', '0.1', '100.01', '0.000000001'));
    account.applyReport(trade('t2', '0.2', '0.3', '100.02', '0.000000002'));
    const b = account.track({ clientOrderId: 'c2', intentId: 'i2', strategyId: 's', symbol: 'BTCUSDT', side: 'buy', quantity: dec('3') });
    b.inherit(a);
    // The replacement's answer lists the carried-over executions: nothing is booked twice.
    const carried: Order = {
      ...BASE, client_order_id: 'c2', status: 'partiallyFilled', quantity_cumulative: dec('0.3'),
      trades: [{ id: 't1', quantity: dec('0.1'), price: dec('100.01'), fee: dec('0.000000001'), timestamp: 1 }],
    };
    expect(account.applyOrder(carried).fills).toHaveLength(0);
    const pos = account.positions.position('s', 'BTCUSDT');
    expect(pos?.quantity.toFixed()).toBe('0.3');
    expect(account.positions.flow('s', 'BTC').toFixed()).toBe('0.3');
    expect(account.positions.flow('s', 'USDT').toFixed()).toBe('-30.005000003');
    expect(pos?.averagePrice?.times('0.3').toDecimalPlaces(20).toFixed()).toBe('30.005');
  });

  it('realized PnL on reduce and flip', () => {
    const account = new AccountState();
    const fill = (id: string, qty: string, price: string) => ({ tradeId: id, quantity: dec(qty), price: dec(price), fee: dec(0), time: 1 });
    account.positions.applyFill('s', 'X', 'buy', fill('1', '2', '10'));
    account.positions.applyFill('s', 'X', 'sell', fill('2', '3', '12'));
    const p = account.positions.position('s', 'X');
    expect([p?.quantity.toFixed(), p?.realizedPnl.toFixed(), p?.averagePrice?.toFixed()]).toEqual(['-1', '4', '12']);
  });

  it('property: any order and duplication of the same trade reports books the same exact totals', () => {
    const trades = [trade('a', '0.1', '0.1'), trade('b', '0.7', '0.8', '100.03'), trade('c', '2.2', '3', '99.99')];
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 3, maxLength: 12 }), (picks) => {
      const account = new AccountState(() => ({ base: 'BTC', quote: 'USDT', fee: 'USDT' }));
      account.track({ clientOrderId: 'c1', strategyId: 's', symbol: 'BTCUSDT', side: 'buy', quantity: dec('3') });
      for (const i of [...picks, 0, 1, 2]) account.applyReport(trades[i]!);
      const t = account.get('c1')!;
      return t.status === 'filled' && t.quantityCumulative.equals(3) && account.positions.flow('s', 'BTC').equals(3)
        && account.positions.flow('s', 'USDT').equals(dec('-0.1').times(100).minus(dec('0.7').times('100.03')).minus(dec('2.2').times('99.99')).minus('0.03'));
    }));
  });
});
