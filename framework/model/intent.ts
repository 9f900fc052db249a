import type { Decimal } from './decimal.js';
import type { Side } from './instrument.js';
import type { ContingencyType, OrderType, TimeInForce } from './resources/order.js';

/**
 * What a strategy wants done, as data (never a call to the exchange). Every intent carries an
 * `intentId` unique within the bot run and the `strategyId` that emitted it, so that every order
 * is traceable to its intent and every denial, rejection and fill back to the strategy.
 */
export type Intent = PlaceIntent | CancelIntent | ReplaceIntent | CancelAllIntent | OrderListIntent | ClosePositionIntent;

/** Fields common to every intent. */
export interface IntentBase {
  readonly intentId: string;
  readonly strategyId: string;
  /** Strategy's own label, carried into reports (e.g. "bid-quote", "take-profit"). */
  readonly tag?: string;
}

/** One order as a strategy specifies it; the execution adapter picks the client_order_id. */
export interface OrderSpec {
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly quantity: Decimal;
  /** Required for limit, stopLimit, takeProfitLimit. */
  readonly price?: Decimal;
  /** Required for stop and take-profit types. */
  readonly stopPrice?: Decimal;
  readonly timeInForce?: TimeInForce;
  /** UNIX ms; required for GTD. */
  readonly expireTime?: number;
  readonly postOnly?: boolean;
  /** Margin and futures only. */
  readonly reduceOnly?: boolean;
}

/** Place one order. */
export interface PlaceIntent extends IntentBase, OrderSpec {
  readonly kind: 'place';
  /** Fixed when the intent is made (the strategy's order handle carries it); chosen at execution when absent. */
  readonly clientOrderId?: string;
}

/** Cancel one of the strategy's orders. */
export interface CancelIntent extends IntentBase {
  readonly kind: 'cancel';
  readonly clientOrderId: string;
}

/** Replace (amend) one of the strategy's orders: new quantity and, for limit types, new price. */
export interface ReplaceIntent extends IntentBase {
  readonly kind: 'replace';
  readonly clientOrderId: string;
  readonly quantity: Decimal;
  readonly price?: Decimal;
  /** The replacement's client_order_id, fixed when the intent is made; chosen at execution when absent. */
  readonly newClientOrderId?: string;
}

/** Cancel all of the strategy's orders (optionally of one symbol). */
export interface CancelAllIntent extends IntentBase {
  readonly kind: 'cancelAll';
  readonly symbol?: string;
}

/** Place an order list (allOrNone, oneCancelOther, oneTriggerOneCancelOther). */
export interface OrderListIntent extends IntentBase {
  readonly kind: 'orderList';
  readonly contingencyType: ContingencyType;
  readonly orders: readonly OrderSpec[];
  /** One client_order_id per leg, in leg order, fixed when the intent is made; chosen at execution when absent. */
  readonly clientOrderIds?: readonly string[];
}

/** Close the strategy's position in a margin or futures symbol (market, or limit at `price`). */
export interface ClosePositionIntent extends IntentBase {
  readonly kind: 'closePosition';
  readonly symbol: string;
  readonly price?: Decimal;
  /** Fixed when the intent is made; chosen at execution when absent. */
  readonly clientOrderId?: string;
}
