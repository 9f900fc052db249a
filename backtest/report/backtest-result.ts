import type { Decimal } from '../../framework/model/decimal.js';
import type { DecisionFrame } from '../../framework/model/decision-frame.js';
import type { RecordingReadReport } from '../recording/recording-line-check.js';
import type { FuturesReport } from './futures-report.js';
import type { BacktestMetrics } from './metrics.js';
import type { RowDigest } from './row-digest.js';

/**
 * Everything a backtest run produces, as plain data: the runner builds it, the report modules
 * (metrics, HTML, CSV/JSON, console summary) only read it. Money stays exact (Decimal); times are
 * virtual milliseconds since the epoch.
 */
export interface BacktestResult {
  readonly meta: BacktestMeta;
  /** Balance per currency before the first event. */
  readonly initialBalances: Readonly<Record<string, Decimal>>;
  /** Balance per currency after the last event. */
  readonly finalBalances: Readonly<Record<string, Decimal>>;
  /** Every fill, in time order (none kept when {@link streamed}). */
  readonly fills: readonly FillRecord[];
  /** The final state of every order the run placed, in creation order (none kept when {@link streamed}). */
  readonly orders: readonly OrderRecord[];
  /** Equity samples (e.g. every minute of virtual time and at each fill), in time order (none kept when {@link streamed}). */
  readonly equity: readonly EquityPoint[];
  /** Mid or trade price bars per symbol, for the charts. */
  readonly prices: Readonly<Record<string, readonly PriceBar[]>>;
  /** Best bid and ask per symbol sampled over time, for the charts (book runs). */
  readonly bookTops?: Readonly<Record<string, readonly BookTopPoint[]>>;
  /** The strategy's declared indicator series with their sampled values, for the charts. */
  readonly indicators?: readonly IndicatorSeries[];
  /**
   * Set when the run wrote its fills, orders and equity rows to files as it went (the runner's
   * `reportDir`): `fills`, `orders` and `equity` are then empty and this holds what the report
   * needs of them, in bounded memory.
   */
  readonly streamed?: StreamedRows;
  /** Runs on a futures account: margin and leverage over time, and every position from open to flat. */
  readonly futures?: FuturesReport;
}

/** What a run whose rows went to files kept of them. */
export interface StreamedRows {
  /** The folder holding fills.csv, orders.csv and equity.csv. */
  readonly dir: string;
  /** The files written, in writing order. */
  readonly files: readonly string[];
  /** Every figure, measured on the rows as they were written (default period). */
  readonly metrics: BacktestMetrics;
  /** Counts, first fills, unfilled orders and thinned chart series. */
  readonly digest: RowDigest;
}

/**
 * The best bid and ask of a symbol at a time (a side is absent while the book has no level there),
 * and the strategy's own best resting limit prices then (absent while it quotes no such side).
 */
export interface BookTopPoint {
  readonly time: number;
  readonly bid?: Decimal;
  readonly ask?: Decimal;
  readonly ownBid?: Decimal;
  readonly ownAsk?: Decimal;
}

/** One declared indicator of one symbol and its values (floats: indicators are not money). */
export interface IndicatorSeries {
  readonly id: string;
  readonly label: string;
  readonly pane: 'price' | 'separate';
  readonly color?: string;
  readonly symbol: string;
  readonly points: readonly { readonly time: number; readonly value: number }[];
}

/** What was run, on what, and how long it took. */
export interface BacktestMeta {
  readonly strategy: string;
  /** The strategy's parameters as configured (any JSON-like value). */
  readonly params: unknown;
  readonly symbols: readonly string[];
  /** Recording files replayed, in order. */
  readonly recordings: readonly string[];
  readonly seed: number;
  /** The currency equity is valued in (e.g. USDT). */
  readonly quoteCurrency: string;
  /** Virtual time of the first and last replayed event, ms. */
  readonly startTime: number;
  readonly endTime: number;
  /** Number of replayed events. */
  readonly events: number;
  /** Wall-clock duration of the run, ms: the only non-deterministic figure of a result. */
  readonly wallMs: number;
  /** Order book resynchronisations (sequence gaps and the like) seen during the replay. */
  readonly bookResyncs: readonly { readonly symbol: string; readonly time: number; readonly reason: string }[];
  /** `candles` when only candles were replayed and fills followed the candle rules. */
  readonly mode: 'book' | 'candles';
  /**
   * What reading met in each recording, in the order they were opened: malformed lines and frames
   * whose time went back (skipped, counted, the first few by line), frames held within the time
   * tolerance, repeated headers passed over, and where a damaged file stopped. Absent from results
   * not made by the backtest runner.
   */
  readonly recordingReads?: readonly RecordingReadReport[];
  /** Runs on a futures account: funding paid and received, and the positions the venue liquidated. */
  readonly futures?: FuturesRunFacts;
}

/** What a futures run paid and suffered beyond its fills. */
export interface FuturesRunFacts {
  /** Funding paid (positive amounts) by currency. */
  readonly fundingPaid: Readonly<Record<string, Decimal>>;
  /** Funding received by currency. */
  readonly fundingReceived: Readonly<Record<string, Decimal>>;
  /** Positions the venue closed at the mark because their margin fell below maintenance. */
  readonly liquidations: readonly { readonly symbol: string; readonly time: number; readonly quantity: Decimal; readonly price: Decimal; readonly realized: Decimal }[];
  /** The positions the venue holds at the end of the run (open ones only), by symbol. */
  readonly openPositions?: Readonly<Record<string, { readonly quantity: Decimal; readonly entryPrice?: Decimal }>>;
}

/** One execution of (part of) an order. */
export interface FillRecord {
  readonly time: number;
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly price: Decimal;
  readonly quantity: Decimal;
  readonly fee: Decimal;
  readonly feeCurrency: string;
  readonly liquidity: 'maker' | 'taker';
  readonly clientOrderId: string;
  readonly tradeId: string;
  readonly intentId?: string;
  readonly strategyId?: string;
  /**
   * What made the fill, as the venue says: `request#<n>` (an order meeting the book when it
   * arrived), `market:<channel>:<symbol>@<frame time>[#<sequence>]` (a recorded frame reaching a
   * resting order), `timer:<reason>@<time>`. With the intentId, every fill traces back to the
   * event and the intent behind it.
   */
  readonly cause?: string;
  /** The market frame behind the decision that made the order (absent when unknown: adopted orders). */
  readonly decision?: DecisionFrame;
  /** True for the venue's forced close of a position (a liquidation); absent for the bot's own orders. */
  readonly liquidation?: boolean;
}

/** An order in its final state. */
export interface OrderRecord {
  readonly clientOrderId: string;
  readonly intentId?: string;
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly type: string;
  /** Limit price; absent for market orders. */
  readonly price?: Decimal;
  readonly quantity: Decimal;
  readonly filledQuantity: Decimal;
  readonly status: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** One equity sample. */
export interface EquityPoint {
  readonly time: number;
  /** All balances valued in `meta.quoteCurrency` at mid. */
  readonly equity: Decimal;
  /** Base quantity held per symbol. */
  readonly positions: Readonly<Record<string, Decimal>>;
}

/** One OHLC bar of a symbol's price. */
export interface PriceBar {
  readonly time: number;
  readonly open: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  readonly close: Decimal;
}
