const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;
/** Digits on either side of the dot that are read exactly into a double (10^15 < 2^53). */
const MAX_DIGITS = 15;
const POW10 = Array.from({ length: MAX_DIGITS + 1 }, (_, i) => 10 ** i);
const POW2 = Array.from({ length: 64 }, (_, i) => 2 ** i);
const TWO_32 = 2 ** 32;
const TWO_MINUS_52 = 2 ** -52;
/** Half the gap between 1 and the next double; a power of two times it is half the ulp there. */
const HALF_ULP_OF_ONE = 2 ** -53;

/**
 * The double nearest to the plain decimal `digits` or `digits.digits` in `bytes[start, end)`,
 * which is what `JSON.parse` and `Number` make of it, computed without building a string; NaN
 * when this shortcut cannot vouch for the result (a sign, an exponent, more than 15 digits on
 * either side of the dot, or a value too close to halfway between two doubles), and the caller
 * asks the engine's own parser. A recording's frame times (`1723161254340.863867`: 19 significant
 * digits, more than a double holds) are read this way.
 *
 * Why it is exact: the whole part W and the fraction's digits F are exact integers, so
 * f = F / 10^k is the double nearest to the fraction (one rounding of exact operands), within
 * f * 2^-53 of it. r = W + f rounds once more; its error W + f - r is computed exactly (r - W is a
 * multiple of r's ulp no larger than 1, and f lies within half an ulp of it). When that error is
 * short of half an ulp by more than f's own error, no double lies nearer to W + F / 10^k than r.
 */
export function nearestDouble(bytes: Uint8Array, start: number, end: number): number {
  let pos = start;
  let whole = 0;
  while (pos < end) {
    const c = bytes[pos] as number;
    if (c < ZERO || c > NINE) break;
    whole = whole * 10 + (c - ZERO);
    pos++;
  }
  if (pos === start || pos - start > MAX_DIGITS) return Number.NaN;
  if (pos === end) return whole;
  if (bytes[pos] !== DOT) return Number.NaN;
  const fractionStart = ++pos;
  let fraction = 0;
  while (pos < end) {
    const c = bytes[pos] as number;
    if (c < ZERO || c > NINE) return Number.NaN;
    fraction = fraction * 10 + (c - ZERO);
    pos++;
  }
  const digits = pos - fractionStart;
  if (digits === 0 || digits > MAX_DIGITS) return Number.NaN;
  const f = fraction / (POW10[digits] as number);
  if (whole === 0) return f;
  const r = whole + f;
  const error = f - (r - whole);
  // r's binary exponent, from its integer part (1 <= r < 2^53).
  const high = Math.floor(r / TWO_32);
  const exponent = high !== 0 ? 63 - Math.clz32(high) : 31 - Math.clz32(Math.floor(r));
  const power = POW2[exponent] as number;
  // At a power of two the doubles below are twice as dense: left to the engine's parser.
  if (power === r) return Number.NaN;
  const halfUlp = power * HALF_ULP_OF_ONE;
  return Math.abs(error) < halfUlp - f * TWO_MINUS_52 ? r : Number.NaN;
}
