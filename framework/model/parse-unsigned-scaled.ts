/** Exact powers of ten as doubles (10^22 is the last one a double holds exactly). */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Texts up to this length have at most 9 digits when they hold a dot: an int32 accumulator fits. */
const SHORT_DOTTED = 10;
/** Texts up to this length have at most 9 digits whatever they hold. */
const SHORT_TEXT = 9;

/**
 * Unsigned plain decimal `text` times 10^scale as an integer, in one pass that validates while it
 * converts; NaN when the text is not a plain unsigned decimal (digits with at most one dot, at
 * least one digit), has non-zero digits beyond `scale` decimals, or the value does not fit a safe
 * integer. The book's per-level hot path: callers send NaN to their exact (BigInt) slow path.
 *
 * Every intermediate is an integer: digits accumulate as an integer, and a final rescale
 * multiplies by, or divides exactly by, a power of ten. Exchanges send prices and quantities with
 * a fixed number of decimals, so the usual text has its dot exactly `scale` characters from the
 * end: that case runs two straight digit loops in int32 arithmetic (`Math.imul`, which stays off
 * the slower double multiply-add chain) and folds the digit checks into one sign test at the end,
 * leaving no data-dependent branch per character. The function is kept small so the optimiser
 * inlines it at both call sites of the book's level loop.
 */
export function parseUnsignedScaled(text: string, scale: number): number {
  const length = text.length;
  const dot = length - 1 - scale;
  if (dot > 0 && length <= SHORT_DOTTED && text.charCodeAt(dot) === 46) {
    let n = 0;
    // A character outside '0'..'9' makes `digit` or `9 - digit` negative: the sign bit sticks.
    let invalid = 0;
    for (let i = 0; i < dot; i++) {
      const digit = text.charCodeAt(i) - 48;
      invalid |= digit | (9 - digit);
      n = (Math.imul(n, 10) + digit) | 0;
    }
    for (let i = dot + 1; i < length; i++) {
      const digit = text.charCodeAt(i) - 48;
      invalid |= digit | (9 - digit);
      n = (Math.imul(n, 10) + digit) | 0;
    }
    return invalid < 0 ? Number.NaN : n;
  }
  return parseOtherUnsignedScaled(text, scale);
}

/** {@link parseUnsignedScaled} for a text whose decimals differ from the scale, or without a dot. */
function parseOtherUnsignedScaled(text: string, scale: number): number {
  const length = text.length;
  if (length > SHORT_TEXT || length < 2) return parseLongUnsignedScaled(text, scale);
  let n = 0;
  let dot = -1;
  for (let i = 0; i < length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit >= 0 && digit <= 9) n = (Math.imul(n, 10) + digit) | 0;
    else if (digit === -2 && dot < 0) dot = i;
    else return Number.NaN;
  }
  return rescale(n, dot < 0 ? scale : scale - (length - 1 - dot));
}

/**
 * {@link parseUnsignedScaled} for texts of any length, accumulating in doubles; decimals beyond
 * the scale must be zeros and are not accumulated, so padding never pushes a value out of range.
 * While the result is <= 2^53 - 1 every intermediate was too (the accumulation never decreases
 * and doubles round monotonically), so a result that passes the final range test is exact.
 */
export function parseLongUnsignedScaled(text: string, scale: number): number {
  const length = text.length;
  let n = 0;
  let decimals = -1;
  let digits = 0;
  for (let i = 0; i < length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit === -2) {
      if (decimals >= 0) return Number.NaN;
      decimals = 0;
      continue;
    }
    if (digit < 0 || digit > 9) return Number.NaN;
    digits++;
    if (decimals >= 0) {
      if (decimals === scale) {
        if (digit !== 0) return Number.NaN;
        continue;
      }
      decimals++;
    }
    n = n * 10 + digit;
  }
  if (digits === 0 || n > Number.MAX_SAFE_INTEGER) return Number.NaN;
  return rescale(n, decimals < 0 ? scale : scale - decimals);
}

/** `n` x 10^shift when that is an exact safe integer (a negative shift must drop only zeros). */
function rescale(n: number, shift: number): number {
  if (shift === 0 || n === 0) return n;
  if (shift > 0) {
    const scaled = shift < POW10.length ? n * (POW10[shift] as number) : Number.POSITIVE_INFINITY;
    return scaled <= Number.MAX_SAFE_INTEGER ? scaled : Number.NaN;
  }
  if (-shift >= POW10.length) return Number.NaN;
  const divisor = POW10[-shift] as number;
  return n % divisor === 0 ? n / divisor : Number.NaN;
}
