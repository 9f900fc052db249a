import type { ScaledOrderBookFrame } from '../../framework/exchange/book/order-book-frame.js';
import type { DecimalString } from '../../framework/model/decimal.js';
import { CANDLE_PERIODS } from '../../framework/model/resources/candle.js';
import type { CandleTick, TradeTick } from '../../framework/model/stream/market-records.js';
import type { CandlesEvent, TradesEvent } from '../../framework/model/stream/market-events.js';
import { latin1Text } from './line-scanner.js';
import { NO_BOOKS, NO_LEVELS, NO_TRADES, type BookScales } from './market-line-decoder.js';
import type { StreamBreak } from './recording-chunks.js';

/** What a tape says of a line (or of a place between lines), the first number of its record. */
export const TAPE_RAW = 0;
export const TAPE_EMPTY = 1;
export const TAPE_BOOKS = 2;
export const TAPE_TRADES = 3;
export const TAPE_BATCH_END = 4;
export const TAPE_CANDLES = 5;

/**
 * A line a decoder took: the frame's local time and what it holds, books, trades or candles (the
 * other lists empty), as the market-line and candle-line decoders build it.
 */
export interface DecodedLine {
  readonly t: number;
  readonly src: 'ws/public';
  readonly books: readonly ScaledOrderBookFrame[];
  readonly events: readonly (TradesEvent | CandlesEvent)[];
}

const CANDLE_CHANNELS = CANDLE_PERIODS.map((period) => `candles/${period}`);

/**
 * The lines of one chunk of a recording, split and (where the market-line decoder took them)
 * decoded, in a form that crosses threads without copying: numbers in one Float64Array, the bytes
 * of raw lines and of trade texts in one Uint8Array. Records, in line order:
 * - `RAW start end`: a line left to the general parser (its bytes `[start, end)`, `\r` dropped);
 * - `EMPTY`: an empty line;
 * - `BOOKS t count` then per book `symbol sequence exchangeTime snapshot asks bids` and its
 *   `asks + bids` scaled values;
 * - `TRADES t count` then per event `symbol snapshot exchangeTime trades` and per trade
 *   `timestamp side idStart idEnd priceStart priceEnd quantityStart quantityEnd`;
 * - `CANDLES t count` then per event `symbol period snapshot exchangeTime candles` and per candle
 *   `timestamp` and the start and end of its open, close, high, low, volume and quote volume texts;
 * - `BATCH_END`: about 64 KiB of lines since the previous one (a replay hands a batch over there).
 * Symbols are indexes into the decoder's scales, in their order. Doubles carry every time,
 * sequence and scaled value exactly (each is one a decoded line holds as a number already).
 */
export interface LineTape {
  /** The writer's buffer pair the tape is in; given back with {@link LineTapeWriter.release} once read. */
  readonly slot: number;
  /** True when the slot's buffers are new since the slot's last tape (a reader on another thread has not seen them). */
  readonly freshBuffers: boolean;
  /** Lines on the tape, and how many of them are decoded. */
  readonly lines: number;
  readonly decodedLines: number;
  readonly numbers: Float64Array;
  readonly numberCount: number;
  readonly bytes: Uint8Array;
  readonly byteCount: number;
  /** Compressed bytes read from the file since the previous tape. */
  readonly bytesRead: number;
  /** On the last tape: the end of the data, and where the gzip stream broke if it did. */
  readonly end?: { readonly broken?: StreamBreak };
}

/**
 * Writes the records of a {@link LineTape}. Tapes are written in a few buffer pairs (slots) used
 * in turn: a tape's slot comes back ({@link release}) once it is read, and its buffers are written
 * again (buffers outside the heap are freed only when the collector finds their wrappers dead, so
 * a new pair a tape would pile up until a full collection; a recording's tapes are about 0.7x its
 * gunzipped size). A slot's buffers grow as a tape needs.
 */
