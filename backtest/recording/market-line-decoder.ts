import { BOOK_MESSAGE_START, OrderBookMessageDecoder } from '../../framework/exchange/book/order-book-message-decoder.js';
import type { ScaledOrderBookFrame } from '../../framework/exchange/book/order-book-frame.js';
import type { DecimalString } from '../../framework/model/decimal.js';
import { CLOSE_BRACKET, OPEN_BRACKET, OPEN_BRACE, DecimalTextCache, ascii, named } from '../../framework/model/json-byte-scanner.js';
import type { TradeTick } from '../../framework/model/stream/market-records.js';
import type { TradesEvent } from '../../framework/model/stream/market-events.js';

export type { BookScales } from '../../framework/exchange/book/order-book-message-decoder.js';

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
const PUBLIC_MSG = ascii(',"src":"ws/public","msg":');
const TRADES_START = ascii('{"ch":"trades","');
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
 * the book message inside a line goes through the live socket's {@link OrderBookMessageDecoder}
 * (levels as scaled integers, see {@link ScaledOrderBookFrame}), and trades become the
 * {@link TradesEvent} the live parser builds. No JSON.parse, no intermediate objects.
 *
 * It takes only the canonical layout the recorder writes (`{"t":..,"src":"ws/public","msg":MSG}`,
 * the socket message verbatim as MSG: `{"ch":..,"snapshot"|"update":{SYMBOL:..}}`, keys inside a
 * book entry or a trade in any order, no whitespace), for the symbols it was given scales for,
 * with every price and quantity a plain decimal (a safe integer at the scales, for books) and
 * times and ids plain integers. Anything else answers `undefined` and the caller parses the line
 * the general way, which then validates, reports or re-scales as for any frame. So a line the
 * decoder takes yields what the general parser would make of it, only faster; it never refuses a
 * line the general parser accepts or accepts one it refuses.
 */
export class MarketLineDecoder extends OrderBookMessageDecoder {
  /** The last trade price text, as bytes and as the string handed out. */
  private readonly lastPrice = new DecimalTextCache();

  /** Decodes the line `bytes[start, end)` (without its `\n`); `undefined` when the line is not one the decoder takes. */
  decode(bytes: Buffer, start: number, end: number): DecodedMarketLine | undefined {
    this.reset(bytes, start, end);
    if (!this.literal(FRAME_START)) return undefined;
    const timeStart = this.pos;
    if (!this.skipJsonNumber()) return undefined;
    const timeEnd = this.pos;
    if (!this.literal(PUBLIC_MSG)) return undefined;
    let decoded: DecodedMarketLine | undefined;
    if (this.literal(BOOK_MESSAGE_START)) {
      const t = this.numberBetween(timeStart, timeEnd);
      const books = this.bookMessageRest(t);
      decoded = books === undefined ? undefined : { t, src: 'ws/public', books, events: NO_TRADES };
    } else if (this.literal(TRADES_START)) {
      let snapshot: boolean;
      if (this.literal(UPDATE_KEY)) snapshot = false;
      else if (this.literal(SNAPSHOT_KEY)) snapshot = true;
      else return undefined;
      decoded = this.tradesPayload(snapshot, this.numberBetween(timeStart, timeEnd));
      // The payload's `}` was read: the message's follows.
      if (!this.done()) return undefined;
    }
    // What remains closes the frame.
    return decoded !== undefined && this.done() && this.atEnd() ? decoded : undefined;
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
}
