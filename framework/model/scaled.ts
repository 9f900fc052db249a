import { parseUnsignedScaled } from './parse-unsigned-scaled.js';

/**
 * Exact decimal text <-> scaled integer conversion without decimal.js, for the hot path (books,
 * matching). `parseScaled("2684.05", 2)` is `268405`. Results stay exact while they are safe
 * integers (|n| < 2^53), which covers any price or quantity at any realistic scale.
 */

/**
 * `text` times 10^scale as an integer, or NaN when the text is not a plain decimal, has non-zero
 * digits beyond `scale` decimals, or does not fit a safe integer. Signed front of
 * {@link parseUnsignedScaled}, the one-pass converter the order book uses per level.
 */
export function parseScaled(text: string, scale: number): number {
  if (text.charCodeAt(0) !== 45) return parseUnsignedScaled(text, scale);
  const magnitude = parseUnsignedScaled(text.slice(1), scale);
  return magnitude === 0 ? 0 : -magnitude;
}

/** Number of digits after the decimal point in a plain decimal text, ignoring trailing zeros. */
export function scaleOf(text: string): number {
  const dot = text.indexOf('.');
  if (dot < 0) return 0;
  let end = text.length;
  while (end > dot + 1 && text.charCodeAt(end - 1) === 48) end--;
  return end - dot - 1;
}

/** Number of digits after the decimal point in a plain decimal text, trailing zeros included (`"12.340"` has 3). */
export function decimalsOf(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** Formats a scaled integer back to plain decimal text with exactly `scale` decimals. */
export function formatScaled(n: number, scale: number): string {
  if (scale === 0) return String(n);
  const negative = n < 0;
  let digits = String(negative ? -n : n);
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  const cut = digits.length - scale;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}
