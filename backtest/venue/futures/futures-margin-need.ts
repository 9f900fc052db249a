import type { Decimal } from '../../../framework/model/decimal.js';
import { Funds } from '../../../framework/model/funds.js';
import { reserveRate, type FeeRates } from '../fees.js';
import { lotsDecimal, ticksDecimal } from '../grid-decimals.js';
import { remainingLots, type OrderRecord } from '../order-state.js';
import { hasLimitPrice, isConditionalType } from '../triggers.js';
import type { VenueEngine } from '../venue-engine.js';
import type { ReservationNeed } from '../reservations.js';
import { ceilToUnit, type FuturesTerms } from './futures-terms.js';
import { pocketKey, type PositionBook } from './position-book.js';

/**
 * Initial margin an order holds for `notional` (price x unfilled quantity) at leverage L (document
 * 001: margin orders reserve notional / leverage plus fees): `ceil(notional / L)` to the notional unit
 * plus the fee at max(take, make) on the notional, in the margin currency. A negative maximum rate
 * (both rebates) provisions no fee.
 */
export function orderMargin(book: PositionBook['name'], terms: FuturesTerms, notional: Decimal, leverage: Decimal, rates: FeeRates): ReservationNeed {
  const currency = pocketKey(book, terms.pocket);
  return { currency, amount: Funds.of(ceilToUnit(notional, leverage, terms.unit).plus(notional.times(reserveRate(rates))), currency, 'order margin') };
}

/**
 * Value of a futures or margin order's unfilled quantity: at its limit price, a suspended stop or take-profit
 * market order at its stop price, a market order (or a triggered one) at the best opposite outside
 * price; undefined when that side is empty.
 */
export function futuresOrderNotional(engine: VenueEngine, order: OrderRecord): Decimal | undefined {
  const inst = order.instrument;
  let ticks: number;
  if (hasLimitPrice(order.type)) ticks = order.priceTicks as number;
  else if (isConditionalType(order.type) && !order.triggered) ticks = order.stopTicks as number;
  else {
    const market = engine.market(order);
    ticks = order.side === 'buy' ? market.bestAskTicks : market.bestBidTicks;
    if (Number.isNaN(ticks)) return undefined;
  }
  return ticksDecimal(inst, ticks).times(lotsDecimal(inst, remainingLots(order)));
}

/**
 * Initial margin a futures or margin order holds in its book (`orderMargin` on
 * {@link futuresOrderNotional}; nothing when that has no price). A reduce-only order holds nothing: it can only free margin. Other orders hold
 * margin on their whole quantity even when they would partly close a position (the venue does not
 * net orders against the position, which is conservative).
 */
export function positionOrderNeed(engine: VenueEngine, book: PositionBook, order: OrderRecord): ReservationNeed | undefined {
  if (order.reduceOnly) return undefined;
  const notional = futuresOrderNotional(engine, order);
  if (notional === undefined) return undefined;
  const symbol = order.instrument.symbol;
  return orderMargin(book.name, book.accounts.termsOf(symbol), notional, book.accounts.leverage(order.account, symbol), order.rates);
}
