import { isDecimalString, type Decimal, type DecimalString } from '../../model/decimal.js';
import { ParseError, ValidationError } from '../../model/errors.js';
import type { Instrument } from '../../model/instrument.js';
import { scaleOf } from '../../model/scaled.js';
import { BIG_QUANTITY, BookLadder, DEFAULT_MAX_WINDOW_SIZE, DEFAULT_WINDOW_SIZE } from './book-ladder.js';
import { ExactBookLevel, safeUnits, type BookLevel } from './book-level.js';
import { requestedQuantity, walkLadder, type BookWalk } from './book-walk.js';
import { gatherLevels } from './gather-levels.js';
import { scaledLevelsAsText, type BookFrame, type BookLevelText, type ScaledOrderBookFrame } from './order-book-frame.js';
import { parseUnsignedScaled } from '../../model/parse-unsigned-scaled.js';
import { formatScaledBig, parseScaledBig } from '../../model/scaled-big.js';

/** Levels in a frame from which touching them all first (see gatherLevels) pays off. */
const GATHER_FROM = 8;

/** A side of the book. */
export type BookSide = 'bid' | 'ask';

export type { BookLevel } from './book-level.js';

/** Options of {@link OrderBook}. */
export interface OrderBookOptions {
  /** The symbol's grid; its tick and increment decimals become the initial scales. */
  readonly instrument?: Instrument;
  /**
   * Price steps (units of 10^-priceScale) each side keeps in its dense window around the touch:
   * level changes inside it are O(1), the rest go to a sorted fallback. This is the smallest
   * window; a snapshot grows it to hold most of the book's levels, and it doubles when more than
   * 1 change in 8 misses it; it never shrinks (see BookLadder). Default 4096 (32 KiB a side); a
   * power of two from 64 to 2^20.
   */
  readonly windowSize?: number;
  /**
   * Largest window a side grows to: bounds the memory of a book (8 bytes a slot, per side) whose
   * levels spread over many ticks. Default 2^18 (2 MiB a side) or `windowSize` when larger; a
   * power of two from `windowSize` to 2^20.
   */
  readonly maxWindowSize?: number;
}

/**
 * The full-depth L2 book of one symbol, exact: prices and quantities are scaled integers
 * (`parseUnsignedScaled`), one price scale and one quantity scale per book.
 *
 * Per level of an update the hot path converts both texts in one validating pass (no float, no
 * allocation) and stores the quantity in a dense per-side window indexed by price (see
 * BookLadder), so a level change costs about two text scans and one array store; the best bid and
 * ask are maintained as levels change.
 *
 * Scales start from the Instrument when known, else from 0, and rise when a value with more
 * decimals arrives (every stored value is multiplied by the power of ten, exactly): nothing is
 * ever rounded. Values beyond 2^53 at the book's scale (real books carry placeholder asks such as
 * 9999999999999.000) are kept exactly as BigInt off the hot path (see BookLadder). Malformed
 * level text throws a ParseError and leaves the book invalid until the next snapshot.
 *
 * A book is {@link valid} once a snapshot was applied and as long as it is not crossed: an update
 * that leaves best bid >= best ask marks it crossed (a crossed L2 book means a message was lost
 * or misapplied), and only a new snapshot clears that. The book does not check sequence numbers:
 * that is the keeper's job; it records the last frame's sequence and times for its readers.
 */
export class OrderBook {
  private readonly bidLadder: BookLadder;
  private readonly askLadder: BookLadder;
  private pScale: number;
  private qScale: number;
  private hasSnapshot = false;
  private broken = false;
  /** Best bid >= best ask, as of the last {@link apply} (per-event readers ask {@link valid} often). */
  private isCrossed = false;
  /**
   * The best bid's safe key and the best ask's safe price as of the last {@link apply} (NaN for
   * none): the levels only change there, and per-event readers (the best prices, the crossed
   * check) read them often.
   */
  private bidKey = Number.NaN;
  private askPrice = Number.NaN;
  /**
   * A best level is one kept beyond 2^53 (a far bid is better than any safe one; far asks are the
   * best only when no safe ask is left): the best-price reads take the exact path. Kept with the
   * best keys so those reads are one field test, small enough to be inlined into any reader.
   */
  private farBest = false;
  /** A text seen to mean quantity 0 (compared by identity first, then by content). */
  private zeroText = '0';
  /** The last {@link mid} and the scaled best prices it was computed from. */
  private midCache: { readonly bid: number; readonly ask: number; readonly scale: number; readonly text: DecimalString } | undefined;
  /** Result of the last {@link gatherLevels}, kept so the optimiser keeps its loads. */
  private gathered = 0;
  /** `s` of the last applied frame; -1 before the first. */
  sequence = -1;
  /** Exchange time of the last applied frame (ms). */
  exchangeTime = Number.NaN;
  /** Local receive time of the last applied frame (ms). */
  receivedAt = Number.NaN;

