import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderRateCheck } from '../../framework/risk/order-rate-check.js';
import { OrderRateWindow } from '../../framework/risk/order-rate-window.js';
import { cancel, config, place, spotState } from './risk-fixtures.js';

describe('orderRateCheck', () => {
  it('admits exactly N in a window, refuses the next, and admits again once the first leaves the window', () => {
    const state = spotState();
    const cfg = config({ maxOrdersPerWindow: 3, orderRateWindowMs: 1000 });
    const intent = place({ side: 'buy', quantity: '1', price: '2000' });
    state.now = 5000;
    for (let i = 0; i < 3; i++) {
      expect(orderRateCheck(intent, state, cfg)).toBeUndefined();
      state.rateWindow.record(state.now);
    }
    expect(orderRateCheck(intent, state, cfg)).toEqual({ check: 'order-rate', reason: '3 trading requests in the last 1000 ms, budget 3' });
    expect(orderRateCheck(cancel(), state, cfg)).toBeUndefined();
    state.now = 5999;
    expect(orderRateCheck(intent, state, cfg)?.check).toBe('order-rate');
    state.now = 6000;
    expect(orderRateCheck(intent, state, cfg)).toBeUndefined();
  });

  it('property: never admits more than N in any window', () => {
    const scenario = fc.record({
      n: fc.integer({ min: 1, max: 20 }),
      windowMs: fc.integer({ min: 100, max: 500 }),
      gaps: fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 300 }),
    });
    fc.assert(fc.property(scenario, ({ n, windowMs, gaps }) => {
      const state = spotState();
      const cfg = config({ maxOrdersPerWindow: n, orderRateWindowMs: windowMs });
      const intent = place({ side: 'buy', quantity: '1', price: '2000' });
      const admitted: number[] = [];
      state.now = 0;
      for (const gap of gaps) {
        state.now += gap;
        if (orderRateCheck(intent, state, cfg) === undefined) {
          state.rateWindow.record(state.now);
          admitted.push(state.now);
        }
      }
      for (const t of admitted) {
        expect(admitted.filter((u) => u > t - windowMs && u <= t).length).toBeLessThanOrEqual(n);
      }
    }), { numRuns: 200 });
  });
});

describe('OrderRateWindow', () => {
  it('grows past its initial capacity and forgets only what left the window', () => {
    const w = new OrderRateWindow(2);
    for (let t = 0; t < 10; t++) w.record(t);
    expect(w.countAfter(4)).toBe(5);
    w.record(10, 3);
    expect(w.countAfter(9)).toBe(3);
  });
});
