import type { Decimal } from '../model/decimal.js';
import type { Instrument } from '../model/instrument.js';
import type { Intent } from '../model/intent.js';
import { MAX_UNITS_SCALE, safeProduct, unitsOf } from '../model/decimal-units.js';
import type { Denial } from './denial.js';
import type { CheckedOrder } from './intent-orders.js';
import { referencePrice } from './order-reservation.js';
import { limitsFor, type RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { RiskView } from './risk-state.js';

/**
 * Refuses an order whose notional (quantity x limit price, or x stop price, or x the touch for
 * a market order) exceeds the symbol's `maxOrderNotional`, in the quote currency. Exactly at the
 * limit passes; an order that cannot be valued (market order, empty side) is refused. The product
 * is taken in integers at the symbol's price + quantity scale; Decimals only word a denial, or
 * decide when a figure has no safe-integer count at that scale.
 */
export function maxNotionalCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  const orders = evaluationOf(intent, view, config, evaluation).orders;
  for (const order of orders) {
    const max = limitsFor(config, order.symbol).maxOrderNotional;
    if (max === undefined) continue;
    const price = referencePrice(order, view);
    if (price === undefined) return { check: 'max-notional', reason: `${order.symbol}: no book price to value the ${order.type} order against max notional ${max.toFixed()}` };
    const instrument = view.instrument(order.symbol);
    if (instrument !== undefined && withinByUnits(price, order, max, instrument) === true) continue;
    const notional = price.times(order.quantity);
    if (notional.greaterThan(max)) {
      return { check: 'max-notional', reason: `${order.symbol}: notional ${notional.toFixed()} exceeds max order notional ${max.toFixed()}` };
    }
  }
  return undefined;
}

/** price x quantity <= max in units of 10^-(price scale + quantity scale); undefined when a figure or the product has no safe-integer count. */
function withinByUnits(price: Decimal, order: CheckedOrder, max: Decimal, instrument: Instrument): boolean | undefined {
  const scale = instrument.priceScale + instrument.quantityScale;
  if (scale > MAX_UNITS_SCALE) return undefined;
  const priceUnits = unitsOf(price, instrument.priceScale);
  const quantityUnits = unitsOf(order.quantity, instrument.quantityScale);
  const maxUnits = unitsOf(max, scale);
  if (priceUnits === undefined || quantityUnits === undefined || maxUnits === undefined) return undefined;
  const notional = safeProduct(priceUnits, quantityUnits);
  return notional === undefined ? undefined : notional <= maxUnits;
}
