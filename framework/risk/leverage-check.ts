import { Decimal, ZERO } from '../model/decimal.js';
import type { Intent } from '../model/intent.js';
import type { Denial } from './denial.js';
import type { CheckedOrder } from './intent-orders.js';
import { limitsFor, type RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { RiskView } from './risk-state.js';

const ONE = new Decimal(1);

/**
 * Leverage bounds of margin and futures orders: an order that may open or grow a position is
 * refused while the symbol's account runs at a leverage above `maxLeverage` (the symbol's limits)
 * or above the contract's own `max_initial_leverage`. The leverage is the exchange's, read from the
 * account; an account whose leverage is not known yet is not judged. Reduce-only orders, and
 * orders on the other side of the position up to its size, pass: they only shrink the exposure.
 * Exactly at the bound passes.
 */
export function leverageCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  for (const order of evaluationOf(intent, view, config, evaluation).orders) {
    if (!growsExposure(order, view)) continue;
    const leverage = view.leverage(order.symbol);
    if (leverage === undefined) continue;
    const own = limitsFor(config, order.symbol).maxLeverage;
    const contract = view.futuresConfig(order.symbol)?.max_initial_leverage;
    for (const [bound, source] of [[own, 'max leverage (risk limits)'], [contract, "the contract's max initial leverage"]] as const) {
      if (bound !== undefined && leverage.greaterThan(bound)) {
        return { check: 'leverage', reason: `${order.symbol}: account leverage ${leverage.toFixed()} exceeds ${source} ${bound.toFixed()}` };
      }
    }
  }
  return undefined;
}

/**
 * A minimum distance to liquidation (`minLiquidationDistance`, a fraction of the price) for orders
 * that may open or grow a margin or futures position:
 *
 * - at leverage L a position's initial margin is 1/L of its value, so the price moving by 1/L of
 *   the entry against it consumes the margin: liquidation comes no later than that (earlier, with
 *   the maintenance margin). An order is refused when 1/L is below the minimum distance;
 * - with a position open, the exchange's liquidation price is compared with the book's mid:
 *   |mid - liquidation| / mid below the minimum refuses orders that would grow it.
 *
 * Reduce-only orders and orders that shrink the position pass. Without a leverage known, a mid,
 * or a liquidation price reported, that part is not judged. Exactly at the minimum passes.
 */
export function liquidationDistanceCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  for (const order of evaluationOf(intent, view, config, evaluation).orders) {
    const min = limitsFor(config, order.symbol).minLiquidationDistance;
    if (min === undefined || !growsExposure(order, view)) continue;
    const leverage = view.leverage(order.symbol);
    if (leverage !== undefined && leverage.isPositive()) {
      const bound = ONE.dividedBy(leverage);
      if (bound.lessThan(min)) {
        return { check: 'liquidation-distance', reason: `${order.symbol}: at leverage ${leverage.toFixed()} liquidation comes within ${bound.toFixed()} of the entry, under the minimum distance ${min.toFixed()}` };
      }
    }
    const liquidation = view.liquidationPrice(order.symbol);
    const mid = view.book(order.symbol)?.mid();
    if (liquidation === undefined || mid === undefined) continue;
    const price = new Decimal(mid);
    const distance = price.minus(liquidation).abs().dividedBy(price);
    if (distance.lessThan(min)) {
      return { check: 'liquidation-distance', reason: `${order.symbol}: the position's liquidation price ${liquidation.toFixed()} is ${distance.toDecimalPlaces(6).toFixed()} from the mid ${price.toFixed()}, under the minimum distance ${min.toFixed()}` };
    }
  }
  return undefined;
}

/** Whether an order may open or grow the symbol's position (not reduce-only, and not only shrinking it). */
function growsExposure(order: CheckedOrder, view: RiskView): boolean {
  if (order.reduceOnly === true) return false;
  const instrument = view.instrument(order.symbol);
  if (instrument?.info.type !== 'futures' && instrument?.info.margin_trading !== true) return false;
  const position = view.position(order.symbol) ?? ZERO;
  const shrinks = order.side === 'buy' ? position.isNegative() && order.quantity.lessThanOrEqualTo(position.abs()) : position.isPositive() && order.quantity.lessThanOrEqualTo(position);
  return !shrinks;
}
