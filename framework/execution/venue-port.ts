import type { Observable } from 'rxjs';
import type { Decimal } from '../model/decimal.js';
import type { Side } from '../model/instrument.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { FuturesPositionConfig } from '../model/resources/futures-config.js';
import type { MarginAccount } from '../model/resources/margin-account.js';
import type { ContingencyType, Order, OrderType, TimeInForce } from '../model/resources/order.js';
import type { TradeHistoryRecord } from '../model/resources/trade-history.js';
import type { OrderReport } from '../model/stream/order-report.js';

/**
 * The execution adapter's view of a trading venue. Three implementations share it: the live
 * exchange (REST + trading WebSocket clients), the sandbox (the same clients pointed at our own
 * server) and the backtest (the simulated venue in process on a virtual clock). It is shaped to
 * carry margin and futures later (positions, leverage) without changing spot callers.
 *
 * Every method either resolves with the exchange's answer, rejects with an ExchangeError (final
 * or retryable, with the exchange's code), or rejects with a NetworkError/TimeoutError whose
 * `outcomeUnknown` says the request may have taken effect: the adapter then looks the order up by
 * client_order_id before anything else.
 */
export interface VenuePort {
  readonly account: 'spot' | 'margin' | 'futures';
  placeOrder(order: VenueOrderRequest): Promise<Order>;
  placeOrderList(list: VenueOrderListRequest): Promise<Order[]>;
  replaceOrder(clientOrderId: string, change: VenueReplaceRequest): Promise<Order>;
  cancelOrder(clientOrderId: string): Promise<Order>;
  cancelAll(symbol?: string): Promise<Order[]>;
  /** The order by client_order_id: active orders first, then history; undefined when the venue never saw it. */
  findOrder(clientOrderId: string): Promise<Order | undefined>;
  openOrders(symbol?: string): Promise<Order[]>;
  balances(): Promise<TradingBalance[]>;
  /**
   * The executions of one order (trade history by order id): what a reconciliation books when the
   * order's executed quantity shows executions the stream never reported (a bot that was down).
   */
  orderTrades(order: Order): Promise<TradeHistoryRecord[]>;
  /**
   * One page of the account's order history, newest first (`offset` records skipped), open orders
   * included or not as the venue keeps them; `last` when no older page exists. The reconciliation
   * reads pages until it found or passed the orders it settles: one read for many orders instead
   * of a lookup each. Optional; without it each order is looked up on its own.
   */
  orderHistoryPage?(offset: number): Promise<HistoryPage<Order>>;
  /** The account's executions from `range.from` (exchange time) on: the trade history by time range, every page; optional. */
  tradeHistory?(range: HistoryRange): Promise<HistoryBatch<TradeHistoryRecord>>;
  /**
   * Margin and futures accounts: the isolated account of each of `symbols` (leverage, margin
   * balance, open position with its entry, liquidation price and unrealized PnL), whether or not it
   * holds a position: its leverage applies to the next order. Absent on spot.
   */
  marginAccounts?(symbols: readonly string[]): Promise<MarginAccount[]>;
  /** Futures accounts: each contract's position configuration (the risk limit's terms). Absent elsewhere. */
  futuresConfigs?(): Promise<FuturesPositionConfig[]>;
  /** Futures accounts: sets a contract's leverage on its isolated account; resolves to the account. Absent elsewhere. */
  setLeverage?(symbol: string, leverage: Decimal): Promise<MarginAccount>;
  /** Order reports of the account, in the order the venue sent them. */
  readonly orderReports$: Observable<OrderReport>;
  /** Balance changes of the account. */
  readonly balances$: Observable<readonly TradingBalance[]>;
  /**
   * Sends the requests handed to the port so far that it still holds. A port may hold requests
   * until the code running now ends (a strategy handler's later intents then do not wait for the
   * first one's serialisation); the execution engine flushes after each handler's intents, so they
   * leave within the same step of market time. Optional: a port that sends at once has nothing to do.
   */
  flush?(): void;
  /** Emits after every (re)connection of the report stream: state must be reconciled. */
  readonly reconnected$: Observable<number>;
}

/** An order as the adapter sends it (wire names, exact decimals). */
export interface VenueOrderRequest {
  readonly client_order_id: string;
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly time_in_force?: TimeInForce;
  readonly quantity: Decimal;
  readonly price?: Decimal;
  readonly stop_price?: Decimal;
  readonly expire_time?: number;
  readonly post_only?: boolean;
  readonly reduce_only?: boolean;
}

/** An order list as the adapter sends it; order_list_id is the first order's client_order_id. */
export interface VenueOrderListRequest {
  readonly order_list_id: string;
  readonly contingency_type: ContingencyType;
  readonly orders: readonly VenueOrderRequest[];
}

/** A replace: new client_order_id, quantity and (limit types) price. */
export interface VenueReplaceRequest {
  readonly new_client_order_id: string;
  readonly quantity: Decimal;
  readonly price?: Decimal;
}

/** A time range of a history read (UNIX ms, `till` open-ended when undefined). */
export interface HistoryRange {
  readonly from: number;
  readonly till?: number;
}

/** One page of a history, newest first. */
export interface HistoryPage<T> {
  readonly items: readonly T[];
  /** No older record exists. */
  readonly last: boolean;
}

/** What a history read by time range returned. */
export interface HistoryBatch<T> {
  readonly items: readonly T[];
  /**
   * Every record of the range is in `items` (the last page was short). False when the read
   * stopped at its page budget: what it lacks is not proof that a record does not exist.
   */
  readonly complete: boolean;
}
