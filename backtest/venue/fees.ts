import type { Decimal} from '../../framework/model/decimal.js';
import { ZERO } from '../../framework/model/decimal.js';
import type { SymbolInfo } from '../../framework/model/resources/symbol.js';

/** Fee rates that apply to one order. */
export interface FeeRates {
  readonly take: Decimal;
  readonly make: Decimal;
}

/**
 * The order's rates: the symbol's, raised by the order's own `take_rate`/`make_rate` when those are
 * higher ("can only increase the fee", document 001).
 */
export function effectiveRates(info: SymbolInfo, takeRate?: Decimal, makeRate?: Decimal): FeeRates {
  return {
    take: takeRate !== undefined && takeRate.greaterThan(info.take_rate) ? takeRate : info.take_rate,
    make: makeRate !== undefined && makeRate.greaterThan(info.make_rate) ? makeRate : info.make_rate,
  };
}

/**
 * The rate a reservation provisions for: max(take, make), the fee the order may end up paying
 * whichever way it fills. A negative maximum (both rebates) provisions nothing rather than shrinking
 * the principal, which must always be covered.
 */
export function reserveRate(rates: FeeRates): Decimal {
  const max = rates.take.greaterThan(rates.make) ? rates.take : rates.make;
  return max.isNegative() ? ZERO : max;
}

/**
 * Fee of one execution: `base` (the traded notional in the fee currency) times the taker or maker
 * rate. Kept exact, without rounding to a currency precision; negative is a rebate.
 */
export function tradeFee(base: Decimal, rates: FeeRates, taker: boolean): Decimal {
  return base.times(taker ? rates.take : rates.make);
}
