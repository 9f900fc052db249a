import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PriceBars } from '../../../backtest/replay/price-bars.js';
import { Decimal } from '../../../framework/model/decimal.js';

describe('PriceBars', () => {
  it('builds the same OHLC bars as exact Decimal comparisons, even where doubles cannot tell prices apart', () => {
    // Prices 0.1 + k x 1e-20 differ beyond a double's precision: all parse to the same double.
    const price = fc.oneof(fc.integer({ min: 0, max: 5 }).map((k) => `0.1${'0'.repeat(18)}${k}`), fc.constantFrom('0.1', '0.10', '0.2', '0.05'));
    fc.assert(fc.property(fc.array(fc.tuple(price, fc.integer({ min: 0, max: 250 })), { maxLength: 60 }), (ticks) => {
      const bars = new PriceBars(100);
      const seen: [string, number][] = [];
      let time = 0;
      for (const [p, step] of ticks) {
        time += step;
        bars.add('X', p, time);
        seen.push([p, time]);
      }
      expect(barTexts(bars.list('X'))).toEqual(barTexts(naiveBars(seen, 100)));
    }));
  });

  it('ignores a price stamped before the last bar', () => {
    const bars = new PriceBars(60_000);
    bars.add('X', '10', 120_000);
    bars.add('X', '99', 60_000);
    expect(bars.list('X').map((b) => b.high.toFixed())).toEqual(['10']);
    expect(bars.list('Y')).toEqual([]);
  });
});

describe('PriceBars with a bar limit', () => {
  it('moves to coarser bars as the run grows and ends with the bars the final width gives from scratch', () => {
    const price = fc.constantFrom('0.1', '0.10', '0.2', '0.05', `0.1${'0'.repeat(18)}1`, '7');
    fc.assert(fc.property(
      fc.array(fc.tuple(price, fc.integer({ min: 0, max: 40_000 })), { maxLength: 200 }), fc.integer({ min: 1, max: 12 }),
      (ticks, maxBars) => {
        const bars = new PriceBars(1_000, maxBars);
        let time = 1_700_000_000_000;
        const seen: [string, number][] = [];
        for (const [p, step] of ticks) {
          time += step;
          bars.add('X', p, time);
          seen.push([p, time]);
        }
        const width = bars.widthOf('X');
        // Oracle: bars of the final width built directly, with Decimal comparisons.
        const naive = naiveBars(seen, width);
        expect(barTexts(bars.list('X'))).toEqual(barTexts(naive));
        if (width < 604_800_000) expect(naive.length).toBeLessThanOrEqual(maxBars);
      },
    ));
  });

  it('keeps seconds for minutes of data, minutes for a day and hours for months', () => {
    const widthAfter = (spanMs: number, everyMs: number): number => {
      const bars = new PriceBars(1_000, 1_500);
      for (let t = 0; t <= spanMs; t += everyMs) bars.add('X', '1', t);
      return bars.widthOf('X');
    };
    expect(widthAfter(8 * 60_000, 250)).toBe(1_000);
    expect(widthAfter(86_400_000, 1_000)).toBe(60_000);
    expect(widthAfter(90 * 86_400_000, 60_000)).toBe(14_400_000);
  });
});

interface NaiveBar {
  time: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
}

/** The test's oracle: bars of `width` ms built from (price, time) pairs with Decimal comparisons. */
function naiveBars(prices: readonly (readonly [string, number])[], width: number): NaiveBar[] {
  const naive: NaiveBar[] = [];
  for (const [p, t] of prices) {
    const value = new Decimal(p);
    const start = t - (t % width);
    const last = naive[naive.length - 1];
    if (last === undefined || last.time < start) naive.push({ time: start, open: value, high: value, low: value, close: value });
    else {
      last.close = value;
      if (value.greaterThan(last.high)) last.high = value;
      if (value.lessThan(last.low)) last.low = value;
    }
  }
  return naive;
}

function barTexts(list: readonly { time: number; open: Decimal; high: Decimal; low: Decimal; close: Decimal }[]): string[] {
  return list.map((b) => `${b.time} ${b.open.toFixed()} ${b.high.toFixed()} ${b.low.toFixed()} ${b.close.toFixed()}`);
}
