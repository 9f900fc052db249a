import { asyncScheduler, type Observable, type SchedulerLike } from 'rxjs';
import type { BookEvent } from '../exchange/book/book-event.js';
import type { Intent } from '../model/intent.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { OrderUpdateReport, StrategyReport } from '../model/strategy-report.js';
import type { CandlesEvent, MarketEvent } from '../model/stream/market-events.js';
import type { Clock } from '../time/clock.js';
import { microtaskScheduler } from './microtask-scheduler.js';

/**
 * The risk gate and the execution adapter behind it, as the engine sees them. `submit` never
 * throws for a refused intent: a denial or a rejection comes back as a report on `reports$`.
 */
export interface IntentSink {
  submit(intent: Intent): void;
  /**
   * Sends what the intents submitted so far left held at the venue; the engine calls it after
   * each handler's intents (optional: a sink that sends at once has nothing to do).
   */
  flush?(): void;
  /**
   * Answers about this strategy's intents: `denied`, `rejected`, `accepted`. Order updates from
   * the trading stream come through {@link AccountSource.orderReports$} instead, so that no report
   * reaches the strategy twice.
   */
  readonly reports$: Observable<StrategyReport>;
}

/** Market data for the strategy's symbols. */
export interface MarketSource {
  /** Book keeper events (the `book` object is live: the engine reads it, never keeps a copy). */
  readonly books$: Observable<BookEvent>;
  /** Trades, candle updates, tickers; kinds the Strategy API has no handler for are ignored. */
  readonly market$: Observable<MarketEvent>;
  /** Candles whose period has ended (delivered with `closed` true). */
  readonly candleClosed$?: Observable<CandlesEvent>;
}

/** The account: the strategy's order updates (attributed to intents) and balance changes. */
export interface AccountSource {
  readonly orderReports$: Observable<OrderUpdateReport>;
  readonly balances$: Observable<readonly TradingBalance[]>;
}

/**
 * Where the engine's timers and its end-of-turn drain run. Live: {@link liveSchedulers}. Virtual
 * time: one VirtualTimeScheduler (a TestScheduler in tests, a {@link VirtualClockScheduler} in a
 * backtest) for both, with the engine's Clock reading that scheduler's time, so that timers fire
 * deterministically as the replay advances.
 */
export interface RuntimeSchedulers {
  /** Runs strategy timers (`ctx.setTimer`). */
  readonly timers: SchedulerLike;
  /**
   * Runs the drain after the events of the current turn were queued (delay 0), so events that
   * arrive together are ordered by the engine's rule rather than by which source spoke first.
   */
  readonly drain: SchedulerLike;
}

/**
 * Live schedulers: timers on `asyncScheduler` (setTimeout), the drain on {@link microtaskScheduler}
 * (a microtask, so the strategy sees an event in the same tick it arrived, after its siblings).
 */
export function liveSchedulers(): RuntimeSchedulers {
  return { timers: asyncScheduler, drain: microtaskScheduler };
}

/** Both roles on one virtual-time scheduler. */
export function virtualSchedulers(scheduler: SchedulerLike): RuntimeSchedulers {
  return { timers: scheduler, drain: scheduler };
}

/** A Clock reading a scheduler's time (virtual runs keep one source of time). */
export function schedulerClock(scheduler: SchedulerLike): Clock {
  return { now: () => scheduler.now() };
}

/** Structured log lines of the runtime (the composition root plugs winston with redaction in). */
export interface RuntimeLogger {
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** A logger that drops everything (tests, benchmarks). */
export const SILENT_LOGGER: RuntimeLogger = { log: () => {} };
