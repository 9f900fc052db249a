import type { Decimal } from '../../framework/model/decimal.js';
import { decimalsOf, parseScaled } from '../../framework/model/scaled.js';

/**
 * `value / previous - 1` as a float, for a positive `previous`: the number decimal.js gives
 * (`value.dividedBy(previous).minus(1).toNumber()`, the quotient to 50 significant digits), which
 * is the one every equity return of a report is. `valueText` and `previousText`, when given, must
 * be the two values' own plain texts (`toFixed()`); then, when both are safe integers at the scale
 * of the longer one and the return lies in (-1, 1), it is worked out in doubles instead, with the
 * same result:
 *
 * With V and P those integers, `(V - P) / P` in doubles is the exact return `r` correctly rounded
 * (V - P and P are exact, and IEEE division rounds correctly). decimal.js rounds the quotient (in
 * (0, 2)) to 50 digits and the difference again, so its decimal lies within 0.6e-49 of `r`, and
 * the double it becomes is the same unless a rounding boundary (a midpoint between two doubles)
 * lies between them or is that decimal. Neither can happen: a midpoint near r is an odd multiple
 * of 2^e with 2^e >= |r| x 2^-55, so `r - m` is a multiple of 2^e / P, at least `2^-55 / P^2 >
 * 2^-161 = 3.4e-49` when not zero (|r| >= 1 / P, P < 2^53), and zero would need P divisible by
 * 2^55; and a midpoint below 1 has more than 50 significant digits, which decimal.js's value has not.
 */
export function periodReturn(value: Decimal, previous: Decimal, valueText?: string, previousText?: string): number {
  if (valueText !== undefined && previousText !== undefined) {
    const scale = Math.max(decimalsOf(valueText), decimalsOf(previousText));
    const v = parseScaled(valueText, scale);
    const p = parseScaled(previousText, scale);
    if (Number.isSafeInteger(v) && Number.isSafeInteger(p) && p > 0 && Math.abs(v - p) < p) return (v - p) / p;
  }
  if (value === previous || value.equals(previous)) return 0;
  return value.dividedBy(previous).minus(1).toNumber();
}
