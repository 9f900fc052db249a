import { describe, expect, it } from 'vitest';
import { alignFills, type FillPair } from '../../../backtest/compare/align-fills.js';
import { runFill } from './support/run-fill.js';

/** A pair as `[A row, B row, how]` (0: no fill on that side), to compare with an oracle written out. */
const rows = (pairs: readonly FillPair[]): [number, number, string][] => pairs.map((p) => [p.a?.row ?? 0, p.b?.row ?? 0, p.matchedBy]);

describe('alignFills', () => {
  it('pairs fills of the same client_order_id in order, partial fills included', () => {
    const a = [runFill(1, { clientOrderId: 'x', quantity: '0.4' }), runFill(2, { clientOrderId: 'x', quantity: '0.6' }), runFill(3, { clientOrderId: 'y' })];
    const b = [runFill(1, { clientOrderId: 'y', time: 900 }), runFill(2, { clientOrderId: 'x', time: 1_500 }), runFill(3, { clientOrderId: 'x', time: 2_500 })];
    expect(rows(alignFills(a, b, { windowMs: 0 }))).toEqual([[3, 1, 'order'], [1, 2, 'order'], [2, 3, 'order']]);
  });

  it('pairs by intent id when the order ids differ (a paper run names its orders otherwise)', () => {
    const a = [runFill(1, { clientOrderId: 'bt_1', intentId: 'mm-7' }), runFill(2, { clientOrderId: 'bt_2', intentId: 'mm-8', side: 'sell' })];
    const b = [runFill(1, { clientOrderId: 'pp_1', intentId: 'mm-8', side: 'sell', time: 900 }), runFill(2, { clientOrderId: 'pp_2', intentId: 'mm-7', time: 1_900 })];
    expect(rows(alignFills(a, b, { windowMs: 0 }))).toEqual([[2, 1, 'intent'], [1, 2, 'intent']]);
  });

  it('does not pair by id across symbols or sides: such fills pair by time, or stay alone', () => {
    const a = [runFill(1, { intentId: 'mm-1', clientOrderId: 'a1' })];
    const b = [runFill(1, { intentId: 'mm-1', clientOrderId: 'b1', side: 'sell' }), runFill(2, { intentId: 'mm-2', clientOrderId: 'b2', time: 1_200 })];
    expect(rows(alignFills(a, b, { windowMs: 500 }))).toEqual([[1, 2, 'time'], [0, 1, 'none']]);
  });

  it('pairs what is left by time within the window: the same price first, then the nearest', () => {
    const a = [runFill(1, { intentId: undefined, clientOrderId: 'a1', time: 10_000, price: '100' })];
    const b = [
      runFill(1, { intentId: undefined, clientOrderId: 'b1', time: 10_010, price: '101' }),
      runFill(2, { intentId: undefined, clientOrderId: 'b2', time: 10_300, price: '100' }),
      runFill(3, { intentId: undefined, clientOrderId: 'b3', time: 10_200, price: '100' }),
    ];
    expect(rows(alignFills(a, b, { windowMs: 400 }))).toEqual([[1, 3, 'time'], [0, 1, 'none'], [0, 2, 'none']]);
    // Outside the window nothing pairs.
    expect(rows(alignFills(a, b, { windowMs: 5 }))).toEqual([[1, 0, 'none'], [0, 1, 'none'], [0, 3, 'none'], [0, 2, 'none']]);
  });

  it('lists every fill of both runs exactly once', () => {
    const a = [1, 2, 3, 4].map((r) => runFill(r, { clientOrderId: `a${r}`, intentId: r % 2 === 0 ? `mm-${r}` : undefined }));
    const b = [1, 2, 3].map((r) => runFill(r, { clientOrderId: `b${r}`, intentId: `mm-${r * 2}` }));
    const pairs = alignFills(a, b, { windowMs: 100 });
    expect(pairs.flatMap((p) => (p.a === undefined ? [] : [p.a.row])).sort()).toEqual([1, 2, 3, 4]);
    expect(pairs.flatMap((p) => (p.b === undefined ? [] : [p.b.row])).sort()).toEqual([1, 2, 3]);
    expect(rows(pairs)).toEqual([[1, 0, 'none'], [2, 1, 'intent'], [4, 2, 'intent'], [3, 3, 'time']]);
  });
});
