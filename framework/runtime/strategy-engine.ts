import { EMPTY, type Subscription } from 'rxjs';
import type { Instrument } from '../model/instrument.js';
import type { Order } from '../model/resources/order.js';
import { ValidationError } from '../model/errors.js';
import type { MarketEvent } from '../model/stream/market-events.js';
import type { Clock } from '../time/clock.js';
import { eventSource, subscribeAll } from './engine-sources.js';
import { EventQueue, runtimeEvent, type RuntimeEvent } from './event-queue.js';
import { IntentOutbox } from './intent-outbox.js';
import { SILENT_LOGGER, type AccountSource, type IntentSink, type MarketSource, type RuntimeLogger, type RuntimeSchedulers } from './runtime-ports.js';
import { RuntimeState } from './runtime-state.js';
import { RuntimeStrategyContext } from './strategy-context.js';
import { StrategyTimers } from './strategy-timers.js';
import type { IndicatorDeclaration, IndicatorValue } from './strategy-indicators.js';
import type { Intents, PositionView, Strategy, StrategyContext } from './strategy.js';
import type { StrategyReport } from '../model/strategy-report.js';
import type { Decimal } from '../model/decimal.js';
import type { DecisionFrame } from '../model/decision-frame.js';

/**
 * What happens when a handler throws. `halt`: the strategy gets no more events, its timers are
 * cleared, a cancelAll intent is submitted for its orders and any order of it that shows up later
 * (an intent in flight) is cancelled on sight; `continue`: the error is logged and counted, the
 * failed handler's intents are dropped, and the next event is dispatched.
 */
export type ErrorPolicy = 'halt' | 'continue';

/** Rounds of queued events one drain may run before the strategy is considered runaway. */
export const MAX_ROUNDS_PER_TURN = 10_000;

/** A strategy's event handlers by name (`onBook`, `onFill`, ...). */
type HandlerName = Extract<keyof Strategy<unknown>, `on${string}`>;

/** Where the engine stands. */
export type EngineStatus = 'idle' | 'running' | 'halted' | 'stopped';

/** Options of {@link StrategyEngine}. */
export interface StrategyEngineOptions<Params> {
  readonly strategyId: string;
  readonly strategy: Strategy<Params>;
  /** Already validated by the plugin's `parseParams`. */
  readonly params: Params;
  readonly sink: IntentSink;
  readonly market: MarketSource;
  readonly account: AccountSource;
  readonly clock: Clock;
  readonly schedulers: RuntimeSchedulers;
  readonly errorPolicy: ErrorPolicy;
  readonly logger?: RuntimeLogger;
  readonly instruments?: (symbol: string) => Instrument | undefined;
  /** Closed order handles kept for late reports (the runtime state's default when absent). */
  readonly closedHandlesKept?: number;
  /** Intent numbers already used by earlier lives of the bot (journal): new ids go on after it. */
  readonly intentsBefore?: number;
  /** The strategy's positions as execution books them (default: from the fills the engine saw). */
  readonly positions?: (symbol: string) => PositionView | undefined;
  /**
   * Makes the client_order_ids of the strategy's orders, when the intent is built (the bot's
   * generator, which survives restarts). Default: `<strategyId>-o<n>`, for engines without a venue.
   */
  readonly nextClientOrderId?: () => string;
  /** Free funds of a currency net of the risk gate's reservations (`ctx.freeBalance`). */
  readonly freeBalance?: (currency: string) => Decimal | undefined;
  /** Takes the strategy's indicator values (`ctx.recordIndicator`); absent: they are dropped. */
  readonly onIndicator?: (value: IndicatorValue) => void;
  /** Told once when the strategy is halted, after the cancelAll went out. */
  readonly onHalt?: (error: unknown) => void;
}

/** Counters since start. */
export interface EngineStats {
  received: number;
  dispatched: number;
  /** Book events replaced by a newer one of the same symbol before the strategy saw them. */
  conflatedBooks: number;
  intents: number;
  errors: number;
  /** Events that arrived while halted or were still queued at stop. */
  dropped: number;
}

/**
 * The strategy runtime's one merge point. Market events, reports, balances and timers enter one
 * {@link EventQueue}; a drain scheduled (delay 0) after the current turn dispatches them in the
 * queue's deterministic order — (arrival time on the Clock, kind rank, arrival order) — to the
 * strategy's handlers by plain calls. Handlers run one at a time: events raised while one runs
 * (a report the sink emits synchronously) wait for the next round of the same drain, and book
 * events are conflated per symbol while they wait.
 *
 * Intents a handler passes to `ctx.submit` (in call order) and then those it returns go to the
 * sink after the handler returned; the same intent object is submitted once. An intent without
 * this strategy's id prefix gets a fresh `<strategyId>-<n>` id. The engine owns every
 * subscription and timer it creates and releases them on {@link stop}.
 */