  constructor(
    readonly symbol: string,
    options: OrderBookOptions = {},
  ) {
    this.pScale = options.instrument?.priceScale ?? 0;
    this.qScale = options.instrument?.quantityScale ?? 0;
    const windowSize = options.windowSize ?? DEFAULT_WINDOW_SIZE;
    if (!isWindowSize(windowSize, 64)) throw new ValidationError('windowSize', 'must be a power of two from 64 to 2^20', windowSize);
    const maxWindowSize = options.maxWindowSize ?? Math.max(windowSize, DEFAULT_MAX_WINDOW_SIZE);
    if (!isWindowSize(maxWindowSize, windowSize)) {
      throw new ValidationError('maxWindowSize', `must be a power of two from windowSize (${windowSize}) to 2^20`, maxWindowSize);
    }
    this.bidLadder = new BookLadder(windowSize, maxWindowSize);
    this.askLadder = new BookLadder(windowSize, maxWindowSize);
  }

  /** Decimals of the scaled prices (may rise, never falls). */
  get priceScale(): number {
    return this.pScale;
  }

  /** Decimals of the scaled quantities (may rise, never falls). */
  get quantityScale(): number {
    return this.qScale;
  }

  /** A snapshot was applied and the book is neither crossed nor broken by an unparsable value. */
  get valid(): boolean {
    return this.hasSnapshot && !this.broken && !this.isCrossed;
  }

  /** Best bid >= best ask. */
  get crossed(): boolean {
    return this.isCrossed;
  }

  /**
   * After the best keys were brought up to date: {@link farBest} and {@link crossed} from them;
   * the levels only change in {@link apply}, which keeps the answers.
   */
  private settle(): void {
    const farBid = this.bidLadder.farAbove !== 0;
    this.farBest = farBid || (this.askPrice !== this.askPrice && this.askLadder.farLevels.size !== 0);
    // NaN on either side (empty) makes the comparison false: an empty side cannot cross.
    this.isCrossed = farBid ? this.crossedExact() : this.bidKey >= this.askPrice;
  }

  private crossedExact(): boolean {
    const bid = this.bidLadder.levelsFromBest().next();
    const ask = this.askLadder.levelsFromBest().next();
    return bid.done !== true && ask.done !== true && bid.value[0] >= -ask.value[0];
  }

  /** Applies a snapshot (replaces the book) or an update (changed levels; quantity 0 removes). */
  apply(frame: BookFrame): void {
    if (frame.snapshot) {
      this.applyWhole(frame);
    } else if (frame.asks === undefined) {
      this.applyScaledUpdate(frame);
    } else {
      // The path of nearly every text message: a side without levels costs no call, and a small
      // frame no gathering pass (many messages change one level: a BTC feed often sends one per
      // order event).
      const asks = frame.asks;
      const bids = frame.bids;
      const bidCount = bids.length;
      const askCount = asks.length;
      try {
        if (bidCount + askCount >= GATHER_FROM) this.gathered = gatherLevels(bids) | gatherLevels(asks);
        if (bidCount !== 0) this.applyLevels(this.bidLadder, bids, 1, 'b');
        if (askCount !== 0) this.applyLevels(this.askLadder, asks, -1, 'a');
        // A side the message left alone is as its last rebalance left it: nothing to look at.
        if (bidCount !== 0) this.bidKey = this.bidLadder.rebalance();
        if (askCount !== 0) this.askPrice = -this.askLadder.rebalance();
      } catch (error) {
        this.fail();
        throw error;
      }
      this.settle();
    }
    this.sequence = frame.sequence;
    this.exchangeTime = frame.exchangeTime;
    this.receivedAt = frame.receivedAt;
  }

