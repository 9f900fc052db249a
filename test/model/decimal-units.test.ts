import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import { safeProduct, unitsOf } from '../../framework/model/decimal-units.js';

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** Oracle: the text's value x 10^scale by BigInt digit arithmetic, or undefined when not an integer or beyond 2^53 - 1. */
function expectedUnits(text: string, scale: number): number | undefined {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > scale) return undefined;
  const units = BigInt(whole + trimmed.padEnd(scale, '0'));
  if (units > MAX) return undefined;
  return units === 0n ? 0 : Number(negative ? -units : units);
}

const decimalText = fc.tuple(
  fc.boolean(),
  fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 10n ** 22n }).map(String)),
  fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), maxLength: 20 }),
).map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`);

describe('unitsOf', () => {
  it('reads exact scaled integers from the digit words', () => {
    expect(unitsOf(new Decimal('2684.05'), 2)).toBe(268405);
    expect(unitsOf(new Decimal('0.05'), 4)).toBe(500);
    expect(unitsOf(new Decimal('-0.0001'), 4)).toBe(-1);
    expect(unitsOf(new Decimal('1e10'), 0)).toBe(10_000_000_000);
    expect(unitsOf(new Decimal('0'), 8)).toBe(0);
    expect(unitsOf(new Decimal('-0'), 8)).toBe(0);
    expect(unitsOf(new Decimal('90071992547409.91'), 2)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('answers undefined, never a rounded count, for more decimals, 2^53 units or more, and non-finite values', () => {
    expect(unitsOf(new Decimal('2684.05'), 1)).toBeUndefined();
    expect(unitsOf(new Decimal('90071992547409.92'), 2)).toBeUndefined();
    expect(unitsOf(new Decimal('1e30'), 0)).toBeUndefined();
    expect(unitsOf(new Decimal('1.5'), 16)).toBeUndefined();
    expect(unitsOf(new Decimal(Number.NaN), 2)).toBeUndefined();
    expect(unitsOf(new Decimal(Number.POSITIVE_INFINITY), 2)).toBeUndefined();
  });

  it('property: equals the BigInt oracle at every scale', () => {
    fc.assert(fc.property(decimalText, fc.integer({ min: 0, max: 15 }), (text, scale) => {
      expect(unitsOf(new Decimal(text), scale)).toBe(expectedUnits(text, scale));
    }), { numRuns: 2000 });
  });
});

describe('safeProduct', () => {
  it('property: the exact product when it is a safe integer, undefined otherwise', () => {
    const operand = fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n });
    fc.assert(fc.property(operand, operand, (a, b) => {
      const exact = a * b;
      const inRange = exact <= MAX && exact >= -MAX;
      const product = safeProduct(Number(a), Number(b));
      expect(product === undefined ? undefined : BigInt(product)).toBe(inRange ? exact : undefined);
    }), { numRuns: 2000 });
  });
});
