import type { Order } from '../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';
import { toOrder, type OrderRecord } from './order-state.js';
import type { AccountId } from './venue-types.js';
import { objectList } from '../../framework/model/object-list.js';

/** How long a closed order without executions stays in the order history (document 001). */
export const UNFILLED_HISTORY_MS = 86_400_000;

/** Options of {@link VenueHistory}. */
export interface VenueHistoryOptions {
  /**
   * Closed orders without executions kept per account at most, the oldest forgotten first, on top
   * of the 24 h rule. Unlimited by default (the exchange's behaviour); a backtest, which never
   * reads its venue's history, keeps a few so a market maker's millions of canceled quotes do not
   * pile up in memory.
   */
  readonly maxUnfilledClosed?: number;
}

interface ClosedOrder {
  /** The order's final record: nothing changes a record once it is closed. */
  readonly record: OrderRecord;
  readonly closedAt: number;
  /** Closing order, so the two lists merge back in the order orders closed. */
  readonly seq: number;
}

/** One account's history: executed orders stay, unfilled ones expire (oldest at `head`). */
interface AccountHistory {
  readonly executed: ClosedOrder[];
  unfilled: ClosedOrder[];
  head: number;
  readonly trades: TradeHistoryRecord[];
  /** Executions of margin orders, kept apart: each section reads only its own. */
  readonly marginTrades: TradeHistoryRecord[];
}

/**
 * Order and trade history per account, oldest first internally, newest first on read. Closed
 * orders without executions drop out 24 h (venue time) after they closed; executed ones stay.
 * Orders are kept as their final records and turned into API orders only when read: closing an
 * order costs no conversion, and the expired ones are dropped as new ones close.
 */
export class VenueHistory {
  private readonly accounts = new Map<AccountId, AccountHistory>();
  private seq = 0;

  constructor(private readonly options: VenueHistoryOptions = {}) {}

  /** Records a closed order (its final record, with trades). */
  addClosed(account: AccountId, record: OrderRecord, closedAt: number): void {
    const history = this.of(account);
    const entry: ClosedOrder = { record, closedAt, seq: this.seq++ };
    if (record.cumulativeLots > 0) {
      history.executed.push(entry);
      return;
    }
    history.unfilled.push(entry);
    this.prune(history, closedAt);
  }

  /** Records an execution (`margin`: of a margin order). */
  addTrade(account: AccountId, trade: TradeHistoryRecord, margin = false): void {
    const history = this.of(account);
    (margin ? history.marginTrades : history.trades).push(trade);
  }

  /** Closed orders still in history at `now`, newest first: margin orders, or (the default) the others. */
  closedOrders(account: AccountId, now: number, margin = false): Order[] {
    const history = this.accounts.get(account);
    if (history === undefined) return [];
    this.prune(history, now);
    const { executed, unfilled } = history;
    const out: Order[] = [];
    let e = executed.length - 1;
    let u = unfilled.length - 1;
    while (e >= 0 || u >= history.head) {
      const takeExecuted = u < history.head || (e >= 0 && (executed[e] as ClosedOrder).seq > (unfilled[u] as ClosedOrder).seq);
      const entry = takeExecuted ? (executed[e--] as ClosedOrder) : (unfilled[u--] as ClosedOrder);
      if (entry.record.margin === margin) out.push(toOrder(entry.record, true));
    }
    return out;
  }

  /** The account's executions, newest first: of margin orders, or (the default) of the others. */
  tradeHistory(account: AccountId, margin = false): TradeHistoryRecord[] {
    const history = this.accounts.get(account);
    return [...((margin ? history?.marginTrades : history?.trades) ?? [])].reverse();
  }

  /** Drops unfilled orders past 24 h at `now`, and beyond the count limit. */
  private prune(history: AccountHistory, now: number): void {
    const max = this.options.maxUnfilledClosed ?? Number.POSITIVE_INFINITY;
    const list = history.unfilled;
    let head = history.head;
    while (head < list.length && (now - (list[head] as ClosedOrder).closedAt >= UNFILLED_HISTORY_MS || list.length - head > max)) head++;
    // Compact once the dropped prefix is the larger part: amortised O(1) a close.
    if (head > 64 && head * 2 > list.length) {
      history.unfilled = list.slice(head);
      head = 0;
    }
    history.head = head;
  }

  private of(account: AccountId): AccountHistory {
    let history = this.accounts.get(account);
    if (history === undefined) {
      history = { executed: objectList(), unfilled: objectList(), head: 0, trades: objectList(), marginTrades: objectList() };
      this.accounts.set(account, history);
    }
    return history;
  }
}
