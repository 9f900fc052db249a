import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError, UnrepresentableValueError } from '../../../../framework/model/errors.js';
import { GridReader, checkText } from '../../../../backtest/venue/matching/grid-reader.js';
import { instrument } from './market-fixtures.js';

describe('GridReader', () => {
  const eth = new GridReader(instrument('0.01', '0.0001'));
  const coarse = new GridReader(instrument('0.05', '0.5'));

  it('reads prices as ticks; off the grid or malformed is NaN', () => {
    expect(eth.ticks('2684.05')).toBe(268405);
    expect(eth.ticks('2684.050')).toBe(268405);
    expect(eth.ticks('2684.055')).toBeNaN();
    expect(coarse.ticks('2684.05')).toBe(53681);
    expect(coarse.ticks('2684.07')).toBeNaN();
    expect(eth.ticks('99999999999999999.99')).toBeNaN();
    expect(eth.ticks('1e3')).toBeNaN();
    // More units of the price scale than 2^53, yet fewer ticks of 0.05: read exactly.
    expect(coarse.ticks('450359962737049.50')).toBe(9007199254740990);
    expect(coarse.ticks('450359962737049.55')).toBe(9007199254740991);
    expect(coarse.ticks('450359962737049.60')).toBeNaN();
  });

  it('reads quantities as whole lots, rounding down; beyond 2^53 - 1 lots is a typed error, never a cap', () => {
    expect(eth.lots('1.5')).toBe(15000);
    expect(eth.lots('0.00019')).toBe(1);
    expect(eth.lots('0.00009')).toBe(0);
    expect(coarse.lots('1.4')).toBe(2);
    expect(coarse.lots('1.49999')).toBe(2);
    expect(() => eth.lots('9999999999999999999')).toThrow(UnrepresentableValueError);
    expect(() => coarse.lots('9999999999999999999')).toThrow(/quantity: is more than 2\^53 - 1 lots/);
    // More units of the quantity scale than 2^53, yet fewer lots: read exactly.
    expect(coarse.lots('4503599627370495')).toBe(9007199254740990);
    expect(coarse.lots('4503599627370495.4')).toBe(9007199254740990);
    expect(() => coarse.lots('4503599627370496')).toThrow(UnrepresentableValueError);
    expect(eth.lots('-1')).toBeNaN();
    expect(eth.lots('1.2.3')).toBeNaN();
  });

  it('rounding down never reads more than the text says', () => {
    fc.assert(fc.property(fc.nat(10 ** 9), fc.integer({ min: 0, max: 8 }), (units, decimals) => {
      const text = decimals === 0 ? String(units) : `${Math.floor(units / 10 ** decimals)}.${String(units % 10 ** decimals).padStart(decimals, '0')}`;
      const lots = coarse.lots(text);
      // lots x 0.5 <= value < (lots + 1) x 0.5, compared in integers of 10^-decimals.
      expect(lots * 5 * 10 ** decimals).toBeLessThanOrEqual(units * 10);
      expect((lots + 1) * 5 * 10 ** decimals).toBeGreaterThan(units * 10);
    }));
  });

  it('converts public trades and names the malformed field', () => {
    expect(eth.trade({ timestamp: 1, id: '1', price: '2684.05' as never, quantity: '0.0345' as never, side: 'sell' }))
      .toEqual({ priceTicks: 268405, lots: 345, side: 'sell', time: 1 });
    expect(eth.trade({ timestamp: 1, id: '1', price: '2684.051' as never, quantity: '1' as never, side: 'buy' }).priceTicks).toBeNaN();
    expect(() => eth.trade({ timestamp: 1, id: '1', price: 'x' as never, quantity: '1' as never, side: 'buy' }, 'trades[3]')).toThrow(/trades\[3\]\.price/);
    expect(() => checkText('1.0.0', 'a[0]')).toThrow(ParseError);
    expect(() => checkText('12.5', 'a[0]')).not.toThrow();
  });
});
