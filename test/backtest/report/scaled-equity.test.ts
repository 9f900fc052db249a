import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EquityPoint } from '../../../backtest/report/backtest-result.js';
import { compareEquity, EquityArea, equityText, isPositiveEquity, ScaledEquityPoint } from '../../../backtest/report/scaled-equity.js';
import { Decimal } from '../../../framework/model/decimal.js';

const units = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.maxSafeInteger(), fc.constantFrom(0, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER));
const scale = fc.integer({ min: 0, max: 12 });

/** `u` x 10^-s as a Decimal, through BigInt text (not the code under test). */
function exact(u: number, s: number): Decimal {
  return new Decimal(BigInt(u).toString()).dividedBy(new Decimal(10).pow(s));
}

describe('ScaledEquityPoint', () => {
  it('is the Decimal of its units, and writes the text toFixed() writes', () => {
    fc.assert(fc.property(units, scale, (u, s) => {
      const point = new ScaledEquityPoint(0, u, s, {});
      expect(point.equity.equals(exact(u, s))).toBe(true);
      expect(point.text).toBe(exact(u, s).toFixed());
      expect(equityText(point)).toBe(exact(u, s).toFixed());
      expect(isPositiveEquity(point)).toBe(u > 0);
    }));
  });

  it('compares with samples of its scale, of another scale, and Decimal samples as the Decimals do', () => {
    fc.assert(fc.property(units, scale, units, scale, fc.boolean(), (a, sa, b, sb, plain) => {
      const left = new ScaledEquityPoint(0, a, sa, {});
      const right: EquityPoint = plain ? { time: 0, equity: exact(b, sb), positions: {} } : new ScaledEquityPoint(0, b, sb, {});
      expect(Math.sign(compareEquity(left, right))).toBe(exact(a, sa).comparedTo(exact(b, sb)));
      expect(Math.sign(compareEquity(right, left))).toBe(exact(b, sb).comparedTo(exact(a, sa)));
    }));
  });
});

describe('EquityArea', () => {
  it('sums equity x ms exactly, whatever the samples\' scales', () => {
    // Gaps of whole milliseconds mostly; a replay's recorded times also make fractional ones, in
    // whole microseconds (a double of 17 digits at 10^-3 would make sums span more than the
    // Decimals' 50 digits, which round, however added).
    const gap = fc.oneof(fc.integer({ min: 0, max: 10 ** 10 }), fc.integer({ min: 1, max: 10 ** 9 }).map((us) => us / 1000));
    const sample = fc.tuple(units, fc.constantFrom(2, 2, 7, -1), gap);
    fc.assert(fc.property(fc.array(sample, { maxLength: 30 }), (samples) => {
      const area = new EquityArea();
      let expected = new Decimal(0);
      for (const [u, s, ms] of samples) {
        const point: EquityPoint = s < 0 ? { time: 0, equity: exact(u, 3), positions: {} } : new ScaledEquityPoint(0, u, s, {});
        area.add(point, ms);
        expected = expected.plus(exact(u, s < 0 ? 3 : s).times(ms));
      }
      expect(area.total().equals(expected)).toBe(true);
    }));
  });

  it('stays exact over a long run of large samples (its running sums carried into BigInt as they grow)', () => {
    const area = new EquityArea();
    let expected = 0n;
    for (let i = 0; i < 6_000; i++) {
      const units = 1_000_000_000_000_000 + i * 7_919;
      const ms = 60_000 + (i % 3);
      area.add(new ScaledEquityPoint(0, units, 7, {}), ms);
      expected += BigInt(units) * BigInt(ms);
    }
    expect(area.total().equals(new Decimal(expected.toString()).dividedBy(10 ** 7))).toBe(true);
  });
});
