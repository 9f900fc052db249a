import type { ScaledOrderBookFrame } from '../../framework/exchange/book/order-book-frame.js';
import type { DecimalString } from '../../framework/model/decimal.js';
import type { TradeTick } from '../../framework/model/stream/market-records.js';
import type { TradesEvent } from '../../framework/model/stream/market-events.js';
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, LineScanner, OPEN_BRACE, OPEN_BRACKET, QUOTE, DecimalTextCache, ascii, named, scaledValue, scaledValueEnd } from './line-scanner.js';

/** The decimals a symbol's book values are scaled to (its instrument's tick and increment decimals). */
export interface BookScales {
  readonly priceScale: number;
  readonly quantityScale: number;
}

/**
 * A recording line the decoder took: the frame's local time and what it holds (one of the two
 * lists is empty). It is a replay frame as it stands (`src` included), so a reader passes it on
 * without copying it.
 */
export interface DecodedMarketLine {
  /** The frame's `t` (local receive time, UNIX ms), the same double `JSON.parse` gives. */
  readonly t: number;
  readonly src: 'ws/public';
  readonly books: readonly ScaledOrderBookFrame[];
  readonly events: readonly TradesEvent[];
}

const FRAME_START = ascii('{"t":');
const PUBLIC_MSG = ascii(',"src":"ws/public","msg":{"ch":"');
const BOOK_CHANNEL = ascii('orderbook/full","');
const TRADES_CHANNEL = ascii('trades","');
const SNAPSHOT_KEY = ascii('snapshot":{');
const UPDATE_KEY = ascii('update":{');
const BUY = ascii('buy');
const SELL = ascii('sell');
const SIDES = [BUY, SELL];
const NO_BOOKS: readonly ScaledOrderBookFrame[] = Object.freeze([]);
const NO_TRADES: readonly TradesEvent[] = Object.freeze([]);
const NO_LEVELS: readonly number[] = Object.freeze([]);

/**
 * Decodes the two kinds of recording line that make up nearly all of a depth recording,
 * `orderbook/full` and `trades` frames of the public stream, straight from the gunzipped bytes:
 * book levels become scaled integers ({@link ScaledOrderBookFrame}: no level texts, no second
 * parse in every book that applies them) and trades become the {@link TradesEvent} the live parser
 * builds. No JSON.parse, no intermediate objects.
 *
 * It takes only the canonical layout the recorder writes (`{"t":..,"src":"ws/public","msg":{"ch":..,
 * "snapshot"|"update":{SYMBOL:..}}}`, keys inside a book entry or a trade in any order, no
 * whitespace), for the symbols it was given scales for, with every price and quantity a plain
 * decimal (a safe integer at the scales, for books) and times and ids plain integers. Anything
 * else answers `undefined` and the caller parses the line the general way, which then validates,
 * reports or re-scales as for any frame. So a line the decoder takes yields what the general
 * parser would make of it, only faster; it never refuses a line the general parser accepts or
 * accepts one it refuses.
 *
 * The level loop, run for nearly every byte of a depth recording, reads with local variables
 * rather than through the scanner's cursor, and lists are built at their final size (a frame of
 * one book or one trade allocates no spare capacity).
 */
export class MarketLineDecoder extends LineScanner {
  private readonly names: readonly Uint8Array[];
  private readonly symbols: readonly string[];
  private readonly scales: readonly BookScales[];
  private readonly scratch: number[] = [];
  /** The last trade price text, as bytes and as the string handed out. */
  private readonly lastPrice = new DecimalTextCache();

  /** `scales`: the symbols whose lines to decode, with their scales. */
  constructor(scales: ReadonlyMap<string, BookScales>) {
    super();
    this.symbols = [...scales.keys()];
    this.names = this.symbols.map(ascii);
    this.scales = [...scales.values()];
  }

  /** Decodes `bytes[start, end)` (one line, without its `\n`); `undefined` when the line is not one the decoder takes. */
  decode(bytes: Buffer, start: number, end: number): DecodedMarketLine | undefined {
    this.reset(bytes, start, end);
    if (!this.literal(FRAME_START)) return undefined;
    const timeStart = this.pos;
    if (!this.skipJsonNumber()) return undefined;
    const timeEnd = this.pos;
    if (!this.literal(PUBLIC_MSG)) return undefined;
    const book = this.literal(BOOK_CHANNEL);
    if (!book && !this.literal(TRADES_CHANNEL)) return undefined;
    let snapshot: boolean;
    if (this.literal(SNAPSHOT_KEY)) snapshot = true;
    else if (this.literal(UPDATE_KEY)) snapshot = false;
    else return undefined;
    const t = this.numberBetween(timeStart, timeEnd);
    const decoded = book ? this.bookPayload(snapshot, t) : this.tradesPayload(snapshot, t);
    // The payload's `}` was read: what remains closes msg and the frame.
    if (decoded === undefined || this.next() !== CLOSE_BRACE || this.next() !== CLOSE_BRACE || !this.atEnd()) return undefined;
    return decoded;
  }