export class StrategyEngine<Params = unknown> {
  readonly stats: EngineStats = { received: 0, dispatched: 0, conflatedBooks: 0, intents: 0, errors: 0, dropped: 0 };
  readonly state: RuntimeState;
  readonly context: RuntimeStrategyContext<Params>;
  private currentStatus: EngineStatus = 'idle';
  private readonly queue = new EventQueue();
  private readonly timers: StrategyTimers;
  private readonly logger: RuntimeLogger;
  private readonly outbox: IntentOutbox<Params>;
  private sources: Subscription | undefined;
  private drainTask: Subscription | undefined;
  private draining = false;
  /** After a halt: orders already covered by the cancelAll or a cancel. */
  private readonly haltCancelled = new Set<string>();
  /** The scheduled drain, one closure for the engine's life (a drain is scheduled per instant with events). */
  private readonly drainNow = (): void => this.drain();
  /** The last market frame dispatched, kept as plain fields (no object per frame; see {@link decisionFrame}). */
  private frameSymbol = '';
  private frameReceivedAt = Number.NaN;
  private frameExchangeTime = Number.NaN;
  private frameSequence = -1;
  private frameIndex = 0;

  constructor(private readonly options: StrategyEngineOptions<Params>) {
    if (options.strategyId.length === 0) throw new ValidationError('strategyId', 'must not be empty', options.strategyId);
    this.logger = options.logger ?? SILENT_LOGGER;
    this.state = new RuntimeState(options.instruments, options.closedHandlesKept);
    this.timers = new StrategyTimers(options.schedulers.timers, (timerId, token) => this.enqueue(runtimeEvent('timer', { timerId, token })));
    let ordersMade = 0;
    const nextClientOrderId = options.nextClientOrderId ?? (() => `${options.strategyId}-o${++ordersMade}`);
    this.context = new RuntimeStrategyContext(options.strategyId, options.params, options.clock, this.state, {
      submit: (intents) => this.outbox.take(intents, this.currentStatus === 'running'),
      nextClientOrderId,
      freeBalance: options.freeBalance,
      setTimer: (timerId, delayMs, repeat) => {
        if (this.currentStatus === 'running') this.timers.set(timerId, delayMs, repeat);
      },
      clearTimer: (timerId) => this.timers.clear(timerId),
      position: options.positions,
      indicators: options.strategy.indicators,
      recordIndicator: options.onIndicator === undefined ? undefined : (indicator, symbol, time, value) =>
        options.onIndicator?.({ strategyId: options.strategyId, indicator, symbol, time, value }),
    }, this.logger);
    if (options.intentsBefore !== undefined) this.context.resumeFrom(options.intentsBefore);
    this.outbox = new IntentOutbox({
      strategyId: options.strategyId, nextClientOrderId, submit: (intent) => options.sink.submit(intent), counted: () => void this.stats.intents++,
      flush: () => options.sink.flush?.(),
    }, this.state, this.context);
  }

  /** The indicator series the strategy declares (checked when the engine was built). */
  get indicators(): readonly IndicatorDeclaration[] {
    return this.options.strategy.indicators ?? [];
  }

  get status(): EngineStatus {
    return this.currentStatus;
  }

  /**
   * The market frame behind a decision made now: the frame whose handler runs, else the last one
   * the strategy was shown (undefined before the first).
   */
  get decisionFrame(): DecisionFrame | undefined {
    const index = this.frameIndex;
    if (index === 0) return undefined;
    const symbol = this.frameSymbol;
    const receivedAt = this.frameReceivedAt;
    const exchangeTime = this.frameExchangeTime;
    const sequence = this.frameSequence;
    // One literal per case rather than spreads of optional parts: every order sent asks, and a spread is a generic copy.
    if (Number.isFinite(exchangeTime)) {
      return sequence >= 0 ? { symbol, receivedAt, exchangeTime, sequence, index } : { symbol, receivedAt, exchangeTime, index };
    }
    return sequence >= 0 ? { symbol, receivedAt, sequence, index } : { symbol, receivedAt, index };
  }

