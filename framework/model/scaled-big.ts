/**
 * BigInt counterparts of framework/model/scaled.ts for the rare book values that do not fit a
 * safe integer at the book's scale (placeholder asks at 9999999999999.000, huge quantities at a
 * fine scale). Off the hot path.
 */

/** Unsigned decimal text times 10^scale as a BigInt; undefined when the text has more decimals. */
export function parseScaledBig(text: string, scale: number): bigint | undefined {
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  let fraction = dot < 0 ? '' : text.slice(dot + 1);
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  fraction = fraction.slice(0, end);
  if (fraction.length > scale) return undefined;
  return BigInt((whole === '' ? '0' : whole) + fraction.padEnd(scale, '0'));
}

/** Plain decimal text of a scaled BigInt with exactly `scale` decimals. */
export function formatScaledBig(value: bigint, scale: number): string {
  const negative = value < 0n;
  let digits = (negative ? -value : value).toString();
  if (scale === 0) return `${negative ? '-' : ''}${digits}`;
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  const cut = digits.length - scale;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

/** Largest integer a book keeps as a plain number. */
export const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);
