import type { ScaledOrderBookFrame } from '../../framework/exchange/book/order-book-frame.js';

/** The decimals a symbol's book values are scaled to (its instrument's tick and increment decimals). */
export interface BookScales {
  readonly priceScale: number;
  readonly quantityScale: number;
}

/** A recording line the decoder took: the frame's local time and its books. */
export interface DecodedBookLine {
  /** The frame's `t` (local receive time, UNIX ms), the same double `JSON.parse` gives. */
  readonly t: number;
  readonly books: ScaledOrderBookFrame[];
}

const MAX_EXACT = Number.MAX_SAFE_INTEGER;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const CR = 0x0d;

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const FRAME_START = ascii('{"t":');
const BOOK_MSG = ascii(',"src":"ws/public","msg":{"ch":"orderbook/full","');
const SNAPSHOT_KEY = ascii('snapshot":{');
const UPDATE_KEY = ascii('update":{');

/** A symbol the decoder knows: its name as bytes and as text, and its scales. */
interface KnownSymbol {
  readonly bytes: Uint8Array;
  readonly name: string;
  readonly scales: BookScales;
}

/**
 * Decodes recording lines holding an `orderbook/full` frame of the public stream straight from the
 * gunzipped bytes into {@link ScaledOrderBookFrame}s: no JSON.parse, no level texts, no second
 * parse of every level by each book that applies it. Book frames are most of a depth recording's
 * bytes, and building their level arrays and strings is most of what reading it costs.
 *
 * The decoder takes only the canonical layout the recorder writes (`{"t":..,"src":"ws/public",
 * "msg":{"ch":"orderbook/full","snapshot"|"update":{SYMBOL:{"t":..,"s":..,"a":[..],"b":[..]}}}}`,
 * entry keys in any order, no whitespace) for symbols it was given scales for, with every price
 * and quantity a plain decimal that is a safe integer at those scales. Anything else (another
 * layout, whitespace, escapes, numbers as levels, finer decimals, huge values, unknown symbols,
 * duplicate keys, non-integer times) answers `undefined`, and the caller parses the line the
 * general way, which then validates, reports or re-scales exactly as for any frame. So a line the
 * decoder takes yields the same frames the general parser would, only faster; it never rejects a
 * line the general parser would accept or accepts one it would reject.
 */
export class BookLineDecoder {
  private readonly symbols: readonly KnownSymbol[];
  private bytes: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private end = 0;

  /** `scales`: the symbols whose book lines to decode, with their scales. */
  constructor(scales: ReadonlyMap<string, BookScales>) {
    this.symbols = [...scales].map(([name, s]) => ({ bytes: ascii(name), name, scales: s }));
  }

  /** Decodes `bytes[start, end)` (one line, without its `\n`); `undefined` when the line is not one the decoder takes. */
  decode(bytes: Uint8Array, start: number, end: number): DecodedBookLine | undefined {
    this.bytes = bytes;
    this.pos = start;
    this.end = end > start && bytes[end - 1] === CR ? end - 1 : end;
    if (!this.literal(FRAME_START)) return undefined;
    const timeStart = this.pos;
    // Most other lines are trades: tell them apart before converting the time.
    if (!this.skipJsonNumber() || !this.literal(BOOK_MSG)) return undefined;
    const t = numberOf(bytes, timeStart, this.pos - BOOK_MSG.length);
    let snapshot: boolean;
    if (this.literal(SNAPSHOT_KEY)) snapshot = true;
    else if (this.literal(UPDATE_KEY)) snapshot = false;
    else return undefined;
    const books: ScaledOrderBookFrame[] = [];
    for (;;) {
      const book = this.entry(snapshot, t, books);
      if (book === undefined) return undefined;
      books.push(book);
      const next = this.next();
      if (next === COMMA) continue;
      if (next !== CLOSE_BRACE) return undefined;
      break;
    }
    // The payload's `}` was read: what remains closes msg and the frame.
    if (this.next() !== CLOSE_BRACE || this.next() !== CLOSE_BRACE || this.pos !== this.end) return undefined;
    return { t, books };
  }

