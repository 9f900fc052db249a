import type { BookEvent } from '../exchange/book/book-event.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { StrategyReport } from '../model/strategy-report.js';
import type { CandlesEvent, TickerEvent, TradesEvent } from '../model/stream/market-events.js';
import { objectList } from '../model/object-list.js';

/** An event on its way to a strategy, tagged by `kind`. */
export type RuntimeEvent =
  | { readonly kind: 'report'; readonly report: StrategyReport }
  | { readonly kind: 'balances'; readonly balances: readonly TradingBalance[] }
  | { readonly kind: 'book'; readonly event: BookEvent }
  | { readonly kind: 'trades'; readonly event: TradesEvent }
  | { readonly kind: 'ticker'; readonly event: TickerEvent }
  | { readonly kind: 'candle'; readonly event: CandlesEvent; readonly closed: boolean }
  | { readonly kind: 'timer'; readonly timerId: string; readonly token: number };

/**
 * Rank of each kind among events queued at the same time, lowest first. The strategy's own
 * account news comes first (reports, then balances) so that it reacts to market data already
 * knowing its fills; then the market (book, trades, ticker, candles); timers last, so a timer due
 * at `t` sees everything that arrived at `t`.
 */
export const EVENT_RANK: Readonly<Record<RuntimeEvent['kind'], number>> = {
  report: 0, balances: 1, book: 2, trades: 3, ticker: 4, candle: 5, timer: 6,
};

/** A queued event with its ordering key. */
export interface QueuedEvent {
  /** Local time on the engine's Clock when the event arrived. */
  readonly time: number;
  readonly rank: number;
  /** Arrival number: the tie-break that keeps each source's own order. */
  readonly seq: number;
  event: RuntimeEvent;
}

/**
 * The engine's queue between arrival and dispatch. Events are dispatched in batches ordered by
 * (arrival time, {@link EVENT_RANK}, arrival order): a total, deterministic order that does not
 * depend on which source happened to emit first within the same instant.
 *
 * Book events are conflated per symbol: while a symbol's book event waits, a newer one replaces it
 * in place (keeping the waiting one's position) and is counted, so a slow strategy holds at most
 * one pending book per symbol and always sees the latest book. The book object is live anyway:
 * two dispatches of it would show the same state.
 */
export class EventQueue {
  /** Book events replaced by a newer one of the same symbol before dispatch. */
  conflated = 0;
  private pending = objectList<QueuedEvent>();
  /**
   * The waiting book event per symbol; undefined once dispatched. Kept as a key set to undefined
   * rather than deleted: deleting a Map's last entry reallocates its table, and for a long-lived
   * queue every such table outlives the young generation (one per book frame of a replay).
   */
  private readonly waitingBooks = new Map<string, QueuedEvent | undefined>();
  private seq = 0;

  /** Events waiting (not counting a batch already taken). */
  get size(): number {
    return this.pending.length;
  }

  push(time: number, event: RuntimeEvent): void {
    if (event.kind === 'book') {
      const waiting = this.waitingBooks.get(event.event.symbol);
      if (waiting !== undefined) {
        waiting.event = event;
        this.conflated++;
        return;
      }
    }
    const entry: QueuedEvent = { time, rank: EVENT_RANK[event.kind], seq: this.seq++, event };
    if (event.kind === 'book') this.waitingBooks.set(event.event.symbol, entry);
    this.pending.push(entry);
  }

  /** Takes every waiting event, in dispatch order; call {@link settle} on each as it is dispatched. */
  take(): QueuedEvent[] {
    const batch = this.pending;
    this.pending = objectList();
    if (batch.length > 1) sortQueued(batch);
    return batch;
  }

  /** Marks an entry dispatched: a later book event of its symbol queues anew. */
  settle(entry: QueuedEvent): void {
    const event = entry.event;
    if (event.kind === 'book' && this.waitingBooks.get(event.event.symbol) === entry) this.waitingBooks.set(event.event.symbol, undefined);
  }

  /** Drops everything waiting; returns how many were dropped. */
  clear(): number {
    const dropped = this.pending.length;
    this.pending = objectList();
    this.waitingBooks.clear();
    return dropped;
  }
}

function compareQueued(a: QueuedEvent, b: QueuedEvent): number {
  return a.time - b.time || a.rank - b.rank || a.seq - b.seq;
}

/** Batches up to this size are sorted by insertion. */
const SMALL_BATCH = 16;

/**
 * Sorts a batch in dispatch order. Array.prototype.sort allocates its work space on every call,
 * and a replay takes a batch of two or three events per frame: a small batch is sorted by
 * insertion, in place. The keys are unique (arrival numbers), so every sort gives the same order.
 */
function sortQueued(batch: QueuedEvent[]): void {
  if (batch.length > SMALL_BATCH) {
    batch.sort(compareQueued);
    return;
  }
  for (let i = 1; i < batch.length; i++) {
    const entry = batch[i]!;
    let j = i - 1;
    for (; j >= 0 && compareQueued(batch[j]!, entry) > 0; j--) batch[j + 1] = batch[j]!;
    batch[j + 1] = entry;
  }
}
