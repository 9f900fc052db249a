import type { Decimal } from '../model/decimal.js';
import type { Instrument } from '../model/instrument.js';
import type { Intent } from '../model/intent.js';
import type { OrderType } from '../model/resources/order.js';
import { unitsOf } from '../model/decimal-units.js';
import type { Denial } from './denial.js';
import type { RiskConfig } from './risk-config.js';
import { evaluationOf, type RiskEvaluation } from './risk-evaluation.js';
import type { RiskView } from './risk-state.js';

const NEEDS_PRICE: ReadonlySet<OrderType> = new Set(['limit', 'stopLimit', 'takeProfitLimit']);
const NEEDS_STOP: ReadonlySet<OrderType> = new Set(['stopLimit', 'stopMarket', 'takeProfitLimit', 'takeProfitMarket']);

/**
 * Refuses prices off the tick grid and quantities off the lot grid (document 001 validity rule),
 * and limit or stop types without their price. Catching these here keeps a strategy's rounding
 * bug from turning into exchange rejects (or into silent half-down rounding when strict
 * validation is off).
 */
export function gridCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  const orders = evaluationOf(intent, view, config, evaluation).orders;
  for (const order of orders) {
    const instrument = view.instrument(order.symbol);
    if (instrument === undefined) continue;
    if (!onLotGrid(instrument, order.quantity)) {
      return { check: 'grid', reason: `${order.symbol}: quantity ${order.quantity.toFixed()} is not a positive multiple of quantity_increment ${instrument.quantityIncrement.toFixed()}` };
    }
    if (order.price === undefined) {
      if (NEEDS_PRICE.has(order.type)) return { check: 'grid', reason: `${order.symbol}: ${order.type} order without a price` };
    } else if (!onTickGrid(instrument, order.price)) {
      return { check: 'grid', reason: `${order.symbol}: price ${order.price.toFixed()} is not a positive multiple of tick_size ${instrument.tickSize.toFixed()}` };
    }
    if (order.stopPrice === undefined) {
      if (NEEDS_STOP.has(order.type)) return { check: 'grid', reason: `${order.symbol}: ${order.type} order without a stop price` };
    } else if (!onTickGrid(instrument, order.stopPrice)) {
      return { check: 'grid', reason: `${order.symbol}: stop price ${order.stopPrice.toFixed()} is not a positive multiple of tick_size ${instrument.tickSize.toFixed()}` };
    }
  }
  return undefined;
}

/**
 * `instrument.isValidPrice(price)` without a Decimal division per intent. With the usual tick of
 * one unit in its last decimal (0.01), a positive price is on the grid exactly when it has no more
 * decimals than the tick (a digit count); with a coarser tick (0.05), when its integer units at the
 * tick's scale are a positive multiple of the tick's units. A price without a safe-integer count
 * at that scale (beyond 2^53 units) is tested with Decimals.
 */
export function onTickGrid(instrument: Instrument, price: Decimal): boolean {
  return onGrid(price, instrument.priceScale, instrument.tickUnits) ?? instrument.isValidPrice(price);
}

/** `instrument.isValidQuantity(quantity)`, the same way as {@link onTickGrid}. */
export function onLotGrid(instrument: Instrument, quantity: Decimal): boolean {
  return onGrid(quantity, instrument.quantityScale, instrument.lotUnits) ?? instrument.isValidQuantity(quantity);
}

/** On a grid of `step` units of 10^-scale; undefined when only Decimals can tell. */
function onGrid(value: Decimal, scale: number, step: number): boolean | undefined {
  if (!value.isPositive() || value.isZero()) return false;
  // NaN for an infinite value: off every grid.
  if (!(value.decimalPlaces() <= scale)) return false;
  if (step === 1) return true;
  const units = unitsOf(value, scale);
  return units === undefined ? undefined : units % step === 0;
}
