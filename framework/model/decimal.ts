import { Decimal as DecimalJs } from 'decimal.js';

/**
 * The one decimal.js clone used for money: prices, quantities, fees, balances.
 *
 * Precision 50 significant digits is far beyond any exchange value (they carry at most ~30), so
 * arithmetic on wire values is exact; values are always built from strings, never from floats.
 * `toExpNeg`/`toExpPos` keep `toString()` in plain notation, which is what the wire expects.
 */
export const Decimal = DecimalJs.clone({
  precision: 50,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -60,
  toExpPos: 60,
});

/** An instance of {@link Decimal}. */
export type Decimal = DecimalJs;

/** Rounding modes re-exported so callers never reach into decimal.js directly. */
export const Rounding = {
  up: DecimalJs.ROUND_UP,
  down: DecimalJs.ROUND_DOWN,
  ceil: DecimalJs.ROUND_CEIL,
  floor: DecimalJs.ROUND_FLOOR,
  halfUp: DecimalJs.ROUND_HALF_UP,
  halfDown: DecimalJs.ROUND_HALF_DOWN,
  halfEven: DecimalJs.ROUND_HALF_EVEN,
} as const;
export type Rounding = (typeof Rounding)[keyof typeof Rounding];

/**
 * A decimal number kept as the exact text the exchange sent (plain notation, optional sign and
 * fraction). Market-data records keep this form so the hot path never touches decimal.js; convert
 * with {@link dec} or with an `Instrument`'s integer tick helpers.
 */
export type DecimalString = string & { readonly __decimalString: unique symbol };

const PLAIN_DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)$/;

/** True when `text` is a plain decimal literal such as `"0.0500000"` or `"-12"`. */
export function isDecimalString(text: string): text is DecimalString {
  return PLAIN_DECIMAL.test(text);
}

/** Builds a Decimal from a decimal string or an integer; floats are refused to keep money exact. */
export function dec(value: string | number | Decimal): Decimal {
  if (typeof value === 'number' && !Number.isInteger(value)) {
    throw new TypeError(`dec(): refusing float ${value}; pass a decimal string`);
  }
  return new Decimal(value);
}

/** Zero, shared. Decimals are immutable so one instance serves every caller. */
export const ZERO: Decimal = new Decimal(0);
/** One, shared. */
export const ONE: Decimal = new Decimal(1);

/** Plain-notation text of a decimal (never exponent form), as the wire expects. */
export function toWire(value: Decimal): string {
  return value.toFixed();
}
