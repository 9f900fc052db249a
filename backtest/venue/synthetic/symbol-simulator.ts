import type { Side } from '../../../framework/model/instrument.js';
import type { RecordedFrame } from '../../recording/recording-format.js';
import { M1Candle } from './m1-candle.js';
import { Prng } from '../prng.js';
import type { ResolvedSymbol } from './synthetic-config.js';
import { SyntheticBookSide } from './synthetic-book-side.js';

/** Shared, strictly increasing trade identifiers (the exchange numbers trades across symbols). */
export interface TradeIdSource {
  next: number;
}

/** Timing shared by every symbol of a market, in integer microseconds. */
export interface SimulatorClock {
  readonly startUs: number;
  /** Interval of the mid-price (fair value) steps. */
  readonly stepUs: number;
  /** Added to the exchange time to give the local receive time of a frame. */
  readonly latencyUs: number;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;
/** Dispersion of log order sizes: most orders near the median, a few many times larger. */
const LIMIT_SIZE_SIGMA = 0.8;
const MARKET_SIZE_SIGMA = 1.2;
/** A market order walks at most this many levels (bigger flow is split by real takers too). */
const MAX_LEVELS_PER_MARKET_ORDER = 10;
/** Share of cancels aimed at the deepest level, which keeps stale depth from piling up. */
const CANCEL_DEEPEST_SHARE = 0.3;

type Trade = [tick: number, lots: number];

/**
 * The market of one symbol, event by event, as API v3 public-stream frames.
 *
 * Model (stated so nobody mistakes it for more):
 * - a fair value follows a log random walk sampled every `stepUs`, with GARCH(1,1) variance
 *   (volatility clustering) scaled to the configured annual volatility; it is a model variable in
 *   float ticks, never a price: every price on the wire is an integer tick count turned into text
 *   by the Instrument;
 * - limit orders, cancels and market orders arrive as independent Poisson processes; a limit
 *   order joins the touch, improves it inside the spread, or rests deeper (exponential distance,
 *   so depth thins away from the touch); sizes are log-normal around the configured median;
 * - when the fair value moves through resting quotes, those are either swept by a market order
 *   (trades) or cancelled by their owners, and the far side is requoted near the fair value:
 *   that is how the book follows the mid;
 * - a side keeps between `minLevels` and `maxLevels` levels, within `maxDepthTicks` of the fair
 *   value; limit prices are clipped one tick inside the opposite touch, so the book never crosses;
 * - no participant reacts to the strategy under test: there is no market impact beyond the book.
 *
 * Every message is one `orderbook/full` update with `s` rising by exactly 1; a market order
 * gives a `trades` frame first (prices that were on the book), then the book update, then the
 * running `candles/M1` entry.
 */
export class SymbolSimulator {
  private readonly prng: Prng;
  private readonly bids = new SyntheticBookSide('bid');
  private readonly asks = new SyntheticBookSide('ask');
  private readonly candle: M1Candle;
  private readonly omega: number;
  private readonly totalRate: number;
  private fair: number;
  private variance: number;
  private sequence = 0;
  private nextArrivalUs: number;
  private nextStepUs: number;

  constructor(
    private readonly config: ResolvedSymbol,
    seed: number,
    private readonly clock: SimulatorClock,
    private readonly tradeIds: TradeIdSource,
  ) {
    this.prng = new Prng(seed, Prng.hashString(config.symbol));
    this.candle = new M1Candle(config.instrument);
    const stepVariance = (config.annualVolatility * config.annualVolatility * clock.stepUs) / 1000 / YEAR_MS;
    this.omega = stepVariance * (1 - config.garchAlpha - config.garchBeta);
    this.variance = stepVariance;
    this.fair = config.startTicks;
    this.totalRate = config.limitRate + config.cancelRate + config.marketRate;
    this.nextArrivalUs = clock.startUs + this.interArrivalUs();
    this.nextStepUs = clock.startUs + clock.stepUs;
  }

