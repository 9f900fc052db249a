import type { OrderBook } from '../exchange/book/order-book.js';
import type { Decimal } from '../model/decimal.js';
import type { Instrument } from '../model/instrument.js';
import type { Intent, OrderSpec } from '../model/intent.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { ContingencyType, Order } from '../model/resources/order.js';
import type { DeniedReport, StrategyReport } from '../model/strategy-report.js';
import type { CandlesEvent, TickerEvent, TradesEvent } from '../model/stream/market-events.js';
import type { PositionView } from '../model/position.js';
import type { HandleFill, OrderHandle, OrderListHandle } from './order-handle.js';
import type { IndicatorDeclaration } from './strategy-indicators.js';

export type { PositionView };

/**
 * The Strategy API. A strategy is a plugin that reacts to events and answers with intents; it never
 * calls the exchange and never reads a clock, timer or random source other than those its context
 * gives it, so the same strategy runs unchanged in a backtest, against the sandbox and live.
 *
 * Every handler is optional and may return intents (or nothing); it may also hand intents to
 * `ctx.submit`. Handlers run one at a time, in the runtime's deterministic event order.
 */
export interface Strategy<Params = unknown> {
  /**
   * Indicator series the strategy records with `ctx.recordIndicator` (backtest reports draw them);
   * read once when the engine is built.
   */
  readonly indicators?: readonly IndicatorDeclaration[];
  /** Called once before the first event, with validated parameters. */
  onStart?(ctx: StrategyContext<Params>): Intents;
  /** A book of a subscribed symbol changed. Book updates are conflated per symbol under load. */
  onBook?(ctx: StrategyContext<Params>, symbol: string, book: BookView): Intents;
  onTrades?(ctx: StrategyContext<Params>, event: TradesEvent): Intents;
  /** A candle was updated or closed (`closed` true once its period has ended). */
  onCandle?(ctx: StrategyContext<Params>, event: CandlesEvent, closed: boolean): Intents;
  onTicker?(ctx: StrategyContext<Params>, event: TickerEvent): Intents;
  /**
   * An execution of one of the strategy's orders (told once per trade), after the handle counted
   * it. Runs before `onOrderClosed` and `onReport` for the same report.
   */
  onFill?(ctx: StrategyContext<Params>, order: OrderHandle, fill: HandleFill): Intents;
  /** One of the strategy's orders reached a final status: filled, canceled, expired or rejected. */
  onOrderClosed?(ctx: StrategyContext<Params>, order: OrderHandle): Intents;
  /**
   * The risk gate refused an intent (nothing was sent). `order` is the handle it concerned: a
   * denied place closes it with status `denied`; a denied replace or cancel leaves it as it was.
   */
  onDenied?(ctx: StrategyContext<Params>, report: DeniedReport, order: OrderHandle | undefined): Intents;
  /**
   * Every report about the strategy's intents and orders (denial, rejection, answer, order
   * update), after the typed callbacks above ran for it.
   */
  onReport?(ctx: StrategyContext<Params>, report: StrategyReport): Intents;
  onBalance?(ctx: StrategyContext<Params>, balances: readonly TradingBalance[]): Intents;
  /** A timer set with `ctx.setTimer` fired. */
  onTimer?(ctx: StrategyContext<Params>, timerId: string): Intents;
  /** Called once when the strategy stops (shutdown, halt); its open orders are handled by policy afterwards. */
  onStop?(ctx: StrategyContext<Params>): Intents;
}

/**
 * What a handler may return. Orders built with the context's builders (`ctx.place`, `replace`,
 * `cancel`, `orderList`, `closePosition`, `cancelAll`) are already on their way: returning their
 * handles changes nothing. A hand-made intent object is submitted when returned.
 */
export type Intents = readonly Submittable[] | Submittable | void | undefined;

/** One element of a handler's return value. */
export type Submittable = Intent | OrderHandle | OrderListHandle;

/** Read-only view of a live L2 book (valid during the handler call only). */
export type BookView = Pick<OrderBook, 'symbol' | 'bestBid' | 'bestAsk' | 'spread' | 'mid' | 'topN' | 'depthAt' | 'costToBuy' | 'proceedsToSell' | 'valid'>;