export class LineTapeWriter {
  private readonly slotNumbers: Float64Array[] = [];
  private readonly slotBytes: Uint8Array[] = [];
  private readonly fresh: boolean[] = [];
  private readonly free: number[] = [];
  private slot: number;
  private numbers: Float64Array;
  private count = 0;
  private bytes: Uint8Array;
  private byteCount = 0;
  private lines = 0;
  private decodedLines = 0;
  private readonly symbolIndex: ReadonlyMap<string, number>;

  /**
   * `symbols`: the decoder's symbols, in the order of its scales. `shared`: buffers in shared
   * memory, for a reader on another thread (a tape then crosses without a copy or a transfer:
   * transferring detaches the buffer, and a detach may wait for the collector's background sweep
   * of array buffers, which cost the replay's thread milliseconds a tape on a busy machine).
   */
  constructor(symbols: readonly string[], private readonly shared = false) {
    this.symbolIndex = new Map(symbols.map((symbol, index) => [symbol, index]));
    this.slot = this.newSlot();
    this.numbers = this.slotNumbers[this.slot] as Float64Array;
    this.bytes = this.slotBytes[this.slot] as Uint8Array;
  }

  /** Slots handed out and not given back, the one being written included. */
  get slotsOut(): number {
    return this.slotNumbers.length - this.free.length;
  }

  /** The tape written so far; the writer goes on in a slot given back, or in a new one. */
  take(bytesRead: number, end?: LineTape['end']): LineTape {
    const slot = this.slot;
    this.slotNumbers[slot] = this.numbers;
    this.slotBytes[slot] = this.bytes;
    const tape: LineTape = {
      slot, freshBuffers: this.fresh[slot] as boolean, lines: this.lines, decodedLines: this.decodedLines,
      numbers: this.numbers, numberCount: this.count, bytes: this.bytes, byteCount: this.byteCount, bytesRead, end,
    };
    this.fresh[slot] = false;
    this.slot = this.free.pop() ?? this.newSlot();
    this.numbers = this.slotNumbers[this.slot] as Float64Array;
    this.bytes = this.slotBytes[this.slot] as Uint8Array;
    this.count = 0;
    this.byteCount = 0;
    this.lines = 0;
    this.decodedLines = 0;
    return tape;
  }

  /** Gives back the slot of a tape that was read to its end. */
  release(slot: number): void {
    this.free.push(slot);
  }

  raw(source: Uint8Array, start: number, end: number): void {
    const at = this.text(source, start, end);
    this.push3(TAPE_RAW, at, at + end - start);
    this.lines++;
  }

  empty(): void {
    this.room(1);
    this.numbers[this.count++] = TAPE_EMPTY;
    this.lines++;
  }

  batchEnd(): void {
    this.room(1);
    this.numbers[this.count++] = TAPE_BATCH_END;
  }

  decoded(line: DecodedLine): void {
    this.lines++;
    this.decodedLines++;
    if (line.books.length > 0) {
      this.push3(TAPE_BOOKS, line.t, line.books.length);
      for (const book of line.books) this.book(book);
    } else if (line.events[0]?.kind === 'candles') {
      this.push3(TAPE_CANDLES, line.t, line.events.length);
      for (const event of line.events) this.candles(event as CandlesEvent);
    } else {
      this.push3(TAPE_TRADES, line.t, line.events.length);
      for (const event of line.events) this.trades(event as TradesEvent);
    }
  }

  private book(book: ScaledOrderBookFrame): void {
    const asks = book.askLevels;
    const bids = book.bidLevels;
    this.room(6 + asks.length + bids.length);
    const n = this.numbers;
    let at = this.count;
    n[at++] = this.symbol(book.symbol);
    n[at++] = book.sequence;
    n[at++] = book.exchangeTime;
    n[at++] = book.snapshot ? 1 : 0;
    n[at++] = asks.length;
    n[at++] = bids.length;
    for (let i = 0; i < asks.length; i++) n[at++] = asks[i] as number;
    for (let i = 0; i < bids.length; i++) n[at++] = bids[i] as number;
    this.count = at;
  }

