/**
 * Exact decimal text <-> scaled integer conversion without decimal.js, for the hot path (books,
 * matching). `parseScaled("2684.05", 2)` is `268405`. Results stay exact while they are safe
 * integers (|n| < 2^53), which covers any price or quantity at any realistic scale.
 */

/**
 * `text` times 10^scale as an integer, or NaN when the text is not a plain decimal, has non-zero
 * digits beyond `scale` decimals, or does not fit a safe integer.
 */
export function parseScaled(text: string, scale: number): number {
  const len = text.length;
  let i = 0;
  let negative = false;
  if (len === 0) return Number.NaN;
  if (text.charCodeAt(0) === 45) {
    negative = true;
    i = 1;
    if (len === 1) return Number.NaN;
  }
  let n = 0;
  let fractionDigits = -1;
  let digits = 0;
  for (; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (fractionDigits >= 0) return Number.NaN;
      fractionDigits = 0;
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9) return Number.NaN;
    digits++;
    if (fractionDigits >= 0) {
      if (fractionDigits === scale) {
        if (d !== 0) return Number.NaN;
        continue;
      }
      fractionDigits++;
    }
    n = n * 10 + d;
  }
  if (digits === 0) return Number.NaN;
  if (fractionDigits < 0) fractionDigits = 0;
  for (; fractionDigits < scale; fractionDigits++) n *= 10;
  if (n > Number.MAX_SAFE_INTEGER) return Number.NaN;
  return negative ? -n : n;
}

/** Number of digits after the decimal point in a plain decimal text, ignoring trailing zeros. */
export function scaleOf(text: string): number {
  const dot = text.indexOf('.');
  if (dot < 0) return 0;
  let end = text.length;
  while (end > dot + 1 && text.charCodeAt(end - 1) === 48) end--;
  return end - dot - 1;
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
