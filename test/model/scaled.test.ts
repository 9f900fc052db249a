import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import { formatScaled, parseScaled, scaleOf } from '../../framework/model/scaled.js';

const safeInt = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const scale = fc.integer({ min: 0, max: 12 });

/** Plain decimal text with up to `maxDecimals` fraction digits, possibly trailing zeros. */
const decimalText = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 3 }))
  .map(([neg, units, decimals, zeros]) => {
    const digits = units.toString().padStart(decimals + 1, '0');
    const int = digits.slice(0, digits.length - decimals);
    const frac = digits.slice(digits.length - decimals) + '0'.repeat(zeros);
    return `${neg && units !== 0n ? '-' : ''}${int}${frac === '' ? '' : `.${frac}`}`;
  });

describe('parseScaled / formatScaled', () => {
  it('examples', () => {
    expect(parseScaled('2684.05', 2)).toBe(268405);
    expect(parseScaled('0.0500000', 2)).toBe(5);
    expect(parseScaled('-1.5', 3)).toBe(-1500);
    expect(formatScaled(5, 3)).toBe('0.005');
    expect(formatScaled(-268405, 2)).toBe('-2684.05');
    expect(scaleOf('0.0500000')).toBe(2);
    expect(scaleOf('12')).toBe(0);
  });

  it('parseScaled(formatScaled(n, s), s) === n', () => {
    fc.assert(
      fc.property(safeInt, scale, (n, s) => {
        expect(parseScaled(formatScaled(n, s), s)).toBe(n);
      }),
    );
  });

  it('agrees with decimal.js times 10^scale for random decimal texts', () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 8, max: 12 }), (text, s) => {
        const expected = new Decimal(text).times(new Decimal(10).pow(s));
        expect(expected.isInteger()).toBe(true);
        if (expected.abs().lte(Number.MAX_SAFE_INTEGER)) expect(parseScaled(text, s)).toBe(expected.toNumber());
        else expect(parseScaled(text, s)).toBeNaN();
      }),
    );
  });

  it('gives NaN for text off the grid of the scale', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        const s = scaleOf(text);
        fc.pre(s > 0);
        expect(parseScaled(text, s - 1)).toBeNaN();
      }),
    );
  });

  it('gives NaN for malformed text and unsafe magnitudes', () => {
    for (const bad of ['', '-', '.', '1.2.3', '1e5', 'abc', ' 1', '+1']) expect(parseScaled(bad, 2)).toBeNaN();
    expect(parseScaled('90071992547409.93', 2)).toBeNaN();
  });
});
