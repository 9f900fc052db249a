import type { Decimal } from './decimal.js';

/** 10^0 .. 10^15: every power of ten below 2^53. */
export const POW10: readonly number[] = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** Largest scale whose power of ten is a safe integer. */
export const MAX_UNITS_SCALE = 15;

/** Base of decimal.js's digit words. */
const WORD_DIGITS = 7;

/**
 * `value` x 10^scale as an integer, read from the Decimal's digit words (decimal.js documents its
 * instances as `d` digits in base 10^7, `e` the decimal exponent, `s` the sign) without building
 * a Decimal or a string. Undefined when the value has no exact safe-integer count at that scale:
 * more than `scale` decimals, beyond 2^53 - 1 units, or not finite. Callers then take their
 * exact Decimal path, so nothing is ever rounded, clamped or skipped: undefined means "not this
 * way", never "no value".
 */
export function unitsOf(value: Decimal, scale: number): number | undefined {
  const words = value.d;
  if (words === null || words === undefined || !(scale >= 0 && scale <= MAX_UNITS_SCALE)) return undefined;
  const first = words[0] as number;
  if (first === 0) return 0;
  // Exponent of the last digit of the first word, at the requested scale.
  let exponent = value.e - digitCount(first) + 1 + scale;
  let units = 0;
  for (let i = 0; i < words.length; i++, exponent -= WORD_DIGITS) {
    const word = words[i] as number;
    if (word === 0) continue;
    let term: number;
    if (exponent >= 0) {
      if (exponent > 15) return undefined;
      term = word * (POW10[exponent] as number);
    } else {
      if (exponent <= -WORD_DIGITS) return undefined;
      const divisor = POW10[-exponent] as number;
      if (word % divisor !== 0) return undefined;
      term = word / divisor;
    }
    // Both operands are exact integers: a float result within the safe range is the exact one.
    units += term;
    if (term > Number.MAX_SAFE_INTEGER || units > Number.MAX_SAFE_INTEGER) return undefined;
  }
  return value.s < 0 ? -units : units;
}

/**
 * `value` x 10^scale as a BigInt, of any size: exact when `value` has at most `scale` decimals (the
 * callers' case; more would be cut by its text). The way beyond {@link unitsOf}'s range.
 */
export function bigUnitsOf(value: Decimal, scale: number): bigint {
  return BigInt(value.toFixed(scale).replace('.', ''));
}

/** a x b when the product is a safe integer (then it is exact); undefined otherwise. */
export function safeProduct(a: number, b: number): number | undefined {
  const product = a * b;
  return product <= Number.MAX_SAFE_INTEGER && product >= -Number.MAX_SAFE_INTEGER ? product : undefined;
}

/** Number of decimal digits of a positive integer below 10^7 (one digit word). */
function digitCount(word: number): number {
  if (word < 10) return 1;
  if (word < 100) return 2;
  if (word < 1_000) return 3;
  if (word < 10_000) return 4;
  if (word < 100_000) return 5;
  if (word < 1_000_000) return 6;
  return 7;
}
