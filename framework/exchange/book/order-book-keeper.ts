import { Subject, type Observable } from 'rxjs';
import type { Instrument } from '../../model/instrument.js';
import type { BookEvent, ResyncPort, StaleReason } from './book-event.js';
import { ORDER_BOOK_CHANNEL, parseOrderBookFrames, type BookFrame, type OrderBookFrame } from './order-book-frame.js';
import { OrderBook } from './order-book.js';

/** Where a symbol's book stands. */
export type BookStatus = 'awaiting-snapshot' | 'live' | 'stale';

/** Options of {@link OrderBookKeeper}. */
export interface OrderBookKeeperOptions {
  /** Asked for a fresh snapshot whenever a book goes stale. */
  readonly resync: ResyncPort;
  /** The symbol's grid when known; books of unknown symbols adapt their scales. */
  readonly instrument?: (symbol: string) => Instrument | undefined;
  /** Plain callback, called synchronously for every event (cheaper than the Observable). */
  readonly onEvent?: (event: BookEvent) => void;
  /** Channel passed to the resync port; `orderbook/full` by default. */
  readonly channel?: string;
}

/** Counters of what the keeper did, for monitoring and tests. */
export interface BookKeeperStats {
  snapshots: number;
  updates: number;
  /** Updates for a symbol that never had a snapshot (normal right after subscribing). */
  ignoredBeforeSnapshot: number;
  /** Updates for a stale symbol, dropped while waiting for the resync snapshot. */
  ignoredWhileStale: number;
  gaps: number;
  crossed: number;
  invalid: number;
  resyncRequests: number;
  resyncFailures: number;
}

interface SymbolState {
  status: BookStatus;
  book: OrderBook | undefined;
  resyncPending: boolean;
}

/**
 * Keeps one {@link OrderBook} per symbol from `orderbook/full` frames and guards the sequence.
 *
 * Sequence rule, applied strictly: after a snapshot with `s = n`, the next message for the symbol
 * must carry `s = n + 1`. Any other value is a gap, including a duplicate or an older `s`
 * (s <= last): real captures never repeat a message, a repeated or lower `s` can just as well be
 * a server-side reset, and applying a level change twice or out of order silently corrupts the
 * book, so "ignore duplicates" would trade a resubscribe for a wrong book. On a gap, a crossed
 * book or a level that cannot be applied exactly, the book is dropped, a `stale` event is sent,
 * and a resync is requested through the {@link ResyncPort}; updates are ignored (and counted)
 * until the fresh snapshot arrives, which produces a `resynced` event.
 *
 * Per-message work is plain function calls; events are only allocated when someone listens.
 */
export class OrderBookKeeper {
  /** Counters since construction. */
  readonly stats: BookKeeperStats = {
    snapshots: 0, updates: 0, ignoredBeforeSnapshot: 0, ignoredWhileStale: 0,
    gaps: 0, crossed: 0, invalid: 0, resyncRequests: 0, resyncFailures: 0,
  };
  private readonly states = new Map<string, SymbolState>();
  private readonly subject = new Subject<BookEvent>();
  private readonly channel: string;

  constructor(private readonly options: OrderBookKeeperOptions) {
    this.channel = options.channel ?? ORDER_BOOK_CHANNEL;
  }

  /** Every event, in order; completes on {@link close}. */
  get events(): Observable<BookEvent> {
    return this.subject.asObservable();
  }

  /**
   * Handles any public-stream message: book notifications are applied, everything else ignored.
   * A malformed book notification marks the symbols it names stale (and requests their resync)
   * before its ParseError is rethrown for the caller to log.
   */
  handleMessage(message: unknown, receivedAt: number): void {
    let frames: OrderBookFrame[];
    try {
      frames = parseOrderBookFrames(message, receivedAt);
    } catch (error) {
      for (const symbol of namedSymbols(message)) {
        this.goStale(symbol, this.state(symbol), { kind: 'invalid', sequence: -1, message: String(error) });
      }
      throw error;
    }
    for (let i = 0; i < frames.length; i++) this.apply(frames[i] as OrderBookFrame);
  }

