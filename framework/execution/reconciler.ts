import type { TradingBalance } from '../model/resources/balance.js';
import type { Order } from '../model/resources/order.js';
import type { OrderReport } from '../model/stream/order-report.js';
import type { TradeHistoryRecord } from '../model/resources/trade-history.js';
import type { AccountState } from './account-state.js';
import type { OrderTracker, TrackedOrderInfo } from './order-tracker.js';
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
  readonly account: AccountState;
  readonly policy: UnknownOrderPolicy;
  readonly adoptAs?: string;
  readonly recovery: RecoveryOptions;
  /** Tells the strategy an order changed (reports synthesized from snapshots carry report_type `status`). */
  readonly emit: (report: OrderReport) => void;
  readonly setBalances: (balances: readonly TradingBalance[]) => void;
  /** A pending order of an unknown outcome was settled: found on the exchange, or known not to exist. */
  readonly resolved?: (clientOrderId: string, order: Order | undefined) => void;
  /** An order found open that nobody tracked is tracked from now on (policy `adopt`). */
  readonly adopted?: (info: TrackedOrderInfo) => void;
}

/** An order snapshot as a `status` report. */
export function statusReport(order: Order): OrderReport {
  const { trades: _trades, ...fields } = order;
  return { ...fields, report_type: 'status' };
}

/**
 * How far before an order's local send time (or creation time) the history read starts: the
 * exchange's clock may differ from ours (a signed request is accepted within 10 s, up to 60 s with
 * a window), and a retried request may land a little after its first send.
 */
export const HISTORY_SLACK_MS = 60_000;

/**
 * Makes the exchange the truth (start, and after every reconnect, when reports may have been
 * missed): balances replace ours; every open order updates its tracker, or is adopted or canceled
 * by policy when nobody tracks it. Every tracker the exchange no longer lists as open, and every
 * pending order whose request ended with an unknown outcome (orders restored from the journal are
 * pending), is settled in batches: the order history read newest first until it has found them or
 * gone back past their creation (see {@link readOrderHistory}), then one read of the trade history
 * by time range for executions missed while away. An order the history lacks though the read went
 * back past it never existed (or ended without executions over a day ago, which the exchange
 * forgets): it is ended as never-existed. Per-order lookups by client_order_id are the last
 * resort, for what a failed or stopped-short read left unsettled. An order still in flight is left
 * to its own request, which resolves it by lookup itself.
 */
