import type { BookEvent } from '../exchange/book/book-event.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { StrategyReport } from '../model/strategy-report.js';
import type { CandlesEvent, TickerEvent, TradesEvent } from '../model/stream/market-events.js';
import { objectList } from '../model/object-list.js';

/** A strategy timer that fired: its id and the arming it belongs to. */
export interface TimerFire {
  readonly timerId: string;
  readonly token: number;
}

/** What each kind of runtime event carries. */
export interface RuntimePayloads {
  report: StrategyReport;
  balances: readonly TradingBalance[];
  book: BookEvent;
  trades: TradesEvent;
  ticker: TickerEvent;
  candle: CandlesEvent;
  timer: TimerFire;
}

/** The kinds of event a strategy is told of. */
export type RuntimeEventKind = keyof RuntimePayloads;

/**
 * An event on its way to a strategy, tagged by `kind`, with its ordering key in the queue. One
 * object per event, made by {@link runtimeEvent} (every event has the same fields, so the queue
 * and the dispatch read one object layout); the queue stamps `time` and `seq` when it takes it.
 */
export type RuntimeEvent = {
  [K in RuntimeEventKind]: {
    /** Local time on the engine's Clock when the event arrived. */
    time: number;
    readonly rank: number;
    /** Arrival number: the tie-break that keeps each source's own order. */
    seq: number;
    readonly kind: K;
    /** A waiting book event's payload is replaced by a newer book of its symbol (conflation). */
    payload: RuntimePayloads[K];
    /** Candles: whether the candle is closed. */
    readonly closed: boolean;
  };
}[RuntimeEventKind];

/**
 * Rank of each kind among events queued at the same time, lowest first. The strategy's own
 * account news comes first (reports, then balances) so that it reacts to market data already
 * knowing its fills; then the market (book, trades, ticker, candles); timers last, so a timer due
 * at `t` sees everything that arrived at `t`.
 */
export const EVENT_RANK: Readonly<Record<RuntimeEventKind, number>> = {
  report: 0, balances: 1, book: 2, trades: 3, ticker: 4, candle: 5, timer: 6,
};

/** A runtime event of `kind` carrying `payload` (`closed`: candles only), to push on an {@link EventQueue}. */
export function runtimeEvent<K extends RuntimeEventKind>(kind: K, payload: RuntimePayloads[K], closed = false): RuntimeEvent {
  return { time: 0, rank: EVENT_RANK[kind], seq: 0, kind, payload, closed } as RuntimeEvent;
}

/**
 * The engine's queue between arrival and dispatch. Events are dispatched in batches ordered by
 * (arrival time, {@link EVENT_RANK}, arrival order): a total, deterministic order that does not
 * depend on which source happened to emit first within the same instant.
 *
 * Book events are conflated per symbol: while a symbol's book event waits, a newer one's book
 * replaces it in place (keeping the waiting one's position) and is counted, so a slow strategy
 * holds at most one pending book per symbol and always sees the latest book. The book object is
 * live anyway: two dispatches of it would show the same state.
 *
 * A replay takes a batch of two or three events per frame: the waiting list and the batch are two
 * arrays that trade places, filled up to a count, so taking a batch allocates nothing.
 */
export class EventQueue {
  /** Book events replaced by a newer one of the same symbol before dispatch. */
  conflated = 0;
  private pending = objectList<RuntimeEvent | undefined>();
  private pendingCount = 0;
  private batch = objectList<RuntimeEvent | undefined>();
  private batchCount = 0;
  /**
   * The waiting book event per symbol; undefined once dispatched. Kept as a key set to undefined
   * rather than deleted: deleting a Map's last entry reallocates its table, and for a long-lived
   * queue every such table outlives the young generation (one per book frame of a replay).
   */
  private readonly waitingBooks = new Map<string, RuntimeEvent | undefined>();
  private seq = 0;

  /** Events waiting (not counting a batch already taken). */
  get size(): number {
    return this.pendingCount;
  }

  /** Queues `event`, arrived at `time`. */
  push(time: number, event: RuntimeEvent): void {
    if (event.kind === 'book') {
      const symbol = event.payload.symbol;
      const waiting = this.waitingBooks.get(symbol);
      if (waiting !== undefined) {
        waiting.payload = event.payload;
        this.conflated++;
        return;
      }
      this.waitingBooks.set(symbol, event);
    }
    event.time = time;
    event.seq = this.seq++;
    this.pending[this.pendingCount++] = event;
  }

  /**
   * Takes every waiting event as the batch, in dispatch order, and returns how many it holds; each
   * is then read, in turn, with {@link dispatchAt}. The previous batch is forgotten.
   */
  take(): number {
    const done = this.batch;
    for (let i = 0; i < this.batchCount; i++) done[i] = undefined;
    this.batch = this.pending;
    this.batchCount = this.pendingCount;
    this.pending = done;
    this.pendingCount = 0;
    if (this.batchCount > 1) sortQueued(this.batch, this.batchCount);
    return this.batchCount;
  }

  /**
   * The batch's event at `index`, released from the batch for dispatch: a later book event of its
   * symbol queues anew.
   */
  dispatchAt(index: number): RuntimeEvent {
    const event = this.batch[index] as RuntimeEvent;
    this.batch[index] = undefined;
    if (event.kind === 'book' && this.waitingBooks.get(event.payload.symbol) === event) this.waitingBooks.set(event.payload.symbol, undefined);
    return event;
  }

  /** Drops everything waiting; returns how many were dropped. */
  clear(): number {
    const dropped = this.pendingCount;
    for (let i = 0; i < dropped; i++) this.pending[i] = undefined;
    this.pendingCount = 0;
    this.waitingBooks.clear();
    return dropped;
  }
}

function compareQueued(a: RuntimeEvent, b: RuntimeEvent): number {
  return a.time - b.time || a.rank - b.rank || a.seq - b.seq;
}

/** Batches up to this size are sorted by insertion. */
const SMALL_BATCH = 16;

/**
 * Sorts the first `count` events in dispatch order. Array.prototype.sort allocates its work space
 * on every call, and a replay takes a batch of two or three events per frame: a small batch is
 * sorted by insertion, in place. The keys are unique (arrival numbers), so every sort gives the
 * same order.
 */
function sortQueued(batch: (RuntimeEvent | undefined)[], count: number): void {
  if (count > SMALL_BATCH) {
    const sorted = (batch.slice(0, count) as RuntimeEvent[]).sort(compareQueued);
    for (let i = 0; i < count; i++) batch[i] = sorted[i];
    return;
  }
  for (let i = 1; i < count; i++) {
    const entry = batch[i] as RuntimeEvent;
    let j = i - 1;
    for (; j >= 0 && compareQueued(batch[j] as RuntimeEvent, entry) > 0; j--) batch[j + 1] = batch[j];
    batch[j + 1] = entry;
  }
}
