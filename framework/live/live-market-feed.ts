import { performance } from 'node:perf_hooks';
import { Subject, tap, type Observable, type Subscription } from 'rxjs';
import type { BookEvent } from '../exchange/book/book-event.js';
import { ORDER_BOOK_CHANNEL } from '../exchange/book/order-book-frame.js';
import { OrderBookKeeper } from '../exchange/book/order-book-keeper.js';
import { OrderBookMessageDecoder, type BookScales } from '../exchange/book/order-book-message-decoder.js';
import type { PublicSession } from '../exchange/ws/public-session.js';
import type { Instrument } from '../model/instrument.js';
import type { CandlePeriod } from '../model/resources/candle.js';
import type { MarketEvent } from '../model/stream/market-events.js';
import { rehearsalMidTicks } from '../runtime/order-path-rehearsal.js';
import type { RuntimeLogger } from '../runtime/runtime-ports.js';

/** Options of {@link LiveMarketFeed}. */
export interface LiveMarketFeedOptions {
  readonly session: PublicSession;
  readonly instruments: readonly Instrument[];
  /** Candle period to subscribe for the strategy, if it trades on candles. */
  readonly candles?: CandlePeriod;
  readonly logger: RuntimeLogger;
  /** Called synchronously for every book frame applied (tick-to-intent measurements). */
  readonly onBookFrame?: (receivedAt: number) => void;
  /** Told of the exchange time of every book frame and market event (the bot's market clock follows it). */
  readonly onExchangeTime?: (exchangeTime: number) => void;
}

/**
 * The market side of a live (or paper) bot: subscribes the public session to the full book,
 * trades and, when the strategy wants them, candles of its symbols; keeps the books with the
 * sequence-checked {@link OrderBookKeeper} (a gap resubscribes through the session); publishes
 * book and market events for the runtime. The session resubscribes after reconnects by itself,
 * and each resubscription starts with a snapshot that restarts the book.
 */
export class LiveMarketFeed {
  readonly keeper: OrderBookKeeper;
  readonly books$: Observable<BookEvent>;
  readonly market$: Observable<MarketEvent>;
  private readonly bookSubject = new Subject<BookEvent>();
  private readonly owned: Subscription[] = [];
  private readonly bySymbol: ReadonlyMap<string, Instrument>;
  /** The scales the books of each symbol keep, which the socket's bytes are decoded at. */
  private readonly scales: ReadonlyMap<string, BookScales>;

  constructor(private readonly options: LiveMarketFeedOptions) {
    this.bySymbol = new Map(options.instruments.map((i) => [i.symbol, i]));
    this.scales = new Map(options.instruments.map((i) => [i.symbol, { priceScale: i.priceScale, quantityScale: i.quantityScale }]));
    this.keeper = new OrderBookKeeper({
      resync: options.session, instrument: (symbol) => this.bySymbol.get(symbol),
      onEvent: (event) => {
        if (event.kind === 'stale') options.logger.log('warn', 'book stale, resyncing', { symbol: event.symbol, reason: event.reason.kind });
        this.bookSubject.next(event);
      },
    });
    this.books$ = this.bookSubject.asObservable();
    // Book messages of these symbols skip JSON.parse: decoded from the socket's bytes at the scales their books keep.
    options.session.decodeBooks(this.scales);
    const onExchangeTime = options.onExchangeTime;
    this.market$ = onExchangeTime === undefined ? options.session.marketEvents$ : options.session.marketEvents$.pipe(tap((event) => onExchangeTime(event.exchangeTime)));
    this.owned.push(options.session.orderBookFrames$.subscribe((frame) => {
      onExchangeTime?.(frame.exchangeTime);
      try {
        this.keeper.apply(frame);
        options.onBookFrame?.(frame.receivedAt);
      } catch (error) {
        options.logger.log('warn', 'book frame skipped', { symbol: frame.symbol, error: error instanceof Error ? error.message : String(error) });
      }
    }));
  }

