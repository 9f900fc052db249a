import { Decimal } from '../../framework/model/decimal.js';
import { ValidationError } from '../../framework/model/errors.js';
import { scaleOf } from '../../framework/model/scaled.js';

/**
 * Significant digits a price text may carry before its tail counts as a binary floating-point
 * artefact. A double holds 15 significant decimal digits faithfully; texts written from doubles
 * with 16 or 17 digits (`0.30000000000000004`, `218102.59507500002`) carry noise past that.
 */
export const FAITHFUL_DIGITS = 15;

/** Finest tick size the import infers (10^-12); a finer grid must be given explicitly. */
export const MAX_PRICE_DECIMALS = 12;

/** Coarsest and finest default quantity increments: 1 and 10^-8 (a satoshi for BTC-like assets). */
const MIN_QUANTITY_DECIMALS = 0;
const MAX_QUANTITY_DECIMALS = 8;
/** Decimals added to the highest price's magnitude so one lot is worth 10^-4 to 10^-3 quote. */
const LOT_VALUE_DECIMALS = 4;

/**
 * Decimals a CSV price text really has: its own decimals when it has at most
 * {@link FAITHFUL_DIGITS} significant digits, else those of the text rounded to that many
 * (`0.30000000000000004` -> 1, `218102.59507500002` -> 6). Trailing zeros never count.
 */
export function priceDecimals(text: string): number {
  // The usual short text has few significant digits: its decimals are the answer, no Decimal built.
  if (text.length <= FAITHFUL_DIGITS) return scaleOf(text);
  let value = new Decimal(text);
  if (value.precision() > FAITHFUL_DIGITS) value = value.toSignificantDigits(FAITHFUL_DIGITS);
  return value.decimalPlaces();
}

/**
 * Tick size of prices with at most `decimals` decimals: 10^-decimals. More than
 * {@link MAX_PRICE_DECIMALS} is refused (naming where it was seen) rather than inferred, so a
 * noisy column never yields an absurdly fine grid.
 */
export function inferTickSize(decimals: number, where: string): Decimal {
  if (decimals > MAX_PRICE_DECIMALS) {
    throw new ValidationError('tick_size', `cannot be inferred: ${where} has ${decimals} decimals, more than ${MAX_PRICE_DECIMALS}; give --tick-size`);
  }
  return new Decimal(1).dividedBy(new Decimal(10).pow(decimals));
}

/**
 * Default quantity increment for a market whose highest price is `highPrice` (the volume column is
 * never used: it is a sum of trades, often written from floats). The increment is 10^-k with
 * k = floor(log10(highPrice)) + 4, kept within 0..8, so one lot is worth between 10^-4 and 10^-3
 * quote at that price: fine enough for any order a strategy sizes in quote, and coarse enough that
 * an order worth 10^10 quote is at most ~10^15 lots, inside 2^53 (BTC at 100,000 gets 10^-8, ETH
 * at 3,000 gets 10^-7, a 1.5 price gets 10^-4, prices below 0.001 get 1).
 */
export function defaultQuantityIncrement(highPrice: Decimal): Decimal {
  const magnitude = highPrice.isZero() ? 0 : Math.floor(highPrice.e);
  const decimals = Math.min(MAX_QUANTITY_DECIMALS, Math.max(MIN_QUANTITY_DECIMALS, magnitude + LOT_VALUE_DECIMALS));
  return new Decimal(1).dividedBy(new Decimal(10).pow(decimals));
}
