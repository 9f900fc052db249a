import { Decimal } from '../../../framework/model/decimal.js';

/**
 * The mark price at which a position reaches a margin threshold. With cash C (for a position that
 * shares its pocket: the pocket's cash plus the others' unrealized PnL minus their threshold
 * margins), entry value E, size q > 0 and threshold leverage K (L x the config's liquidation or
 * margin-call multiplier), the threshold is reached when C + unrealized < M q / K:
 * - long:  M < (E - C) / (q (1 - 1/K));
 * - short: M > (C + E) / (q (1 + 1/K)).
 * The price is rounded to the tick away from safety (a long's up, a short's down), so the threshold
 * is reached at or before the price shown; undefined when no positive price reaches it (a long
 * whose cash covers its entry value, or K <= 1 for a long). The maintenance margin's rounding up to
 * the notional unit is ignored here (it moves the true price by far less than a tick).
 */
export function thresholdPrice(long: boolean, cash: Decimal, entryValue: Decimal, quantity: Decimal, k: Decimal, tick: Decimal): Decimal | undefined {
  if (quantity.isZero()) return undefined;
  const inverse = new Decimal(1).dividedBy(k);
  if (long) {
    const factor = new Decimal(1).minus(inverse);
    if (!factor.greaterThan(0)) return undefined;
    const price = entryValue.minus(cash).dividedBy(quantity.times(factor));
    return price.greaterThan(0) ? price.dividedBy(tick).ceil().times(tick) : undefined;
  }
  const price = cash.plus(entryValue).dividedBy(quantity.times(new Decimal(1).plus(inverse)));
  const rounded = price.dividedBy(tick).floor().times(tick);
  return rounded.greaterThan(0) ? rounded : undefined;
}