  /** `SYMBOL:{...},...}` of an `orderbook/full` frame. */
  private bookPayload(snapshot: boolean, t: number): DecodedMarketLine | undefined {
    const first = this.bookOf(snapshot, t);
    if (first === undefined) return undefined;
    if (!this.more()) return this.done() ? { t, src: 'ws/public', books: [first], events: NO_TRADES } : undefined;
    // Several symbols in one frame: rare.
    const books = [first];
    do {
      const entry = this.bookOf(snapshot, t);
      if (entry === undefined || named(books, entry.symbol)) return undefined;
      books.push(entry);
    } while (this.more());
    return this.done() ? { t, src: 'ws/public', books, events: NO_TRADES } : undefined;
  }

  /** `SYMBOL:{...}` of an `orderbook/full` frame. */
  private bookOf(snapshot: boolean, t: number): ScaledOrderBookFrame | undefined {
    const symbol = this.symbolKey();
    if (symbol < 0 || this.next() !== OPEN_BRACE) return undefined;
    return this.bookEntry(symbol, snapshot, t);
  }

  /** `{"t":..,"s":..,"a":[..],"b":[..]}` after its `{`, keys in any order, `a` and `b` optional. */
  private bookEntry(symbol: number, snapshot: boolean, receivedAt: number): ScaledOrderBookFrame | undefined {
    const scales = this.scales[symbol] as BookScales;
    let exchangeTime = -1;
    let sequence = -1;
    let askLevels: readonly number[] | undefined;
    let bidLevels: readonly number[] | undefined;
    do {
      const key = this.shortKey();
      if (key === 0x74 && exchangeTime < 0) { // t
        exchangeTime = this.unsignedInteger();
        if (exchangeTime < 0) return undefined;
      } else if (key === 0x73 && sequence < 0) { // s
        sequence = this.unsignedInteger();
        if (sequence < 0) return undefined;
      } else if (key === 0x61 && askLevels === undefined) { // a
        askLevels = this.levels(scales.priceScale, scales.quantityScale);
        if (askLevels === undefined) return undefined;
      } else if (key === 0x62 && bidLevels === undefined) { // b
        bidLevels = this.levels(scales.priceScale, scales.quantityScale);
        if (bidLevels === undefined) return undefined;
      } else {
        return undefined;
      }
    } while (this.more());
    if (!this.done() || exchangeTime < 0 || sequence < 0) return undefined;
    return {
      symbol: this.symbols[symbol] as string, sequence, exchangeTime, receivedAt, snapshot,
      priceScale: scales.priceScale, quantityScale: scales.quantityScale,
      askLevels: askLevels ?? NO_LEVELS, bidLevels: bidLevels ?? NO_LEVELS,
    };
  }

  /**
   * `[["price","quantity"],...]` as `[price, quantity, ...]` scaled; undefined unless every value
   * is a plain decimal (`digits` or `digits.digits`) that is a safe integer at the scales.
   * Decimals beyond a scale must be zeros (and are not accumulated, so padding never overflows);
   * while a value stays below 2^53 every step was exact, and the range test at its end covers the
   * whole value.
   */
  private levels(priceScale: number, quantityScale: number): readonly number[] | undefined {
    const bytes = this.bytes;
    const end = this.end;
    let pos = this.pos;
    if (pos + 1 >= end || bytes[pos] !== OPEN_BRACKET) return undefined;
    if (bytes[pos + 1] === CLOSE_BRACKET) {
      this.pos = pos + 2;
      return NO_LEVELS;
    }
    pos++;
    // Values gather in a scratch list that keeps its capacity; the frame gets one exact-size copy.
    const scratch = this.scratch;
    let count = 0;
    for (;;) {
      // `["price","quantity"]`, then `,` (another level) or `]` (the list's end).
      if (pos + 1 >= end || bytes[pos] !== OPEN_BRACKET || bytes[pos + 1] !== QUOTE) return undefined;
      const price = scaledValue(bytes, pos + 2, end, priceScale);
      pos = scaledValueEnd();
      if (price < 0 || pos + 1 >= end || bytes[pos] !== COMMA || bytes[pos + 1] !== QUOTE) return undefined;
      const quantity = scaledValue(bytes, pos + 2, end, quantityScale);
      pos = scaledValueEnd();
      if (quantity < 0 || pos + 1 >= end || bytes[pos] !== CLOSE_BRACKET) return undefined;
      scratch[count++] = price;
      scratch[count++] = quantity;
      const after = bytes[pos + 1];
      pos += 2;
      if (after === CLOSE_BRACKET) break;
      if (after !== COMMA) return undefined;
    }
    this.pos = pos;
    return scratch.slice(0, count);
  }

