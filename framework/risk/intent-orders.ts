import type { Intent, OrderSpec } from '../model/intent.js';
import { intentKey, legKey, type ReservationKey } from './reservation-key.js';
import type { OpenOrderView, RiskView } from './risk-state.js';
import { tradesOnMargin } from './trades-on-margin.js';

/** One order an intent would put on the book, as the checks evaluate it. */
export interface CheckedOrder extends OrderSpec {
  /** Its reservation: the intent's, or its leg's for order-list legs. */
  readonly key: ReservationKey;
  /** For a replace: the open order being replaced (its reservation is credited back). */
  readonly replaces?: OpenOrderView;
}

/** The orders of an intent that creates none (shared). */
export const NO_ORDERS: readonly CheckedOrder[] = Object.freeze([]);

/**
 * The orders an intent would create. Cancels create none. A replace becomes the replaced order
 * with its new quantity and price; a replace of an order the view does not know creates none (the
 * exchange answers it with its own error). A position close becomes a reducing order for the whole
 * position (market, or limit at the given price); reduce-only on futures, a plain sell or buy on
 * spot, where the position is the base currency held.
 */
export function ordersOf(intent: Intent, view: RiskView): readonly CheckedOrder[] {
  switch (intent.kind) {
    case 'place':
      return [checkedSpec(intent, intentKey(intent.intentId))];
    case 'orderList':
      return intent.orders.map((spec, leg) => checkedSpec(spec, legKey(intent.intentId, leg)));
    case 'replace': {
      const order = view.openOrder(intent.clientOrderId);
      if (order === undefined) return NO_ORDERS;
      return [{
        symbol: order.symbol,
        side: order.side,
        type: order.type,
        quantity: intent.quantity,
        price: intent.price ?? order.price,
        stopPrice: order.stopPrice,
        reduceOnly: order.reduceOnly,
        key: intentKey(intent.intentId),
        replaces: order,
      }];
    }
    case 'closePosition': {
      const position = view.position(intent.symbol);
      if (position === undefined || position.isZero()) return NO_ORDERS;
      const instrument = view.instrument(intent.symbol);
      const margined = instrument !== undefined && tradesOnMargin(instrument, view);
      return [{
        symbol: intent.symbol,
        side: position.isNegative() ? 'buy' : 'sell',
        type: intent.price === undefined ? 'market' : 'limit',
        quantity: position.abs(),
        price: intent.price,
        reduceOnly: margined ? true : undefined,
        key: intentKey(intent.intentId),
      }];
    }
    case 'cancel':
    case 'cancelAll':
      return NO_ORDERS;
  }
}

/**
 * The order fields of a spec (a place intent is one) with its reservation: field by field rather
 * than a spread, which would copy the intent's own fields too and cost a generic object copy per
 * intent. Every {@link OrderSpec} field is listed.
 */
function checkedSpec(spec: OrderSpec, key: ReservationKey): CheckedOrder {
  return {
    symbol: spec.symbol, side: spec.side, type: spec.type, quantity: spec.quantity, price: spec.price, stopPrice: spec.stopPrice,
    timeInForce: spec.timeInForce, expireTime: spec.expireTime, postOnly: spec.postOnly, reduceOnly: spec.reduceOnly, key,
  };
}

/**
 * The orders of an intent that hold funds from the moment it is sent, and how their needs add up.
 * - a oneTriggerOneCancelOther list funds its primary (leg 0) only: the secondaries are inactive
 *   until the primary executes, and the exchange reserves for them only then (they sell what the
 *   primary bought, or buy back what it sold);
 * - a oneCancelOther list can execute one leg only, so its legs' needs in one currency count once,
 *   at the largest (`combine: 'max'`);
 * - everything else (single orders, allOrNone) adds up (`combine: 'sum'`).
 */
export function fundedOrders(intent: Intent, orders: readonly CheckedOrder[]): { readonly orders: readonly CheckedOrder[]; readonly combine: 'sum' | 'max' } {
  if (intent.kind !== 'orderList') return { orders, combine: 'sum' };
  if (intent.contingencyType === 'oneTriggerOneCancelOther') return { orders: orders.slice(0, 1), combine: 'sum' };
  if (intent.contingencyType === 'oneCancelOther') return { orders, combine: 'max' };
  return { orders, combine: 'sum' };
}