  /**
   * {@link apply} of an update whose levels arrive scaled (the live socket's and a replay's path):
   * levels at the book's scales are stored as they are, and, as for a text update, only a side
   * the message changed is rebalanced.
   */
  private applyScaledUpdate(frame: ScaledOrderBookFrame): void {
    const bids = frame.bidLevels;
    const asks = frame.askLevels;
    try {
      // A scale raised on the way (text path) brings both sides' best keys up to date itself.
      this.applyScaled(frame);
      if (bids.length !== 0) this.bidKey = this.bidLadder.rebalance();
      if (asks.length !== 0) this.askPrice = -this.askLadder.rebalance();
    } catch (error) {
      this.fail();
      throw error;
    }
    this.settle();
  }

  /** {@link apply} of a snapshot: both sides replaced and settled. */
  private applyWhole(frame: BookFrame): void {
    this.bidLadder.clear();
    this.askLadder.clear();
    this.hasSnapshot = true;
    this.broken = false;
    try {
      if (frame.asks === undefined) {
        this.applyScaled(frame);
      } else {
        const bids = frame.bids;
        const asks = frame.asks;
        if (bids.length + asks.length >= GATHER_FROM) this.gathered = gatherLevels(bids) | gatherLevels(asks);
        this.applyLevels(this.bidLadder, bids, 1, 'b');
        this.applyLevels(this.askLadder, asks, -1, 'a');
      }
      this.bidLadder.fit();
      this.askLadder.fit();
      this.bidKey = this.bidLadder.rebalance();
      this.askPrice = -this.askLadder.rebalance();
    } catch (error) {
      this.fail();
      throw error;
    }
    this.settle();
  }

  /** A level could not be applied: the book is broken until the next snapshot; its best keys and crossed state follow what was applied. */
  private fail(): void {
    this.broken = true;
    this.bidKey = this.bidLadder.bestKey();
    this.askPrice = -this.askLadder.bestKey();
    this.settle();
  }

  private applyLevels(ladder: BookLadder, levels: readonly BookLevelText[], sign: 1 | -1, side: string): void {
    let priceScale = this.pScale;
    let quantityScale = this.qScale;
    let zeroText = this.zeroText;
    for (let i = 0; i < levels.length; i++) {
      const level = levels[i] as BookLevelText;
      const quantityText = level[1];
      const price = parseUnsignedScaled(level[0], priceScale);
      // Removals are a third of real traffic and arrive as one text ("0.0000"), shared by
      // JSON.parse: an identity test skips its conversion.
      const quantity = quantityText === zeroText ? 0 : parseUnsignedScaled(quantityText, quantityScale);
      // NaN (malformed, finer than the scale, beyond 2^53) fails the test: the exact slow path.
      if (price >= 0 && quantity >= 0) {
        ladder.set(sign * price, quantity);
        if (quantity === 0) zeroText = quantityText;
      } else {
        this.slowLevel(ladder, level, sign, `${this.symbol}.${side}[${i}]`);
        priceScale = this.pScale;
        quantityScale = this.qScale;
      }
    }
    this.zeroText = zeroText;
  }

  /**
   * Levels decoded at the book's scales are stored as they are; other scales (the book's rose
   * after an unusual value) take the text path, exact and rare.
   */
  private applyScaled(frame: ScaledOrderBookFrame): void {
    if (frame.priceScale !== this.pScale || frame.quantityScale !== this.qScale) {
      const text = scaledLevelsAsText(frame);
      this.applyLevels(this.bidLadder, text.bids, 1, 'b');
      this.applyLevels(this.askLadder, text.asks, -1, 'a');
      return;
    }
    const bidLadder = this.bidLadder;
    const bids = frame.bidLevels;
    for (let i = 0; i + 1 < bids.length; i += 2) bidLadder.set(bids[i] as number, bids[i + 1] as number);
    const askLadder = this.askLadder;
    const asks = frame.askLevels;
    for (let i = 0; i + 1 < asks.length; i += 2) askLadder.set(-(asks[i] as number), asks[i + 1] as number);
  }