  /** `"SYMBOL":{...}`; undefined for an unknown or repeated symbol or any entry it does not take. */
  private entry(snapshot: boolean, receivedAt: number, before: readonly ScaledOrderBookFrame[]): ScaledOrderBookFrame | undefined {
    if (this.next() !== QUOTE) return undefined;
    const symbol = this.symbol();
    if (symbol === undefined || this.next() !== COLON || this.next() !== OPEN_BRACE) return undefined;
    for (const book of before) if (book.symbol === symbol.name) return undefined;
    let exchangeTime = -1;
    let sequence = -1;
    let askLevels: number[] | undefined;
    let bidLevels: number[] | undefined;
    for (;;) {
      if (this.next() !== QUOTE) return undefined;
      const key = this.next();
      if (this.next() !== QUOTE || this.next() !== COLON) return undefined;
      if (key === 0x74 && exchangeTime < 0) { // t
        exchangeTime = this.unsignedInteger();
        if (exchangeTime < 0) return undefined;
      } else if (key === 0x73 && sequence < 0) { // s
        sequence = this.unsignedInteger();
        if (sequence < 0) return undefined;
      } else if (key === 0x61 && askLevels === undefined) { // a
        askLevels = this.levels(symbol.scales);
        if (askLevels === undefined) return undefined;
      } else if (key === 0x62 && bidLevels === undefined) { // b
        bidLevels = this.levels(symbol.scales);
        if (bidLevels === undefined) return undefined;
      } else {
        return undefined;
      }
      const next = this.next();
      if (next === COMMA) continue;
      if (next !== CLOSE_BRACE) return undefined;
      break;
    }
    if (exchangeTime < 0 || sequence < 0) return undefined;
    return {
      symbol: symbol.name, sequence, exchangeTime, receivedAt, snapshot,
      priceScale: symbol.scales.priceScale, quantityScale: symbol.scales.quantityScale,
      askLevels: askLevels ?? [], bidLevels: bidLevels ?? [],
    };
  }

  /** The known symbol whose name follows, up to and including its closing quote. */
  private symbol(): KnownSymbol | undefined {
    const bytes = this.bytes;
    const start = this.pos;
    let close = start;
    while (close < this.end && bytes[close] !== QUOTE) close++;
    if (close >= this.end) return undefined;
    this.pos = close + 1;
    const length = close - start;
    outer: for (const known of this.symbols) {
      if (known.bytes.length !== length) continue;
      for (let i = 0; i < length; i++) if (known.bytes[i] !== bytes[start + i]) continue outer;
      return known;
    }
    return undefined;
  }

  /**
   * `[["price","quantity"],...]` as `[price, quantity, ...]` scaled; undefined when a level is not
   * a plain decimal that is a safe integer at the scales.
   */
  private levels(scales: BookScales): number[] | undefined {
    const out: number[] = [];
    if (this.next() !== OPEN_BRACKET) return undefined;
    if (this.peek() === CLOSE_BRACKET) {
      this.pos++;
      return out;
    }
    for (;;) {
      if (this.next() !== OPEN_BRACKET || this.next() !== QUOTE) return undefined;
      const price = this.decimal(scales.priceScale);
      if (price < 0 || this.next() !== COMMA || this.next() !== QUOTE) return undefined;
      const quantity = this.decimal(scales.quantityScale);
      if (quantity < 0 || this.next() !== CLOSE_BRACKET) return undefined;
      out.push(price, quantity);
      const next = this.next();
      if (next === COMMA) continue;
      if (next !== CLOSE_BRACKET) return undefined;
      return out;
    }
  }

