import { Subject, tap, type Observable, type Subscription } from 'rxjs';
import type { BookEvent } from '../exchange/book/book-event.js';
import { ORDER_BOOK_CHANNEL } from '../exchange/book/order-book-frame.js';
import { OrderBookKeeper } from '../exchange/book/order-book-keeper.js';
import type { PublicSession } from '../exchange/ws/public-session.js';
import type { Instrument } from '../model/instrument.js';
import type { CandlePeriod } from '../model/resources/candle.js';
import type { MarketEvent } from '../model/stream/market-events.js';
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

  constructor(private readonly options: LiveMarketFeedOptions) {
    const bySymbol = new Map(options.instruments.map((i) => [i.symbol, i]));
    this.keeper = new OrderBookKeeper({
      resync: options.session, instrument: (symbol) => bySymbol.get(symbol),
      onEvent: (event) => {
        if (event.kind === 'stale') options.logger.log('warn', 'book stale, resyncing', { symbol: event.symbol, reason: event.reason.kind });
        this.bookSubject.next(event);
      },
    });
    this.books$ = this.bookSubject.asObservable();
    // Book messages of these symbols skip JSON.parse: decoded from the socket's bytes at the scales their books keep.
    options.session.decodeBooks(new Map(options.instruments.map((i) => [i.symbol, { priceScale: i.priceScale, quantityScale: i.quantityScale }])));
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
