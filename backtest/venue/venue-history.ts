import type { Order } from '../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';
import type { AccountId } from './venue-types.js';

/** How long a closed order without executions stays in the order history (document 001). */
export const UNFILLED_HISTORY_MS = 86_400_000;

interface ClosedOrder {
  readonly order: Order;
  readonly closedAt: number;
}

/**
 * Order and trade history per account, oldest first internally, newest first on read. Closed
 * orders without executions drop out 24 h (venue time) after they closed; executed ones stay.
 */
export class VenueHistory {
  private readonly closed = new Map<AccountId, ClosedOrder[]>();
  private readonly trades = new Map<AccountId, TradeHistoryRecord[]>();

  /** Records a closed order (its final state, with trades). */
  addClosed(account: AccountId, order: Order, closedAt: number): void {
    list(this.closed, account).push({ order, closedAt });
  }

  /** Records an execution. */
  addTrade(account: AccountId, trade: TradeHistoryRecord): void {
    list(this.trades, account).push(trade);
  }

  /** Closed orders still in history at `now`, newest first; prunes expired unfilled ones. */
  closedOrders(account: AccountId, now: number): Order[] {
    const all = this.closed.get(account);
    if (all === undefined) return [];
    const kept = all.filter((c) => !c.order.quantity_cumulative.isZero() || now - c.closedAt < UNFILLED_HISTORY_MS);
    this.closed.set(account, kept);
    return kept.map((c) => c.order).reverse();
  }

  /** The account's executions, newest first. */
  tradeHistory(account: AccountId): TradeHistoryRecord[] {
    return [...(this.trades.get(account) ?? [])].reverse();
  }
}

function list<T>(map: Map<AccountId, T[]>, account: AccountId): T[] {
  let l = map.get(account);
  if (l === undefined) {
    l = [];
    map.set(account, l);
  }
  return l;
}
