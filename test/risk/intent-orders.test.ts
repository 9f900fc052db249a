import { describe, expect, it } from 'vitest';
import { evaluating, oncePerEvaluation, ordersOf } from '../../framework/risk/intent-orders.js';
import { place, spotState } from './risk-fixtures.js';

describe('evaluating', () => {
  it('builds the intent\'s orders once and computes a funds need once per order while it runs, never after', () => {
    const state = spotState();
    const intent = place({ side: 'buy', quantity: '1', price: '2000' });
    let computed = 0;
    const need = (): number => ++computed;
    const inside = evaluating(intent, state, () => {
      const orders = ordersOf(intent, state);
      expect(ordersOf(intent, state)).toBe(orders);
      const order = orders[0];
      if (order === undefined) throw new Error('no order');
      expect([oncePerEvaluation(order, need), oncePerEvaluation(order, need)]).toEqual([1, 1]);
      // An order built outside the evaluation (another intent, or a fresh copy) is computed each time.
      const other = ordersOf(place({ side: 'sell', quantity: '1', price: '2000' }), state)[0];
      if (other === undefined) throw new Error('no order');
      expect([oncePerEvaluation(other, need), oncePerEvaluation(other, need)]).toEqual([2, 3]);
      return orders;
    });
    expect(ordersOf(intent, state)).not.toBe(inside);
    const order = inside[0];
    if (order === undefined) throw new Error('no order');
    expect([oncePerEvaluation(order, need), oncePerEvaluation(order, need)]).toEqual([4, 5]);
  });

  it('restores the outer evaluation when one ends, even by a throw', () => {
    const state = spotState();
    const outer = place({ side: 'buy', quantity: '1', price: '2000' });
    const inner = place({ side: 'buy', quantity: '2', price: '2000' });
    evaluating(outer, state, () => {
      const orders = ordersOf(outer, state);
      expect(() => evaluating(inner, state, () => {
        throw new Error('check failed');
      })).toThrow('check failed');
      expect(ordersOf(outer, state)).toBe(orders);
    });
  });
});
