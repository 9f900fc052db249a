import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutsideBook } from '../../../../backtest/venue/matching/outside-book.js';
import { affordableLots } from '../../../../backtest/venue/order-activation.js';
import type { OrderRecord } from '../../../../backtest/venue/order-state.js';
import { Decimal } from '../../../../framework/model/decimal.js';
import { instrument, marketWith } from './market-fixtures.js';

const MAX = Number.MAX_SAFE_INTEGER;

/** Ask levels as [ticks, lots], distinct prices, anywhere up to 2^53 - 1 of either. */
const asks = fc.uniqueArray(
  fc.tuple(fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: MAX })), fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: MAX }))),
  { minLength: 1, maxLength: 6, selector: ([ticks]) => ticks },
);

/** The oracle: ticks x lots of the best `lots` asks, in BigInt; undefined when the side runs out. */
function oracleCost(levels: readonly (readonly [number, number])[], lots: number): bigint | undefined {
  let left = BigInt(lots);
  let cost = 0n;
  for (const [ticks, size] of [...levels].sort((a, b) => a[0] - b[0])) {
    const take = BigInt(size) < left ? BigInt(size) : left;
    cost += take * BigInt(ticks);
    left -= take;
  }
  return left > 0n ? undefined : cost;
}

describe('OutsideBook.cost', () => {
  it('is the exact ticks x lots sum at any size (a number while safe, a bigint beyond), never NaN', () => {
    fc.assert(fc.property(asks, fc.integer({ min: 1, max: MAX }), (levels, lots) => {
      const book = new OutsideBook();
      for (const [ticks, size] of levels) book.set('ask', ticks, size);
      const expected = oracleCost(levels, lots);
      const cost = book.cost('ask', lots);
      if (expected === undefined) expect(cost).toBeUndefined();
      else if (expected <= BigInt(MAX)) expect(cost).toBe(Number(expected));
      else expect(cost).toBe(expected);
    }), { numRuns: 3000 });
  });
});

describe('affordableLots', () => {
  /** Fee factor and the unit grid of the market fixtures: cost in ticks x lots is the notional. */
  const TAKE = new Decimal('0.002');

  /** The oracle: the largest n whose exact notional with the taker fee fits the budget. */
  function oracleAffordable(levels: readonly (readonly [number, number])[], lots: number, budget: Decimal): number {
    const fits = (n: bigint): boolean => {
      const cost = oracleCost(levels, Number(n));
      return cost !== undefined && !new Decimal(cost.toString()).times(TAKE.plus(1)).greaterThan(budget);
    };
    const available = levels.reduce((sum, [, size]) => sum + BigInt(size), 0n);
    let [lo, hi] = [0n, available < BigInt(lots) ? available : BigInt(lots)];
    while (lo < hi) {
      const mid = (lo + hi + 1n) / 2n;
      if (fits(mid)) lo = mid;
      else hi = mid - 1n;
    }
    return Number(lo);
  }

  it('is the largest lot count whose exact cost and fee fit the budget, never NaN, at any size', () => {
    fc.assert(fc.property(asks, fc.integer({ min: 1, max: MAX }), fc.bigInt({ min: 1n, max: 10n ** 34n }), (levels, lots, budgetUnits) => {
      const market = marketWith([], levels.map(([t, l]) => [t, l] as const));
      const order = { side: 'buy', instrument: instrument(), rates: { take: TAKE, make: TAKE } } as unknown as OrderRecord;
      const budget = new Decimal(budgetUnits.toString());
      const got = affordableLots(order, market, lots, budget);
      expect(Number.isSafeInteger(got)).toBe(true);
      expect(got).toBe(oracleAffordable(levels, lots, budget));
    }), { numRuns: 300 });
  });

  it('ends near 2^53 lots, where the sum of the search bounds is no longer exact', () => {
    // Found by the property above: the search sat at lo = 8447307442797192, hi = lo + 1 for good.
    const levels = [[1, MAX]] as const;
    const market = marketWith([], levels);
    const order = { side: 'buy', instrument: instrument(), rates: { take: TAKE, make: TAKE } } as unknown as OrderRecord;
    const budget = new Decimal('8447307442797192').times(TAKE.plus(1));
    expect(affordableLots(order, market, MAX, budget)).toBe(8447307442797192);
    expect(oracleAffordable(levels, MAX, budget)).toBe(8447307442797192);
  });
});
