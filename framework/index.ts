/**
 * tradeloop, the framework: what a strategy author and a program embedding tradeloop import, as
 * `import { ... } from 'tradeloop'`. Backtests come from `tradeloop/backtest`, the local API v3
 * exchange from `tradeloop/sandbox`.
 *
 * A strategy is a {@link StrategyPlugin}: a name, a parameter schema built with
 * {@link defineParams}, and `create`, which returns a {@link Strategy} whose handlers answer events
 * with {@link Intent}s. Money is exact: prices and quantities are {@link Decimal}s, quantized by the
 * symbol's {@link Instrument}. Bad input is a typed error ({@link ValidationError} naming the field).
 *
 * Only these names are the public API; deeper paths of the package may change without notice.
 *
 * @packageDocumentation
 */

// The Strategy API.
export type { BookView, Intents, PositionView, Strategy, StrategyContext, StrategyPlugin, Submittable } from './runtime/strategy.js';
export type { ClosedStatus, HandleFill, OrderHandle, OrderHandleStatus, OrderListHandle } from './runtime/order-handle.js';
export type { IndicatorDeclaration, IndicatorValue } from './runtime/strategy-indicators.js';
export { booleanParam, decimalParam, defineParams, integerParam, stringParam, type ParamSpec, type ParamsOf } from './runtime/param-schema.js';

// Intents a strategy returns, reports it gets back.
export type {
  CancelAllIntent,
  CancelIntent,
  ClosePositionIntent,
  Intent,
  IntentBase,
  OrderListIntent,
  OrderSpec,
  PlaceIntent,
  ReplaceIntent,
} from './model/intent.js';
export type { AcceptedReport, DeniedReport, OrderUpdateReport, RejectedReport, StrategyReport } from './model/strategy-report.js';

// Market data and account resources as handlers see them.
export type { CandlesEvent, MarketEventBase, TickerEvent, TradesEvent } from './model/stream/market-events.js';
export type { ContingencyType, Order, OrderStatus, OrderType, TimeInForce } from './model/resources/order.js';
export type { TradingBalance } from './model/resources/balance.js';
export { CANDLE_PERIODS, isCandlePeriod, type Candle, type CandlePeriod } from './model/resources/candle.js';
export { candleEnd, candleStart } from './model/candle-time.js';

// Exact money and the instrument grid.
export { Decimal, ONE, Rounding, ZERO, dec, isDecimalString, toWire, type DecimalString } from './model/decimal.js';
export { Instrument, roundToStep, type Side } from './model/instrument.js';
export { formatScaled, parseScaled, scaleOf } from './model/scaled.js';
export { formatScaledBig, parseScaledBig } from './model/scaled-big.js';

// Errors.
export { ParseError, TradeloopError, UnrepresentableValueError, ValidationError } from './model/errors.js';
export { ValidationErrors } from './model/validation-errors.js';
export { ConnectionStateError, ExchangeError, NetworkError, RateLimitError, TimeoutError } from './exchange/errors.js';

// Time.
export { LiveClock, VirtualClock, type Clock } from './time/clock.js';
export { MarketClock, type MarketClockOptions } from './time/market-clock.js';

// Configuration and strategy loading, for programs that embed tradeloop.
export {
  loadBotConfig,
  parseBotConfig,
  type Balances,
  type BotConfig,
  type CredentialsConfig,
  type ExchangeConfig,
  type LoadBotConfigOptions,
  type LogLevel,
  type StrategyConfig,
} from './config/bot-config.js';
export { loadStrategy, loadStrategyPlugin, validateParams, type LoadedStrategy, type PluginLoaderOptions } from './runtime/plugin-loader.js';