  /** A level the fast path could not take: raise the scales if needed, then set it exactly. */
  private slowLevel(ladder: BookLadder, level: BookLevelText, sign: 1 | -1, path: string): void {
    const [priceText, quantityText] = level;
    checkUnsigned(priceText, `${path}[0]`);
    checkUnsigned(quantityText, `${path}[1]`);
    const priceScale = scaleOf(priceText);
    if (priceScale > this.pScale) {
      const factor = 10n ** BigInt(priceScale - this.pScale);
      this.bidLadder.scaleKeys(factor);
      this.askLadder.scaleKeys(factor);
      this.pScale = priceScale;
      // Both sides' keys changed, also the side this message may leave alone.
      this.bidKey = this.bidLadder.bestKey();
      this.askPrice = -this.askLadder.bestKey();
    }
    const quantityScale = scaleOf(quantityText);
    if (quantityScale > this.qScale) {
      const factor = 10n ** BigInt(quantityScale - this.qScale);
      this.bidLadder.scaleQuantities(factor);
      this.askLadder.scaleQuantities(factor);
      this.qScale = quantityScale;
    }
    const price = parseScaledBig(priceText, this.pScale) as bigint;
    const quantity = parseScaledBig(quantityText, this.qScale) as bigint;
    ladder.setExact(sign === 1 ? price : -price, quantity);
  }

  /** Number of levels on a side. */
  size(side: BookSide): number {
    return this.ladder(side).size;
  }

  /**
   * Best bid price, scaled; NaN when there are no bids. Allocation-free, for per-event readers.
   * Throws UnrepresentableValueError when the best bid is beyond 2^53 at the book's scale (read
   * {@link bestBid} instead).
   */
  get bestBidPrice(): number {
    return this.farBest ? this.bestBidPriceExact() : this.bidKey;
  }

  /** Best ask price, scaled; NaN when there are no asks; throws UnrepresentableValueError beyond 2^53. */
  get bestAskPrice(): number {
    return this.farBest ? this.bestAskPriceExact() : this.askPrice;
  }

  private bestBidPriceExact(): number {
    return this.bestExact('bid', 'bestBidPrice');
  }

  private bestAskPriceExact(): number {
    return this.bestExact('ask', 'bestAskPrice');
  }

  /** Quantity at the best bid, scaled; NaN when there are no bids; throws UnrepresentableValueError beyond 2^53. */
  get bestBidQuantity(): number {
    const top = this.bidLadder.farAbove !== 0 ? BIG_QUANTITY : this.bidLadder.bestQuantity();
    return top === BIG_QUANTITY ? this.bestExact('bid', 'bestBidQuantity') : top;
  }

  /** Quantity at the best ask, scaled; NaN when there are no asks; throws UnrepresentableValueError beyond 2^53. */
  get bestAskQuantity(): number {
    const top = this.askLadder.bestQuantity();
    return top === BIG_QUANTITY || (top !== top && this.askLadder.farLevels.size !== 0) ? this.bestExact('ask', 'bestAskQuantity') : top;
  }

  /**
   * The slow path of the best-level reads, taken while a best level is kept as BigInt: the side's
   * best price or quantity as a number when it fits (NaN when the side is empty), else
   * UnrepresentableValueError naming it with its exact text.
   */
  private bestExact(side: BookSide, field: 'bestBidPrice' | 'bestAskPrice' | 'bestBidQuantity' | 'bestAskQuantity'): number {
    const best = this.topN(side, 1)[0];
    if (best === undefined) return Number.NaN;
    return field.endsWith('Price')
      ? safeUnits(this.symbol, field, best.priceUnits, best.price)
      : safeUnits(this.symbol, field, best.quantityUnits, best.quantity);
  }

  /** Best bid level, or undefined when there are no bids. */
  bestBid(): BookLevel | undefined {
    return this.topN('bid', 1)[0];
  }

  /** Best ask level, or undefined when there are no asks. */
  bestAsk(): BookLevel | undefined {
    return this.topN('ask', 1)[0];
  }

