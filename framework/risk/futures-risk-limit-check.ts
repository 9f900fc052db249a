import { Decimal, ZERO } from '../model/decimal.js';
import type { Intent } from '../model/intent.js';
import type { FuturesPositionConfig } from '../model/resources/futures-config.js';
import type { Denial } from './denial.js';
import { referencePrice } from './order-reservation.js';
import type { RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { RiskView } from './risk-state.js';

/**
 * The exchange's futures risk limit (document 001, limits): at user leverage L the limit is
 * `limit_base / L ^ limit_power`, compared against the open orders' unfilled value + the
 * position's market value + the new order's value; not applied when L is below
 * `unlimited_threshold`, nor to symbols whose config has no risk limit. Open orders are valued at
 * their limit (or stop) price, the position at the book's mid, the new order at its reference
 * price. Exactly at the limit passes. Reduce-only orders add no risk and pass.
 */
export function futuresRiskLimitCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  const orders = evaluationOf(intent, view, config, evaluation).orders;
  for (const order of orders) {
    if (order.reduceOnly === true) continue;
    const futures = view.futuresConfig(order.symbol);
    const leverage = view.leverage(order.symbol);
    if (futures === undefined || leverage === undefined) continue;
    const limit = riskLimit(futures, leverage);
    if (limit === undefined) continue;
    const price = referencePrice(order, view);
    if (price === undefined) return deny(order.symbol, `no book price to value the ${order.type} order`);
    let value = price.times(order.quantity);
    for (const open of view.openOrders(order.symbol)) {
      if (open.clientOrderId === order.replaces?.clientOrderId) continue;
      const openPrice = open.price ?? open.stopPrice;
      if (openPrice === undefined) continue;
      value = value.plus(openPrice.times(open.quantity.minus(open.quantityCumulative)));
    }
    const position = view.position(order.symbol) ?? ZERO;
    if (!position.isZero()) {
      const mid = view.book(order.symbol)?.mid();
      if (mid === undefined) return deny(order.symbol, 'no book mid to value the position');
      value = value.plus(position.abs().times(new Decimal(mid)));
    }
    if (value.greaterThan(limit)) {
      return deny(order.symbol, `open orders + position + order value ${value.toFixed()} exceeds risk limit ${limit.toFixed()} at leverage ${leverage.toFixed()}`);
    }
  }
  return undefined;
}

/**
 * `limit_base / leverage ^ limit_power`, or undefined when the config has no risk limit or the
 * leverage is below `unlimited_threshold`.
 */
export function riskLimit(futures: FuturesPositionConfig, leverage: Decimal): Decimal | undefined {
  const { limit_base: base, limit_power: power, unlimited_threshold: threshold } = futures;
  if (base === undefined || power === undefined) return undefined;
  if (threshold !== undefined && leverage.lessThan(threshold)) return undefined;
  return base.dividedBy(leverage.pow(power));
}

function deny(symbol: string, reason: string): Denial {
  return { check: 'futures-risk-limit', reason: `${symbol}: ${reason}` };
}