  /** Virtual time (µs) of this symbol's next event. */
  get nextEventUs(): number {
    return Math.min(this.nextArrivalUs, this.nextStepUs);
  }

  /** Best bid and ask in ticks (undefined for an empty side). */
  bestTicks(): { readonly bid: number | undefined; readonly ask: number | undefined } {
    return { bid: this.bids.size > 0 ? this.bids.bestTick() : undefined, ask: this.asks.size > 0 ? this.asks.bestTick() : undefined };
  }

  /** Builds the opening book around the start price and pushes its `orderbook/full` snapshot. */
  open(out: RecordedFrame[]): void {
    const c = this.config;
    for (const side of [this.bids, this.asks]) {
      let tick = c.startTicks - side.sign * c.halfSpreadTicks;
      for (let k = 0; k < c.levels; k++) {
        side.add(tick, this.sizeLots(c.orderLots, LIMIT_SIZE_SIGMA));
        tick -= side.sign * this.gapTicks(c.levelGapTicks * (1 + k / c.levels));
      }
      side.clearChanges();
    }
    const us = this.clock.startUs;
    this.sequence = 1;
    out.push(this.frame(us, {
      ch: 'orderbook/full',
      snapshot: { [c.symbol]: { t: Math.floor(us / 1000), s: this.sequence, a: this.levelsText(this.asks.levels()), b: this.levelsText(this.bids.levels()) } },
    }));
  }

  /** Runs the next event and pushes the frames it produced (possibly none). */
  step(out: RecordedFrame[]): void {
    if (this.nextStepUs <= this.nextArrivalUs) {
      const us = this.nextStepUs;
      this.nextStepUs += this.clock.stepUs;
      this.moveFair(us, out);
      return;
    }
    const us = this.nextArrivalUs;
    this.nextArrivalUs += this.interArrivalUs();
    const c = this.config;
    const pick = this.prng.uniform() * this.totalRate;
    if (pick < c.limitRate) this.limitOrder(us, out);
    else if (pick < c.limitRate + c.cancelRate) this.cancel(us, out);
    else this.marketOrder(us, out);
  }

  private interArrivalUs(): number {
    if (this.totalRate === 0) return Number.POSITIVE_INFINITY;
    return Math.max(1, Math.round(this.prng.exponential(this.totalRate) * 1e6));
  }

  private moveFair(us: number, out: RecordedFrame[]): void {
    const c = this.config;
    const r = Math.sqrt(this.variance) * this.prng.normal();
    this.variance = this.omega + c.garchAlpha * r * r + c.garchBeta * this.variance;
    let fair = this.fair * Math.exp(r);
    // Reflect off the floor and a far ceiling: the bid side needs room above zero and integer ticks must stay exact.
    if (fair < c.floorTicks) fair = Math.max(c.floorTicks, 2 * c.floorTicks - fair);
    const ceiling = c.startTicks * 1000;
    if (fair > ceiling) fair = Math.min(ceiling, 2 * ceiling - fair);
    this.fair = fair;

    const trades: Trade[] = [];
    let taker: Side = 'buy';
    if (this.asks.size > 0 && this.asks.bestTick() < fair) {
      this.clearStale(this.asks, trades);
    } else if (this.bids.size > 0 && this.bids.bestTick() > fair) {
      taker = 'sell';
      this.clearStale(this.bids, trades);
    }
    this.requote(this.bids);
    this.requote(this.asks);
    this.maintain();
    this.emit(us, taker, trades, out);
  }

  /** Quotes the fair value moved through are swept by a taker or cancelled by their owners. */
  private clearStale(side: SyntheticBookSide, trades: Trade[]): void {
    const sweep = this.prng.chance(this.config.sweepProbability);
    while (side.size > 0 && (side.bestTick() - this.fair) * side.sign > 0) {
      const tick = side.bestTick();
      if (sweep) trades.push([tick, side.lotsAt(0)]);
      side.set(tick, 0);
    }
  }

