import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ONE, ZERO, dec, isDecimalString, toWire } from '../../framework/model/decimal.js';

describe('Decimal', () => {
  it('is exact where floats are not', () => {
    expect(dec('0.1').plus(dec('0.2')).equals(dec('0.3'))).toBe(true);
    expect(dec('1').dividedBy(3).times(3).toFixed(40)).toBe('1.0000000000000000000000000000000000000000');
  });

  it('refuses floats but accepts integers and strings', () => {
    expect(() => dec(0.1)).toThrow(TypeError);
    expect(dec(5).equals(dec('5'))).toBe(true);
    expect(ZERO.plus(ONE).toFixed()).toBe('1');
  });

  it('writes plain notation on the wire, never exponents', () => {
    expect(toWire(dec('0.00000000000000000001'))).toBe('0.00000000000000000001');
    expect(toWire(dec('123456789012345678901234567890'))).toBe('123456789012345678901234567890');
    expect(new Decimal('1e-30').toString()).toBe('0.000000000000000000000000000001');
  });

  it('recognises plain decimal text only', () => {
    for (const ok of ['0', '-12', '0.0500000', '.5', '5.']) expect(isDecimalString(ok)).toBe(true);
    for (const bad of ['', '-', '1e5', '1,5', ' 1', 'NaN', '+1']) expect(isDecimalString(bad)).toBe(false);
  });

  it('round-trips any plain decimal text through toWire up to trailing zeros', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 25 }), (units, scale) => {
        const d = new Decimal(units.toString()).dividedBy(new Decimal(10).pow(scale));
        const text = toWire(d);
        expect(isDecimalString(text)).toBe(true);
        expect(new Decimal(text).equals(d)).toBe(true);
      }),
    );
  });
});
