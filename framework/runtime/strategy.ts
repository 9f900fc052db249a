import type { OrderBook } from '../exchange/book/order-book.js';
import type { Decimal } from '../model/decimal.js';
import type { Instrument } from '../model/instrument.js';
import type { Intent, OrderSpec } from '../model/intent.js';
import type { PositionView } from '../model/position-view.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { ContingencyType, Order } from '../model/resources/order.js';
import type { StrategyReport } from '../model/strategy-report.js';
import type { CandlesEvent, TickerEvent, TradesEvent } from '../model/stream/market-events.js';
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
  /** Something happened to one of the strategy's intents or orders (denial, rejection, fill, ...). */
  onReport?(ctx: StrategyContext<Params>, report: StrategyReport): Intents;
  onBalance?(ctx: StrategyContext<Params>, balances: readonly TradingBalance[]): Intents;
  /** A timer set with `ctx.setTimer` fired. */
  onTimer?(ctx: StrategyContext<Params>, timerId: string): Intents;
  /** Called once when the strategy stops (shutdown, halt); its open orders are handled by policy afterwards. */
  onStop?(ctx: StrategyContext<Params>): Intents;
}

/** What a handler may return. */
export type Intents = readonly Intent[] | Intent | void | undefined;

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
  /** The strategy's open orders (optionally of one symbol). */
  openOrders(symbol?: string): readonly Order[];
  position(symbol: string): PositionView | undefined;
  /** Hands intents to the runtime (same effect as returning them). */
  submit(...intents: Intent[]): void;
  place(spec: OrderSpec, tag?: string): Intent;
  cancel(clientOrderId: string, tag?: string): Intent;
  replace(clientOrderId: string, quantity: Decimal, price?: Decimal, tag?: string): Intent;
  cancelAll(symbol?: string, tag?: string): Intent;
  orderList(contingencyType: ContingencyType, orders: readonly OrderSpec[], tag?: string): Intent;
  closePosition(symbol: string, price?: Decimal, tag?: string): Intent;
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
}