/**
 * The read-only world of a strategy plus the ways to act: `submit` and the intent builders (which
 * fill in intentId and strategyId), and timers on the runtime's clock.
 */
export interface StrategyContext<Params = unknown> {
  readonly strategyId: string;
  readonly params: Params;
  /** Current time from the injected Clock (virtual in backtests). */
  now(): number;
  instrument(symbol: string): Instrument | undefined;
  book(symbol: string): BookView | undefined;
  balance(currency: string): TradingBalance | undefined;
  /** The strategy's orders the exchange holds (optionally of one symbol), as it last said them. */
  openOrders(symbol?: string): readonly Order[];
  /**
   * The strategy's orders that may still trade (optionally of one symbol), in the order they were
   * made: pending new, open, pending replace or cancel.
   */
  orders(symbol?: string): readonly OrderHandle[];
  /** The handle of one of the strategy's orders by any id it had; undefined once forgotten. */
  order(clientOrderId: string): OrderHandle | undefined;
  position(symbol: string): PositionView | undefined;
  /**
   * Funds of `currency` the strategy may still commit: the exchange's available balance less what
   * its orders in flight and open orders hold, as the risk gate counts it. Undefined before the
   * first balance is known.
   */
  freeBalance(currency: string): Decimal | undefined;
  /** Hands hand-made intents to the runtime (same effect as returning them). */
  submit(...intents: Intent[]): void;
  /**
   * Places one order: returns its handle, whose client_order_id is fixed now. The intent goes to
   * the risk gate when the handler returns (at once when called outside a handler).
   */
  place(spec: OrderSpec, tag?: string): OrderHandle;
  /**
   * Cancels one of the strategy's orders; returns its handle (status `pendingCancel`), or
   * undefined (and sends nothing) when the strategy has no open order of that id.
   */
  cancel(order: OrderHandle | string, tag?: string): OrderHandle | undefined;
  /**
   * Replaces (amends) one of the strategy's orders under a new client_order_id fixed now; the
   * handle follows the replacement. Undefined (nothing sent) when the order is not open.
   */
  replace(order: OrderHandle | string, quantity: Decimal, price?: Decimal, tag?: string): OrderHandle | undefined;
  /** Cancels all of the strategy's orders (of one symbol); returns the intent sent. */
  cancelAll(symbol?: string, tag?: string): Intent;
  /** Places an order list; every leg has its handle and client_order_id now. */
  orderList(contingencyType: ContingencyType, orders: readonly OrderSpec[], tag?: string): OrderListHandle;
  /** Closes the strategy's position in a margin or futures symbol (market, or limit at `price`). */
  closePosition(symbol: string, price?: Decimal, tag?: string): OrderHandle;
  /** Fires `onTimer(timerId)` after `delayMs` (and every `delayMs` when `repeat`). */
  setTimer(timerId: string, delayMs: number, repeat?: boolean): void;
  clearTimer(timerId: string): void;
  /**
   * Records `value` of the declared indicator `id` for `symbol` at the current time (a backtest
   * report draws it; elsewhere it is dropped). Throws ValidationError for an undeclared id and
   * UnrepresentableValueError for a value that is not a finite number.
   */
  recordIndicator(id: string, symbol: string, value: number): void;
  /** Structured log line attributed to the strategy (never for secrets). */
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/**
 * A strategy plugin module's default export: a name, a parameter schema that validates and fills
 * defaults (throwing ValidationError naming the field), and a factory.
 */
export interface StrategyPlugin<Params = unknown> {
  readonly name: string;
  readonly description: string;
  /** Validates raw parameters (from YAML) and fills defaults. */
  parseParams(raw: unknown): Params;
  create(params: Params): Strategy<Params>;
  /**
   * True when the strategy acts only through the context it is given (no files, sockets, timers
   * or shared state of its own outside the instance `create` returns), so that running an
   * instance of it has no effect beyond that instance: then the order-path rehearsal
   * (`execution.keepOrderPathWarmMs`) runs two, with the bot's parameters, on synthetic books
   * against a stand-in venue (it fills one order in twenty), after its built-in quoting strategy,
   * and the strategy's own code is compiled before the first live book as well. Absent or false:
   * the rehearsal runs the built-in strategy only.
   */
  readonly rehearsable?: boolean;
}