  /**
   * Subscribes to every source, then runs `onStart`. `openOrders` are the strategy's orders the
   * exchange still has (after a restart): `ctx.openOrders()` shows them from `onStart` on.
   */
  start(openOrders: readonly (Order & { readonly intentId?: string })[] = []): void {
    if (this.currentStatus !== 'idle') throw new ValidationError('status', 'must be idle to start', this.currentStatus);
    this.currentStatus = 'running';
    this.state.seedOrders(openOrders);
    // Sources first: what they deliver now (a replayed book, the reconciliation's updates) and the
    // answers to onStart's own intents (a denial is told at once) wait in the queue for the drain.
    const { market, account, sink } = this.options;
    this.sources = subscribeAll([
      eventSource(sink.reports$, (report) => runtimeEvent('report', report)),
      eventSource(account.orderReports$, (report) => runtimeEvent('report', report)),
      eventSource(account.balances$, (balances) => runtimeEvent('balances', balances)),
      eventSource(market.books$, (event) => runtimeEvent('book', event)),
      eventSource(market.market$, toMarketEvent),
      eventSource(market.candleClosed$ ?? EMPTY, (event) => runtimeEvent('candle', event, true)),
    ], (event) => this.enqueue(event));
    this.run('onStart', this.options.strategy.onStart);
  }

  /**
   * Runs `onStop` (its intents are submitted) unless halted, then releases every subscription and
   * timer; queued events are dropped and counted. Open orders are left to the caller's policy.
   */
  stop(): void {
    if (this.currentStatus === 'idle' || this.currentStatus === 'stopped') {
      this.currentStatus = 'stopped';
      return;
    }
    if (this.currentStatus === 'running') this.run('onStop', this.options.strategy.onStop);
    this.currentStatus = 'stopped';
    this.sources?.unsubscribe();
    this.drainTask?.unsubscribe();
    this.timers.clearAll();
    this.stats.dropped += this.queue.clear();
  }

  private enqueue(event: RuntimeEvent): void {
    this.stats.received++;
    if (this.currentStatus !== 'running' && !(this.currentStatus === 'halted' && event.kind === 'report')) {
      this.stats.dropped++;
      return;
    }
    this.queue.push(this.options.clock.now(), event);
    this.stats.conflatedBooks = this.queue.conflated;
    if (!this.draining && this.drainTask === undefined) {
      this.drainTask = this.options.schedulers.drain.schedule(this.drainNow, 0);
    }
  }

