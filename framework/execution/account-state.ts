import type { TradingBalance } from '../model/resources/balance.js';
import type { FuturesPositionConfig } from '../model/resources/futures-config.js';
import type { MarginAccount } from '../model/resources/margin-account.js';
import type { Order } from '../model/resources/order.js';
import type { TradeHistoryRecord } from '../model/resources/trade-history.js';
import type { OrderReport } from '../model/stream/order-report.js';
import { OrderTracker, isTerminal, type OrderFill, type TrackedOrderInfo, type TrackerUpdate, type UnplacedReason } from './order-tracker.js';
import { PositionBook, type CurrencyLookup } from './position-book.js';
import { BoundedSet } from '../model/bounded-set.js';

/** What a report did in the account; `tracker` is undefined for an order nobody tracks. */
export interface AccountUpdate extends TrackerUpdate {
  readonly tracker: OrderTracker | undefined;
}

const NOTHING: TrackerUpdate = { changed: false, fills: [], stale: false };

/**
 * Finished orders kept for late reports and lookups; older ones are forgotten, so a bot running
 * for months (or a long backtest) holds memory for its open orders, not for its whole history.
 */
export const FINISHED_KEPT = 10_000;
/** Booked trade ids kept against double booking (a late duplicate is older than this many executions: ignored). */
export const TRADES_KEPT = 100_000;


/**
 * The bot's one account state on a venue account: its orders in every state (a tracker per
 * client_order_id, from before the request is sent to its final status), their executions, the
 * positions and currency flows they make, and the balances as the venue last said them. Written
 * only by the execution side from venue events (answers, stream reports, lookups, balance
 * notifications); risk, strategies, reports, the journal and the status line read it.
 *
 * An execution is booked once, by one key (symbol, side, trade_id: a self-trade gives both of the
 * bot's orders the same trade_id), across all trackers (a replacement carries its predecessor's
 * executions, and a lookup may list what the stream already reported), into the positions and
 * currency flows of the strategy that owns the order.
 */
export class AccountState {
  private readonly trackers = new Map<string, OrderTracker>();
  private readonly bookedTrades = new BoundedSet<string>(TRADES_KEPT);
  /** Finished orders in the order they ended; the oldest are forgotten beyond `finishedKept`. */
  private readonly finished: BoundedSet<string>;
  readonly positions: PositionBook;
  private readonly balanceMap = new Map<string, TradingBalance>();
  /** Margin and futures: the isolated account of each symbol as the venue last reported it. */
  private readonly marginAccounts = new Map<string, MarginAccount>();
  /** Futures: each contract's position configuration as the venue last reported it. */
  private readonly futuresConfigs = new Map<string, FuturesPositionConfig>();
  /** The active orders (known to the exchange, not terminal), in the order they became active: an index of `trackers`. */
  private readonly activeOrders = new Map<string, OrderTracker>();

  /**
   * `onBooked` hears every execution the first time it is booked, whatever brought it (a stream
   * report, a request's answer, a lookup at reconciliation); the journal writes it down there.
   * `onFinished` hears each order once when it reaches a final status (filled, canceled, expired,
   * or refused), before the account may forget it.
   */
  constructor(
    currencies?: CurrencyLookup,
    private readonly onBooked?: (info: TrackedOrderInfo, fill: OrderFill) => void,
    private readonly onFinished?: (tracker: OrderTracker) => void,
    /** Finished orders kept for late reports and lookups ({@link FINISHED_KEPT} by default). */
    finishedKept = FINISHED_KEPT,
  ) {
    this.positions = new PositionBook(currencies);
    this.finished = new BoundedSet<string>(finishedKept);
  }

  /** Balance notifications and snapshots carry absolute values: each entry replaces its currency. */
  setBalances(balances: readonly TradingBalance[]): void {
    for (const balance of balances) if (balance.currency !== undefined) this.balanceMap.set(balance.currency, balance);
  }