  /**
   * Rehearses the way a book message takes from the socket's bytes to a book event (the decoder
   * that reads the bytes, the keeper, the book) on `messages` synthetic messages a symbol (a
   * snapshot, then updates), with a decoder and a keeper of its own, before {@link start}: the
   * first real messages, the snapshot above all, then run compiled code rather than compiling it.
   * Touches nothing the feed publishes or keeps.
   */
  rehearse(messages: number = FEED_REHEARSAL_MESSAGES): FeedRehearsal {
    const started = performance.now();
    const instruments = this.options.instruments;
    const decoder = new OrderBookMessageDecoder(this.scales);
    let events = 0;
    const keeper = new OrderBookKeeper({ resync: { resync: () => Promise.resolve() }, instrument: (symbol) => this.bySymbol.get(symbol), onEvent: () => void events++ });
    try {
      for (let n = 0; n < messages; n++) {
        for (const instrument of instruments) {
          const bytes = Buffer.from(syntheticBookMessage(instrument, n), 'latin1');
          const frames = decoder.decodeMessage(bytes, 0, bytes.length, started);
          for (const frame of frames ?? []) keeper.apply(frame);
        }
      }
    } finally {
      keeper.close();
    }
    return { messages: messages * instruments.length, bookEvents: events, ms: performance.now() - started };
  }

  /** Connects and subscribes every channel the strategy needs. */
  async start(): Promise<void> {
    const symbols = this.options.instruments.map((i) => i.symbol);
    await this.options.session.connect();
    await this.options.session.subscribe(ORDER_BOOK_CHANNEL, symbols);
    await this.options.session.subscribe('trades', symbols);
    if (this.options.candles !== undefined) await this.options.session.subscribe(`candles/${this.options.candles}`, symbols);
  }

  /** Unsubscribes everything and closes the session. */
  async close(): Promise<void> {
    for (const subscription of this.owned.splice(0)) subscription.unsubscribe();
    this.keeper.close();
    this.bookSubject.complete();
    await this.options.session.close();
  }
}

/** What {@link LiveMarketFeed.rehearse} did. */
export interface FeedRehearsal {
  /** Synthetic messages decoded, all symbols. */
  readonly messages: number;
  /** Book events the rehearsal's keeper made of them: one a message when all went the live way. */
  readonly bookEvents: number;
  readonly ms: number;
}

/** Synthetic book messages a symbol that {@link LiveMarketFeed.rehearse} decodes and applies. */
export const FEED_REHEARSAL_MESSAGES = 500;

/** Levels a side of the rehearsal's snapshots. */
const REHEARSAL_DEPTH = 50;

/** Messages from one rehearsal snapshot to the next (the next at the other mid). */
const REHEARSAL_SNAPSHOT_EVERY = 100;

/**
 * The exchange's `orderbook/full` message for `instrument`: every {@link REHEARSAL_SNAPSHOT_EVERY}
 * messages a {@link REHEARSAL_DEPTH}-level snapshot (with the next sequence number, as after a
 * resubscription), in between updates that change a level a side, remove another and put it back.
 */
function syntheticBookMessage(instrument: Instrument, n: number): string {
  // Each snapshot at the next of the rehearsal's mids, so the code meets the magnitudes of any market.
  const mid = rehearsalMidTicks(Math.floor(n / REHEARSAL_SNAPSHOT_EVERY));
  const level = (ticks: number, lots: number): string => `["${instrument.ticksToPrice(ticks)}","${instrument.lotsToQuantity(lots)}"]`;
  const side = (from: number, step: number, count: number, lots: (i: number) => number): string =>
    Array.from({ length: count }, (_, i) => level(from + i * step, lots(i))).join(',');
  const entry = (asks: string, bids: string): string => `{"${instrument.symbol}":{"t":${1_700_000_000_000 + n},"s":${n + 1},"a":[${asks}],"b":[${bids}]}}`;
  if (n % REHEARSAL_SNAPSHOT_EVERY === 0) {
    return `{"ch":"orderbook/full","snapshot":${entry(side(mid + 1, 1, REHEARSAL_DEPTH, (i) => i + 1), side(mid - 1, -1, REHEARSAL_DEPTH, (i) => i + 1))}}`;
  }
  // Below the touch (the book stays uncrossed): a level set to a new size, one removed (size 0) by
  // every other update and put back by the next.
  const depth = 1 + (n % (REHEARSAL_DEPTH - 2));
  const lots = 1 + (n % 7);
  const removed = n % 2 === 1 ? 0 : 1;
  const asks = `${level(mid + 1 + depth, lots)},${level(mid + REHEARSAL_DEPTH, removed)}`;
  const bids = `${level(mid - 1 - depth, lots)},${level(mid - REHEARSAL_DEPTH, removed)}`;
  return `{"ch":"orderbook/full","update":${entry(asks, bids)}}`;
}
