import type { ExecutionAdapter } from './execution-adapter.js';
import type { OrderTracker } from './order-tracker.js';

/** How a bot's orders are wound up at stop. */
export interface OrderShutdownOptions {
  /** Cancel every open order of the bot (`execution.onShutdown: cancel`), or leave them on the book. */
  readonly cancel: boolean;
  /** How long to wait for the answers of requests in flight (and a reconciliation running), ms. */
  readonly timeoutMs: number;
}

/** What a shutdown did with the bot's orders (client_order_ids). */
export interface OrderShutdownSummary {
  /** Orders canceled since the stop was asked (by the strategy's `onStop` or by the shutdown). */
  readonly canceled: readonly string[];
  /**
   * Orders left behind: still open on the exchange (kept by policy, or a cancel that failed), or
   * whose state stayed unknown (a request still unanswered, lookups that kept failing). The
   * journal keeps them unfinished, so the next start settles them.
   */
  readonly left: readonly string[];
  /** The wait for the answers of requests in flight ran out. */
  readonly timedOut: boolean;
}

/**
 * Winds up the bot's orders, in this order:
 *
 * 1. intents that would make orders are refused from now on (cancels still go out);
 * 2. the answers of requests in flight are awaited, at most `timeoutMs` (a reconciliation running
 *    is awaited too: its open orders are what there is to cancel);
 * 3. orders still pending (an answer that did not come in time, an unknown outcome, an order
 *    restored from the journal and not reconciled yet) are looked up by client_order_id;
 * 4. by policy, every open order of the bot is canceled, whatever its strategy (adopted ones too);
 *    a cancel answered "not found" is looked up, and a fill found there is booked;
 * 5. executions the exchange counts for an order but no report brought (a report still delayed)
 *    are booked from the order's trade history;
 * 6. the balances (and, on margin and futures, the isolated accounts) are read once more, so the
 *    bot's last balances and positions are the exchange's after all of the above (a balance
 *    notification may still be on its way).
 *
 * Lookups, cancels and trade-history reads are bounded by the adapter's retry policy, not by
 * `timeoutMs`. Each order that ends on the way reaches the adapter's `onOrderFinished` once (the
 * journal's final line). Never rejects.
 */
export async function shutdownOrders(adapter: ExecutionAdapter, options: OrderShutdownOptions): Promise<OrderShutdownSummary> {
  adapter.refuseNewOrders();
  const idle = await within(adapter.whenIdle(), options.timeoutMs);
  await Promise.allSettled(trackers(adapter).filter((t) => t.status === 'pending').map((t) => adapter.lookUp(t)));
  if (options.cancel) await Promise.allSettled(adapter.account.open().map((tracker) => adapter.cancelTracker(tracker)));
  await Promise.allSettled(trackers(adapter).map((t) => adapter.bookMissedFills(t)));
  await Promise.all([adapter.refreshBalances().catch(() => undefined), adapter.refreshMarginAccounts().catch(() => undefined)]);
  const left = trackers(adapter).filter((t) => t.active || t.status === 'pending').map((t) => t.clientOrderId);
  return { canceled: adapter.canceledSinceStop, left, timedOut: !idle };
}

function trackers(adapter: ExecutionAdapter): OrderTracker[] {
  return [...adapter.account.all()];
}

/** Whether `work` settled within `ms` (the timer is cleared either way, so it never holds the process). */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true, () => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}
