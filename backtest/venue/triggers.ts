import type { Side } from '../../framework/model/instrument.js';
import type { OrderType } from '../../framework/model/resources/order.js';

/**
 * When a suspended stop or take-profit order is released into the book. The spec leaves this "not
 * shown"; the venue uses the common exchange convention, on the price of the last public trade:
 *
 * - stopLimit / stopMarket buy: last trade price rises to >= stop_price (a breakout or a stop-loss
 *   of a short); sell: falls to <= stop_price (a stop-loss of a long).
 * - takeProfitLimit / takeProfitMarket buy: last trade price falls to <= stop_price; sell: rises
 *   to >= stop_price.
 *
 * The condition is checked when the order is placed (against the last trade so far) and after every
 * public trades frame of its symbol. Before the first public trade nothing triggers. On trigger the
 * order reports `new` (status new) and acts as a limit (price) or market order from then on.
 */
export function isTriggered(type: OrderType, side: Side, stopTicks: number, lastTradeTicks: number): boolean {
  if (Number.isNaN(lastTradeTicks)) return false;
  const rising = side === 'buy' ? isStopType(type) : isTakeProfitType(type);
  return rising ? lastTradeTicks >= stopTicks : lastTradeTicks <= stopTicks;
}

/** stopLimit or stopMarket. */
export function isStopType(type: OrderType): boolean {
  return type === 'stopLimit' || type === 'stopMarket';
}

/** takeProfitLimit or takeProfitMarket. */
export function isTakeProfitType(type: OrderType): boolean {
  return type === 'takeProfitLimit' || type === 'takeProfitMarket';
}

/** Types parked as `suspended` until a trigger. */
export function isConditionalType(type: OrderType): boolean {
  return isStopType(type) || isTakeProfitType(type);
}

/** Types that carry a limit price (limit, stopLimit, takeProfitLimit). */
export function hasLimitPrice(type: OrderType): boolean {
  return type === 'limit' || type === 'stopLimit' || type === 'takeProfitLimit';
}
