import type { ScaledOrderBookFrame } from '../../framework/exchange/book/order-book-frame.js';
import type { DecimalString } from '../../framework/model/decimal.js';
import type { TradeTick } from '../../framework/model/stream/market-records.js';
import type { TradesEvent } from '../../framework/model/stream/market-events.js';
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, LineScanner, OPEN_BRACE, OPEN_BRACKET, ascii } from './line-scanner.js';

/** The decimals a symbol's book values are scaled to (its instrument's tick and increment decimals). */
export interface BookScales {
  readonly priceScale: number;
  readonly quantityScale: number;
}

/** A recording line the decoder took: the frame's local time and what it holds (one of the two lists is empty). */
export interface DecodedMarketLine {
  /** The frame's `t` (local receive time, UNIX ms), the same double `JSON.parse` gives. */
  readonly t: number;
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
 */
export class MarketLineDecoder extends LineScanner {
  private readonly names: readonly Uint8Array[];
  private readonly symbols: readonly string[];
  private readonly scales: readonly BookScales[];
  private readonly scratch: number[] = [];

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
    const books: ScaledOrderBookFrame[] = [];
    for (;;) {
      const symbol = this.symbolKey();
      if (symbol < 0 || this.next() !== OPEN_BRACE || named(books, this.symbols[symbol] as string)) return undefined;
      const entry = this.bookEntry(symbol, snapshot, t);
      if (entry === undefined) return undefined;
      books.push(entry);
      if (!this.more()) return this.done() ? { t, books, events: NO_TRADES } : undefined;
    }
  }

  /** `{"t":..,"s":..,"a":[..],"b":[..]}` after its `{`, keys in any order, `a` and `b` optional. */
  private bookEntry(symbol: number, snapshot: boolean, receivedAt: number): ScaledOrderBookFrame | undefined {
    const scales = this.scales[symbol] as BookScales;
    let exchangeTime = -1;
    let sequence = -1;
    let askLevels: number[] | undefined;
    let bidLevels: number[] | undefined;
    do {
      const key = this.shortKey();
      if (key === 0x74 && exchangeTime < 0) { // t
        exchangeTime = this.unsignedInteger();
        if (exchangeTime < 0) return undefined;
      } else if (key === 0x73 && sequence < 0) { // s
        sequence = this.unsignedInteger();
        if (sequence < 0) return undefined;
      } else if (key === 0x61 && askLevels === undefined) { // a
        askLevels = this.levels(scales);
        if (askLevels === undefined) return undefined;
      } else if (key === 0x62 && bidLevels === undefined) { // b
        bidLevels = this.levels(scales);
        if (bidLevels === undefined) return undefined;
      } else {
        return undefined;
      }
    } while (this.more());
    if (!this.done() || exchangeTime < 0 || sequence < 0) return undefined;
    return {
      symbol: this.symbols[symbol] as string, sequence, exchangeTime, receivedAt, snapshot,
      priceScale: scales.priceScale, quantityScale: scales.quantityScale,
      askLevels: askLevels ?? [], bidLevels: bidLevels ?? [],
    };
  }

  /** `[["price","quantity"],...]` as `[price, quantity, ...]` scaled; undefined unless every value is a plain decimal that is a safe integer at the scales. */
  private levels(scales: BookScales): number[] | undefined {
    if (this.next() !== OPEN_BRACKET) return undefined;
    if (this.peek() === CLOSE_BRACKET) {
      this.pos++;
      return [];
    }
    // Values gather in a scratch list that keeps its capacity; the frame gets one exact-size copy.
    const scratch = this.scratch;
    let count = 0;
    do {
      if (this.next() !== OPEN_BRACKET) return undefined;
      const price = this.scaledDecimal(scales.priceScale);
      if (price < 0 || this.next() !== COMMA) return undefined;
      const quantity = this.scaledDecimal(scales.quantityScale);
      if (quantity < 0 || this.next() !== CLOSE_BRACKET) return undefined;
      scratch[count++] = price;
      scratch[count++] = quantity;
    } while (this.more());
    return this.next() === CLOSE_BRACKET ? scratch.slice(0, count) : undefined;
  }

  /** `SYMBOL:[{trade},...],...}` of a `trades` frame: one event per symbol, as the live parser builds it. */
  private tradesPayload(snapshot: boolean, receivedAt: number): DecodedMarketLine | undefined {
    const events: TradesEvent[] = [];
    for (;;) {
      const symbol = this.symbolKey();
      if (symbol < 0 || this.next() !== OPEN_BRACKET || named(events, this.symbols[symbol] as string)) return undefined;
      const trades: TradeTick[] = [];
      let exchangeTime = Number.NEGATIVE_INFINITY;
      if (this.peek() === CLOSE_BRACKET) {
        this.pos++;
      } else {
        do {
          const trade = this.trade();
          if (trade === undefined) return undefined;
          trades.push(trade);
          if (trade.timestamp > exchangeTime) exchangeTime = trade.timestamp;
        } while (this.more());
        if (this.next() !== CLOSE_BRACKET) return undefined;
      }
      events.push({
        kind: 'trades', channel: 'trades', symbol: this.symbols[symbol] as string, snapshot,
        exchangeTime: trades.length === 0 ? receivedAt : exchangeTime, receivedAt, trades,
      });
      if (!this.more()) return this.done() ? { t: receivedAt, books: NO_BOOKS, events } : undefined;
    }
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
        price = this.plainDecimalText();
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

  /** Past a `,` (true: another item follows) or not (false: the caller expects its closer). */
  private more(): boolean {
    if (this.peek() !== COMMA) return false;
    this.pos++;
    return true;
  }

  /** Past the `}` that closes an object. */
  private done(): boolean {
    return this.next() === CLOSE_BRACE;
  }
}

/** True when `items` has one for `symbol` (JSON.parse would keep only the last of repeated keys: such lines go the general way). */
function named(items: readonly { readonly symbol: string }[], symbol: string): boolean {
  for (let i = 0; i < items.length; i++) if ((items[i] as { readonly symbol: string }).symbol === symbol) return true;
  return false;
}
