import { Decimal, isDecimalString, type DecimalString } from '../../model/decimal.js';
import { ParseError, ValidationError } from '../../model/errors.js';
import type { Instrument } from '../../model/instrument.js';
import { formatScaled, parseScaled, scaleOf } from '../../model/scaled.js';
import { BookLadder } from './book-ladder.js';
import { walkLadder, type BookWalk } from './book-walk.js';
import type { BookLevelText, OrderBookFrame } from './order-book-frame.js';

/** A side of the book. */
export type BookSide = 'bid' | 'ask';

/** One level, as exact text and as scaled integers at the book's scales of the moment. */
export interface BookLevel {
  readonly price: DecimalString;
  readonly quantity: DecimalString;
  /** price x 10^priceScale. */
  readonly priceScaled: number;
  /** quantity x 10^quantityScale. */
  readonly quantityScaled: number;
}

/** Options of {@link OrderBook}. */
export interface OrderBookOptions {
  /** The symbol's grid; its tick and increment decimals become the initial scales. */
  readonly instrument?: Instrument;
}

/**
 * The full-depth L2 book of one symbol, exact: prices and quantities are scaled integers
 * (`parseScaled`), one price scale and one quantity scale per book.
 *
 * Scales start from the Instrument when known, else from 0, and rise when a value with more
 * decimals arrives (every stored value is multiplied by the power of ten, exactly): nothing is
 * ever rounded. A value that cannot be held exactly as a safe integer is refused with a
 * ParseError, and the book is then invalid until the next snapshot.
 *
 * A book is {@link valid} once a snapshot was applied and as long as it is not crossed: an update
 * that leaves best bid >= best ask marks it crossed (a crossed L2 book means a message was lost
 * or misapplied), and only a new snapshot clears that. The book does not check sequence numbers:
 * that is the keeper's job; it records the last frame's sequence and times for its readers.
 */
