import {
  CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, JsonByteScanner, OPEN_BRACE, OPEN_BRACKET, QUOTE, ascii, named, scaledValue, scaledValueEnd,
} from '../../model/json-byte-scanner.js';
import type { ScaledOrderBookFrame } from './order-book-frame.js';

/** The decimals a symbol's book values are scaled to (its instrument's tick and increment decimals). */
export interface BookScales {
  readonly priceScale: number;
  readonly quantityScale: number;
}

/** `{"ch":"orderbook/full","`: how every book message the exchange sends starts. */
export const BOOK_MESSAGE_START = ascii('{"ch":"orderbook/full","');
const SNAPSHOT_KEY = ascii('snapshot":{');
const UPDATE_KEY = ascii('update":{');
const NO_LEVELS: readonly number[] = Object.freeze([]);
/** A key JSON.parse may list before all others (an array index): its frames could come out in another order. */
const INDEX_KEY = /^(0|[1-9][0-9]*)$/;

/**
 * Decodes `orderbook/full` messages (`{"ch":"orderbook/full","snapshot"|"update":{SYMBOL:{"t":..,
 * "s":..,"a":[[p,q],..],"b":[..]},..}}`) straight from their bytes into {@link ScaledOrderBookFrame}s
 * at each symbol's scales: no `JSON.parse`, no level texts, no second parse of every level in the
 * book that applies it. The live socket hands it each raw message of the public stream; a
 * replay's line decoder reads the message inside each recording line with it.
 *
 * It takes only what it can decode exactly: the layout the exchange writes (no whitespace; keys
 * inside a book entry in any order, `a` and `b` optional), the symbols it was given scales for,
 * `t` and `s` plain integers, every price and quantity a plain decimal (`digits` or
 * `digits.digits`) that is a safe integer at the scales (decimals beyond a scale must be zeros).
 * Anything else answers `undefined`, and the caller parses the message the general way
 * (`JSON.parse` and `parseOrderBookFrames`), which validates, reports, re-scales or keeps values
 * beyond 2^53 exactly, as for any message. So a message the decoder takes yields the frames the
 * general parser would make of it, only faster; it never refuses one the general parser accepts
 * or accepts one it refuses.
 *
 * The level loop, run for nearly every byte of a depth stream, reads with local variables rather
 * than through the scanner's cursor, and lists are built at their final size (a message of one
 * book allocates no spare capacity). One decoder is not reentrant: it keeps its cursor and a
 * scratch list between calls.
 */
export class OrderBookMessageDecoder extends JsonByteScanner {
  /** The symbols decoded, and their names as bytes, in the same order as {@link scales}. */
  protected readonly symbols: readonly string[];
  private readonly names: readonly Uint8Array[];
  private readonly scales: readonly BookScales[];
  private readonly scratch: number[] = [];

  /** `scales`: the symbols whose messages to decode, with their scales. */
  constructor(scales: ReadonlyMap<string, BookScales>) {
    super();
    const known = [...scales].filter(([symbol]) => !INDEX_KEY.test(symbol));
    this.symbols = known.map(([symbol]) => symbol);
    this.names = this.symbols.map(ascii);
    this.scales = known.map(([, bookScales]) => bookScales);
  }

  /**
   * The frames of the message `bytes[start, end)` (one per symbol, in the message's order), each
   * stamped `receivedAt`; `undefined` when the message is not one the decoder takes.
   */
  decodeMessage(bytes: Buffer, start: number, end: number, receivedAt: number): readonly ScaledOrderBookFrame[] | undefined {
    this.reset(bytes, start, end);
    if (!this.literal(BOOK_MESSAGE_START)) return undefined;
    const books = this.bookMessageRest(receivedAt);
    return books !== undefined && this.atEnd() ? books : undefined;
  }

  /**
   * The rest of a book message whose {@link BOOK_MESSAGE_START} was read: `snapshot"|"update":{
   * SYMBOL:{..},..}}`, through the message's closing brace.
   */
  protected bookMessageRest(receivedAt: number): readonly ScaledOrderBookFrame[] | undefined {
    let snapshot: boolean;
    if (this.literal(UPDATE_KEY)) snapshot = false;
    else if (this.literal(SNAPSHOT_KEY)) snapshot = true;
    else return undefined;
    const first = this.bookOf(snapshot, receivedAt);
    if (first === undefined) return undefined;
    const books = [first];
    // Several symbols in one message: rare.
    while (this.more()) {
      const entry = this.bookOf(snapshot, receivedAt);
      if (entry === undefined || named(books, entry.symbol)) return undefined;
      books.push(entry);
    }
    // The payload's `}`, then the message's.
    return this.done() && this.done() ? books : undefined;
  }

  /** `"SYMBOL":` of a known symbol: its index, or -1. */
  protected symbolKey(): number {
    const symbol = this.quotedName(this.names);
    return symbol >= 0 && this.skip(COLON) ? symbol : -1;
  }

  /** Past the `}` that closes an object. */
  protected done(): boolean {
    return this.skip(CLOSE_BRACE);
  }

  /** `SYMBOL:{...}` of a book message. */
  private bookOf(snapshot: boolean, receivedAt: number): ScaledOrderBookFrame | undefined {
    const symbol = this.symbolKey();
    if (symbol < 0 || !this.skip(OPEN_BRACE)) return undefined;
    return this.bookEntry(symbol, snapshot, receivedAt);
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
   * is a plain decimal that is a safe integer at the scales (see scaledValue).
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
    return count === 2 ? [scratch[0] as number, scratch[1] as number] : scratch.slice(0, count);
  }
}
