import type { Decimal } from '../../framework/model/decimal.js';
import { parseScaled } from '../../framework/model/scaled.js';

/**
 * `value / previous - 1` as a float, for a positive `previous`: the number decimal.js gives
 * (`value.dividedBy(previous).minus(1).toNumber()`, the quotient to 50 significant digits), which
 * is the one every equity return of a report is. `valueText` and `previousText`, when given, must
 * be the two values' own plain texts (`toFixed()`); then, when both are safe integers at the scale
 * of the longer one and the return lies in (-1, 1), it is worked out in doubles instead, with the
 * same result:
 *
 * With V and P those integers, `(V - P) / P` in doubles is the exact return `r` correctly rounded
 * (V - P and P are exact, and IEEE division rounds correctly). decimal.js rounds the quotient to 50
 * digits and the difference again, so its decimal lies within 1.5e-49 of `r`, and the double it
 * becomes is the same unless a rounding boundary (a midpoint between two doubles) lies between
 * them. It cannot: such a midpoint m has 54 significant bits, so `r - m`, when not zero, is at
 * least `|r| x 2^-54 / P >= 2^-54 / P^2 > 2^-160 = 6.8e-49` away (|r| >= 1 / P, P < 2^53); it
 * cannot be zero either (r = m would need P divisible by 2^54); nor can decimal.js's 50-digit
 * value be m itself (m has more than 50 significant digits).
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

function decimalsOf(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}
