import { scaledLevelsAsText, type BookFrame, type BookLevelText, type OrderBookFrame, type ScaledOrderBookFrame } from '../../../framework/exchange/book/order-book-frame.js';
import type { BookSide } from '../../../framework/exchange/book/order-book.js';
import { ValidationError } from '../../../framework/model/errors.js';
import type { Instrument, Side } from '../../../framework/model/instrument.js';
import { GridReader, checkText } from './grid-reader.js';
import type { MatchFill, QueueState, SymbolMarket, TakeResult } from './market-port.js';
import type { OutsideTrade } from './outside-trade.js';
import { OutsideBook } from './outside-book.js';
import { TRADES_ONLY_QUEUE, type QueueModel } from './queue-model.js';
import { RestingSide, type RestingOrder } from './resting-orders.js';
import { numberList, objectList } from '../../../framework/model/object-list.js';

/** The fills of a book frame while none of our orders rest: shared, and frozen so no reader can add to it. */
const NO_FILLS: readonly MatchFill[] = Object.freeze(objectList<MatchFill>());
/** The prices of our orders on a side that a snapshot does not look at. */
const NO_PRICES: readonly number[] = Object.freeze(numberList());

/** Options of {@link ReplayedSymbolMarket}. */
export interface ReplayedSymbolMarketOptions {
  /** Queue position model of resting orders; default {@link TRADES_ONLY_QUEUE}. */
  readonly queueModel?: QueueModel;
}

/**
 * One symbol's market for the simulated venue: the outside market is a replayed recording (L2
 * `orderbook/full` frames and public trades) and our orders trade against it. Integers only
 * (ticks and lots of the symbol's {@link Instrument}); no clock, no randomness: the same inputs in
 * the same order give the same fills.
 *
 * Fill rules and their assumptions:
 * - Aggressive orders ({@link take}) walk the outside book from the best level to the limit and
 *   fill at each level's price (taker). Our orders never move prices: the only impact is that the
 *   lots we took stay taken until the feed next sets that level (update or snapshot), since the
 *   feed then shows the market after our trade and everyone else's. FOK / allOrNone checks
 *   ({@link availableToTake}) see exactly what {@link take} would fill.
 * - Our own resting orders are not liquidity for our aggressive orders (no self-matching), and an
 *   aggressive order of ours does not advance our resting orders' queues.
 * - A resting order ({@link rest}) joins behind the outside lots at its price (the queue model
 *   decides how many: all of them by default; none when the level is empty or the price improves
 *   the best) and fills as maker, always at its own price, when:
 *   1. outside trades at its price, aggressor on the other side, exceed the lots ahead: the excess
 *      fills it (partially if smaller than the order); our orders at one price share a trade in
 *      arrival order;
 *   2. a trade prints through its price (a sell below our bid, a buy above our ask): the market
 *      moved through us, the order fills fully whatever the trade's size;
 *   3. after a book frame, the outside book crosses it (best ask <= our bid, best bid >= our ask):
 *      it fills up to the untaken crossing lots, which count as taken (rule of {@link take}).
 *      Orders are served best price first, then by arrival.
 * - Rules 1 and 2 only take trades the exchange matched after the order joined the book (the
 *   trade's own time against the venue time it rested from): a feed delivers trades late, by its
 *   latency, and one printed before our order existed is none of its business. A trade without a
 *   time (NaN) is taken as current.
 * - Cancels and size changes of the outside level move the queue as the {@link QueueModel} says;
 *   a level that grows never moves us back.
 * - Fully filled orders leave the model by themselves; fills report them, the venue books them.
 * - {@link rest} does not match: the venue takes what is available first and rests the rest; any
 *   crossing liquidity left over is found by the next book frame (rule 3).
 * - Prices off the instrument's tick grid are skipped (counted in {@link offGridLevels}); sizes
 *   off the lot grid round down to whole lots.
 * - A malformed level throws a ParseError after the levels before it were applied: the venue should
 *   treat the symbol's book as broken until the next snapshot, as the OrderBook does.
 */
export class ReplayedSymbolMarket implements SymbolMarket {
  readonly symbol: string;
  /** Book levels ignored because their price is off the tick grid. */
  offGridLevels = 0;
  private readonly grid: GridReader;
  private readonly queue: QueueModel;
  private readonly book = new OutsideBook();
  private readonly orders = new Map<number, RestingOrder>();
  private readonly buys = new RestingSide('buy');
  private readonly sells = new RestingSide('sell');
  private lastTrade = Number.NaN;
  /** A quantity text seen to read as 0 lots (compared by identity first, then by content). */
  private zeroText = '0';

