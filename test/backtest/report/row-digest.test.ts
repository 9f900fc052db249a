import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EquityPoint } from '../../../backtest/report/backtest-result.js';
import { RowDigest } from '../../../backtest/report/row-digest.js';
import { ScaledEquityPoint } from '../../../backtest/report/scaled-equity.js';
import { Decimal } from '../../../framework/model/decimal.js';

/** `-(peak - equity) / peak` to 8 decimals, half to even, the plain way; 0 under a peak that is not positive. */
function ratioOracle(points: readonly Decimal[]): string[] {
  let peak: Decimal | undefined;
  return points.map((equity) => {
    if (peak === undefined || equity.greaterThan(peak)) peak = equity;
    if (!peak.greaterThan(0)) return '0';
    return peak.minus(equity).dividedBy(peak).negated().toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN).toFixed();
  });
}

describe('RowDigest drawdown', () => {
  it('writes each sample\'s drawdown from its peak to 8 decimals, for samples in units as for Decimal samples', () => {
    // Few distinct values near a peak: ties, halves of the 8th decimal and drops beyond the peak itself.
    const units = fc.oneof(fc.integer({ min: -5, max: 400_000_000 }), fc.constantFrom(200_000_000, 199_999_999, 199_999_998, 100_000_001, 3, 2, 1));
    fc.assert(fc.property(fc.array(fc.tuple(units, fc.boolean()), { minLength: 1, maxLength: 60 }), (samples) => {
      const digest = new RowDigest([]);
      const values: Decimal[] = [];
      samples.forEach(([u, scaled], i) => {
        const time = i * 1000;
        const equity = new Decimal(u).dividedBy(10_000);
        values.push(equity);
        const point: EquityPoint = scaled ? new ScaledEquityPoint(time, u, 4, {}) : { time, equity, positions: {} };
        digest.addEquity(point);
      });
      expect(digest.drawdown().map(([, text]) => text)).toEqual(ratioOracle(values));
    }), { numRuns: 400 });
  });
});