  private trades(event: TradesEvent): void {
    this.room(4);
    const n = this.numbers;
    n[this.count++] = this.symbol(event.symbol);
    n[this.count++] = event.snapshot ? 1 : 0;
    n[this.count++] = event.exchangeTime;
    n[this.count++] = event.trades.length;
    for (const trade of event.trades) {
      const id = this.ascii(trade.id);
      const price = this.ascii(trade.price);
      const quantity = this.ascii(trade.quantity);
      this.room(8);
      const m = this.numbers;
      let at = this.count;
      m[at++] = trade.timestamp;
      m[at++] = trade.side === 'buy' ? 0 : 1;
      m[at++] = id;
      m[at++] = id + trade.id.length;
      m[at++] = price;
      m[at++] = price + trade.price.length;
      m[at++] = quantity;
      m[at++] = quantity + trade.quantity.length;
      this.count = at;
    }
  }

  private candles(event: CandlesEvent): void {
    this.room(5);
    const n = this.numbers;
    n[this.count++] = this.symbol(event.symbol);
    n[this.count++] = CANDLE_PERIODS.indexOf(event.period);
    n[this.count++] = event.snapshot ? 1 : 0;
    n[this.count++] = event.exchangeTime;
    n[this.count++] = event.candles.length;
    for (const candle of event.candles) {
      const texts = [candle.open, candle.close, candle.high, candle.low, candle.volume, candle.volumeQuote];
      this.room(13);
      this.numbers[this.count++] = candle.timestamp;
      for (const text of texts) {
        const at = this.ascii(text);
        this.numbers[this.count++] = at;
        this.numbers[this.count++] = at + text.length;
      }
    }
  }

  private symbol(symbol: string): number {
    const index = this.symbolIndex.get(symbol);
    if (index === undefined) throw new Error(`line tape: the decoder gave a symbol it was not given scales for: ${symbol}`);
    return index;
  }

  private push3(a: number, b: number, c: number): void {
    this.room(3);
    const n = this.numbers;
    n[this.count] = a;
    n[this.count + 1] = b;
    n[this.count + 2] = c;
    this.count += 3;
  }

  /** Copies `source[start, end)` in; its offset. */
  private text(source: Uint8Array, start: number, end: number): number {
    const at = this.byteRoom(end - start);
    this.bytes.set(source.subarray(start, end), at);
    this.byteCount = at + end - start;
    return at;
  }

  /** Copies an ASCII text (digits, a decimal) in; its offset. */
  private ascii(text: string): number {
    const at = this.byteRoom(text.length);
    const bytes = this.bytes;
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
    this.byteCount = at + text.length;
    return at;
  }

  private room(numbers: number): void {
    if (this.count + numbers <= this.numbers.length) return;
    const grown = this.newNumbers(Math.max(this.numbers.length * 2, this.count + numbers));
    grown.set(this.numbers.subarray(0, this.count));
    this.numbers = grown;
    this.fresh[this.slot] = true;
  }

  private newSlot(): number {
    const slot = this.slotNumbers.length;
    const numbers = this.slotNumbers[0]?.length ?? 1 << 12;
    this.slotNumbers.push(this.newNumbers(numbers));
    this.slotBytes.push(this.newBytes(this.slotBytes[0]?.length ?? 1 << 12));
    this.fresh.push(true);
    return slot;
  }

  private newNumbers(length: number): Float64Array {
    return this.shared ? new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT)) : new Float64Array(length);
  }

  private newBytes(length: number): Uint8Array {
    return this.shared ? new Uint8Array(new SharedArrayBuffer(length)) : new Uint8Array(length);
  }

  private byteRoom(length: number): number {
    const at = this.byteCount;
    if (at + length > this.bytes.length) {
      const grown = this.newBytes(Math.max(this.bytes.length * 2, at + length));
      grown.set(this.bytes.subarray(0, at));
      this.bytes = grown;
      this.fresh[this.slot] = true;
    }
    return at;
  }
}

/**
 * Reads the records of a {@link LineTape} back: {@link next} steps to the next record and says its
 * kind; a raw line's bytes are then {@link rawStart}..{@link rawEnd} of {@link text}, and a decoded
 * one is {@link decodedLine}, the very objects the market-line decoder builds.
 */