  constructor(instrument: Instrument, options: ReplayedSymbolMarketOptions = {}) {
    this.symbol = instrument.symbol;
    this.grid = new GridReader(instrument);
    this.queue = options.queueModel ?? TRADES_ONLY_QUEUE;
  }

  get lastTradeTicks(): number {
    return this.lastTrade;
  }

  get bestBidTicks(): number {
    return this.book.bestTicks('bid');
  }

  get bestAskTicks(): number {
    return this.book.bestTicks('ask');
  }

  /** Number of our orders resting. */
  get restingCount(): number {
    return this.orders.size;
  }

  applyBookFrame(frame: BookFrame): readonly MatchFill[] {
    if (frame.symbol !== this.symbol) throw new ValidationError('frame.symbol', `must be ${this.symbol}`, frame.symbol);
    if (frame.asks === undefined && !this.grid.readsScales(frame.priceScale, frame.quantityScale)) frame = scaledLevelsAsText(frame);
    if (frame.snapshot) {
      this.applySnapshot(frame);
    } else if (frame.asks === undefined) {
      this.applyScaledLevels('bid', frame.bidLevels, this.buys);
      this.applyScaledLevels('ask', frame.askLevels, this.sells);
    } else {
      this.applyLevels('bid', frame.bids, this.buys);
      this.applyLevels('ask', frame.asks, this.sells);
    }
    // Most frames move the book with none of our orders resting: no list to allocate for them.
    if (this.orders.size === 0) return NO_FILLS;
    // The list is created at the first fill: most frames fill nothing and then allocate nothing.
    return this.fillCrossed(this.sells, 'bid', this.fillCrossed(this.buys, 'ask', undefined)) ?? NO_FILLS;
  }

  applyTrades(trades: readonly OutsideTrade[]): readonly MatchFill[] {
    let fills: MatchFill[] | undefined;
    for (let i = 0; i < trades.length; i++) {
      const trade = trades[i] as OutsideTrade;
      const price = trade.priceTicks;
      // Off-grid prices (NaN) cannot be compared with our orders: skip them entirely.
      if (!(price > 0 && Number.isSafeInteger(price))) continue;
      this.lastTrade = price;
      if (this.orders.size !== 0) fills = this.fillFromTrade(trade.side === 'sell' ? this.buys : this.sells, price, trade.lots, trade.time, fills);
    }
    return fills ?? NO_FILLS;
  }


  wouldTake(side: Side, limitTicks: number | undefined): boolean {
    return this.book.available(takenSide(side), limitOf(limitTicks), 1) > 0;
  }

  availableToTake(side: Side, limitTicks: number | undefined, maxLots: number): number {
    if (!(maxLots >= 0)) throw new ValidationError('maxLots', 'must be a number >= 0', maxLots);
    return this.book.available(takenSide(side), limitOf(limitTicks), maxLots);
  }

  costToTake(side: Side, lots: number): number | bigint | undefined {
    checkLots('lots', lots);
    return this.book.cost(takenSide(side), lots);
  }

  take(orderKey: number, side: Side, limitTicks: number | undefined, lots: number): TakeResult {
    checkLots('lots', lots);
    const fills = objectList<MatchFill>();
    const filled = this.book.take(takenSide(side), limitOf(limitTicks), lots, orderKey, fills);
    return { fills, unfilledLots: lots - filled };
  }

  rest(orderKey: number, side: Side, priceTicks: number, lots: number, restsFrom = Number.NEGATIVE_INFINITY): void {
    if (this.orders.has(orderKey)) throw new ValidationError('orderKey', 'must not be resting already', orderKey);
    checkTicks('priceTicks', priceTicks);
    checkLots('lots', lots);
    const levelLots = this.book.availableAt(side === 'buy' ? 'bid' : 'ask', priceTicks);
    const order: RestingOrder = {
      orderKey, side, priceTicks, remainingLots: lots, aheadLots: this.queue.aheadOnArrival(levelLots), tradedLots: 0, restsFrom,
    };
    this.orders.set(orderKey, order);
    (side === 'buy' ? this.buys : this.sells).add(order);
  }

  remove(orderKey: number): void {
    const order = this.orders.get(orderKey);
    if (order !== undefined) this.drop(order);
  }

  /** Also a no-op when the order is absent (it may have filled); 0 removes it. */
  reduce(orderKey: number, newRemainingLots: number): void {
    if (!(Number.isSafeInteger(newRemainingLots) && newRemainingLots >= 0)) {
      throw new ValidationError('newRemainingLots', 'must be an integer >= 0', newRemainingLots);
    }
    const order = this.orders.get(orderKey);
    if (order === undefined) return;
    if (newRemainingLots > order.remainingLots) {
      throw new ValidationError('newRemainingLots', `must not exceed the remaining ${order.remainingLots} lots (remove and rest to grow)`, newRemainingLots);
    }
    if (newRemainingLots === 0) this.drop(order);
    else order.remainingLots = newRemainingLots;
  }

