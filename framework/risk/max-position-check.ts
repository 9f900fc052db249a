import { ZERO } from '../model/decimal.js';
import type { Intent } from '../model/intent.js';
import { Funds } from '../model/funds.js';
import type { Denial } from './denial.js';
import type { CheckedOrder } from './intent-orders.js';
import { limitsFor, type RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { RiskView } from './risk-state.js';

/**
 * Refuses an order that could take the symbol's position beyond `maxPosition` in its direction,
 * counting the worst case: the position, plus every open order on the same side filling, plus
 * this order. A buy is measured on the long side (position + open buys + quantity), a sell on the
 * short side; so an order that reduces the position always passes. Exactly at the limit passes.
 * The sum is exact {@link Funds} (integer units; BigInt only beyond 2^53), not Decimals.
 */
export function maxPositionCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  const orders = evaluationOf(intent, view, config, evaluation).orders;
  for (let i = 0; i < orders.length; i++) {
    const order = orders[i] as CheckedOrder;
    const max = limitsFor(config, order.symbol).maxPosition;
    if (max === undefined) continue;
    const held = view.position(order.symbol) ?? ZERO;
    const position = Funds.of(held, order.symbol, 'position');
    const sameSide = openQuantity(view, order).plus(earlierLegs(orders, i, order));
    const quantity = Funds.of(order.quantity, order.symbol, 'quantity');
    const exposure = (order.side === 'buy' ? position : position.negated()).plus(sameSide).plus(quantity);
    if (!exposure.greaterThan(Funds.of(max, order.symbol, 'maxPosition'))) continue;
    return {
      check: 'max-position',
      reason: `${order.symbol}: ${order.side === 'buy' ? 'long' : 'short'} exposure ${exposure.toFixed()} (position ${held.toFixed()}, open ${sameSide.toFixed()}, order ${order.quantity.toFixed()}) exceeds max position ${max.toFixed()}`,
    };
  }
  return undefined;
}

/** Unfilled quantity of the open orders of the order's symbol on its side, less the order it replaces. */
function openQuantity(view: RiskView, order: CheckedOrder): Funds {
  let sum = Funds.ZERO;
  for (const open of view.openOrders(order.symbol)) {
    if (open.side !== order.side || open.clientOrderId === order.replaces?.clientOrderId) continue;
    sum = sum.plus(Funds.of(open.quantity, order.symbol, 'open quantity')).minus(Funds.of(open.quantityCumulative, order.symbol, 'open filled quantity'));
  }
  return sum;
}

/** Earlier legs of the same list on the same symbol and side (a list may fill together). */
function earlierLegs(orders: readonly CheckedOrder[], index: number, order: CheckedOrder): Funds {
  let sum = Funds.ZERO;
  for (let j = 0; j < index; j++) {
    const leg = orders[j] as CheckedOrder;
    if (leg.symbol === order.symbol && leg.side === order.side) sum = sum.plus(Funds.of(leg.quantity, order.symbol, 'leg quantity'));
  }
  return sum;
}
