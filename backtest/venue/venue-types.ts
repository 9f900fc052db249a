import type { Decimal } from '../../framework/model/decimal.js';
import { EXCHANGE_ERRORS } from '../../framework/exchange/errors.js';
import type { Side } from '../../framework/model/instrument.js';
import type { TradingBalance, WalletBalance } from '../../framework/model/resources/balance.js';
import type { Position } from '../../framework/model/resources/margin-account.js';
import type { ContingencyType, Order, OrderType, TimeInForce } from '../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';
import type { OrderReport } from '../../framework/model/stream/order-report.js';
import type { BookFrame } from '../../framework/exchange/book/order-book-frame.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';

/**
 * The simulated venue's contract. The venue is pure and deterministic: it never reads a clock,
 * a timer or a random source; time enters only through {@link Venue.advanceTo} and the local time
 * of each market frame. The sandbox server (real sockets, real time) and the backtester (in
 * process, virtual time) drive the same implementation, so paper and backtest fill alike.
 *
 * Requests use the wire names and wire value forms of API v3 (decimal strings, snake_case), so a
 * server can pass validated request bodies through; answers are the model's resources.
 */

/** An account of the venue (one per sandbox API key owner; one per backtest). */
export type AccountId = string;

/** `POST /api/3/spot/order` parameters (document 001), values as on the wire. */
export interface NewOrderRequest {
  readonly client_order_id?: string;
  readonly symbol: string;
  readonly side: Side;
  readonly type?: OrderType;
  readonly time_in_force?: TimeInForce;
  readonly quantity: string;
  readonly price?: string;
  readonly stop_price?: string;
  /** UNIX ms; required for GTD. */
  readonly expire_time?: number;
  readonly strict_validate?: boolean;
  readonly post_only?: boolean;
  /** Can only increase the fee (a lower value than the symbol's is ignored). */
  readonly take_rate?: string;
  readonly make_rate?: string;
  /** Margin and futures only; refused on spot. */
  readonly reduce_only?: boolean;
}

/** `PUT /api/3/margin/account/isolated/{symbol}` parameters (see `SimulatedMarginVenue.updateAccount`). */
export interface MarginAccountRequest {
  readonly margin_balance?: string;
  readonly leverage?: string;
}

/** `PATCH /api/3/spot/order/{client_order_id}` parameters. */
export interface ReplaceOrderRequest {
  readonly client_order_id: string;
  readonly new_client_order_id?: string;
  readonly quantity: string;
  readonly price?: string;
  readonly strict_validate?: boolean;
}

/** `POST /api/3/spot/order/list` parameters. */
export interface OrderListRequest {
  readonly order_list_id?: string;
  readonly contingency_type: ContingencyType;
  readonly orders: readonly NewOrderRequest[];
}

/** `POST /api/3/wallet/transfer` between the wallet and the spot trading account. */
export interface TransferRequest {
  readonly currency: string;
  readonly amount: string;
  readonly source: 'wallet' | 'spot';
  readonly destination: 'wallet' | 'spot';
}

/**
 * A refused request, with the exchange's code, HTTP status, message and description (the sandbox
 * answers exactly this envelope). Thrown synchronously by venue methods.
 */
export class VenueRejection extends Error {
  readonly httpStatus: number;
  readonly exchangeMessage: string;

  constructor(
    readonly code: number,
    readonly description = '',
  ) {
    const known = EXCHANGE_ERRORS.get(code);
    super(`${code} ${known?.message ?? 'Error'}${description ? `: ${description}` : ''}`);
    this.name = 'VenueRejection';
    this.httpStatus = known?.httpStatus ?? 400;
    this.exchangeMessage = known?.message ?? 'Error';
  }

  /** The REST error envelope. */
  toWire(): { error: { code: number; message: string; description: string } } {
    return { error: { code: this.code, message: this.exchangeMessage, description: this.description } };
  }
}

/** One forced close, for reports. */
export interface LiquidationRecord {
  readonly account: AccountId;
  readonly symbol: string;
  readonly time: number;
  readonly positionId: string;
  /** The closing execution's trade id and the venue's order id (its trade history record). */
  readonly tradeId: string;
  readonly orderId: string;
  /** Signed quantity closed. */
  readonly quantity: Decimal;
  /** The mark price the position closed at. */
  readonly price: Decimal;
  readonly realized: Decimal;
  /** force_close_fee x notional, taken from the margin cash. */
  readonly fee: Decimal;
  /** What the insurance fund paid to bring the margin cash back to zero (0 when none). */
  readonly deficit: Decimal;
}

