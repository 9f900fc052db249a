import { ZERO, type Decimal } from '../model/decimal.js';

/**
 * The framework's one valuation of holdings in one currency (the kill switch's equity, a
 * backtest's equity curve): the currency itself at face value, every other non-zero amount at
 * `priceOf(currency)` (a price in the valuation currency, from whatever source the caller has:
 * a book's mid, the last trade). Undefined when a non-zero holding has no price: a valuation that
 * leaves a holding out would read as a loss of all of it.
 */
export function valueHoldings(
  holdings: Iterable<readonly [string, Decimal]>, currency: string, priceOf: (currency: string) => Decimal | undefined,
): Decimal | undefined {
  let total = ZERO;
  for (const [held, amount] of holdings) {
    if (held === currency) {
      total = total.plus(amount);
      continue;
    }
    if (amount.isZero()) continue;
    const price = priceOf(held);
    if (price === undefined) return undefined;
    total = total.plus(amount.times(price));
  }
  return total;
}
