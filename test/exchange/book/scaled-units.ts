/**
 * A plain decimal text (`digits` or `digits.digits`) x 10^scale by BigInt digit arithmetic, for
 * the tests' expectations: undefined when that is not an integer or beyond 2^53 - 1.
 */
export function scaledUnits(text: string, scale: number): number | undefined {
  const [whole = '', fraction = ''] = text.split('.');
  if (/[1-9]/.test(fraction.slice(scale))) return undefined;
  const units = BigInt(whole + fraction.slice(0, scale).padEnd(scale, '0'));
  return units > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(units);
}
