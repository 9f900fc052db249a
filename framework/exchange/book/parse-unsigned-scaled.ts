/** Exact powers of ten as doubles (10^22 is the last one a double holds exactly). */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * Unsigned plain decimal `text` times 10^scale as an integer, in one pass that validates while it
 * converts; NaN when the text is not a plain unsigned decimal (digits with at most one dot, at
 * least one digit), has non-zero digits beyond `scale` decimals, or the value does not fit a safe
 * integer. The book's per-level hot path: callers send NaN to their exact (BigInt) slow path.
 *
 * Every intermediate is an integer: the digits accumulate as an integer, and the final rescale
 * multiplies by, or divides exactly by, a power of ten. While the result is <= 2^53 - 1 every
 * intermediate was too (the accumulation never decreases and doubles round monotonically), so a
 * result that passes the final range test is exact.
 */
export function parseUnsignedScaled(text: string, scale: number): number {
  const length = text.length;
  let n = 0;
  let dot = -1;
  for (let i = 0; i < length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit >= 0 && digit <= 9) n = n * 10 + digit;
    else if (digit === -2 && dot < 0) dot = i;
    else return Number.NaN;
  }
  let decimals = 0;
  if (dot >= 0) {
    decimals = length - dot - 1;
    if (length === 1) return Number.NaN;
  } else if (length === 0) {
    return Number.NaN;
  }
  if (n > Number.MAX_SAFE_INTEGER) return Number.NaN;
  const shift = scale - decimals;
  if (shift === 0) return n;
  if (shift > 0) {
    if (n === 0) return 0;
    const scaled = shift < POW10.length ? n * (POW10[shift] as number) : Number.POSITIVE_INFINITY;
    return scaled <= Number.MAX_SAFE_INTEGER ? scaled : Number.NaN;
  }
  // More decimals than the scale: acceptable only when the extra ones are zeros.
  if (-shift >= POW10.length) return n === 0 ? 0 : Number.NaN;
  const divisor = POW10[-shift] as number;
  return n % divisor === 0 ? n / divisor : Number.NaN;
}