export async function reconcile(context: ReconcileContext): Promise<ReconcileSummary> {
  const { venue, account } = context;
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
    const tracker = account.get(order.client_order_id);
    if (tracker !== undefined) {
      const wasPending = tracker.status === 'pending';
      if (account.applyOrder(order).changed) {
        updated.push(order.client_order_id);
        context.emit(statusReport(order));
      }
      if (wasPending && !tracker.inFlight) context.resolved?.(order.client_order_id, order);
      continue;
    }
    if (context.policy === 'adopt') {
      const tracker = account.adopt(order, context.adoptAs).tracker;
      if (tracker !== undefined) context.adopted?.(tracker.info);
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

  const unsettled = [...account.all()].filter((t) => !openIds.has(t.clientOrderId) && needsLookup(t));
  const history = await readOrderHistory(venue, unsettled, account.all());
  for (const tracker of unsettled) {
    // A report may have settled it while the history was read.
    if (!needsLookup(tracker)) continue;
    const pending = tracker.status === 'pending';
    let found: Order | undefined = history?.orders.get(tracker.clientOrderId);
    if (found === undefined && !(history?.covers(tracker) ?? false)) {
      try {
        found = await lookupWithRetry(() => venue.findOrder(tracker.clientOrderId), context.recovery);
      } catch {
        unresolved.push(tracker.clientOrderId);
        continue;
      }
    }
    if (found === undefined) {
      if (pending) {
        account.forget(tracker.clientOrderId, 'never-existed');
        missing.push(tracker.clientOrderId);
        context.resolved?.(tracker.clientOrderId, undefined);
      } else {
        unresolved.push(tracker.clientOrderId);
      }
      continue;
    }
    if (account.applyOrder(found).changed) {
      updated.push(tracker.clientOrderId);
      context.emit(statusReport(found));
    }
    if (pending) context.resolved?.(tracker.clientOrderId, found);
  }
  await bookMissedExecutions(context, unresolved);
  return { updated, adopted, canceled, missing, unresolved };
}

/** Pending (outcome unknown, or restored) or active, and not waiting for its own request. */
function needsLookup(tracker: OrderTracker): boolean {
  return !tracker.inFlight && (tracker.status === 'pending' || tracker.active);
}

/** Pages of the order history one reconciliation reads at most before it looks the rest up one by one. */
export const ORDER_HISTORY_PAGES = 10;

/** The earliest of the times, less the slack; undefined when none is known. */
function rangeStart(times: Iterable<number | undefined>): number | undefined {
  let earliest: number | undefined;
  for (const time of times) if (time !== undefined && (earliest === undefined || time < earliest)) earliest = time;
  return earliest === undefined ? undefined : Math.max(0, earliest - HISTORY_SLACK_MS);
}

interface OrderHistoryRead {
  readonly orders: ReadonlyMap<string, Order>;
  /** The read went back past this tracker's creation: not found means the exchange has no such order. */
  covers(tracker: OrderTracker): boolean;
}

/**
 * How far the exchange's clock is ahead of ours, at most: the least (creation time on the
 * exchange - local send time) over orders whose both times are known. A request reaches the
 * exchange after it leaves, so the true offset is no larger than any of these.
 */
function clockOffset(trackers: Iterable<OrderTracker>): number | undefined {
  let least: number | undefined;
  for (const tracker of trackers) {
    const created = tracker.order?.created_at;
    const sent = tracker.info.sentAt;
    if (created === undefined || sent === undefined) continue;
    const offset = created - sent;
    if (least === undefined || offset < least) least = offset;
  }
  return least;
}

/**
 * Reads the order history newest first, page by page, until every tracker is found, the history
 * ends, or the pages reach back before the earliest of the missing trackers' creation: in the
 * exchange's time, its local send time plus the clock offset less {@link HISTORY_SLACK_MS}. Our
 * send times are only compared through the offset learned from our own orders (the open ones,
 * and those this read finds), never with the exchange's clock directly: a sandbox replaying a
 * recording lives years in the past. Undefined when the venue cannot page its history.
 */
async function readOrderHistory(venue: VenuePort, trackers: readonly OrderTracker[], all: Iterable<OrderTracker>): Promise<OrderHistoryRead | undefined> {
  if (venue.orderHistoryPage === undefined || trackers.length === 0) return undefined;
  const wanted = new Map(trackers.map((t) => [t.clientOrderId, t]));
  const orders = new Map<string, Order>();
  let offset = clockOffset(all);
  let ended = false;
  /** Every order created from this time (exchange clock) on has been read. */
  let frontier = Number.POSITIVE_INFINITY;
  let read = 0;
  for (let page = 0; page < ORDER_HISTORY_PAGES && wanted.size > 0; page++) {
    let result;
    try {
      result = await venue.orderHistoryPage(read);
    } catch {
      break;
    }
    for (const order of result.items) {
      const tracker = wanted.get(order.client_order_id);
      if (tracker === undefined) continue;
      wanted.delete(order.client_order_id);
      orders.set(order.client_order_id, order);
      if (tracker.info.sentAt !== undefined && (offset === undefined || order.created_at - tracker.info.sentAt < offset)) offset = order.created_at - tracker.info.sentAt;
    }
    read += result.items.length;
    if (result.last) {
      ended = true;
      break;
    }
    // Newest first by creation (or by last change): every order made since the last one's last change is read.
    const last = result.items[result.items.length - 1];
    if (last !== undefined && last.updated_at < frontier) frontier = last.updated_at;
    const learned = offset;
    if (learned !== undefined && [...wanted.values()].every((t) => passed(t, learned, frontier))) break;
  }
  const learned = offset;
  return { orders, covers: (tracker) => ended || (learned !== undefined && passed(tracker, learned, frontier)) };
}

/** The read reached back before the tracker's creation, in the exchange's time. */
function passed(tracker: OrderTracker, clockOffsetMs: number, frontier: number): boolean {
  const sent = tracker.info.sentAt;
  return sent !== undefined && frontier < sent + clockOffsetMs - HISTORY_SLACK_MS;
}

/**
 * Orders whose executed quantity is more than the executions seen (filled while the bot was down
 * or disconnected) get their executions from the trade history, so positions and flows match the
 * exchange's: one read by time range for all of them, then per order only when that read failed
 * or stopped short.
 */
async function bookMissedExecutions(context: ReconcileContext, unresolved: string[]): Promise<void> {
  const short = [...context.account.all()].filter(missesExecutions);
  if (short.length === 0) return;
  const venue = context.venue;
  let complete = false;
  const from = rangeStart(short.map((t) => t.order?.created_at));
  if (venue.tradeHistory !== undefined && from !== undefined) {
    try {
      const batch = await venue.tradeHistory({ from });
      const byOrder = new Map<string, TradeHistoryRecord[]>();
      for (const trade of batch.items) {
        let list = byOrder.get(trade.client_order_id);
        if (list === undefined) byOrder.set(trade.client_order_id, (list = []));
        list.push(trade);
      }
      for (const tracker of short) context.account.applyTrades(tracker.clientOrderId, byOrder.get(tracker.clientOrderId) ?? []);
      complete = batch.complete;
    } catch {
      // Per order below.
    }
  }
  if (complete) return;
  for (const tracker of short) {
    const order = tracker.order;
    if (order === undefined || !missesExecutions(tracker)) continue;
    try {
      context.account.applyTrades(tracker.clientOrderId, await venue.orderTrades({ ...order, trades: undefined }));
    } catch {
      unresolved.push(tracker.clientOrderId);
    }
  }
}

function missesExecutions(tracker: OrderTracker): boolean {
  const quantity = tracker.unattributedQuantity;
  return tracker.order !== undefined && !tracker.inFlight && quantity.isPositive() && !quantity.isZero();
}
