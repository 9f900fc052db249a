import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultQuantityIncrement, inferTickSize, priceDecimals } from '../../../backtest/recording/candle-grid.js';
import { Decimal } from '../../../framework/model/decimal.js';

describe('candle grid inference', () => {
  it.each([
    ['42283.58', 2],
    ['42283.50', 1],
    ['100', 0],
    ['0.30000000000000004', 1],
    ['218102.59507500002', 6],
    ['0.1234567890123', 13],
    ['1234567890.1234567', 5],
  ])('price %s counts %i decimals', (text, decimals) => {
    expect(priceDecimals(text)).toBe(decimals);
  });

  it('a float artefact of a short decimal counts no more decimals than the decimal itself', () => {
    // x + y of two 2-decimal prices, as a float sum prints it (often 17 significant digits).
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 ** 9 }), fc.integer({ min: 1, max: 10 ** 9 }), (a, b) => {
      const text = String(a / 100 + b / 100);
      if (text.includes('e')) return;
      expect(priceDecimals(text)).toBeLessThanOrEqual(2);
    }));
  });

  it('infers 10^-d and refuses more than 12 decimals', () => {
    expect(inferTickSize(2, 'x').toFixed()).toBe('0.01');
    expect(inferTickSize(0, 'x').toFixed()).toBe('1');
    expect(() => inferTickSize(13, 'f.csv:7.low')).toThrow(/f\.csv:7\.low has 13 decimals/);
  });

  it('sizes the default lot at 10^-4 to 10^-3 quote at the highest price, within 1 .. 10^-8', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 ** 15 }), fc.integer({ min: 0, max: 8 }), (units, decimals) => {
      const high = new Decimal(units).dividedBy(new Decimal(10).pow(decimals));
      const lot = defaultQuantityIncrement(high);
      const value = lot.times(high);
      if (lot.equals(1)) expect(value.lessThan('0.001')).toBe(true);
      else if (lot.equals('0.00000001')) expect(value.greaterThanOrEqualTo('0.0001')).toBe(true);
      else expect(value.greaterThanOrEqualTo('0.0001') && value.lessThan('0.001')).toBe(true);
    }));
  });
});
