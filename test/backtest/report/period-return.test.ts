import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { periodReturn } from '../../../backtest/report/period-return.js';
import { Decimal } from '../../../framework/model/decimal.js';

/** `units` x 10^-scale as a plain decimal text, from the integer's digits. */
function text(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

const MAX = 2n ** 53n - 1n;

/** A positive previous value and a value near it (or anywhere), each with its own scale. */
const pair = fc.tuple(
  fc.bigInt({ min: 1n, max: MAX }), fc.integer({ min: 0, max: 12 }),
  fc.oneof(fc.bigInt({ min: -1000n, max: 1000n }), fc.bigInt({ min: -MAX, max: MAX })), fc.integer({ min: 0, max: 12 }),
).map(([p, ps, delta, vs]) => {
  // The value as the previous one moved by `delta` units of the finer scale (clamped to the safe range).
  const scale = Math.max(ps, vs);
  const pUnits = p * 10n ** BigInt(scale - ps);
  let vUnits = pUnits + delta;
  if (vUnits > MAX) vUnits = MAX;
  if (vUnits < -MAX) vUnits = -MAX;
  return { previous: text(p, ps), value: text(vUnits, scale) };
});

describe('periodReturn', () => {
  it('is the float decimal.js gives for value / previous - 1, with and without the texts', () => {
    fc.assert(fc.property(pair, ({ previous, value }) => {
      const expected = new Decimal(value).dividedBy(new Decimal(previous)).minus(1).toNumber();
      const v = new Decimal(value);
      const p = new Decimal(previous);
      expect(periodReturn(v, p, v.toFixed(), p.toFixed())).toBe(expected);
      expect(periodReturn(v, p)).toBe(expected);
    }), { numRuns: 3000 });
  });

  it('agrees on the values of a long run: large balances, small moves, values beyond 2^53 units', () => {
    const cases: [string, string][] = [
      ['100000000.00000001', '100000000'], ['99999999.99999999', '100000000'], ['9007199254740991', '9007199254740990'],
      ['90071992547409.93', '90071992547409.91'], ['1', '3'], ['0.5', '1'], ['2', '1'], ['3', '1'], ['123456789012345678901', '123456789012345678900'],
      ['0.000000000001', '0.000000000003'], ['100', '100'],
    ];
    for (const [value, previous] of cases) {
      const v = new Decimal(value);
      const p = new Decimal(previous);
      expect([value, previous, periodReturn(v, p, v.toFixed(), p.toFixed())]).toEqual([value, previous, v.dividedBy(p).minus(1).toNumber()]);
    }
  });
});