  /**
   * A quoted plain decimal (`digits` or `digits.digits`, after the opening quote, through the
   * closing one) times 10^scale; -1 unless that is an exact safe integer. Decimals beyond the
   * scale must be zeros (and are not accumulated, so padding never overflows); while the sum stays
   * below 2^53 every step was exact, and the range test at the end covers the whole value.
   */
  private decimal(scale: number): number {
    const bytes = this.bytes;
    const end = this.end;
    let pos = this.pos;
    let n = 0;
    let digits = 0;
    let c = 0;
    while (pos < end) {
      c = bytes[pos++] as number;
      if (c < ZERO || c > NINE) break;
      n = n * 10 + (c - ZERO);
      digits++;
    }
    if (digits === 0) return -1;
    let decimals = 0;
    if (c === DOT) {
      let fraction = 0;
      while (pos < end) {
        c = bytes[pos++] as number;
        if (c < ZERO || c > NINE) break;
        fraction++;
        if (decimals < scale) {
          n = n * 10 + (c - ZERO);
          decimals++;
        } else if (c !== ZERO) {
          return -1;
        }
      }
      if (fraction === 0) return -1;
    }
    this.pos = pos;
    if (c !== QUOTE || n > MAX_EXACT) return -1;
    if (decimals === scale) return n;
    const scaled = n * (POW10[scale - decimals] as number);
    return scaled <= MAX_EXACT ? scaled : -1;
  }

  /** A JSON integer of digits only (no sign, fraction or exponent), at most 15 digits; -1 otherwise. */
  private unsignedInteger(): number {
    const bytes = this.bytes;
    let pos = this.pos;
    let n = 0;
    let digits = 0;
    while (pos < this.end) {
      const c = bytes[pos] as number;
      if (c < ZERO || c > NINE) break;
      n = n * 10 + (c - ZERO);
      digits++;
      pos++;
    }
    this.pos = pos;
    // JSON forbids leading zeros ("01"); 15 digits keep every value exact.
    if (digits === 0 || digits > 15 || (digits > 1 && bytes[pos - digits] === ZERO)) return -1;
    return n;
  }

  /**
   * Past a JSON number in strict grammar (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`);
   * false when none follows.
   */
  private skipJsonNumber(): boolean {
    const bytes = this.bytes;
    const end = this.end;
    const at = (i: number): number => (i < end ? (bytes[i] as number) : -1);
    let pos = this.pos;
    if (at(pos) === 0x2d) pos++;
    if (at(pos) === ZERO) {
      pos++;
    } else {
      if (!isDigit(at(pos))) return false;
      while (isDigit(at(pos))) pos++;
    }
    if (at(pos) === DOT) {
      if (!isDigit(at(++pos))) return false;
      while (isDigit(at(pos))) pos++;
    }
    if (at(pos) === 0x65 || at(pos) === 0x45) {
      pos++;
      if (at(pos) === 0x2b || at(pos) === 0x2d) pos++;
      if (!isDigit(at(pos))) return false;
      while (isDigit(at(pos))) pos++;
    }
    this.pos = pos;
    return true;
  }

  /** True (and past it) when `expected` follows. */
  private literal(expected: Uint8Array): boolean {
    const bytes = this.bytes;
    const pos = this.pos;
    if (pos + expected.length > this.end) return false;
    for (let i = 0; i < expected.length; i++) if (bytes[pos + i] !== expected[i]) return false;
    this.pos = pos + expected.length;
    return true;
  }

  /** The next byte (and past it); -1 at the end of the line. */
  private next(): number {
    return this.pos < this.end ? (this.bytes[this.pos++] as number) : -1;
  }

  private peek(): number {
    return this.pos < this.end ? (this.bytes[this.pos] as number) : -1;
  }
}

/** The JSON number `bytes[start, end)` (grammar checked), converted by the engine's own parser so the double is JSON.parse's. */
function numberOf(bytes: Uint8Array, start: number, end: number): number {
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i] as number);
  return Number(text);
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}
