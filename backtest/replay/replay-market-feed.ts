import type { Observable } from 'rxjs';
import type { BookEvent, ResyncPort } from '../../framework/exchange/book/book-event.js';
import { ORDER_BOOK_CHANNEL, parseOrderBookFrames, type BookFrame } from '../../framework/exchange/book/order-book-frame.js';
import { OrderBookKeeper } from '../../framework/exchange/book/order-book-keeper.js';
import type { DecimalString } from '../../framework/model/decimal.js';
import type { Instrument } from '../../framework/model/instrument.js';
import type { CandlePeriod } from '../../framework/model/resources/candle.js';
import { parseMarketNotification, type CandlesEvent, type MarketEvent, type TradesEvent } from '../../framework/model/stream/market-events.js';
import { CandleAccumulator, candleStart } from '../sandbox/trade-aggregates.js';
import { EventFanout } from './event-fanout.js';

/** A public frame parsed once, for both the venue and the strategy. */
export interface ParsedFrame {
  readonly books: readonly BookFrame[];
  readonly events: readonly MarketEvent[];
}

const NO_BOOKS: readonly BookFrame[] = Object.freeze([]);
const NO_EVENTS: readonly MarketEvent[] = Object.freeze([]);
const NOTHING: ParsedFrame = Object.freeze({ books: NO_BOOKS, events: NO_EVENTS });

/** A book re-sync the replay went through (a sequence gap or a bad frame in the recording). */
export interface ReplayResync {
  readonly symbol: string;
  readonly time: number;
  readonly reason: string;
}

/** Options of {@link ReplayMarketFeed}. */
export interface ReplayMarketFeedOptions {
  readonly instruments: readonly Instrument[];
  /** Candle period the strategy wants built from trades (when the recording has no such candles). */
  readonly buildCandles?: CandlePeriod;
}

/**
 * The market side of a replay: parses each recorded public frame once, keeps the books with the
 * same {@link OrderBookKeeper} and sequence rule as live, and publishes book and market events for
 * the runtime. A gap makes a book stale exactly as live; the "resync" a live bot would request is
 * the recording's next snapshot (a recorder writes one after every reconnect), and every resync is
 * listed for the report. Frames of symbols the bot does not trade are dropped.
 *
 * When asked, candles of one period are built from trades (exact decimals) and published as
 * candle updates, so a candle strategy runs on a recording that has trades but no candles.
 */
export class ReplayMarketFeed {
  private readonly bookEvents = new EventFanout<BookEvent>();
  private readonly marketEvents = new EventFanout<MarketEvent>();
  readonly books$: Observable<BookEvent> = this.bookEvents.events;
  readonly market$: Observable<MarketEvent> = this.marketEvents.events;
  readonly keeper: OrderBookKeeper;
  readonly resyncs: ReplayResync[] = [];
  private readonly symbols: ReadonlySet<string>;
  private readonly building = new Map<string, CandleAccumulator>();
  private now = 0;

  constructor(private readonly options: ReplayMarketFeedOptions) {
    this.symbols = new Set(options.instruments.map((i) => i.symbol));
    const bySymbol = new Map(options.instruments.map((i) => [i.symbol, i]));
    const resync: ResyncPort = { resync: async () => undefined };
    this.keeper = new OrderBookKeeper({
      resync,
      instrument: (symbol) => bySymbol.get(symbol),
      onEvent: (event) => {
        if (event.kind === 'stale') this.resyncs.push({ symbol: event.symbol, time: this.now, reason: staleText(event.reason) });
        this.bookEvents.next(event);
      },
    });
  }

  /** Parses a `ws/public` frame; frames of other channels or symbols parse to nothing. */
  parse(msg: unknown, receivedAt: number): ParsedFrame {
    const channel = (msg as { ch?: unknown }).ch;
    if (typeof channel !== 'string') return NOTHING;
    if (channel === ORDER_BOOK_CHANNEL) {
      const books = parseOrderBookFrames(msg, receivedAt);
      return { books: this.traded(books), events: NO_EVENTS };
    }
    const events = parseMarketNotification(msg, receivedAt);
    return { books: NO_BOOKS, events: this.traded(events) };
  }

  /** The items of symbols the bot trades: the list itself when all are (the usual case), no copy. */
  private traded<T extends { readonly symbol: string }>(items: readonly T[]): readonly T[] {
    for (let i = 0; i < items.length; i++) {
      if (!this.symbols.has(items[i]!.symbol)) return items.filter((item) => this.symbols.has(item.symbol));
    }
    return items;
  }

  /** Publishes a parsed frame to the runtime (books through the keeper, then market events). */
  publish(frame: ParsedFrame, receivedAt: number): void {
    this.now = receivedAt;
    // Indexed loops: the lists are of two kinds (a frame's own, or a shared frozen empty one),
    // and for-of over both would allocate an iterator per frame.
    const books = frame.books;
    for (let i = 0; i < books.length; i++) this.keeper.apply(books[i] as BookFrame);
    const events = frame.events;
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as MarketEvent;
      this.marketEvents.next(event);
      if (event.kind === 'trades' && this.options.buildCandles !== undefined) this.buildFrom(event, this.options.buildCandles);
    }
  }

  /** Completes the streams. */
  close(): void {
    this.keeper.close();
    this.bookEvents.complete();
    this.marketEvents.complete();
  }

  private buildFrom(event: TradesEvent, period: CandlePeriod): void {
    let candle = this.building.get(event.symbol);
    for (const trade of event.trades) {
      const wire = { t: trade.timestamp, i: trade.id, p: trade.price, q: trade.quantity, s: trade.side };
      const start = candleStart(trade.timestamp, period);
      if (candle === undefined || candle.start !== start) {
        if (candle !== undefined && start < candle.start) continue;
        candle = new CandleAccumulator(start, wire);
        this.building.set(event.symbol, candle);
      } else {
        candle.add(wire);
      }
    }
    if (candle === undefined) return;
    const w = candle.toWire();
    const built: CandlesEvent = {
      kind: 'candles', channel: `candles/${period}`, symbol: event.symbol, period, snapshot: false,
      exchangeTime: event.exchangeTime, receivedAt: event.receivedAt,
      candles: [{
        timestamp: w.t, open: w.o as DecimalString, close: w.c as DecimalString, high: w.h as DecimalString, low: w.l as DecimalString,
        volume: w.v as DecimalString, volumeQuote: w.q as DecimalString,
      }],
    };
    this.marketEvents.next(built);
  }
}

function staleText(reason: Extract<BookEvent, { kind: 'stale' }>['reason']): string {
  switch (reason.kind) {
    case 'gap': return `sequence gap: expected ${reason.expected}, got ${reason.got}`;
    case 'crossed': return `crossed book at sequence ${reason.sequence}`;
    case 'invalid': return `invalid frame: ${reason.message}`;
    case 'resync-failed': return `resync failed: ${reason.message}`;
  }
}

