import type { ScaledOrderBookFrame } from '../../framework/exchange/book/order-book-frame.js';
import type { DecimalString } from '../../framework/model/decimal.js';
import { CANDLE_PERIODS, type CandlePeriod } from '../../framework/model/resources/candle.js';
import type { CandlesEvent } from '../../framework/model/stream/market-events.js';
import type { CandleTick } from '../../framework/model/stream/market-records.js';
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, JsonByteScanner, OPEN_BRACE, OPEN_BRACKET, DecimalTextCache, ascii, named } from '../../framework/model/json-byte-scanner.js';

/** A `candles/{period}` line the decoder took: the frame's local time and its candle events (one per symbol). */
export interface DecodedCandleLine {
  /** The frame's `t` (local receive time, UNIX ms), the same double `JSON.parse` gives. */
  readonly t: number;
  readonly src: 'ws/public';
  readonly books: readonly ScaledOrderBookFrame[];
  readonly events: readonly CandlesEvent[];
}

const FRAME_START = ascii('{"t":');
const CANDLES_CHANNEL = ascii(',"src":"ws/public","msg":{"ch":"candles/');
const SNAPSHOT_KEY = ascii(',"snapshot":{');
const UPDATE_KEY = ascii(',"update":{');
const PERIOD_NAMES = CANDLE_PERIODS.map(ascii);
const CHANNELS = CANDLE_PERIODS.map((period) => `candles/${period}`);
const NO_BOOKS: readonly ScaledOrderBookFrame[] = Object.freeze([]);
/** Candle keys: t, o, c, h, l, v, q. */
const KEY_T = 0x74;
const KEY_O = 0x6f;
const KEY_C = 0x63;
const KEY_H = 0x68;
const KEY_L = 0x6c;
const KEY_V = 0x76;
const KEY_Q = 0x71;

/**
 * Decodes the public `candles/{period}` lines of a recording straight from the gunzipped bytes
 * into the {@link CandlesEvent}s the live parser builds (`parseMarketNotification`): no JSON.parse,
 * no intermediate objects. A candle recording is nearly all such lines, one a minute per symbol.
 *
 * It takes only the canonical layout the recorder writes (`{"t":..,"src":"ws/public","msg":{"ch":
 * "candles/P","snapshot"|"update":{SYMBOL:[{..},..],..}}}`, the seven keys of a candle in any order,
 * no whitespace), for the symbols it was given, with every value a plain unsigned decimal and times
 * plain integers. Anything else answers `undefined` and the caller parses the line the general
 * way, which validates and reports as for any frame. So a line the decoder takes yields what the
 * general parser would make of it, only faster; it never refuses a line the general parser
 * accepts or accepts one it refuses. (The book and trade lines have their decoder in
 * market-line-decoder.ts.)
 */
export class CandleLineDecoder extends JsonByteScanner {
  private readonly names: readonly Uint8Array[];
  private readonly symbols: readonly string[];
  /** The last candle's decimal texts, per key (a volume often repeats, a price sometimes). */
  private readonly lastOpen = new DecimalTextCache();
  private readonly lastClose = new DecimalTextCache();
  private readonly lastHigh = new DecimalTextCache();
  private readonly lastLow = new DecimalTextCache();
  private readonly lastVolume = new DecimalTextCache();
  private readonly lastVolumeQuote = new DecimalTextCache();

  /** `symbols`: those whose candle lines to decode. */
  constructor(symbols: Iterable<string>) {
    super();
    this.symbols = [...symbols];
    this.names = this.symbols.map(ascii);
  }