  queueState(orderKey: number): QueueState | undefined {
    const order = this.orders.get(orderKey);
    if (order === undefined) return undefined;
    return { orderKey, side: order.side, priceTicks: order.priceTicks, remainingLots: order.remainingLots, aheadLots: order.aheadLots };
  }

  /** The hot path: integer parsing, one ladder write and, only while we rest orders, one map probe per level. */
  private applyLevels(side: BookSide, levels: readonly BookLevelText[], resting: RestingSide | undefined): void {
    let zeroText = this.zeroText;
    for (let i = 0; i < levels.length; i++) {
      const level = levels[i] as BookLevelText;
      const ticks = this.grid.ticks(level[0]);
      // Removals are a third of the traffic and share one quantity text ("0.0000") in a frame:
      // a text seen to read as 0 lots is recognised by identity, without reading it again.
      const quantityText = level[1];
      const lots = quantityText === zeroText ? 0 : this.grid.lots(quantityText);
      if (lots === 0) zeroText = quantityText;
      if (!(ticks > 0 && lots >= 0)) {
        this.badLevel(level, side, i);
        continue;
      }
      this.setLevel(side, ticks, lots, resting);
    }
    this.zeroText = zeroText;
  }

  /**
   * {@link applyLevels} for levels decoded at the grid's scales: no text to read, nothing malformed.
   * Our orders rest at a price or two: a scan of those prices tells the levels that touch them
   * (rare) from the rest, which go straight to the book.
   */
  private applyScaledLevels(side: BookSide, levels: readonly number[], resting: RestingSide | undefined): void {
    const grid = this.grid;
    const book = this.book;
    const ours = resting === undefined ? NO_PRICES : resting.prices;
    for (let i = 0; i + 1 < levels.length; i += 2) {
      const ticks = grid.ticksOfScaled(levels[i] as number);
      const lots = grid.lotsOfScaled(levels[i + 1] as number);
      if (!(ticks > 0)) {
        this.offGridLevels++;
        continue;
      }
      if (ours.length === 0 || !includes(ours, ticks)) book.set(side, ticks, lots);
      else this.setLevel(side, ticks, lots, resting);
    }
  }

  /** Sets one outside level; our orders resting at its price (only probed while we rest any) see the depth change. */
  private setLevel(side: BookSide, ticks: number, lots: number, resting: RestingSide | undefined): void {
    const mine = resting?.at(ticks);
    if (mine === undefined) {
      this.book.set(side, ticks, lots);
      return;
    }
    const previous = this.book.availableAt(side, ticks);
    this.book.set(side, ticks, lots);
    this.depthChanged(mine, previous, lots);
  }

  /** Throws for malformed text; counts and skips a price off the grid (or a zero price). */
  private badLevel(level: BookLevelText, side: BookSide, index: number): void {
    const path = `${this.symbol}.${side === 'bid' ? 'b' : 'a'}[${index}]`;
    checkText(level[0], `${path}[0]`);
    checkText(level[1], `${path}[1]`);
    this.offGridLevels++;
  }

  /** A snapshot sets every level anew, ours included (absent ones drop to 0). */
  private applySnapshot(frame: OrderBookFrame | ScaledOrderBookFrame): void {
    const bidsBefore = this.levelsBefore(this.buys, 'bid');
    const asksBefore = this.levelsBefore(this.sells, 'ask');
    this.book.clear();
    if (frame.asks === undefined) {
      this.applyScaledLevels('bid', frame.bidLevels, undefined);
      this.applyScaledLevels('ask', frame.askLevels, undefined);
    } else {
      this.applyLevels('bid', frame.bids, undefined);
      this.applyLevels('ask', frame.asks, undefined);
    }
    this.book.fit();
    this.snapshotChanged(this.buys, 'bid', bidsBefore);
    this.snapshotChanged(this.sells, 'ask', asksBefore);
  }

  private levelsBefore(resting: RestingSide, side: BookSide): number[] {
    return resting.prices.map((price) => this.book.availableAt(side, price));
  }

  private snapshotChanged(resting: RestingSide, side: BookSide, before: readonly number[]): void {
    for (let p = 0; p < resting.prices.length; p++) {
      const price = resting.prices[p] as number;
      this.depthChanged(resting.at(price) ?? [], before[p] as number, this.book.availableAt(side, price));
    }
  }

  private depthChanged(orders: readonly RestingOrder[], previous: number, next: number): void {
    for (let i = 0; i < orders.length; i++) {
      const order = orders[i] as RestingOrder;
      let ahead = this.queue.aheadAfterDepthChange(order.aheadLots, previous, next, order.tradedLots);
      // A model must not move us back or outside the level; enforce it so queue state stays sane.
      if (ahead > order.aheadLots) ahead = order.aheadLots;
      if (ahead > next) ahead = next;
      order.aheadLots = ahead >= 0 ? ahead : 0;
      order.tradedLots = 0;
    }
  }