export class LineTapeReader {
  /** The tape's bytes, as a Buffer over them. */
  text: Buffer = Buffer.alloc(0);
  rawStart = 0;
  rawEnd = 0;
  private numbers: Float64Array = new Float64Array(0);
  private count = 0;
  private at = 0;
  private kind = -1;
  private readonly scratch: number[] = [];
  private lastPriceStart = -1;
  private lastPriceEnd = -1;
  private lastPrice = '';
  /** The last text of each candle field (open, close, high, low, volume, quote volume): where it was on the tape, and its string. */
  private readonly candleTextStart = [-1, -1, -1, -1, -1, -1];
  private readonly candleTextEnd = [-1, -1, -1, -1, -1, -1];
  private readonly candleText = ['', '', '', '', '', ''];

  /** `symbols` and `scales`: the decoder's, in its order. */
  constructor(
    private readonly symbols: readonly string[],
    private readonly scales: readonly BookScales[],
  ) {}

  load(tape: LineTape): void {
    this.numbers = tape.numbers;
    this.count = tape.numberCount;
    this.text = Buffer.from(tape.bytes.buffer, tape.bytes.byteOffset, tape.byteCount);
    this.at = 0;
    this.lastPriceStart = -1;
    this.candleTextStart.fill(-1);
  }

  /** The next record's kind (`TAPE_*`); -1 past the last. A decoded line must be read ({@link decodedLine}) before the next. */
  next(): number {
    if (this.at >= this.count) return -1;
    const n = this.numbers;
    const kind = n[this.at++] as number;
    this.kind = kind;
    if (kind === TAPE_RAW) {
      this.rawStart = n[this.at++] as number;
      this.rawEnd = n[this.at++] as number;
    }
    return kind;
  }

  /** The decoded line of the current `BOOKS`, `TRADES` or `CANDLES` record. */
  decodedLine(): DecodedLine {
    const n = this.numbers;
    const t = n[this.at++] as number;
    const count = n[this.at++] as number;
    if (this.kind === TAPE_CANDLES) {
      if (count === 1) return { t, src: 'ws/public', books: NO_BOOKS, events: [this.candlesEvent(t)] };
      const events: CandlesEvent[] = [];
      for (let i = 0; i < count; i++) events.push(this.candlesEvent(t));
      return { t, src: 'ws/public', books: NO_BOOKS, events };
    }
    if (this.kind === TAPE_BOOKS) {
      if (count === 1) return { t, src: 'ws/public', books: [this.book(t)], events: NO_TRADES };
      const books: ScaledOrderBookFrame[] = [];
      for (let i = 0; i < count; i++) books.push(this.book(t));
      return { t, src: 'ws/public', books, events: NO_TRADES };
    }
    if (count === 1) return { t, src: 'ws/public', books: NO_BOOKS, events: [this.tradesEvent(t)] };
    const events: TradesEvent[] = [];
    for (let i = 0; i < count; i++) events.push(this.tradesEvent(t));
    return { t, src: 'ws/public', books: NO_BOOKS, events };
  }

  private book(receivedAt: number): ScaledOrderBookFrame {
    const n = this.numbers;
    const symbol = n[this.at] as number;
    const sequence = n[this.at + 1] as number;
    const exchangeTime = n[this.at + 2] as number;
    const snapshot = n[this.at + 3] === 1;
    const asks = n[this.at + 4] as number;
    const bids = n[this.at + 5] as number;
    this.at += 6;
    const scales = this.scales[symbol] as BookScales;
    const askLevels = this.levels(asks);
    const bidLevels = this.levels(bids);
    return {
      symbol: this.symbols[symbol] as string, sequence, exchangeTime, receivedAt, snapshot,
      priceScale: scales.priceScale, quantityScale: scales.quantityScale, askLevels, bidLevels,
    };
  }

  /** The next `count` values as a list of its exact size, built as the decoder builds it. */
  private levels(count: number): readonly number[] {
    if (count === 0) return NO_LEVELS;
    const n = this.numbers;
    const scratch = this.scratch;
    const from = this.at;
    for (let i = 0; i < count; i++) scratch[i] = n[from + i] as number;
    this.at = from + count;
    return scratch.slice(0, count);
  }

