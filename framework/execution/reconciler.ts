import type { TradingBalance } from '../model/resources/balance.js';
import type { Order } from '../model/resources/order.js';
import type { OrderReport } from '../model/stream/order-report.js';
import type { OrderRegistry } from './order-registry.js';
import { lookupWithRetry, type RecoveryOptions } from './unknown-outcome.js';
import type { VenuePort } from './venue-port.js';

/** What to do with an open order on the exchange that this bot does not track. */
export type UnknownOrderPolicy = 'adopt' | 'cancel';

/** What one reconciliation did. */
export interface ReconcileSummary {
  /** Tracked orders whose state the exchange's open orders or a lookup moved on. */
  readonly updated: readonly string[];
  readonly adopted: readonly string[];
  readonly canceled: readonly string[];
  /** Pending orders (unknown outcome) that a lookup showed never to have existed. */
  readonly missing: readonly string[];
  /** Lookups that failed again; the next reconciliation retries them. */
  readonly unresolved: readonly string[];
}

/** What the reconciliation works on. */
export interface ReconcileContext {
  readonly venue: VenuePort;
  readonly registry: OrderRegistry;
  readonly policy: UnknownOrderPolicy;
  readonly adoptAs?: string;
  readonly recovery: RecoveryOptions;
  /** Tells the strategy an order changed (reports synthesized from snapshots carry report_type `status`). */
  readonly emit: (report: OrderReport) => void;
  readonly setBalances: (balances: readonly TradingBalance[]) => void;
  /** A pending order of an unknown outcome was settled: found on the exchange, or known not to exist. */
  readonly resolved?: (clientOrderId: string, order: Order | undefined) => void;
}

/** An order snapshot as a `status` report. */
export function statusReport(order: Order): OrderReport {
  const { trades: _trades, ...fields } = order;
  return { ...fields, report_type: 'status' };
}

/**
 * Makes the exchange the truth (start, and after every reconnect, when reports may have been
 * missed): balances replace ours; every open order updates its tracker, or is adopted or canceled
 * by policy when nobody tracks it; every tracker the exchange no longer lists as open, and every
 * pending order whose request ended with an unknown outcome, is looked up by client_order_id. An
 * order still in flight is left to its own request, which resolves it by lookup itself.
 */
export async function reconcile(context: ReconcileContext): Promise<ReconcileSummary> {
  const { venue, registry } = context;
  const [open, balances] = await Promise.all([venue.openOrders(), venue.balances()]);
  context.setBalances(balances);
  const updated: string[] = [];
  const adopted: string[] = [];
  const canceled: string[] = [];
  const missing: string[] = [];
  const unresolved: string[] = [];
  const openIds = new Set<string>();

  for (const order of open) {
    openIds.add(order.client_order_id);
    const tracker = registry.get(order.client_order_id);
    if (tracker !== undefined) {
      const wasPending = tracker.status === 'pending';
      if (registry.applyOrder(order).changed) {
        updated.push(order.client_order_id);
        context.emit(statusReport(order));
      }
      if (wasPending && !tracker.inFlight) context.resolved?.(order.client_order_id, order);
      continue;
    }
    if (context.policy === 'adopt') {
      registry.adopt(order, context.adoptAs);
      adopted.push(order.client_order_id);
      context.emit(statusReport(order));
      continue;
    }
    try {
      await venue.cancelOrder(order.client_order_id);
      canceled.push(order.client_order_id);
    } catch {
      // Filled or canceled meanwhile: nothing of ours to clean up; the next run sees it gone.
    }
  }

  for (const tracker of [...registry.all()]) {
    if (openIds.has(tracker.clientOrderId) || tracker.inFlight) continue;
    const pending = tracker.status === 'pending';
    if (!pending && !tracker.active) continue;
    let found: Order | undefined;
    try {
      found = await lookupWithRetry(() => venue.findOrder(tracker.clientOrderId), context.recovery);
    } catch {
      unresolved.push(tracker.clientOrderId);
      continue;
    }
    if (found === undefined) {
      if (pending) {
        registry.forget(tracker.clientOrderId);
        missing.push(tracker.clientOrderId);
        context.resolved?.(tracker.clientOrderId, undefined);
      } else {
        unresolved.push(tracker.clientOrderId);
      }
      continue;
    }
    if (registry.applyOrder(found).changed) {
      updated.push(tracker.clientOrderId);
      context.emit(statusReport(found));
    }
    if (pending) context.resolved?.(tracker.clientOrderId, found);
  }
  await bookMissedExecutions(context, unresolved);
  return { updated, adopted, canceled, missing, unresolved };
}

/**
 * Orders whose executed quantity is more than the executions seen (filled while the bot was down
 * or disconnected) get their executions from the trade history, so positions and flows match the
 * exchange's.
 */
async function bookMissedExecutions(context: ReconcileContext, unresolved: string[]): Promise<void> {
  for (const tracker of [...context.registry.all()]) {
    const order = tracker.order;
    if (order === undefined || tracker.inFlight || !tracker.unattributedQuantity.isPositive() || tracker.unattributedQuantity.isZero()) continue;
    try {
      context.registry.applyTrades(tracker.clientOrderId, await context.venue.orderTrades({ ...order, trades: undefined }));
    } catch {
      unresolved.push(tracker.clientOrderId);
    }
  }
}
