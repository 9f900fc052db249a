import type { Intent } from '../model/intent.js';
import type { Denial } from './denial.js';
import { referencePrice } from './order-reservation.js';
import { limitsFor, type RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { RiskView } from './risk-state.js';

/**
 * Refuses an order whose notional (quantity x limit price, or x stop price, or x the touch for
 * a market order) exceeds the symbol's `maxOrderNotional`, in the quote currency. Exactly at the
 * limit passes; an order that cannot be valued (market order, empty side) is refused.
 */
export function maxNotionalCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  const orders = evaluationOf(intent, view, config, evaluation).orders;
  for (const order of orders) {
    const max = limitsFor(config, order.symbol).maxOrderNotional;
    if (max === undefined) continue;
    const price = referencePrice(order, view);
    if (price === undefined) return { check: 'max-notional', reason: `${order.symbol}: no book price to value the ${order.type} order against max notional ${max.toFixed()}` };
    const notional = price.times(order.quantity);
    if (notional.greaterThan(max)) {
      return { check: 'max-notional', reason: `${order.symbol}: notional ${notional.toFixed()} exceeds max order notional ${max.toFixed()}` };
    }
  }
  return undefined;
}