  /** Decodes `bytes[start, end)` (one line, without its `\n`); `undefined` when the line is not one the decoder takes. */
  decode(bytes: Buffer, start: number, end: number): DecodedCandleLine | undefined {
    this.reset(bytes, start, end);
    if (!this.literal(FRAME_START)) return undefined;
    const timeStart = this.pos;
    if (!this.skipJsonNumber()) return undefined;
    const timeEnd = this.pos;
    if (!this.literal(CANDLES_CHANNEL)) return undefined;
    const period = this.quotedNameRest(PERIOD_NAMES);
    if (period < 0) return undefined;
    let snapshot: boolean;
    if (this.literal(UPDATE_KEY)) snapshot = false;
    else if (this.literal(SNAPSHOT_KEY)) snapshot = true;
    else return undefined;
    const t = this.numberBetween(timeStart, timeEnd);
    const first = this.candlesOf(period, snapshot, t);
    if (first === undefined) return undefined;
    const events: CandlesEvent[] = [first];
    // Several symbols in one frame: rare.
    while (this.more()) {
      const event = this.candlesOf(period, snapshot, t);
      if (event === undefined || named(events, event.symbol)) return undefined;
      events.push(event);
    }
    // The payload's `}`, then those of msg and the frame.
    if (this.next() !== CLOSE_BRACE || this.next() !== CLOSE_BRACE || this.next() !== CLOSE_BRACE || !this.atEnd()) return undefined;
    return { t, src: 'ws/public', books: NO_BOOKS, events };
  }

  /** `SYMBOL:[{candle},...]`, as the live parser's event. */
  private candlesOf(period: number, snapshot: boolean, receivedAt: number): CandlesEvent | undefined {
    const symbol = this.quotedName(this.names);
    if (symbol < 0 || this.next() !== COLON || this.next() !== OPEN_BRACKET) return undefined;
    const candles: CandleTick[] = [];
    let exchangeTime = receivedAt;
    if (this.peek() === CLOSE_BRACKET) {
      this.pos++;
    } else {
      exchangeTime = Number.NEGATIVE_INFINITY;
      do {
        const candle = this.candle();
        if (candle === undefined) return undefined;
        candles.push(candle);
        if (candle.timestamp > exchangeTime) exchangeTime = candle.timestamp;
      } while (this.more());
      if (this.next() !== CLOSE_BRACKET) return undefined;
    }
    return {
      kind: 'candles', channel: CHANNELS[period]!, symbol: this.symbols[symbol]!, snapshot, exchangeTime, receivedAt,
      period: CANDLE_PERIODS[period] as CandlePeriod, candles,
    };
  }

  /** `{"t":..,"o":"..","c":"..","h":"..","l":"..","v":"..","q":".."}`, keys in any order, all required. */
  private candle(): CandleTick | undefined {
    if (this.next() !== OPEN_BRACE) return undefined;
    let timestamp = -1;
    let open: string | undefined;
    let close: string | undefined;
    let high: string | undefined;
    let low: string | undefined;
    let volume: string | undefined;
    let volumeQuote: string | undefined;
    do {
      const key = this.shortKey();
      if (key === KEY_T && timestamp < 0) {
        timestamp = this.unsignedInteger();
        if (timestamp < 0) return undefined;
      } else if (key === KEY_O && open === undefined) {
        if ((open = this.cachedDecimalText(this.lastOpen)) === undefined) return undefined;
      } else if (key === KEY_C && close === undefined) {
        if ((close = this.cachedDecimalText(this.lastClose)) === undefined) return undefined;
      } else if (key === KEY_H && high === undefined) {
        if ((high = this.cachedDecimalText(this.lastHigh)) === undefined) return undefined;
      } else if (key === KEY_L && low === undefined) {
        if ((low = this.cachedDecimalText(this.lastLow)) === undefined) return undefined;
      } else if (key === KEY_V && volume === undefined) {
        if ((volume = this.cachedDecimalText(this.lastVolume)) === undefined) return undefined;
      } else if (key === KEY_Q && volumeQuote === undefined) {
        if ((volumeQuote = this.cachedDecimalText(this.lastVolumeQuote)) === undefined) return undefined;
      } else {
        return undefined;
      }
    } while (this.more());
    if (this.next() !== CLOSE_BRACE || timestamp < 0 || open === undefined || close === undefined || high === undefined
      || low === undefined || volume === undefined || volumeQuote === undefined) return undefined;
    return {
      timestamp, open: open as DecimalString, close: close as DecimalString, high: high as DecimalString, low: low as DecimalString,
      volume: volume as DecimalString, volumeQuote: volumeQuote as DecimalString,
    };
  }
}