  /** A side left far from the fair value gets a fresh quote near it, inside the spread. */
  private requote(side: SyntheticBookSide): void {
    const c = this.config;
    const target = this.touchTick(side);
    const best = side.bestTick();
    if (side.size > 0 && (target - best) * side.sign <= Math.ceil(c.levelGapTicks)) return;
    side.add(target, this.sizeLots(c.orderLots, LIMIT_SIZE_SIGMA));
  }

  private limitOrder(us: number, out: RecordedFrame[]): void {
    const c = this.config;
    const own = this.prng.chance(0.5) ? this.bids : this.asks;
    const kind = this.prng.uniform();
    const best = own.bestTick();
    let tick: number;
    if (own.size === 0) {
      tick = this.touchTick(own);
    } else if (kind < c.placement[0]) {
      tick = best;
    } else if (kind < c.placement[0] + c.placement[1]) {
      const spread = this.asks.bestTick() - this.bids.bestTick();
      // NaN spread (an empty opposite side) fails the test and joins the touch.
      tick = spread > 1 ? best + own.sign * (1 + this.prng.int(Math.min(spread - 1, Math.ceil(c.levelGapTicks)))) : best;
    } else {
      const distance = 1 + Math.floor(this.prng.exponential(4 / (c.levelGapTicks * c.levels)));
      tick = best - own.sign * Math.min(distance, c.maxDepthTicks);
      const limit = this.boundaryTick(own);
      if ((limit - tick) * own.sign > 0) tick = limit;
    }
    own.add(tick, this.sizeLots(c.orderLots, LIMIT_SIZE_SIGMA));
    this.maintain();
    this.emit(us, 'buy', [], out);
  }

  private cancel(us: number, out: RecordedFrame[]): void {
    const side = this.prng.chance(0.5) ? this.bids : this.asks;
    if (side.size === 0) return;
    const rank = this.prng.chance(CANCEL_DEEPEST_SHARE) ? side.size - 1 : this.prng.int(side.size);
    const tick = side.tickAt(rank);
    const lots = side.lotsAt(rank);
    side.set(tick, lots === 1 || this.prng.chance(0.6) ? 0 : lots - 1 - this.prng.int(lots - 1));
    this.maintain();
    this.emit(us, 'buy', [], out);
  }

  private marketOrder(us: number, out: RecordedFrame[]): void {
    const c = this.config;
    const mid = (this.bids.bestTick() + this.asks.bestTick()) / 2;
    // Takers lean towards the fair value, which pulls the book along with it.
    const lean = Number.isNaN(mid) ? 0 : Math.max(-0.3, Math.min(0.3, (this.fair - mid) / (4 * c.halfSpreadTicks + 2 * c.levelGapTicks)));
    const taker: Side = this.prng.chance(0.5 + lean) ? 'buy' : 'sell';
    const book = taker === 'buy' ? this.asks : this.bids;
    let remaining = this.sizeLots(c.marketLots, MARKET_SIZE_SIGMA);
    const trades: Trade[] = [];
    for (let n = 0; n < MAX_LEVELS_PER_MARKET_ORDER && remaining > 0 && book.size > 0; n++) {
      const tick = book.bestTick();
      const take = Math.min(remaining, book.lotsAt(0));
      book.take(tick, take);
      trades.push([tick, take]);
      remaining -= take;
    }
    this.maintain();
    this.emit(us, taker, trades, out);
  }

  /** Keeps both sides within depth and level-count bounds; runs at the end of every event. */
  private maintain(): void {
    for (const side of [this.bids, this.asks]) {
      const limit = this.boundaryTick(side);
      while (side.size > 0 && (limit - side.deepestTick()) * side.sign > 0) side.set(side.deepestTick(), 0);
      while (side.size > this.config.maxLevels) side.set(side.deepestTick(), 0);
      while (side.size < this.config.minLevels) {
        if (!this.addDeepLevel(side)) break;
      }
    }
  }

