import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignFills } from '../../../backtest/compare/align-fills.js';
import type { RunFill } from '../../../backtest/compare/run-folder.js';
import { runFill } from './support/run-fill.js';

/** Fills of one run: small id and time ranges so that ids and times collide between runs. */
const fills = fc.array(fc.record({
  time: fc.integer({ min: 0, max: 5_000 }), side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), symbol: fc.constantFrom('BTCUSDT', 'ETHUSDT'),
  order: fc.option(fc.integer({ min: 1, max: 6 })), intent: fc.option(fc.integer({ min: 1, max: 6 })), price: fc.constantFrom('100', '101'),
}), { maxLength: 25 }).map((rows) => rows.sort((p, q) => p.time - q.time).map((r, i): RunFill => runFill(i + 1, {
  time: r.time, side: r.side, symbol: r.symbol, price: r.price, clientOrderId: r.order === null ? '' : `o${r.order}`, intentId: r.intent === null ? undefined : `mm-${r.intent}`,
})));

describe('alignFills (property)', () => {
  it('lists every fill of each run once, pairs only fills of one symbol and side, time pairs within the window, in time order', () => {
    fc.assert(fc.property(fills, fills, fc.integer({ min: 0, max: 2_000 }), (a, b, windowMs) => {
      const pairs = alignFills(a, b, { windowMs });
      expect(pairs.flatMap((p) => (p.a === undefined ? [] : [p.a.row])).sort((x, y) => x - y)).toEqual(a.map((f) => f.row));
      expect(pairs.flatMap((p) => (p.b === undefined ? [] : [p.b.row])).sort((x, y) => x - y)).toEqual(b.map((f) => f.row));
      for (const { a: x, b: y, matchedBy } of pairs) {
        expect(matchedBy === 'none').toBe(x === undefined || y === undefined);
        if (x === undefined || y === undefined) continue;
        expect([y.symbol, y.side]).toEqual([x.symbol, x.side]);
        if (matchedBy === 'time') expect(Math.abs(x.time - y.time)).toBeLessThanOrEqual(windowMs);
      }
      const starts = pairs.map((p) => Math.min(p.a?.time ?? Infinity, p.b?.time ?? Infinity));
      expect(starts).toEqual([...starts].sort((x, y) => x - y));
    }));
  });
});