  private drain(): void {
    this.drainTask = undefined;
    this.draining = true;
    let rounds = 0;
    try {
      for (let count = this.queue.take(); count > 0; count = this.queue.take()) {
        if (++rounds > MAX_ROUNDS_PER_TURN) {
          this.runaway(rounds);
          if (this.currentStatus !== 'running') break;
          rounds = 0;
        }
        for (let i = 0; i < count; i++) {
          const event = this.queue.dispatchAt(i);
          if (this.currentStatus === 'running') this.dispatch(event);
          else if (this.currentStatus === 'halted' && event.kind === 'report') this.afterHaltReport(event.payload);
          else this.stats.dropped++;
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private dispatch(event: RuntimeEvent): void {
    const { strategy } = this.options;
    this.stats.dispatched++;
    switch (event.kind) {
      case 'report':
        this.dispatchReport(event.payload);
        return;
      case 'balances':
        this.state.applyBalances(event.payload);
        this.run('onBalance', strategy.onBalance, event.payload);
        return;
      case 'book': {
        const book = event.payload;
        if (book.kind === 'stale') {
          this.state.setBook(book.symbol, undefined);
          return;
        }
        this.state.setBook(book.symbol, book.book);
        const received = book.book.receivedAt;
        this.seeFrame(book.symbol, Number.isFinite(received) ? received : event.time, book.book.exchangeTime, book.book.sequence);
        this.run('onBook', strategy.onBook, book.symbol, book.book);
        return;
      }
      case 'trades': {
        const trades = event.payload;
        this.seeFrame(trades.symbol, trades.receivedAt, trades.exchangeTime, -1);
        this.run('onTrades', strategy.onTrades, trades);
        return;
      }
      case 'ticker': {
        const ticker = event.payload;
        this.seeFrame(ticker.symbol, ticker.receivedAt, ticker.exchangeTime, -1);
        this.run('onTicker', strategy.onTicker, ticker);
        return;
      }
      case 'candle': {
        const candles = event.payload;
        this.seeFrame(candles.symbol, candles.receivedAt, candles.exchangeTime, -1);
        this.run('onCandle', strategy.onCandle, candles, event.closed);
        return;
      }
      case 'timer': {
        const { timerId, token } = event.payload;
        if (this.timers.claim(timerId, token)) this.run('onTimer', strategy.onTimer, timerId);
        return;
      }
    }
  }

  private seeFrame(symbol: string, receivedAt: number, exchangeTime: number, sequence: number): void {
    this.frameSymbol = symbol;
    this.frameReceivedAt = receivedAt;
    this.frameExchangeTime = exchangeTime;
    this.frameSequence = sequence;
    this.frameIndex++;
  }

  /**
   * A strategy that answers each report with a new intent that is refused at once (a denial is
   * synchronous) would never let the turn end: after {@link MAX_ROUNDS_PER_TURN} rounds of events
   * within one turn, that is treated as a handler failure under the error policy.
   */
  private runaway(rounds: number): void {
    this.fail(new Error(`runaway strategy: ${rounds} rounds of events within one turn without time passing (a denial or rejection answered by the same intent?)`), 'drain');
  }

  /**
   * Calls one handler (as a method of the strategy) with the context and `a`, `b`, collecting its
   * intents; applies the error policy when it throws. An absent handler is not called. The
   * arguments are passed through rather than captured in a closure: a replay calls a handler per
   * event, and a closure per call was a steady share of its garbage.
   */
  private run(name: HandlerName, handler: ((ctx: StrategyContext<Params>) => Intents) | undefined): void;
  private run<A>(name: HandlerName, handler: ((ctx: StrategyContext<Params>, a: A) => Intents) | undefined, a: A): void;
  private run<A, B>(name: HandlerName, handler: ((ctx: StrategyContext<Params>, a: A, b: B) => Intents) | undefined, a: A, b: B): void;
  private run(name: HandlerName, handler: ((ctx: StrategyContext<Params>, a?: unknown, b?: unknown) => Intents) | undefined, a?: unknown, b?: unknown): void {
    if (handler === undefined) return;
    this.outbox.open();
    let returned: Intents;
    try {
      returned = handler.call(this.options.strategy, this.context, a, b);
    } catch (error) {
      this.outbox.drop();
      this.fail(error, name);
      return;
    }
    this.outbox.close(returned);
  }

  /**
   * A report: the handles move first, then the typed callbacks run (each fill, a close, a denial),
   * then `onReport`; a handler failure that halts the strategy ends the sequence.
   */
  private dispatchReport(report: StrategyReport): void {
    const { strategy } = this.options;
    const updates = this.state.applyReport(report);
    for (const update of updates) {
      const handle = update.handle;
      if (strategy.onFill !== undefined) {
        for (const fill of update.fills) {
          if (this.currentStatus !== 'running') return;
          this.run('onFill', strategy.onFill, handle, fill);
        }
      }
      if (update.closed && handle.status !== 'denied' && strategy.onOrderClosed !== undefined && this.currentStatus === 'running') {
        this.run('onOrderClosed', strategy.onOrderClosed, handle);
      }
    }
    if (report.kind === 'denied' && strategy.onDenied !== undefined && this.currentStatus === 'running') {
      this.run('onDenied', strategy.onDenied, report, updates[0]?.handle);
    }
    if (this.currentStatus === 'running') this.run('onReport', strategy.onReport, report);
  }

  private fail(error: unknown, handler: string): void {
    this.stats.errors++;
    this.logger.log('error', 'strategy handler threw', {
      strategyId: this.options.strategyId, handler, policy: this.options.errorPolicy, error: errorText(error),
    });
    if (this.options.errorPolicy === 'halt' && this.currentStatus === 'running') this.halt(error);
  }

  private halt(error: unknown): void {
    this.currentStatus = 'halted';
    this.timers.clearAll();
    for (const order of this.state.orders()) this.haltCancelled.add(order.clientOrderId);
    this.outbox.send(this.context.buildCancelAll(undefined, 'halt'));
    this.options.sink.flush?.();
    this.logger.log('error', 'strategy halted: cancelAll submitted', { strategyId: this.options.strategyId });
    this.options.onHalt?.(error);
  }

  /** While halted, reports still update the state, and any order not yet covered is cancelled. */
  private afterHaltReport(report: StrategyReport): void {
    this.state.applyReport(report);
    for (const order of this.state.orders()) {
      if (order.status === 'pendingNew' || this.haltCancelled.has(order.clientOrderId)) continue;
      this.haltCancelled.add(order.clientOrderId);
      this.outbox.send(this.context.buildCancel(order.clientOrderId, 'halt'));
    }
    this.options.sink.flush?.();
  }
}

function toMarketEvent(event: MarketEvent): RuntimeEvent | undefined {
  switch (event.kind) {
    case 'trades': return runtimeEvent('trades', event);
    case 'ticker': return runtimeEvent('ticker', event);
    case 'candles': return runtimeEvent('candle', event);
    default: return undefined;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
