import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectiveRates } from '../../../backtest/venue/fees.js';
import { toOrder, type OrderRecord } from '../../../backtest/venue/order-state.js';
import { UNFILLED_HISTORY_MS, VenueHistory } from '../../../backtest/venue/venue-history.js';
import { Decimal } from '../../../framework/model/decimal.js';
import { ETHUSDT, T0 } from './support/venue-fixture.js';

function closedRecord(n: number, cumulativeLots: number, time: number): OrderRecord {
  return {
    key: n, id: String(n), account: 'a', clientOrderId: `c-${n}`, instrument: ETHUSDT, side: 'buy', type: 'limit', timeInForce: 'GTC',
    quantityLots: 100, cumulativeLots, priceTicks: 250_000, postOnly: false, rates: effectiveRates(ETHUSDT.info),
    status: cumulativeLots > 0 ? 'filled' : 'canceled', inactive: false, triggered: false, resting: false, createdAt: time - 5, updatedAt: time,
    reserveGroup: `order:${n}`, trades: [], notional: new Decimal(cumulativeLots), reduceOnly: false, liquidation: false, margin: false,
  };
}

/** Steps: close an order (filled or not) after `gap` ms, or read the history after `gap` ms. */
const steps = fc.array(fc.record({
  read: fc.boolean(),
  filled: fc.boolean(),
  gap: fc.oneof(fc.integer({ min: 0, max: 1_000 }), fc.constant(UNFILLED_HISTORY_MS / 2), fc.constant(UNFILLED_HISTORY_MS)),
}), { maxLength: 120 });

describe('VenueHistory', () => {
  it('reads like the exchange: every executed order, unfilled ones for 24 h, newest first', () => {
    fc.assert(fc.property(steps, (list) => {
      const history = new VenueHistory();
      const all: { order: OrderRecord; closedAt: number }[] = [];
      let now = T0;
      for (const [n, step] of list.entries()) {
        now += step.gap;
        if (step.read) {
          const expected = all.filter((c) => c.order.cumulativeLots > 0 || now - c.closedAt < UNFILLED_HISTORY_MS).map((c) => toOrder(c.order, true)).reverse();
          expect(history.closedOrders('a', now)).toEqual(expected);
        } else {
          const order = closedRecord(n, step.filled ? 40 : 0, now);
          all.push({ order, closedAt: now });
          history.addClosed('a', order, now);
        }
      }
    }));
  });

  it('keeps at most maxUnfilledClosed unfilled orders (the newest), and every executed one', () => {
    const history = new VenueHistory({ maxUnfilledClosed: 3 });
    for (let n = 0; n < 500; n++) history.addClosed('a', closedRecord(n, n % 100 === 0 ? 10 : 0, T0 + n), T0 + n);
    const ids = history.closedOrders('a', T0 + 500).map((o) => o.id);
    expect(ids).toEqual(['499', '498', '497', '400', '300', '200', '100', '0']);
    expect(history.closedOrders('b', T0)).toEqual([]);
  });
});