  /** Applies one symbol's frame under the sequence rule. */
  apply(frame: BookFrame): void {
    const state = this.state(frame.symbol);
    if (frame.snapshot) {
      this.applySnapshot(frame, state);
      return;
    }
    const book = state.book;
    if (book === undefined) {
      if (state.status === 'stale') this.stats.ignoredWhileStale++;
      else this.stats.ignoredBeforeSnapshot++;
      return;
    }
    if (frame.sequence !== book.sequence + 1) {
      this.stats.gaps++;
      this.goStale(frame.symbol, state, { kind: 'gap', expected: book.sequence + 1, got: frame.sequence });
      return;
    }
    if (!this.applyChecked(frame, book, state)) return;
    this.stats.updates++;
    if (this.listening()) this.emit({ kind: 'update', symbol: frame.symbol, sequence: frame.sequence, book });
  }

  /** The symbol's book while it is live; undefined while awaiting a snapshot or stale. */
  book(symbol: string): OrderBook | undefined {
    return this.states.get(symbol)?.book;
  }

  /** Where the symbol's book stands; undefined for a symbol never seen. */
  status(symbol: string): BookStatus | undefined {
    return this.states.get(symbol)?.status;
  }

  /** Symbols seen so far. */
  symbols(): string[] {
    return [...this.states.keys()];
  }

  /**
   * Drops the symbol's book and asks for a fresh snapshot (also the retry after a failed
   * resync). Resolves when the port has resubscribed; failures become a `stale` event.
   */
  resync(symbol: string): Promise<void> {
    const state = this.state(symbol);
    state.book = undefined;
    state.status = 'stale';
    return this.requestResync(symbol, state);
  }

  /** Completes the event stream. */
  close(): void {
    this.subject.complete();
  }

  private applySnapshot(frame: BookFrame, state: SymbolState): void {
    const wasStale = state.status === 'stale';
    const book = new OrderBook(frame.symbol, { instrument: this.options.instrument?.(frame.symbol) });
    if (!this.applyChecked(frame, book, state)) return;
    state.book = book;
    state.status = 'live';
    this.stats.snapshots++;
    if (this.listening()) {
      this.emit({ kind: wasStale ? 'resynced' : 'snapshot', symbol: frame.symbol, sequence: frame.sequence, book });
    }
  }

  /** Applies and checks the result; on failure the symbol goes stale and false is returned. */
  private applyChecked(frame: BookFrame, book: OrderBook, state: SymbolState): boolean {
    try {
      book.apply(frame);
    } catch (error) {
      this.stats.invalid++;
      this.goStale(frame.symbol, state, { kind: 'invalid', sequence: frame.sequence, message: String(error) });
      return false;
    }
    if (book.crossed) {
      this.stats.crossed++;
      this.goStale(frame.symbol, state, { kind: 'crossed', sequence: frame.sequence });
      return false;
    }
    return true;
  }

  private goStale(symbol: string, state: SymbolState, reason: StaleReason): void {
    state.book = undefined;
    state.status = 'stale';
    this.emit({ kind: 'stale', symbol, reason });
    void this.requestResync(symbol, state);
  }

  private async requestResync(symbol: string, state: SymbolState): Promise<void> {
    if (state.resyncPending) return;
    state.resyncPending = true;
    this.stats.resyncRequests++;
    try {
      await this.options.resync.resync(this.channel, [symbol]);
    } catch (error) {
      this.stats.resyncFailures++;
      if (state.status === 'stale') this.emit({ kind: 'stale', symbol, reason: { kind: 'resync-failed', message: String(error) } });
    } finally {
      state.resyncPending = false;
    }
  }

  private state(symbol: string): SymbolState {
    let state = this.states.get(symbol);
    if (state === undefined) {
      state = { status: 'awaiting-snapshot', book: undefined, resyncPending: false };
      this.states.set(symbol, state);
    }
    return state;
  }

  private listening(): boolean {
    return this.options.onEvent !== undefined || this.subject.observed;
  }

  private emit(event: BookEvent): void {
    this.options.onEvent?.(event);
    // A Subject's next allocates even with nobody subscribed (a replay listens through onEvent).
    if (this.subject.observed) this.subject.next(event);
  }
}

/** Symbol keys of a book notification's payload, best effort (used only on the error path). */
function namedSymbols(message: unknown): string[] {
  if (message === null || typeof message !== 'object') return [];
  const m = message as { update?: unknown; snapshot?: unknown };
  const payload = m.update ?? m.snapshot;
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return [];
  return Object.keys(payload);
}
