import { Decimal } from '../../framework/model/decimal.js';
import { parseOrderBookFrames, type BookFrame, type OrderBookFrame } from '../../framework/exchange/book/order-book-frame.js';
import { OrderBook } from '../../framework/exchange/book/order-book.js';
import { Instrument } from '../../framework/model/instrument.js';
import type { SymbolInfo } from '../../framework/model/resources/symbol.js';
import { msToIso } from '../../framework/model/resources/wire-values.js';
import { tradeStats, type WireTrade } from './trade-aggregates.js';

/** Trades kept per symbol: the stream's history `limit` (1000) and the REST trades/candles views. */
const TRADES_KEPT = 10_000;

/**
 * The replayed market as the sandbox sees it: one exact book per symbol (from `orderbook/full`
 * frames) and the recent public trades. REST market data and stream snapshots read it; the hot
 * path (applying a frame) stays in scaled integers and plain arrays.
 */
export class MarketState {
  private readonly books = new Map<string, OrderBook>();
  private readonly trades = new Map<string, WireTrade[]>();
  /** Local time of the last frame applied (the market's "now"). */
  lastFrameAt = Number.NaN;

  constructor(readonly symbols: Readonly<Record<string, SymbolInfo>>) {}

  /** Symbols known from the header, or seen in frames when the header had none. */
  get symbolCodes(): string[] {
    const codes = new Set([...Object.keys(this.symbols), ...this.books.keys(), ...this.trades.keys()]);
    return [...codes].sort();
  }

  /** Applies an `orderbook/full` notification; returns its per-symbol frames. */
  applyBook(msg: unknown, receivedAt: number): OrderBookFrame[] {
    this.lastFrameAt = receivedAt;
    const frames = parseOrderBookFrames(msg, receivedAt);
    for (const frame of frames) this.book(frame.symbol).apply(frame);
    return frames;
  }

  /** Applies book frames parsed already (a recording line decoded from its bytes). */
  applyBookFrames(frames: readonly BookFrame[], receivedAt: number): void {
    this.lastFrameAt = receivedAt;
    for (const frame of frames) this.book(frame.symbol).apply(frame);
  }

  /** Records the trades of a `trades` notification payload (keyed by symbol). */
  addTrades(payload: Readonly<Record<string, unknown>>, receivedAt: number): void {
    for (const [symbol, list] of Object.entries(payload)) {
      if (Array.isArray(list)) this.addSymbolTrades(symbol, list as WireTrade[], receivedAt);
    }
    this.lastFrameAt = receivedAt;
  }

  /** Records trades of one symbol. */
  addSymbolTrades(symbol: string, trades: readonly WireTrade[], receivedAt: number): void {
    this.lastFrameAt = receivedAt;
    let kept = this.trades.get(symbol);
    if (kept === undefined) this.trades.set(symbol, (kept = []));
    for (const t of trades) kept.push(t);
    // Trimmed in one go once twice the budget is held: a splice per frame moved 10,000 entries each time.
    if (kept.length > 2 * TRADES_KEPT) kept.splice(0, kept.length - TRADES_KEPT);
  }

  /** The live book of `symbol`, if any frame built one. */
  bookOf(symbol: string): OrderBook | undefined {
    return this.books.get(symbol);
  }

  /** Recent trades of `symbol`, oldest first. */
  tradesOf(symbol: string): readonly WireTrade[] {
    const kept = this.trades.get(symbol);
    if (kept === undefined) return [];
    return kept.length > TRADES_KEPT ? kept.slice(-TRADES_KEPT) : kept;
  }

  /** `orderbook/full` snapshot entry `{t, s, a, b}` of a valid book, else undefined. */
  bookSnapshot(symbol: string, depth = 0): { t: number; s: number; a: string[][]; b: string[][] } | undefined {
    const book = this.books.get(symbol);
    if (!book || !book.valid) return undefined;
    return { t: book.exchangeTime, s: book.sequence, a: levels(book, 'ask', depth), b: levels(book, 'bid', depth) };
  }

  /** REST order book (`depth` 0 = full; `volume` = levels until that much quantity on each side). */
  restBook(symbol: string, depth: number, volume?: string): Record<string, unknown> {
    const book = this.books.get(symbol);
    if (!book || !book.valid) return { timestamp: msToIso(this.nowOr(Date.now())), ask: [], bid: [] };
    const side = (s: 'ask' | 'bid') => (volume === undefined ? levels(book, s, depth) : levelsForVolume(book, s, volume));
    return { timestamp: msToIso(book.exchangeTime), ask: side('ask'), bid: side('bid') };
  }

  /** REST ticker of a symbol. */
  restTicker(symbol: string): Record<string, unknown> {
    const book = this.books.get(symbol);
    const now = this.nowOr(Date.now());
    const stats = tradeStats(this.tradesOf(symbol), now);
    return {
      ask: book?.valid ? (book.bestAsk()?.price ?? null) : null,
      bid: book?.valid ? (book.bestBid()?.price ?? null) : null,
      last: stats.last,
      low: stats.low,
      high: stats.high,
      open: stats.open,
      volume: stats.volume,
      volume_quote: stats.volumeQuote,
      timestamp: msToIso(now),
    };
  }

  /** Market time when frames have arrived, else `fallback`. */
  nowOr(fallback: number): number {
    return Number.isFinite(this.lastFrameAt) ? Math.floor(this.lastFrameAt) : fallback;
  }

  private book(symbol: string): OrderBook {
    let book = this.books.get(symbol);
    if (!book) {
      const info = this.symbols[symbol];
      book = new OrderBook(symbol, info ? { instrument: new Instrument(symbol, info) } : {});
      this.books.set(symbol, book);
    }
    return book;
  }
}

function levels(book: OrderBook, side: 'ask' | 'bid', depth: number): string[][] {
  const n = depth > 0 ? Math.min(depth, book.size(side)) : book.size(side);
  return book.topN(side, n).map((l) => [l.price, l.quantity]);
}

function levelsForVolume(book: OrderBook, side: 'ask' | 'bid', volume: string): string[][] {
  const wanted = new Decimal(volume);
  const out: string[][] = [];
  let sum = new Decimal(0);
  for (const level of book.topN(side, book.size(side))) {
    if (sum.gte(wanted)) break;
    out.push([level.price, level.quantity]);
    sum = sum.plus(level.quantity);
  }
  return out;
}