  /** Adds one level behind the deepest (or in the widest hole when the depth bound is reached). */
  private addDeepLevel(side: SyntheticBookSide): boolean {
    const c = this.config;
    let tick: number;
    if (side.size === 0) {
      tick = this.touchTick(side);
    } else {
      const deepest = side.deepestTick();
      const limit = this.boundaryTick(side);
      tick = deepest - side.sign * this.gapTicks(2 * c.levelGapTicks);
      if ((limit - tick) * side.sign > 0) tick = limit;
      if ((deepest - tick) * side.sign <= 0) tick = side.widestGapMidpoint();
      if (Number.isNaN(tick)) return false;
    }
    side.add(tick, this.sizeLots(c.orderLots, LIMIT_SIZE_SIGMA));
    return true;
  }

  /** Where a fresh quote goes: half a spread from the fair value, one tick inside the opposite touch. */
  private touchTick(side: SyntheticBookSide): number {
    const other = side === this.bids ? this.asks : this.bids;
    const wanted = Math.round(this.fair) - side.sign * this.config.halfSpreadTicks;
    const opposite = other.bestTick();
    if (Number.isNaN(opposite)) return wanted;
    return side.sign === 1 ? Math.min(wanted, opposite - 1) : Math.max(wanted, opposite + 1);
  }

  /** The deepest tick a side may hold: `maxDepthTicks` from the fair value (and at least one tick). */
  private boundaryTick(side: SyntheticBookSide): number {
    return side.sign === 1 ? Math.max(1, Math.ceil(this.fair - this.config.maxDepthTicks)) : Math.floor(this.fair + this.config.maxDepthTicks);
  }

  /** A level gap in whole ticks with the given mean (at least 1, capped against rare huge draws). */
  private gapTicks(mean: number): number {
    if (mean <= 1) return 1;
    return 1 + Math.min(Math.floor(this.prng.exponential(1 / (mean - 1))), Math.ceil(8 * mean));
  }

  /** A log-normal size in lots around `median`, at least one lot, capped at 50 medians. */
  private sizeLots(median: number, sigma: number): number {
    const lots = Math.round(median * Math.exp(sigma * this.prng.normal()));
    return Math.max(1, Math.min(lots, 50 * median));
  }

  private emit(us: number, taker: Side, trades: readonly Trade[], out: RecordedFrame[]): void {
    const c = this.config;
    const i = c.instrument;
    const ms = Math.floor(us / 1000);
    if (trades.length > 0) {
      const entries = trades.map(([tick, lots]) => {
        this.candle.trade(ms, tick, lots);
        return { t: ms, i: this.tradeIds.next++, p: i.ticksToPrice(tick), q: i.lotsToQuantity(lots), s: taker };
      });
      out.push(this.frame(us, { ch: 'trades', update: { [c.symbol]: entries } }));
    }
    const a = this.asks.takeChanges();
    const b = this.bids.takeChanges();
    if (a.length > 0 || b.length > 0) {
      this.sequence++;
      out.push(this.frame(us, { ch: 'orderbook/full', update: { [c.symbol]: { t: ms, s: this.sequence, a: this.levelsText(a), b: this.levelsText(b) } } }));
    }
    const candle = trades.length > 0 ? this.candle.toWire() : undefined;
    if (candle) out.push(this.frame(us, { ch: 'candles/M1', update: { [c.symbol]: [candle] } }));
  }

  private levelsText(levels: Iterable<readonly [number, number]>): [string, string][] {
    const i = this.config.instrument;
    const out: [string, string][] = [];
    for (const [tick, lots] of levels) out.push([i.ticksToPrice(tick), lots === 0 ? '0' : i.lotsToQuantity(lots)]);
    return out;
  }

  private frame(us: number, msg: object): RecordedFrame {
    return { t: (us + this.clock.latencyUs) / 1000, src: 'ws/public', msg };
  }
}
