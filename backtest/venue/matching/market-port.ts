import type { BookFrame } from '../../../framework/exchange/book/order-book-frame.js';
import type { Side } from '../../../framework/model/instrument.js';
import type { OutsideTrade } from './outside-trade.js';

/**
 * The contract between the venue (orders, accounts, lists, reports) and the per-symbol matching
 * model (outside liquidity, our resting orders' queue positions, fills). All values are integers:
 * prices in ticks and quantities in lots of the symbol's `Instrument`, so matching never touches
 * decimal.js. Implementations are pure and deterministic.
 */

/** A fill produced by the matching model. */
export interface MatchFill {
  /** The venue's key of the order that filled. */
  readonly orderKey: number;
  readonly priceTicks: number;
  readonly lots: number;
  /** True when the order took liquidity (taker fee), false when it rested and was hit (maker fee). */
  readonly taker: boolean;
}

/** Result of an aggressive order's walk through the book. */
export interface TakeResult {
  readonly fills: readonly MatchFill[];
  /** Lots that could not be filled within the limit price (or at all, for a market order). */
  readonly unfilledLots: number;
}

/** Where a resting order stands in its price level's queue (for reports and tests). */
export interface QueueState {
  readonly orderKey: number;
  readonly side: Side;
  readonly priceTicks: number;
  readonly remainingLots: number;
  /** Outside quantity estimated ahead of the order at its price, in lots. */
  readonly aheadLots: number;
}

/** One symbol's market as the venue sees it. */
export interface SymbolMarket {
  readonly symbol: string;
  /** Applies an `orderbook/full` snapshot or update of the outside market. Returns resting-order fills it causes. */
  applyBookFrame(frame: BookFrame): readonly MatchFill[];
  /**
   * Applies public trades of the outside market (time order). Resting orders fill when trades reach
   * their price after the quantity ahead of them; returns those fills. The list and its trades are
   * the caller's to reuse once this returns: a market keeps neither.
   */
  applyTrades(trades: readonly OutsideTrade[]): readonly MatchFill[];
  /** Price of the last outside trade in ticks; NaN before the first (stop and take-profit triggers use it). */
  readonly lastTradeTicks: number;
  /** Best outside bid/ask in ticks; NaN when that side is empty. */
  readonly bestBidTicks: number;
  readonly bestAskTicks: number;
  /**
   * True when an order of `side` at `limitTicks` would take liquidity now (post-only check).
   * `undefined` limit means a market order.
   */
  wouldTake(side: Side, limitTicks: number | undefined): boolean;
  /**
   * Lots available to an aggressive order of `side` up to `limitTicks` (undefined: market) without
   * consuming them (FOK and allOrNone checks, market-buy reserve pricing).
   */
  availableToTake(side: Side, limitTicks: number | undefined, maxLots: number): number;
  /**
   * Exact cost in ticks x lots of taking `lots` (for the market-buy reserve): a number while it is
   * a safe integer, a bigint beyond; undefined when the book cannot fill them.
   */
  costToTake(side: Side, lots: number): number | bigint | undefined;
  /** Walks the outside book for an aggressive order and consumes that liquidity. */
  take(orderKey: number, side: Side, limitTicks: number | undefined, lots: number): TakeResult;
  /**
   * Puts an order in the book at `priceTicks` behind the outside quantity already there, from venue
   * time `restsFrom` on (default: since always): outside trades matched before it do not reach it.
   */
  rest(orderKey: number, side: Side, priceTicks: number, lots: number, restsFrom?: number): void;
  /** Removes a resting order (cancel, replace, expiry, list cancel). No-op when absent. */
  remove(orderKey: number): void;
  /** Reduces a resting order's size in place (keeps its queue position); larger sizes must `remove` + `rest`. */
  reduce(orderKey: number, newRemainingLots: number): void;
  queueState(orderKey: number): QueueState | undefined;
}