  private tradesEvent(receivedAt: number): TradesEvent {
    const n = this.numbers;
    const symbol = this.symbols[n[this.at] as number] as string;
    const snapshot = n[this.at + 1] === 1;
    const exchangeTime = n[this.at + 2] as number;
    const count = n[this.at + 3] as number;
    this.at += 4;
    const trades: TradeTick[] = [];
    for (let i = 0; i < count; i++) trades.push(this.trade());
    return { kind: 'trades', channel: 'trades', symbol, snapshot, exchangeTime, receivedAt, trades };
  }

  private trade(): TradeTick {
    const n = this.numbers;
    const at = this.at;
    const timestamp = n[at] as number;
    const side = n[at + 1] === 0 ? 'buy' : 'sell';
    // As the decoder: the id's digits through Buffer (no number-to-text cache), short decimals by hand.
    const id = this.text.toString('latin1', n[at + 2] as number, n[at + 3] as number);
    const price = this.price(n[at + 4] as number, n[at + 5] as number);
    const quantity = latin1Text(this.text, n[at + 6] as number, n[at + 7] as number);
    this.at = at + 8;
    return { timestamp, id, price: price as DecimalString, quantity: quantity as DecimalString, side };
  }

  private candlesEvent(receivedAt: number): CandlesEvent {
    const n = this.numbers;
    const symbol = this.symbols[n[this.at] as number] as string;
    const periodIndex = n[this.at + 1] as number;
    const snapshot = n[this.at + 2] === 1;
    const exchangeTime = n[this.at + 3] as number;
    const count = n[this.at + 4] as number;
    this.at += 5;
    const candles: CandleTick[] = [];
    for (let i = 0; i < count; i++) candles.push(this.candle());
    return {
      kind: 'candles', channel: CANDLE_CHANNELS[periodIndex] as string, symbol, snapshot, exchangeTime, receivedAt,
      period: CANDLE_PERIODS[periodIndex] as CandlesEvent['period'], candles,
    };
  }

  private candle(): CandleTick {
    const timestamp = this.numbers[this.at++] as number;
    const open = this.candleField(0);
    const close = this.candleField(1);
    const high = this.candleField(2);
    const low = this.candleField(3);
    const volume = this.candleField(4);
    const volumeQuote = this.candleField(5);
    return {
      timestamp, open: open as DecimalString, close: close as DecimalString, high: high as DecimalString, low: low as DecimalString,
      volume: volume as DecimalString, volumeQuote: volumeQuote as DecimalString,
    };
  }

  /** The next text of candle field `field`: the field's last string again when the bytes are the same (a volume often repeats, a price sometimes). */
  private candleField(field: number): string {
    const start = this.numbers[this.at] as number;
    const end = this.numbers[this.at + 1] as number;
    this.at += 2;
    const last = this.candleTextStart[field] as number;
    const length = end - start;
    if (last >= 0 && (this.candleTextEnd[field] as number) - last === length) {
      const text = this.text;
      let i = 0;
      while (i < length && text[last + i] === text[start + i]) i++;
      if (i === length) return this.candleText[field] as string;
    }
    const value = latin1Text(this.text, start, end);
    this.candleTextStart[field] = start;
    this.candleTextEnd[field] = end;
    this.candleText[field] = value;
    return value;
  }

  /** A trade's price text: the last one's string again when the bytes are the same (consecutive trades mostly print at one price). */
  private price(start: number, end: number): string {
    const last = this.lastPriceStart;
    const length = end - start;
    if (last >= 0 && this.lastPriceEnd - last === length) {
      const text = this.text;
      let i = 0;
      while (i < length && text[last + i] === text[start + i]) i++;
      if (i === length) return this.lastPrice;
    }
    this.lastPriceStart = start;
    this.lastPriceEnd = end;
    this.lastPrice = latin1Text(this.text, start, end);
    return this.lastPrice;
  }
}
