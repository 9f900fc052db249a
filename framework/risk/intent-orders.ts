import type { Intent, OrderSpec } from '../model/intent.js';
import type { OpenOrderView, RiskView } from './risk-state.js';

/** One order an intent would put on the book, as the checks evaluate it. */
export interface CheckedOrder extends OrderSpec {
  /** Ledger key of its reservation: the intentId, or `intentId#leg` for order-list legs. */
  readonly key: string;
  /** For a replace: the open order being replaced (its reservation is credited back). */
  readonly replaces?: OpenOrderView;
}

const NONE: readonly CheckedOrder[] = Object.freeze([]);

/**
 * The orders an intent would create. Cancels create none. A replace becomes the replaced order
 * with its new quantity and price; a replace of an order the view does not know creates none (the
 * exchange answers it with its own error). A position close becomes a reducing order for the whole
 * position (market, or limit at the given price); reduce-only on futures, a plain sell or buy on
 * spot, where the position is the base currency held.
 */
export function ordersOf(intent: Intent, view: RiskView): readonly CheckedOrder[] {
  if (scope !== undefined && scope.intent === intent && scope.view === view) return scope.orders;
  return buildOrders(intent, view);
}

/** What one evaluation shares between its checks (see {@link evaluating}). */
interface EvaluationScope {
  readonly intent: Intent;
  readonly view: RiskView;
  readonly orders: readonly CheckedOrder[];
  /** Funds needs computed so far, per order of `orders` (see {@link oncePerEvaluation}); made on first use. */
  needs: Map<CheckedOrder, unknown> | undefined;
}

let scope: EvaluationScope | undefined;

/**
 * Runs `evaluate` with the intent's orders built once: every check asks for them, and the funds
 * checks and the reservation price the same orders. The view must not change meanwhile (the
 * gate's checks only read it). Outside such a run nothing is kept.
 */
export function evaluating<T>(intent: Intent, view: RiskView, evaluate: () => T): T {
  const outer = scope;
  scope = { intent, view, orders: buildOrders(intent, view), needs: undefined };
  try {
    return evaluate();
  } finally {
    scope = outer;
  }
}

/**
 * The funds need of an order of the evaluation under way, computed once (the balance check and the
 * reservation both ask); `compute` runs every time for any other order, or outside an evaluation.
 */
export function oncePerEvaluation<T>(order: CheckedOrder, compute: (order: CheckedOrder) => T): T {
  const current = scope;
  if (current === undefined || !current.orders.includes(order)) return compute(order);
  const needs = (current.needs ??= new Map());
  if (needs.has(order)) return needs.get(order) as T;
  const value = compute(order);
  needs.set(order, value);
  return value;
}

function buildOrders(intent: Intent, view: RiskView): readonly CheckedOrder[] {
  switch (intent.kind) {
    case 'place':
      return [{ ...intent, key: intent.intentId }];
    case 'orderList':
      return intent.orders.map((spec, leg) => ({ ...spec, key: `${intent.intentId}#${leg}` }));
    case 'replace': {
      const order = view.openOrder(intent.clientOrderId);
      if (order === undefined) return NONE;
      return [{
        symbol: order.symbol,
        side: order.side,
        type: order.type,
        quantity: intent.quantity,
        price: intent.price ?? order.price,
        stopPrice: order.stopPrice,
        reduceOnly: order.reduceOnly,
        key: intent.intentId,
        replaces: order,
      }];
    }
    case 'closePosition': {
      const position = view.position(intent.symbol);
      if (position === undefined || position.isZero()) return NONE;
      const futures = view.instrument(intent.symbol)?.info.type === 'futures';
      return [{
        symbol: intent.symbol,
        side: position.isNegative() ? 'buy' : 'sell',
        type: intent.price === undefined ? 'market' : 'limit',
        quantity: position.abs(),
        price: intent.price,
        reduceOnly: futures ? true : undefined,
        key: intent.intentId,
      }];
    }
    case 'cancel':
    case 'cancelAll':
      return NONE;
  }
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