export class OrderBook {
  private readonly bidLadder = new BookLadder();
  private readonly askLadder = new BookLadder();
  private pScale: number;
  private qScale: number;
  private hasSnapshot = false;
  private broken = false;
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
    return this.hasSnapshot && !this.broken && !this.crossed;
  }

  /** Best bid >= best ask. */
  get crossed(): boolean {
    const bids = this.bidLadder.keys;
    const asks = this.askLadder.keys;
    const b = bids.length;
    const a = asks.length;
    return b !== 0 && a !== 0 && (bids[b - 1] as number) >= -(asks[a - 1] as number);
  }

  /** Applies a snapshot (replaces the book) or an update (changed levels; quantity 0 removes). */
  apply(frame: OrderBookFrame): void {
    if (frame.snapshot) {
      this.bidLadder.clear();
      this.askLadder.clear();
      this.hasSnapshot = true;
      this.broken = false;
    }
    try {
      this.applyLevels(this.bidLadder, frame.bids, 1, 'b');
      this.applyLevels(this.askLadder, frame.asks, -1, 'a');
    } catch (error) {
      this.broken = true;
      throw error;
    }
    this.sequence = frame.sequence;
    this.exchangeTime = frame.exchangeTime;
    this.receivedAt = frame.receivedAt;
  }

  private applyLevels(ladder: BookLadder, levels: readonly BookLevelText[], sign: 1 | -1, side: string): void {
    for (let i = 0; i < levels.length; i++) {
      const level = levels[i] as BookLevelText;
      let price = parseScaled(level[0], this.pScale);
      if (!(price >= 0)) price = this.slowPrice(level[0], `${this.symbol}.${side}[${i}][0]`);
      let quantity = parseScaled(level[1], this.qScale);
      if (!(quantity >= 0)) quantity = this.slowQuantity(level[1], `${this.symbol}.${side}[${i}][1]`);
      ladder.set(sign * price, quantity);
    }
  }

  /** Price text that did not parse at the current scale: raise the scale if that is the cause. */
  private slowPrice(text: string, path: string): number {
    const needed = neededScale(text, this.pScale, path);
    const factor = 10 ** (needed - this.pScale);
    if (Math.max(this.bidLadder.maxAbsKey(), this.askLadder.maxAbsKey()) * factor > Number.MAX_SAFE_INTEGER) {
      throw new ParseError(path, `needs ${needed} decimals, beyond the exact range of the book's prices`, text);
    }
    this.bidLadder.scaleKeys(factor);
    this.askLadder.scaleKeys(factor);
    this.pScale = needed;
    return exact(text, needed, path);
  }

  private slowQuantity(text: string, path: string): number {
    const needed = neededScale(text, this.qScale, path);
    const factor = 10 ** (needed - this.qScale);
    if (Math.max(this.bidLadder.maxQuantity(), this.askLadder.maxQuantity()) * factor > Number.MAX_SAFE_INTEGER) {
      throw new ParseError(path, `needs ${needed} decimals, beyond the exact range of the book's quantities`, text);
    }
    this.bidLadder.scaleQuantities(factor);
    this.askLadder.scaleQuantities(factor);
    this.qScale = needed;
    return exact(text, needed, path);
  }

  /** Number of levels on a side. */
  size(side: BookSide): number {
    return this.ladder(side).size;
  }

  /** Best bid price, scaled; NaN when there are no bids. Allocation-free for per-event readers. */
  get bestBidPrice(): number {
    const keys = this.bidLadder.keys;
    return keys.length === 0 ? Number.NaN : (keys[keys.length - 1] as number);
  }

  /** Best ask price, scaled; NaN when there are no asks. */
  get bestAskPrice(): number {
    const keys = this.askLadder.keys;
    return keys.length === 0 ? Number.NaN : -(keys[keys.length - 1] as number);
  }

  /** Quantity at the best bid, scaled; 0 when there are no bids. */
  get bestBidQuantity(): number {
    const q = this.bidLadder.quantities;
    return q.length === 0 ? 0 : (q[q.length - 1] as number);
  }

  /** Quantity at the best ask, scaled; 0 when there are no asks. */
  get bestAskQuantity(): number {
    const q = this.askLadder.quantities;
    return q.length === 0 ? 0 : (q[q.length - 1] as number);
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
    const bid = this.bestBidPrice;
    const ask = this.bestAskPrice;
    if (Number.isNaN(bid) || Number.isNaN(ask)) return undefined;
    return formatScaled(ask - bid, this.pScale) as DecimalString;
  }

  /** (best bid + best ask) / 2, exact text (one more decimal when the sum is odd). */
  mid(): DecimalString | undefined {
    const bid = this.bestBidPrice;
    const ask = this.bestAskPrice;
    if (Number.isNaN(bid) || Number.isNaN(ask)) return undefined;
    const sum = bid + ask;
    if (sum % 2 === 0) return formatScaled(sum / 2, this.pScale) as DecimalString;
    return formatScaled(sum * 5, this.pScale + 1) as DecimalString;
  }

  /** The best `n` levels of a side, best first. */
  topN(side: BookSide, n: number): BookLevel[] {
    const ladder = this.ladder(side);
    const sign = side === 'bid' ? 1 : -1;
    const keys = ladder.keys;
    const quantities = ladder.quantities;
    const count = Math.min(Math.max(0, Math.floor(n)), keys.length);
    const out = new Array<BookLevel>(count);
    for (let k = 0; k < count; k++) {
      const i = keys.length - 1 - k;
      const priceScaled = sign * (keys[i] as number);
      const quantityScaled = quantities[i] as number;
      out[k] = {
        price: formatScaled(priceScaled, this.pScale) as DecimalString,
        quantity: formatScaled(quantityScaled, this.qScale) as DecimalString,
        priceScaled,
        quantityScaled,
      };
    }
    return out;
  }

  /** Quantity resting at `price` on a side, exact text ("0" when there is no level there). */
  depthAt(side: BookSide, price: string): DecimalString {
    if (!isDecimalString(price) || price.startsWith('-')) {
      throw new ValidationError('price', 'must be an unsigned decimal number', price);
    }
    const scaled = parseScaled(price, this.pScale);
    // NaN here means more decimals than any level has (or beyond the exact range): no level.
    if (Number.isNaN(scaled)) return '0' as DecimalString;
    const quantity = this.ladder(side).quantityAt(side === 'bid' ? scaled : -scaled);
    return formatScaled(quantity, this.qScale) as DecimalString;
  }

  /** What buying `quantity` at market would cost, walking the asks from the best. */
  costToBuy(quantity: string | Decimal): BookWalk {
    return walkLadder(this.askLadder, -1, this.pScale, this.qScale, requestedQuantity(quantity));
  }

  /** What selling `quantity` at market would yield, walking the bids from the best. */
  proceedsToSell(quantity: string | Decimal): BookWalk {
    return walkLadder(this.bidLadder, 1, this.pScale, this.qScale, requestedQuantity(quantity));
  }

  private ladder(side: BookSide): BookLadder {
    return side === 'bid' ? this.bidLadder : this.askLadder;
  }
}

function neededScale(text: string, current: number, path: string): number {
  if (!isDecimalString(text) || text.startsWith('-')) throw new ParseError(path, 'must be an unsigned decimal number', text);
  const needed = scaleOf(text);
  if (needed <= current) throw new ParseError(path, "is beyond the exact range of the book's integers", text);
  return needed;
}

function exact(text: string, scale: number, path: string): number {
  const value = parseScaled(text, scale);
  if (!(value >= 0)) throw new ParseError(path, "is beyond the exact range of the book's integers", text);
  return value;
}

function requestedQuantity(quantity: string | Decimal): Decimal {
  if (typeof quantity === 'string') {
    if (!isDecimalString(quantity)) throw new ValidationError('quantity', 'must be a decimal number', quantity);
    quantity = new Decimal(quantity);
  }
  if (!quantity.isFinite() || quantity.isNegative()) {
    throw new ValidationError('quantity', 'must be a finite, non-negative decimal', quantity.toString());
  }
  return quantity;
}