  /** The balance of a currency as the venue last said it. */
  balance(currency: string): TradingBalance | undefined {
    return this.balanceMap.get(currency);
  }

  /** Every balance the venue last said, by currency. */
  balances(): readonly TradingBalance[] {
    return [...this.balanceMap.values()];
  }

  /**
   * A read of the account's isolated accounts (margin, futures) replaces what was known: a symbol
   * missing from it has no account any more.
   */
  setMarginAccounts(accounts: readonly MarginAccount[]): void {
    this.marginAccounts.clear();
    for (const account of accounts) this.marginAccounts.set(account.symbol, account);
  }

  /** The isolated account of a symbol (leverage, margin, open position) as the venue last reported it. */
  marginAccount(symbol: string): MarginAccount | undefined {
    return this.marginAccounts.get(symbol);
  }

  /** A read of the contracts' position configurations replaces what was known. */
  setFuturesConfigs(configs: readonly FuturesPositionConfig[]): void {
    this.futuresConfigs.clear();
    for (const config of configs) this.futuresConfigs.set(config.symbol, config);
  }

  /** A contract's position configuration (risk limit terms, largest leverage) as the venue last reported it. */
  futuresConfig(symbol: string): FuturesPositionConfig | undefined {
    return this.futuresConfigs.get(symbol);
  }

  /** Starts tracking an order before its request is sent, so reports racing the reply find it. */
  track(info: TrackedOrderInfo): OrderTracker {
    if (this.trackers.has(info.clientOrderId)) throw new Error(`client_order_id ${info.clientOrderId} is already tracked`);
    const tracker = new OrderTracker(info);
    this.trackers.set(info.clientOrderId, tracker);
    return tracker;
  }

  /** Tracks an order found on the exchange that no intent of this run made (reconciliation). */
  adopt(order: Order, strategyId?: string): AccountUpdate {
    const existing = this.trackers.get(order.client_order_id);
    if (existing !== undefined) return this.applyOrder(order);
    this.track({
      clientOrderId: order.client_order_id, strategyId, symbol: order.symbol, side: order.side, quantity: order.quantity,
      orderListId: order.order_list_id,
    });
    return this.applyOrder(order);
  }

  /**
   * Restores an order known from before a restart (the journal): tracked as pending, so the next
   * reconciliation finds it among the open orders or looks it up. Its journaled executions are
   * booked now (positions and flows), and a lookup's copy of them later is not booked again.
   */
  restore(info: TrackedOrderInfo, fills: readonly OrderFill[], finished: boolean): void {
    const tracker = this.trackers.get(info.clientOrderId) ?? new OrderTracker(info);
    for (const fill of fills) tracker.restoreFill(fill);
    this.book(tracker, fills, false);
    if (!finished) this.trackers.set(info.clientOrderId, tracker);
  }

  /**
   * Tracks the venue's forced close of a position, reported on the trading stream with
   * `liquidation: true` under a client_order_id of the venue's (`liquidation-<position id>`), so
   * that its execution is booked as the exchange reports it: it closes the strategies' positions
   * it reduces (see {@link PositionBook.applyLiquidation}) and the order belongs to the strategy
   * holding the largest of them (none when no strategy holds one). Returns what it tracked.
   */
  trackLiquidation(report: OrderReport): TrackedOrderInfo {
    const owner = this.positions.holders(report.symbol, report.side)[0]?.strategyId;
    const info: TrackedOrderInfo = {
      clientOrderId: report.client_order_id, strategyId: owner, symbol: report.symbol, side: report.side,
      quantity: report.quantity, type: report.type, liquidation: true,
    };
    this.track(info);
    return info;
  }