/** What the venue tells the outside world, in the order it happened. */
export type VenueEvent =
  /** An order changed (report_type says how); sent to the account's trading-stream subscribers. */
  | { readonly kind: 'order'; readonly account: AccountId; readonly report: OrderReport; readonly cause: EventCause; readonly margin?: true }
  /** The account's spot balances of these currencies changed. */
  | { readonly kind: 'balance'; readonly account: AccountId; readonly balances: readonly TradingBalance[] }
  /** The account's wallet balances of these currencies changed. */
  | { readonly kind: 'wallet'; readonly account: AccountId; readonly balances: readonly WalletBalance[] }
  /**
   * The account's futures balances (margin currencies) or positions changed; a position closed is
   * sent as `{symbol, quantity: 0}`.
   */
  | { readonly kind: 'futures'; readonly account: AccountId; readonly balances: readonly TradingBalance[]; readonly positions: readonly (Position | FlatPosition)[] }
  /**
   * The account's margin balances (totals per currency over its isolated margin accounts) or its
   * isolated accounts' positions changed; a position closed is sent as `{symbol, quantity: 0}`.
   */
  | { readonly kind: 'margin'; readonly account: AccountId; readonly balances: readonly TradingBalance[]; readonly positions: readonly (Position | FlatPosition)[] }
  /**
   * The venue force-closed a futures position of the account (after the `futures` event of the
   * close), or with `margin` a position of one of its isolated margin accounts (after the `margin` event).
   */
  | { readonly kind: 'liquidation'; readonly account: AccountId; readonly liquidation: LiquidationRecord; readonly cause: EventCause; readonly margin?: true };

/** A position that just closed, in a `futures` event. */
export interface FlatPosition {
  readonly symbol: string;
  readonly quantity: Decimal;
}

/**
 * Why something happened: every fill and every state change is traceable to the request or the
 * market frame that caused it (backtest-versus-paper divergence reports are built on this).
 */
export type EventCause =
  | { readonly kind: 'request'; readonly requestId: number }
  | { readonly kind: 'market'; readonly frameTime: number; readonly channel: string; readonly symbol: string; readonly sequence?: number }
  | { readonly kind: 'timer'; readonly time: number; readonly reason: 'expire-day' | 'expire-gtd' | 'funding' | 'contract-expiry' };

/** A currency amount held by an account, as configured at start. */
export type InitialBalances = Readonly<Record<string, string>>;

/** Everything the venue keeps per order beyond the wire shape. */
export interface VenueOrderView extends Order {
  readonly account: AccountId;
}

/**
 * The simulated exchange. Every request method processes at the venue's current time
 * ({@link now}), throws {@link VenueRejection} on refusal and emits {@link VenueEvent}s (order
 * reports, balance changes) through the listener given at construction before it returns.
 */
export interface Venue {
  /** Current venue time, UNIX ms. */
  now(): number;
  /** Moves venue time forward, firing Day/GTD expiries that fall due. Never goes backwards. */
  advanceTo(time: number): void;
  /**
   * Feeds one market-data notification (a recorded or synthetic `ws/public` frame) received at
   * local time `receivedAt`: `orderbook/full` moves the outside book, `trades` may fill resting
   * orders and trigger stop/take-profit orders. Advances time to `receivedAt` first.
   */
  onMarketFrame(frame: unknown, receivedAt: number): void;
  /** {@link onMarketFrame} for a frame parsed already (book frames, market events); optional, callers fall back to the message. */
  onParsedMarket?(books: readonly BookFrame[], events: readonly MarketEvent[], receivedAt: number): void;

  placeOrder(account: AccountId, request: NewOrderRequest): Order;
  placeOrderList(account: AccountId, request: OrderListRequest): Order[];
  replaceOrder(account: AccountId, request: ReplaceOrderRequest): Order;
  cancelOrder(account: AccountId, clientOrderId: string): Order;
  cancelAll(account: AccountId, symbol?: string): Order[];
  getOpenOrder(account: AccountId, clientOrderId: string): Order;
  openOrders(account: AccountId, symbol?: string): Order[];
  /** Order history (closed and open), newest first; orders without executions drop out after 24 h. */
  orderHistory(account: AccountId): Order[];
  /** Trade history (the account's executions), newest first. */
  tradeHistory(account: AccountId): readonly TradeHistoryRecord[];

  spotBalances(account: AccountId): TradingBalance[];
  walletBalances(account: AccountId): WalletBalance[];
  transfer(account: AccountId, request: TransferRequest): string;
  /** Fee rates of the account for a symbol (the symbol's defaults). */
  feeRate(account: AccountId, symbol: string): { readonly take_rate: Decimal; readonly make_rate: Decimal };
}
