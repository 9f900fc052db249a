import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../framework/model/decimal.js';
import { UnrepresentableValueError } from '../../framework/model/errors.js';
import { Funds } from '../../framework/model/funds.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Decimal text of `units` x 10^-`scale`, written independently of the code under test. */
function decimalText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${digits.slice(digits.length - scale)}` : ''}`;
}

/** Units around 2^53 (both sides), small ones, and ones far beyond. */
const units = fc.oneof(
  fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }),
  fc.bigInt({ min: MAX_SAFE - 1000n, max: MAX_SAFE + 1000n }),
  fc.bigInt({ min: -MAX_SAFE - 1000n, max: -MAX_SAFE + 1000n }),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
);
const scale = fc.integer({ min: 0, max: 20 });
const amount = fc.tuple(units, scale).map(([n, s]) => decimalText(n, s));

describe('Funds', () => {
  it('keeps the units a plain number exactly while they are a safe integer', () => {
    expect(Funds.of(new Decimal('2684.05'), 'USDT', 'x').units).toBe(268405);
    expect(Funds.of(new Decimal('90071992547409.91'), 'USDT', 'x').units).toBe(Number.MAX_SAFE_INTEGER);
    expect(Funds.of(new Decimal('90071992547409.92'), 'USDT', 'x').units).toBe(9007199254740992n);
    expect(Funds.of(new Decimal('-90071992547409.92'), 'USDT', 'x').units).toBe(-9007199254740992n);
    // Back to a number once a result fits again.
    const big = Funds.of(new Decimal('90071992547409.92'), 'USDT', 'x');
    expect(big.minus(Funds.of(new Decimal('0.01'), 'USDT', 'x')).units).toBe(Number.MAX_SAFE_INTEGER);
    expect(Funds.of(new Decimal('1000000'), 'USDT', 'x').minus(Funds.of(new Decimal('0.0000000001'), 'USDT', 'x')).toFixed()).toBe('999999.9999999999');
  });

  it('writes the text Decimal.toFixed() writes', () => {
    for (const text of ['0', '1', '-1', '0.5', '-0.05', '2005', '1403.5', '0.000000000000000001', '123456789012345678901234.5']) {
      expect(Funds.of(new Decimal(text), 'USDT', 'x').toFixed()).toBe(new Decimal(text).toFixed());
    }
  });

  it('property: of(value).toFixed() is the value, at any scale and size', () => {
    fc.assert(fc.property(amount, (text) => {
      const funds = Funds.of(new Decimal(text), 'X', 'x');
      expect(funds.toFixed()).toBe(new Decimal(text).toFixed());
      expect(typeof funds.units === 'number').toBe(Number.isSafeInteger(Number(funds.units)) && BigInt(funds.units) <= MAX_SAFE && BigInt(funds.units) >= -MAX_SAFE);
    }), { numRuns: 2000 });
  });

  it('property: plus, minus, negated and compare agree with exact oracles, near and beyond 2^53 units', () => {
    // Sums and differences are worked out exactly in BigInt at the larger scale: Decimal itself
    // rounds a result beyond its 50 significant digits (units near 10^30 at 20 decimals get there).
    const exact = (n: bigint, from: number, to: number): bigint => n * 10n ** BigInt(to - from);
    const text = (n: bigint, s: number): string => new Decimal(decimalText(n, s)).toFixed();
    fc.assert(fc.property(fc.tuple(units, scale), fc.tuple(units, scale), ([ua, sa], [ub, sb]) => {
      const a = decimalText(ua, sa);
      const b = decimalText(ub, sb);
      const x = Funds.of(new Decimal(a), 'X', 'a');
      const y = Funds.of(new Decimal(b), 'X', 'b');
      const da = new Decimal(a);
      const db = new Decimal(b);
      const s = Math.max(sa, sb);
      expect(x.plus(y).toFixed()).toBe(text(exact(ua, sa, s) + exact(ub, sb, s), s));
      expect(x.minus(y).toFixed()).toBe(text(exact(ua, sa, s) - exact(ub, sb, s), s));
      expect(x.negated().toFixed()).toBe(text(-ua, sa));
      expect(x.compare(y)).toBe(da.comparedTo(db));
      expect(x.lessThanOrEqualTo(y)).toBe(da.lessThanOrEqualTo(db));
      expect(x.max(y).toFixed()).toBe(Decimal.max(da, db).toFixed());
      expect(x.min(y).toFixed()).toBe(Decimal.min(da, db).toFixed());
      expect([x.isZero(), x.isNegative(), x.isPositive()]).toEqual([da.isZero(), da.isNegative() && !da.isZero(), da.isPositive() && !da.isZero()]);
      expect(x.toDecimal().equals(da)).toBe(true);
    }), { numRuns: 3000 });
  });

  it('adds beyond Decimal\'s 50 significant digits exactly (the counterexample that rounded in the Decimal oracle)', () => {
    const sum = Funds.of(new Decimal('-23289504.93624661640740587731'), 'X', 'a').plus(Funds.of(new Decimal('-999999999999999999999976710496'), 'X', 'b'));
    expect(sum.toFixed()).toBe('-1000000000000000000000000000000.93624661640740587731');
  });

  it('property: ofUnits holds any safe integer and refuses anything else with an UnrepresentableValueError', () => {
    fc.assert(fc.property(fc.oneof(fc.integer(), fc.double(), fc.bigInt({ min: MAX_SAFE - 5n, max: MAX_SAFE + 5n }).map(Number)), fc.integer({ min: 0, max: 18 }), (n, s) => {
      if (Number.isSafeInteger(n)) {
        expect(Funds.ofUnits(n, s, 'ETHUSDT', 'buy funds').toFixed()).toBe(new Decimal(n).dividedBy(new Decimal(10).pow(s)).toFixed());
      } else {
        expect(() => Funds.ofUnits(n, s, 'ETHUSDT', 'buy funds')).toThrow(UnrepresentableValueError);
      }
    }), { numRuns: 1000 });
  });

  it('refuses a value that is not a finite number with an UnrepresentableValueError naming it', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => Funds.of(new Decimal(bad), 'USDT', 'balance')).toThrow(UnrepresentableValueError);
    }
    expect(() => Funds.of(new Decimal(Number.NaN), 'USDT', 'balance')).toThrow(/USDT balance/);
    expect(() => Funds.ofUnits(2 ** 53, 10, 'ETHUSDT', 'buy funds')).toThrow(/ETHUSDT buy funds/);
  });
});