  /** Best ask - best bid, exact text; undefined unless both sides have levels. */
  spread(): DecimalString | undefined {
    const bid = this.bestExactPrice('bid');
    const ask = this.bestExactPrice('ask');
    if (bid === undefined || ask === undefined) return undefined;
    return formatScaledBig(ask - bid, this.pScale) as DecimalString;
  }

  /** (best bid + best ask) / 2, exact text (one more decimal when the sum is odd). */
  mid(): DecimalString | undefined {
    // Most changes leave the touch where it was: the last text is kept for the same best prices.
    // NaN (no safe level, or a best bid beyond 2^53, whose safe best key is not the best price)
    // never equals itself, so such a book is never served from the cache.
    const bidScaled = this.bidLadder.farAbove !== 0 ? Number.NaN : this.bidKey;
    const askScaled = this.askPrice;
    const cached = this.midCache;
    if (cached !== undefined && cached.bid === bidScaled && cached.ask === askScaled && cached.scale === this.pScale) return cached.text;
    const bid = this.bestExactPrice('bid');
    const ask = this.bestExactPrice('ask');
    if (bid === undefined || ask === undefined) return undefined;
    const sum = bid + ask;
    const text = (sum % 2n === 0n ? formatScaledBig(sum / 2n, this.pScale) : formatScaledBig(sum * 5n, this.pScale + 1)) as DecimalString;
    this.midCache = { bid: bidScaled, ask: askScaled, scale: this.pScale, text };
    return text;
  }

  /** The best `n` levels of a side, best first. */
  topN(side: BookSide, n: number): BookLevel[] {
    const sign = side === 'bid' ? 1n : -1n;
    const out: BookLevel[] = [];
    if (!(n >= 1)) return out;
    for (const [key, quantity] of this.ladder(side).levelsFromBest()) {
      out.push(new ExactBookLevel(this.symbol, key * sign, quantity, this.pScale, this.qScale));
      if (out.length >= n) break;
    }
    return out;
  }

  /** Quantity resting at `price` on a side, exact text ("0" when there is no level there). */
  depthAt(side: BookSide, price: string): DecimalString {
    if (!isDecimalString(price) || price.startsWith('-')) {
      throw new ValidationError('price', 'must be an unsigned decimal number', price);
    }
    const scaled = parseScaledBig(price, this.pScale);
    // More decimals than the book's scale: no level can sit there.
    if (scaled === undefined) return '0' as DecimalString;
    const quantity = this.ladder(side).quantityAt(side === 'bid' ? scaled : -scaled);
    return formatScaledBig(quantity, this.qScale) as DecimalString;
  }

  /** What buying `quantity` at market would cost, walking the asks from the best. */
  costToBuy(quantity: string | Decimal): BookWalk {
    return walkLadder(this.askLadder, -1n, this.pScale, this.qScale, requestedQuantity(quantity));
  }

  /** What selling `quantity` at market would yield, walking the bids from the best. */
  proceedsToSell(quantity: string | Decimal): BookWalk {
    return walkLadder(this.bidLadder, 1n, this.pScale, this.qScale, requestedQuantity(quantity));
  }

  private bestExactPrice(side: BookSide): bigint | undefined {
    const ladder = this.ladder(side);
    // The usual book's best level has a safe key: read without a walk (a bid beyond 2^53 would be
    // better than any safe one; an ask beyond it is worse).
    if (ladder.farAbove === 0) {
      const key = ladder.bestKey();
      if (key === key) return side === 'bid' ? BigInt(key) : BigInt(-key);
    }
    const best = ladder.levelsFromBest().next();
    if (best.done === true) return undefined;
    return side === 'bid' ? best.value[0] : -best.value[0];
  }

  private ladder(side: BookSide): BookLadder {
    return side === 'bid' ? this.bidLadder : this.askLadder;
  }
}

function checkUnsigned(text: string, path: string): void {
  if (!isDecimalString(text) || text.startsWith('-')) throw new ParseError(path, 'must be an unsigned decimal number', text);
}

function isWindowSize(size: number, min: number): boolean {
  return Number.isInteger(size) && size >= min && size <= 2 ** 20 && (size & (size - 1)) === 0;
}
