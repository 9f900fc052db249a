import { ZERO, type Decimal } from '../model/decimal.js';
import type { Intent } from '../model/intent.js';
import type { Side } from '../model/instrument.js';
import { unitsOf } from '../model/decimal-units.js';
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
 * The sum is taken in integers at the symbol's quantity scale; Decimals only word a denial, or
 * decide when a figure has no safe-integer count at that scale.
 */
export function maxPositionCheck(intent: Intent, view: RiskView, config: RiskConfig, evaluation?: RiskEvaluation): Denial | undefined {
  const orders = evaluationOf(intent, view, config, evaluation).orders;
  for (let i = 0; i < orders.length; i++) {
    const order = orders[i] as CheckedOrder;
    const max = limitsFor(config, order.symbol).maxPosition;
    if (max === undefined) continue;
    const scale = view.instrument(order.symbol)?.quantityScale;
    if (scale !== undefined && withinByUnits(view, orders, i, max, scale) === true) continue;
    const denial = decimalVerdict(view, orders, i, max);
    if (denial !== undefined) return denial;
  }
  return undefined;
}

/**
 * The exposure test in units of 10^-scale: true or false when every figure (position, open
 * quantities, legs, order, limit) and every partial sum is a safe integer there, else undefined.
 */
function withinByUnits(view: RiskView, orders: readonly CheckedOrder[], index: number, max: Decimal, scale: number): boolean | undefined {
  const order = orders[index] as CheckedOrder;
  const maxUnits = unitsOf(max, scale);
  const position = unitsOf(view.position(order.symbol) ?? ZERO, scale);
  let exposure = unitsOf(order.quantity, scale);
  if (maxUnits === undefined || position === undefined || exposure === undefined) return undefined;
  exposure += order.side === 'buy' ? position : -position;
  // Every term is a safe integer: each partial sum within the safe range is exact, and checked so.
  if (!Number.isSafeInteger(exposure)) return undefined;
  const replaced = order.replaces?.clientOrderId;
  for (const open of view.openOrders(order.symbol)) {
    if (open.side !== order.side || open.clientOrderId === replaced) continue;
    const quantity = unitsOf(open.quantity, scale);
    const filled = unitsOf(open.quantityCumulative, scale);
    if (quantity === undefined || filled === undefined) return undefined;
    exposure += quantity - filled;
    if (!Number.isSafeInteger(exposure)) return undefined;
  }
  for (let j = 0; j < index; j++) {
    const leg = orders[j] as CheckedOrder;
    if (leg.symbol !== order.symbol || leg.side !== order.side) continue;
    const quantity = unitsOf(leg.quantity, scale);
    if (quantity === undefined) return undefined;
    exposure += quantity;
    if (!Number.isSafeInteger(exposure)) return undefined;
  }
  return exposure <= maxUnits;
}

/** The exposure test in Decimals: the denial with its figures, or undefined when within the limit. */
function decimalVerdict(view: RiskView, orders: readonly CheckedOrder[], index: number, max: Decimal): Denial | undefined {
  const order = orders[index] as CheckedOrder;
  const position = view.position(order.symbol) ?? ZERO;
  const sameSide = openQuantity(view, order, order.side).plus(earlierLegs(orders, index, order));
  const exposure = order.side === 'buy' ? position.plus(sameSide).plus(order.quantity) : position.negated().plus(sameSide).plus(order.quantity);
  if (!exposure.greaterThan(max)) return undefined;
  return {
    check: 'max-position',
    reason: `${order.symbol}: ${order.side === 'buy' ? 'long' : 'short'} exposure ${exposure.toFixed()} (position ${position.toFixed()}, open ${sameSide.toFixed()}, order ${order.quantity.toFixed()}) exceeds max position ${max.toFixed()}`,
  };
}

/** Unfilled quantity of the open orders of the order's symbol on `side`, less the order it replaces. */
function openQuantity(view: RiskView, order: CheckedOrder, side: Side): Decimal {
  let sum = ZERO;
  for (const open of view.openOrders(order.symbol)) {
    if (open.side !== side || open.clientOrderId === order.replaces?.clientOrderId) continue;
    sum = sum.plus(open.quantity.minus(open.quantityCumulative));
  }
  return sum;
}

/** Earlier legs of the same list on the same symbol and side (a list may fill together). */
function earlierLegs(orders: readonly CheckedOrder[], index: number, order: CheckedOrder): Decimal {
  let sum = ZERO;
  for (let j = 0; j < index; j++) {
    const leg = orders[j] as CheckedOrder;
    if (leg.symbol === order.symbol && leg.side === order.side) sum = sum.plus(leg.quantity);
  }
  return sum;
}