  /** Books executions found in the trade history of a tracked order (those already counted change nothing). */
  applyTrades(clientOrderId: string, trades: readonly TradeHistoryRecord[]): OrderFill[] {
    const tracker = this.trackers.get(clientOrderId);
    if (tracker === undefined) return [];
    const fresh: OrderFill[] = [];
    for (const t of trades) {
      const fill = { tradeId: t.id, quantity: t.quantity, price: t.price, fee: t.fee, taker: t.taker, time: t.timestamp };
      if (tracker.restoreFill(fill)) fresh.push(fill);
    }
    return this.book(tracker, fresh);
  }

  /** Stops tracking a pending order whose request was refused, or that a lookup showed never existed. */
  forget(clientOrderId: string, reason: UnplacedReason = 'rejected'): void {
    const tracker = this.trackers.get(clientOrderId);
    if (tracker !== undefined && tracker.status === 'pending') {
      tracker.markRejected(reason);
      this.trackers.delete(clientOrderId);
      this.activeOrders.delete(clientOrderId);
      this.onFinished?.(tracker);
    }
  }

  get(clientOrderId: string): OrderTracker | undefined {
    return this.trackers.get(clientOrderId);
  }

  /** Every tracker (any status). */
  all(): IterableIterator<OrderTracker> {
    return this.trackers.values();
  }

  /** Active orders (known to the exchange, not terminal), of one strategy and symbol when given. */
  open(strategyId?: string, symbol?: string): OrderTracker[] {
    const result: OrderTracker[] = [];
    for (const tracker of this.activeOrders.values()) {
      if (strategyId !== undefined && tracker.info.strategyId !== strategyId) continue;
      if (symbol !== undefined && tracker.info.symbol !== symbol) continue;
      result.push(tracker);
    }
    return result;
  }

  /** Applies a trading-stream report to its tracker and books new fills. */
  applyReport(report: OrderReport): AccountUpdate {
    const tracker = this.trackers.get(report.client_order_id);
    if (tracker === undefined) return { ...NOTHING, tracker };
    const update = tracker.applyReport(report);
    const result = { ...update, fills: this.book(tracker, update.fills), tracker };
    this.index(tracker);
    this.noteFinished(tracker);
    return result;
  }

  /** Applies an order (a request's answer or a lookup) to its tracker and books new fills. */
  applyOrder(order: Order): AccountUpdate {
    const tracker = this.trackers.get(order.client_order_id);
    if (tracker === undefined) return { ...NOTHING, tracker };
    const update = tracker.applyOrder(order);
    const result = { ...update, fills: this.book(tracker, update.fills), tracker };
    this.index(tracker);
    this.noteFinished(tracker);
    return result;
  }

  private book(tracker: OrderTracker, fills: readonly OrderFill[], announce = true): OrderFill[] {
    const booked: OrderFill[] = [];
    const { strategyId, symbol, side } = tracker.info;
    for (const fill of fills) {
      // Side in the key: a self-trade gives both of our orders the same trade_id.
      const key = `${symbol}/${side}/${fill.tradeId}`;
      if (this.bookedTrades.has(key)) continue;
      this.bookedTrades.add(key);
      booked.push(fill);
      if (tracker.info.liquidation === true) this.positions.applyLiquidation(symbol, side, fill);
      else if (strategyId !== undefined) this.positions.applyFill(strategyId, symbol, side, fill);
      if (announce) this.onBooked?.(tracker.info, fill);
    }
    return booked;
  }

  private index(tracker: OrderTracker): void {
    const id = tracker.clientOrderId;
    if (!tracker.active) this.activeOrders.delete(id);
    else if (!this.activeOrders.has(id)) this.activeOrders.set(id, tracker);
  }

  private noteFinished(tracker: OrderTracker): void {
    if (!isTerminal(tracker.status) || this.finished.has(tracker.clientOrderId)) return;
    this.onFinished?.(tracker);
    const oldest = this.finished.add(tracker.clientOrderId);
    if (oldest === undefined) return;
    const old = this.trackers.get(oldest);
    if (old !== undefined && isTerminal(old.status)) this.trackers.delete(oldest);
  }
}