  /**
   * Rule 3: outside liquidity at or through our price fills us at our price, best price first.
   * Returns `fills` with the fills added (created at the first one).
   */
  private fillCrossed(resting: RestingSide, against: BookSide, fills: MatchFill[] | undefined): MatchFill[] | undefined {
    const best = this.book.bestTicks(against);
    const ours = resting.bestPrice;
    // NaN on either side makes both tests false: nothing can cross.
    if (!(resting.side === 'buy' ? best <= ours : best >= ours)) return fills;
    for (;;) {
      const price = resting.bestPrice;
      if (Number.isNaN(price)) return fills;
      const level = resting.at(price) as readonly RestingOrder[];
      const order = level[0] as RestingOrder;
      const lots = this.book.take(against, price, order.remainingLots, order.orderKey);
      if (lots === 0) return fills;
      (fills ??= objectList<MatchFill>()).push({ orderKey: order.orderKey, priceTicks: price, lots, taker: false });
      order.remainingLots -= lots;
      // A partial fill means the crossing liquidity is used up.
      if (order.remainingLots !== 0) return fills;
      this.drop(order);
    }
  }

  /** Rules 1 and 2 for one trade (matched at `time`) against the side it hit. */
  /** Fills of our orders on `resting` by an outside trade, added to `fills` (created at the first one), which it returns. */
  private fillFromTrade(resting: RestingSide, price: number, tradeLots: number, time: number, fills: MatchFill[] | undefined): MatchFill[] | undefined {
    const buy = resting.side === 'buy';
    // Rule 2: every order of ours the trade printed through fills; dropped after the walk, which
    // reads the levels.
    let through: RestingOrder[] | undefined;
    const prices = resting.prices;
    for (let p = 0; p < prices.length; p++) {
      const at = prices[p] as number;
      if (!(buy ? at > price : at < price)) break;
      const orders = resting.at(at) as readonly RestingOrder[];
      for (let i = 0; i < orders.length; i++) {
        const order = orders[i] as RestingOrder;
        if (time < order.restsFrom) continue;
        (fills ??= objectList<MatchFill>()).push({ orderKey: order.orderKey, priceTicks: at, lots: order.remainingLots, taker: false });
        (through ??= []).push(order);
      }
    }
    if (through !== undefined) for (let i = 0; i < through.length; i++) this.drop(through[i] as RestingOrder);
    const level = resting.at(price);
    if (level === undefined || !(tradeLots > 0)) return fills;
    let left = tradeLots;
    for (let i = 0; i < level.length; i++) {
      const order = level[i] as RestingOrder;
      // Orders rest in arrival order: from the first that arrived after the trade, none was there.
      if (time < order.restsFrom) break;
      order.tradedLots += tradeLots;
      if (left <= order.aheadLots) {
        order.aheadLots -= left;
        continue;
      }
      const lots = left - order.aheadLots < order.remainingLots ? left - order.aheadLots : order.remainingLots;
      (fills ??= objectList<MatchFill>()).push({ orderKey: order.orderKey, priceTicks: price, lots, taker: false });
      left -= lots;
      order.aheadLots = 0;
      order.remainingLots -= lots;
    }
    for (let i = level.length - 1; i >= 0; i--) {
      const order = level[i] as RestingOrder;
      if (order.remainingLots === 0) this.drop(order);
    }
    return fills;
  }

  private drop(order: RestingOrder): void {
    this.orders.delete(order.orderKey);
    (order.side === 'buy' ? this.buys : this.sells).remove(order);
  }
}

/** True when `prices` (a few) holds `ticks`. */
function includes(prices: readonly number[], ticks: number): boolean {
  for (let i = 0; i < prices.length; i++) if (prices[i] === ticks) return true;
  return false;
}

/** The book side an aggressive order of `side` takes from. */
function takenSide(side: Side): BookSide {
  return side === 'buy' ? 'ask' : 'bid';
}

function limitOf(limitTicks: number | undefined): number {
  if (limitTicks === undefined) return Number.NaN;
  checkTicks('limitTicks', limitTicks);
  return limitTicks;
}

function checkTicks(field: string, ticks: number): void {
  if (!(Number.isSafeInteger(ticks) && ticks > 0)) throw new ValidationError(field, 'must be a positive integer of ticks', ticks);
}

function checkLots(field: string, lots: number): void {
  if (!(Number.isSafeInteger(lots) && lots > 0)) throw new ValidationError(field, 'must be a positive integer of lots', lots);
}
