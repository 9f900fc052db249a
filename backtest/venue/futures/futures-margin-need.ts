import type { Decimal } from '../../../framework/model/decimal.js';
import { reserveRate, type FeeRates } from '../fees.js';
import type { ReservationNeed } from '../reservations.js';
import { ceilToUnit, type FuturesTerms } from './futures-terms.js';

/**
 * Reservation currencies of futures order margin carry this prefix, so one reservation table holds
 * spot funds (`USDT`) and futures order margin (`futures:USDT`) apart.
 */
export const FUTURES_POCKET = 'futures:';

/** The reservation key of a margin currency's futures order margin. */
export function futuresPocket(currency: string): string {
  return FUTURES_POCKET + currency;
}

/** True when a reservation currency is futures order margin. */
export function isFuturesPocket(currency: string): boolean {
  return currency.startsWith(FUTURES_POCKET);
}

/** The margin currency of a futures reservation key. */
export function pocketCurrency(pocket: string): string {
  return pocket.slice(FUTURES_POCKET.length);
}

/**
 * Initial margin an order holds for `notional` (price x unfilled quantity) at leverage L (document
 * 001: margin orders reserve notional / leverage plus fees): `ceil(notional / L)` to the notional unit
 * plus the fee at max(take, make) on the notional, in the margin currency. A negative maximum rate
 * (both rebates) provisions no fee.
 */
export function orderMargin(terms: FuturesTerms, notional: Decimal, leverage: Decimal, rates: FeeRates): ReservationNeed {
  return {
    currency: futuresPocket(terms.marginCurrency),
    amount: ceilToUnit(notional, leverage, terms.unit).plus(notional.times(reserveRate(rates))),
  };
}