  /** `SYMBOL:[{trade},...],...}` of a `trades` frame: one event per symbol, as the live parser builds it. */
  private tradesPayload(snapshot: boolean, receivedAt: number): DecodedMarketLine | undefined {
    const first = this.tradesOf(snapshot, receivedAt);
    if (first === undefined) return undefined;
    if (!this.more()) return this.done() ? { t: receivedAt, src: 'ws/public', books: NO_BOOKS, events: [first] } : undefined;
    // Several symbols in one frame: rare.
    const events = [first];
    do {
      const event = this.tradesOf(snapshot, receivedAt);
      if (event === undefined || named(events, event.symbol)) return undefined;
      events.push(event);
    } while (this.more());
    return this.done() ? { t: receivedAt, src: 'ws/public', books: NO_BOOKS, events } : undefined;
  }

  /** `SYMBOL:[{trade},...]` of a `trades` frame, as the live parser's event. */
  private tradesOf(snapshot: boolean, receivedAt: number): TradesEvent | undefined {
    const symbol = this.symbolKey();
    if (symbol < 0 || this.next() !== OPEN_BRACKET) return undefined;
    let trades: TradeTick[];
    let exchangeTime = receivedAt;
    if (this.peek() === CLOSE_BRACKET) {
      this.pos++;
      trades = [];
    } else {
      const first = this.trade();
      if (first === undefined) return undefined;
      exchangeTime = first.timestamp;
      // One trade a line is the rule: its list is made at its size.
      trades = [first];
      while (this.more()) {
        const trade = this.trade();
        if (trade === undefined) return undefined;
        trades.push(trade);
        if (trade.timestamp > exchangeTime) exchangeTime = trade.timestamp;
      }
      if (this.next() !== CLOSE_BRACKET) return undefined;
    }
    return { kind: 'trades', channel: 'trades', symbol: this.symbols[symbol] as string, snapshot, exchangeTime, receivedAt, trades };
  }

  /** `{"t":..,"i":..,"p":"..","q":"..","s":"buy"|"sell"}`, keys in any order, all required. */
  private trade(): TradeTick | undefined {
    if (this.next() !== OPEN_BRACE) return undefined;
    let timestamp = -1;
    let id: string | undefined;
    let price: string | undefined;
    let quantity: string | undefined;
    let side = -1;
    do {
      const key = this.shortKey();
      if (key === 0x74 && timestamp < 0) { // t
        timestamp = this.unsignedInteger();
        if (timestamp < 0) return undefined;
      } else if (key === 0x69 && id === undefined) { // i
        const start = this.pos;
        if (this.unsignedInteger() < 0) return undefined;
        // The digits as they are: String(n) for such an integer, without the number-to-text cache,
        // which would keep every trade's id alive past the young generation.
        id = this.bytes.toString('latin1', start, this.pos);
      } else if (key === 0x70 && price === undefined) { // p
        price = this.cachedDecimalText(this.lastPrice);
        if (price === undefined) return undefined;
      } else if (key === 0x71 && quantity === undefined) { // q
        quantity = this.plainDecimalText();
        if (quantity === undefined) return undefined;
      } else if (key === 0x73 && side < 0) { // s
        side = this.quotedName(SIDES);
        if (side < 0) return undefined;
      } else {
        return undefined;
      }
    } while (this.more());
    if (!this.done() || timestamp < 0 || id === undefined || price === undefined || quantity === undefined || side < 0) return undefined;
    return { timestamp, id, price: price as DecimalString, quantity: quantity as DecimalString, side: side === 0 ? 'buy' : 'sell' };
  }

  /** `"SYMBOL":` of a known symbol: its index, or -1. */
  private symbolKey(): number {
    const symbol = this.quotedName(this.names);
    return symbol >= 0 && this.next() === COLON ? symbol : -1;
  }

  /** Past the `}` that closes an object. */
  private done(): boolean {
    return this.next() === CLOSE_BRACE;
  }
}
