import type { BookSide } from '../../../framework/exchange/book/order-book.js';
import type { MatchFill } from './market-port.js';
import { TickLadder } from './tick-ladder.js';

/**
 * The replayed L2 book of the outside market in integer ticks and lots, plus the liquidity our own
 * aggressive orders already took from it.
 *
 * Each side is a {@link TickLadder} (walked from the best level down): bids keyed by ticks,
 * asks by negated ticks, so one walk serves both sides. Taken lots are kept per level in a small
 * map and subtracted from what the feed shows; the feed's next word on that level (an update or a
 * snapshot) replaces the level and forgets the consumption, because from then on the feed reflects
 * the market after our trade and everyone else's. Taking never moves prices (no market impact
 * beyond the lots taken).
 */
export class OutsideBook {
  private readonly bidLadder = new TickLadder();
  private readonly askLadder = new TickLadder();
  /** Ladder key -> lots we took there since the feed last set the level. */
  private readonly bidTaken = new Map<number, number>();
  private readonly askTaken = new Map<number, number>();

  /** Empties both sides (a snapshot follows). */
  clear(): void {
    this.bidLadder.clear();
    this.askLadder.clear();
    // Map.clear allocates a fresh table even when empty; held by this long-lived book, each one
    // would outlive the young generation (a candle replay clears the book on every candle).
    if (this.bidTaken.size !== 0) this.bidTaken.clear();
    if (this.askTaken.size !== 0) this.askTaken.clear();
  }

  /** Sizes both sides' windows for the levels held (after a snapshot; see TickLadder.fit). */
  fit(): void {
    this.bidLadder.fit();
    this.askLadder.fit();
  }

  /** The feed sets a level (0 lots removes it); any consumption recorded there is forgotten. */
  set(side: BookSide, ticks: number, lots: number): void {
    if (side === 'bid') {
      this.bidLadder.set(ticks, lots);
      if (this.bidTaken.size !== 0) this.bidTaken.delete(ticks);
    } else {
      this.askLadder.set(-ticks, lots);
      if (this.askTaken.size !== 0) this.askTaken.delete(-ticks);
    }
  }

  /** Best price of a side as the feed shows it (taken lots ignored); NaN when the side is empty. */
  bestTicks(side: BookSide): number {
    return side === 'bid' ? this.bidLadder.bestKey() : -this.askLadder.bestKey();
  }

  /** Lots at `ticks` the feed shows minus those we took; 0 when there is no level. */
  availableAt(side: BookSide, ticks: number): number {
    const ladder = side === 'bid' ? this.bidLadder : this.askLadder;
    const key = side === 'bid' ? ticks : -ticks;
    const lots = ladder.lotsAt(key);
    if (lots === 0) return 0;
    const taken = side === 'bid' ? this.bidTaken : this.askTaken;
    return taken.size === 0 ? lots : lots - (taken.get(key) ?? 0);
  }

  /**
   * Lots a taker could get from `side` at prices up to `limitTicks` (NaN: no limit), at most
   * `maxLots`, without taking them.
   */
  available(side: BookSide, limitTicks: number, maxLots: number): number {
    const ladder = side === 'bid' ? this.bidLadder : this.askLadder;
    const taken = side === 'bid' ? this.bidTaken : this.askTaken;
    const stopKey = stopKeyOf(side, limitTicks);
    let total = 0;
    for (let key = ladder.bestKey(); !Number.isNaN(key) && total < maxLots; key = ladder.below(key)) {
      if (key < stopKey) break;
      total += ladder.lotsAt(key) - (taken.size === 0 ? 0 : (taken.get(key) ?? 0));
    }
    return total < maxLots ? total : maxLots;
  }

  /**
   * Exact ticks x lots of taking `lots` from `side` from the best level: a number while the sum is
   * a safe integer, a bigint beyond (fine grids: a BTC buy at 10^-11 lots crosses 2^53); undefined
   * when the side cannot supply them.
   */
  cost(side: BookSide, lots: number): number | bigint | undefined {
    const ladder = side === 'bid' ? this.bidLadder : this.askLadder;
    const taken = side === 'bid' ? this.bidTaken : this.askTaken;
    const sign = side === 'bid' ? 1 : -1;
    let left = lots;
    let cost = 0;
    for (let key = ladder.bestKey(); !Number.isNaN(key) && left > 0; key = ladder.below(key)) {
      const here = ladder.lotsAt(key) - (taken.get(key) ?? 0);
      const take = here < left ? here : left;
      cost += take * key * sign;
      // Every term and partial sum is exact while the sum stays a safe integer (all are positive).
      if (cost > Number.MAX_SAFE_INTEGER) return this.bigCost(side, lots);
      left -= take;
    }
    return left > 0 ? undefined : cost;
  }

  /** {@link cost} in BigInt arithmetic, for sums beyond 2^53 - 1. */
  private bigCost(side: BookSide, lots: number): bigint | undefined {
    const ladder = side === 'bid' ? this.bidLadder : this.askLadder;
    const taken = side === 'bid' ? this.bidTaken : this.askTaken;
    const sign = side === 'bid' ? 1 : -1;
    let left = lots;
    let cost = 0n;
    for (let key = ladder.bestKey(); !Number.isNaN(key) && left > 0; key = ladder.below(key)) {
      const here = ladder.lotsAt(key) - (taken.get(key) ?? 0);
      const take = here < left ? here : left;
      cost += BigInt(take) * BigInt(key * sign);
      left -= take;
    }
    return left > 0 ? undefined : cost;
  }

  /**
   * Takes up to `maxLots` from `side` at prices up to `limitTicks` (NaN: no limit), best level
   * first, and records them as taken. With `fills`, appends one taker fill of `orderKey` per level
   * at that level's price. Returns the lots taken.
   */
  take(side: BookSide, limitTicks: number, maxLots: number, orderKey: number, fills?: MatchFill[]): number {
    const ladder = side === 'bid' ? this.bidLadder : this.askLadder;
    const taken = side === 'bid' ? this.bidTaken : this.askTaken;
    const sign = side === 'bid' ? 1 : -1;
    const stopKey = stopKeyOf(side, limitTicks);
    let left = maxLots;
    for (let key = ladder.bestKey(); !Number.isNaN(key) && left > 0; key = ladder.below(key)) {
      if (key < stopKey) break;
      const before = taken.get(key) ?? 0;
      const here = ladder.lotsAt(key) - before;
      if (here <= 0) continue;
      const lots = here < left ? here : left;
      taken.set(key, before + lots);
      left -= lots;
      fills?.push({ orderKey, priceTicks: key * sign, lots, taker: true });
    }
    return maxLots - left;
  }
}

/** Walks go from the best key down; this is the lowest key still within the limit. */
function stopKeyOf(side: BookSide, limitTicks: number): number {
  if (Number.isNaN(limitTicks)) return Number.NEGATIVE_INFINITY;
  return side === 'bid' ? limitTicks : -limitTicks;
}
