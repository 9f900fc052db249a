import { scaledLevelsAsText, type BookFrame } from '../../../../framework/exchange/book/order-book-frame.js';
import type { Instrument, Side } from '../../../../framework/model/instrument.js';
import type { MatchFill, QueueState, SymbolMarket, TakeResult } from '../../../../backtest/venue/matching/market-port.js';

interface Resting {
  readonly orderKey: number;
  readonly side: Side;
  readonly priceTicks: number;
  remainingLots: number;
  aheadLots: number;
  readonly seq: number;
}

/**
 * A tiny deterministic matching model for venue tests. The outside book is a map of levels;
 * `take` walks it (and consumes it) at level prices; our resting orders fill only on public trades
 * that reach their price, after the outside quantity that was at their level when they arrived.
 * Book frames never fill our orders. Everything is integer ticks and lots.
 */
export class FakeSymbolMarket implements SymbolMarket {
  lastTradeTicks = Number.NaN;
  private readonly asks = new Map<number, number>();
  private readonly bids = new Map<number, number>();
  private readonly resting = new Map<number, Resting>();
  private seq = 0;

  constructor(
    readonly symbol: string,
    private readonly instrument: Instrument,
  ) {}

  /** Test helper: replaces the outside book (levels as [ticks, lots]). */
  setBook(asks: readonly (readonly [number, number])[], bids: readonly (readonly [number, number])[]): void {
    this.asks.clear();
    this.bids.clear();
    for (const [p, q] of asks) this.asks.set(p, q);
    for (const [p, q] of bids) this.bids.set(p, q);
  }

  applyBookFrame(bookFrame: BookFrame): MatchFill[] {
    const frame = bookFrame.asks === undefined ? scaledLevelsAsText(bookFrame) : bookFrame;
    if (frame.snapshot) {
      this.asks.clear();
      this.bids.clear();
    }
    for (const [book, levels] of [[this.asks, frame.asks], [this.bids, frame.bids]] as const) {
      for (const [price, quantity] of levels) {
        const ticks = this.instrument.priceToTicks(price);
        const lots = this.instrument.quantityToLots(quantity);
        if (lots === 0) book.delete(ticks);
        else book.set(ticks, lots);
      }
    }
    return [];
  }

  applyTrades(trades: readonly { readonly priceTicks: number; readonly lots: number; readonly side: Side }[]): MatchFill[] {
    const fills: MatchFill[] = [];
    for (const trade of trades) {
      this.lastTradeTicks = trade.priceTicks;
      const makerSide: Side = trade.side === 'sell' ? 'buy' : 'sell';
      const reached = [...this.resting.values()]
        .filter((r) => r.side === makerSide && (makerSide === 'buy' ? r.priceTicks >= trade.priceTicks : r.priceTicks <= trade.priceTicks))
        .sort((a, b) => (makerSide === 'buy' ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks) || a.seq - b.seq);
      let left = trade.lots;
      for (const r of reached) {
        if (left <= 0) break;
        if (r.priceTicks === trade.priceTicks && r.aheadLots > 0) {
          const eaten = Math.min(r.aheadLots, left);
          r.aheadLots -= eaten;
          left -= eaten;
          if (left <= 0) break;
        }
        const lots = Math.min(r.remainingLots, left);
        left -= lots;
        r.remainingLots -= lots;
        fills.push({ orderKey: r.orderKey, priceTicks: r.priceTicks, lots, taker: false });
        if (r.remainingLots === 0) this.resting.delete(r.orderKey);
      }
    }
    return fills;
  }

  get bestBidTicks(): number {
    return this.bids.size === 0 ? Number.NaN : Math.max(...this.bids.keys());
  }

  get bestAskTicks(): number {
    return this.asks.size === 0 ? Number.NaN : Math.min(...this.asks.keys());
  }

  wouldTake(side: Side, limitTicks: number | undefined): boolean {
    const best = side === 'buy' ? this.bestAskTicks : this.bestBidTicks;
    if (Number.isNaN(best)) return false;
    return limitTicks === undefined || (side === 'buy' ? best <= limitTicks : best >= limitTicks);
  }

  availableToTake(side: Side, limitTicks: number | undefined, maxLots: number): number {
    let sum = 0;
    for (const [, lots] of this.levels(side, limitTicks)) sum += lots;
    return Math.min(sum, maxLots);
  }

  costToTake(side: Side, lots: number): number | bigint | undefined {
    let left = lots;
    let cost = 0n;
    for (const [price, size] of this.levels(side, undefined)) {
      const n = Math.min(size, left);
      cost += BigInt(n) * BigInt(price);
      left -= n;
      if (left === 0) break;
    }
    if (left !== 0) return undefined;
    return cost <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(cost) : cost;
  }

  take(orderKey: number, side: Side, limitTicks: number | undefined, lots: number): TakeResult {
    const book = side === 'buy' ? this.asks : this.bids;
    const fills: MatchFill[] = [];
    let left = lots;
    for (const [price, size] of this.levels(side, limitTicks)) {
      if (left === 0) break;
      const n = Math.min(size, left);
      left -= n;
      if (n === size) book.delete(price);
      else book.set(price, size - n);
      fills.push({ orderKey, priceTicks: price, lots: n, taker: true });
    }
    return { fills, unfilledLots: left };
  }

  rest(orderKey: number, side: Side, priceTicks: number, lots: number): void {
    const outside = (side === 'buy' ? this.bids : this.asks).get(priceTicks) ?? 0;
    this.resting.set(orderKey, { orderKey, side, priceTicks, remainingLots: lots, aheadLots: outside, seq: this.seq++ });
  }

  remove(orderKey: number): void {
    this.resting.delete(orderKey);
  }

  reduce(orderKey: number, newRemainingLots: number): void {
    const r = this.resting.get(orderKey);
    if (r !== undefined) r.remainingLots = newRemainingLots;
  }

  queueState(orderKey: number): QueueState | undefined {
    const r = this.resting.get(orderKey);
    return r === undefined ? undefined : { orderKey, side: r.side, priceTicks: r.priceTicks, remainingLots: r.remainingLots, aheadLots: r.aheadLots };
  }

  /** Test helper: resting orders in queue order at a price. */
  restingKeys(): number[] {
    return [...this.resting.values()].sort((a, b) => a.seq - b.seq).map((r) => r.orderKey);
  }

  private levels(side: Side, limitTicks: number | undefined): [number, number][] {
    const book = side === 'buy' ? this.asks : this.bids;
    return [...book.entries()]
      .filter(([p]) => limitTicks === undefined || (side === 'buy' ? p <= limitTicks : p >= limitTicks))
      .sort((a, b) => (side === 'buy' ? a[0] - b[0] : b[0] - a[0]));
  }
}
