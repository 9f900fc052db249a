import type { Observable, Subscription } from 'rxjs';
import type { BookEvent } from '../exchange/book/book-event.js';
import { ClientOrderIdGenerator, type ClientOrderIdState } from '../execution/client-order-ids.js';
import { ExecutionAdapter } from '../execution/execution-adapter.js';
import { withMargin } from '../execution/position-margin.js';
import { shutdownOrders, type OrderShutdownSummary } from '../execution/order-shutdown.js';
import type { OrderFill, OrderTracker, TrackedOrderInfo } from '../execution/order-tracker.js';
import type { ReconcileSummary, UnknownOrderPolicy } from '../execution/reconciler.js';
import type { RecoveryOptions } from '../execution/unknown-outcome.js';
import type { LatencySample, VenueGateway } from '../execution/venue-gateway.js';
import type { VenuePort } from '../execution/venue-port.js';
import { ZERO, type Decimal } from '../model/decimal.js';
import type { Instrument } from '../model/instrument.js';
import type { OrderUpdateReport } from '../model/strategy-report.js';
import type { CandlesEvent, MarketEvent } from '../model/stream/market-events.js';
import { OrderRateWindow } from '../risk/order-rate-window.js';
import { ReservationLedger } from '../risk/reservation-ledger.js';
import { RiskGate } from '../risk/risk-gate.js';
import type { Clock } from '../time/clock.js';
import { closedCandles } from './candle-closer.js';
import { SILENT_LOGGER, type RuntimeLogger, type RuntimeSchedulers } from './runtime-ports.js';
import { StrategyEngine, type ErrorPolicy } from './strategy-engine.js';
import type { IndicatorValue } from './strategy-indicators.js';
import type { StrategyPlugin } from './strategy.js';
import { TradingPipeline, type IntentVerdict } from './trading-pipeline.js';
import { OrderPathWarmer } from './order-path-warmer.js';
import { REHEARSAL_BOOKS, rehearseOrderPath, type RehearsalSummary, type StandingRehearsal } from './order-path-rehearsal.js';

/** Market data as the kernel takes it; closed candles are derived from `market$` unless given. */
export interface KernelMarket {
  readonly books$: Observable<BookEvent>;
  readonly market$: Observable<MarketEvent>;
  readonly candleClosed$?: Observable<CandlesEvent>;
}

/** Observers of everything the kernel decides and learns (journal, recorders, metrics). */
export interface KernelHooks {
  onVerdict?(verdict: IntentVerdict): void;
  /** An order is about to be sent (its client_order_id is known before the request leaves). */
  onTrack?(info: TrackedOrderInfo): void;
  /** An order found open on the venue that nobody tracked is tracked from now on (adopted). */
  onAdopt?(info: TrackedOrderInfo): void;
  onOrderUpdate?(update: OrderUpdateReport): void;
  /** An execution of one of the bot's orders, booked once whatever reported it. */
  onFill?(info: TrackedOrderInfo, fill: OrderFill): void;
  /** One of the bot's orders reached a final status (told once). */
  onOrderFinished?(tracker: OrderTracker): void;
  /** A value of one of the strategy's declared indicators (`ctx.recordIndicator`). */
  onIndicator?(value: IndicatorValue): void;
}

/** Everything a bot is made of; the composition roots (live, paper, backtest) fill it in. */
export interface BotKernelOptions {
  /** Prefix of the client_order_ids (1-12 letters or digits). */
  readonly botId: string;
  readonly strategyId: string;
  readonly plugin: StrategyPlugin;
  /** Validated by the plugin already. */
  readonly params: unknown;
  readonly instruments: readonly Instrument[];
  readonly market: KernelMarket;
  /** Reports, balances and reconnects of the account, and the reconciliation's reads. */
  readonly venue: VenuePort;
  /** Where the execution engine's commands go; a PortGateway over `venue` by default (live, sandbox). */
  readonly gateway?: VenueGateway;
  /** Finished orders the account keeps for late reports and lookups (the account's default when absent). */
  readonly finishedOrdersKept?: number;
  /** Closed order handles the strategy's state keeps for late reports (the state's default when absent). */
  readonly closedHandlesKept?: number;
  /** Futures: the leverage set on these contracts' isolated accounts before the strategy starts. */
  readonly leverage?: Readonly<Record<string, Decimal>>;
  /** Told of each order request's measured latency (live and paper: what a backtest can replay). */
  readonly onLatency?: (sample: LatencySample) => void;
  readonly clock: Clock;
  readonly schedulers: RuntimeSchedulers;
  /** Raw or parsed risk config (validated here). */
  readonly risk: unknown;
  readonly errorPolicy: ErrorPolicy;
  readonly unknownOrders: UnknownOrderPolicy;
  readonly logger?: RuntimeLogger;
  readonly hooks?: KernelHooks;
  /** Where the client_order_id counter resumes after a restart on the same day. */
  readonly resumeIds?: ClientOrderIdState;
  /** Intent numbers used by earlier lives (journal), so intent ids stay unique across restarts. */
  readonly intentsBefore?: number;
  readonly recovery?: Partial<RecoveryOptions>;
  /** How long a stop waits for the answers of requests in flight, ms (default {@link DEFAULT_SHUTDOWN_TIMEOUT_MS}). */
  readonly shutdownTimeoutMs?: number;
  /**
   * Live: the order path is rehearsed before the strategy starts (see order-path-rehearsal.ts: some
   * thousand intents against a stand-in venue, so the bot's own run compiled code), and every this
   * many ms (1 to 1000), on the `timers` scheduler, the rehearsal kernel is shown one more book and
   * the risk checks of the bot's usual intents run as dry runs, keeping that path warm between
   * intents (see {@link OrderPathWarmer}). Off when absent; a backtest leaves it off.
   */
  readonly keepOrderPathWarmMs?: number;
}

/** Default of {@link BotKernelOptions.shutdownTimeoutMs}. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/** A position line of the status. */
export interface PositionStatus {
  readonly symbol: string;
  readonly quantity: Decimal;
  readonly averagePrice?: Decimal;
  readonly realizedPnl: Decimal;
}

/** What the periodic status line shows. */
export interface KernelStatus {
  readonly engine: string;
  readonly positions: readonly PositionStatus[];
  readonly openOrders: number;
  readonly equity?: Decimal;
  readonly intents: number;
  readonly errors: number;
  readonly conflatedBooks: number;
}

/**
 * One bot: strategy engine -> trading pipeline (risk gate) -> execution adapter -> venue port,
 * with reports flowing back. The same object runs live, against the sandbox and in a backtest;
 * only the venue, the market source, the clock and the schedulers differ.
 *
 * Start order matters: the pipeline listens first, the adapter reconciles with the venue (its
 * open orders and balances are the truth), then the engine starts and receives what the
 * reconciliation found before any new event.
 */
export class BotKernel {
  readonly ids: ClientOrderIdGenerator;
  readonly adapter: ExecutionAdapter;
  readonly pipeline: TradingPipeline;
  readonly engine: StrategyEngine;
  readonly ledger = new ReservationLedger();
  /** Dry runs of the order path between intents ({@link BotKernelOptions.keepOrderPathWarmMs}); absent when off. */
  readonly warmer: OrderPathWarmer | undefined;
  /** Where the kernel's timers run: market time in paper and live, the replay's in a backtest. */
  readonly schedulers: RuntimeSchedulers;
  private rehearsed: RehearsalSummary | undefined;
  /** The start-up rehearsal's kernel, kept for the warmer to show books to while the bot trades. */
  private standing: StandingRehearsal | undefined;
  /** Resolves once the warmer and the standing rehearsal have stopped (set by {@link requestStop}). */
  private warmStopped: Promise<unknown> = Promise.resolve();
  private readonly subscriptions: Subscription[] = [];
  private readonly logger: RuntimeLogger;
  private started = false;
  private stopRequested = false;

  constructor(private readonly options: BotKernelOptions) {
    this.schedulers = options.schedulers;
    this.logger = options.logger ?? SILENT_LOGGER;
    const hooks = options.hooks ?? {};
    this.ids = new ClientOrderIdGenerator(options.botId, options.clock, options.resumeIds);
    const bySymbol = new Map(options.instruments.map((i) => [i.symbol, i]));
    this.adapter = new ExecutionAdapter({
      venue: options.venue, gateway: options.gateway, onLatency: options.onLatency, leverage: options.leverage, finishedOrdersKept: options.finishedOrdersKept, symbols: options.instruments.map((i) => i.symbol), ids: this.ids, clock: options.clock, unknownOrders: options.unknownOrders,
      adoptAs: options.strategyId, recovery: options.recovery, decisionFrame: () => this.engine.decisionFrame, onTrack: hooks.onTrack?.bind(hooks), onAdopt: hooks.onAdopt?.bind(hooks), onFill: hooks.onFill?.bind(hooks), onOrderFinished: hooks.onOrderFinished?.bind(hooks),
      currencies: (symbol) => {
        const info = bySymbol.get(symbol);
        return info === undefined ? undefined : { base: info.baseCurrency, quote: info.quoteCurrency, fee: info.info.fee_currency ?? info.quoteCurrency };
      },
    });
    const rateWindow = new OrderRateWindow();
    const gate = new RiskGate(options.risk, this.ledger, rateWindow, options.instruments, options.venue.account);
    const warm = options.keepOrderPathWarmMs;
    const onVerdict = warm === undefined ? hooks.onVerdict?.bind(hooks) : (verdict: IntentVerdict): void => {
      if (verdict.kind === 'passed') this.warmer?.passed(verdict.intent);
      hooks.onVerdict?.(verdict);
    };
    this.pipeline = new TradingPipeline({
      gate, executor: this.adapter, clock: options.clock,
      instruments: options.instruments, ledger: this.ledger, rateWindow, logger: this.logger, onVerdict,
    });
    this.warmer = warm === undefined ? undefined : new OrderPathWarmer(gate, this.pipeline.risk, options.schedulers.timers, warm, (error) => {
      this.logger.log('warn', 'keeping the order path warm stopped: a rehearsal book or a dry run of the risk checks failed', { error: String(error) });
    });
    const market = options.market;
    this.engine = new StrategyEngine({
      strategyId: options.strategyId, strategy: options.plugin.create(options.params), params: options.params,
      sink: this.pipeline, account: this.pipeline, intentsBefore: options.intentsBefore, clock: options.clock, schedulers: options.schedulers,
      errorPolicy: options.errorPolicy, logger: this.logger, instruments: (symbol) => bySymbol.get(symbol), closedHandlesKept: options.closedHandlesKept,
      positions: (symbol) => withMargin(symbol, this.adapter.account.positions.position(options.strategyId, symbol), this.adapter.account.marginAccount(symbol)),
      nextClientOrderId: () => this.ids.next(),
      freeBalance: (currency) => (this.adapter.account.balance(currency) === undefined ? undefined : this.ledger.free(currency).toDecimal()),
      onIndicator: hooks.onIndicator?.bind(hooks),
      market: { books$: market.books$, market$: market.market$, candleClosed$: market.candleClosed$ ?? closedCandles(market.market$) },
    });
    if (hooks.onOrderUpdate !== undefined) this.subscriptions.push(this.adapter.reports$.subscribe((r) => { if (r.kind === 'order') hooks.onOrderUpdate?.(r); }));
  }

  /**
   * Restores orders and executions from before a restart (the journal); call before {@link start},
   * whose reconciliation then settles each restored order against the venue.
   */
  restore(orders: readonly { readonly info: TrackedOrderInfo; readonly fills: readonly OrderFill[]; readonly finished: boolean }[]): void {
    if (this.started) throw new Error('BotKernel.restore must come before start');
    for (const order of orders) this.adapter.account.restore(order.info, order.fills, order.finished);
  }

  /**
   * Connects, reconciles with the venue, then starts the strategy, unless a stop was asked for
   * meanwhile ({@link requestStop}): then the strategy never starts. A bot that keeps its order
   * path warm rehearses it meanwhile (the reconciliation mostly waits for the venue's answers),
   * and starts the strategy once both are done.
   */
  async start(): Promise<ReconcileSummary> {
    if (this.started) throw new Error('BotKernel already started');
    this.started = true;
    const rehearsing = this.options.keepOrderPathWarmMs === undefined ? undefined : this.rehearse();
    this.pipeline.connect(this.options.market.books$, this.options.market.market$);
    const [summary] = await Promise.all([this.adapter.start(), rehearsing]);
    this.pipeline.syncAll();
    this.logger.log('info', 'reconciled with the venue', {
      adopted: summary.adopted.length, open: this.adapter.account.open().length,
    });
    if (this.stopRequested) {
      this.logger.log('info', 'stop asked during start-up: the strategy is not started');
      return summary;
    }
    const own = this.adapter.account.open(this.options.strategyId).flatMap((t) => (t.order === undefined ? [] : [{ ...t.order, trades: undefined, intentId: t.intentId }]));
    this.engine.start(own);
    this.warmer?.start(this.standing);
    return summary;
  }

  /**
   * The order-path rehearsal (see order-path-rehearsal.ts). A rehearsal that fails costs the bot
   * nothing but the compiled code it was to bring: it is logged, and the bot starts.
   */
  private async rehearse(): Promise<void> {
    try {
      const { summary: rehearsal, standing } = await rehearseOrderPath(this.options, (options) => new BotKernel(options), REHEARSAL_BOOKS, () => this.stopRequested, true);
      this.rehearsed = rehearsal;
      this.standing = standing;
      // A stop asked as the rehearsal ended: the standing one stops with the bot's.
      if (this.stopRequested) this.warmStopped = Promise.all([this.warmStopped, standing?.stop()]);
      this.logger.log('info', 'order path rehearsed', { books: rehearsal.books, requests: rehearsal.requests, strategy: rehearsal.strategy, ms: Math.round(rehearsal.ms) });
    } catch (error) {
      this.logger.log('warn', 'the order-path rehearsal failed; the bot starts without it', { error: String(error) });
    }
  }

  /** What the start-up rehearsal of the order path did; absent when it did not run (or failed). */
  get rehearsal(): RehearsalSummary | undefined {
    return this.rehearsed;
  }

  /** The rehearsal kernel kept standing while the bot trades; absent when none was kept. */
  get standingRehearsal(): StandingRehearsal | undefined {
    return this.standing;
  }

  /** Whether a stop was asked for. */
  get stopping(): boolean {
    return this.stopRequested;
  }

  /**
   * Marks the bot as stopping, synchronously, at any moment (start-up included): the strategy gets
   * no more events (its `onStop` runs if it had started) and no intent that makes orders reaches
   * the venue any more; a strategy not started yet never starts. {@link stop} does the rest.
   */
  requestStop(): void {
    if (this.stopRequested) return;
    this.stopRequested = true;
    this.warmStopped = Promise.all([this.warmer?.stop(), this.standing?.stop()]).catch((error: unknown) => {
      this.logger.log('warn', 'the standing order-path rehearsal did not stop cleanly', { error: String(error) });
    });
    this.adapter.refuseNewOrders();
    this.engine.stop();
  }

  /**
   * Stops at any moment, start-up included: {@link requestStop}, so the strategy stops first (its
   * `onStop` intents still go out if it had started, but only cancels and position closes: intents
   * that make orders are refused), then the bot's orders are wound up by {@link shutdownOrders}
   * (answers of requests in flight awaited, at most `shutdownTimeoutMs`; pending orders looked up;
   * by policy every open order of the bot canceled; missed executions booked), then everything is
   * released. Resolves to what was canceled and what was left.
   */
  async stop(onShutdown: 'cancel' | 'keep'): Promise<OrderShutdownSummary> {
    this.requestStop();
    const summary = await shutdownOrders(this.adapter, {
      cancel: onShutdown === 'cancel', timeoutMs: this.options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
    });
    await this.warmStopped;
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    this.pipeline.close();
    this.adapter.stop();
    return summary;
  }

  /** Figures for the status line. */
  status(): KernelStatus {
    const positions: PositionStatus[] = [];
    for (const instrument of this.options.instruments) {
      const p = this.adapter.account.positions.position(this.options.strategyId, instrument.symbol);
      if (p !== undefined) positions.push({ symbol: instrument.symbol, quantity: p.quantity, averagePrice: p.averagePrice, realizedPnl: p.realizedPnl });
    }
    const stats = this.engine.stats;
    return {
      engine: this.engine.status, positions, openOrders: this.adapter.account.open().length,
      equity: this.pipeline.equity?.ready === true ? this.pipeline.equity.current : undefined,
      intents: stats.intents, errors: stats.errors, conflatedBooks: stats.conflatedBooks,
    };
  }
}

/** Formats a status as one line: positions, realized PnL, open orders, equity, counters. */
export function formatStatus(status: KernelStatus): string {
  const positions = status.positions.length === 0
    ? 'flat'
    : status.positions.map((p) => `${p.symbol} ${p.quantity.isNegative() ? '' : '+'}${p.quantity.toFixed()}${p.averagePrice === undefined ? '' : ` @ ${p.averagePrice.toSignificantDigits(10).toFixed()}`}`).join(', ');
  const realized = status.positions.reduce((sum, p) => sum.plus(p.realizedPnl), ZERO);
  const equity = status.equity === undefined ? '' : ` | equity ${status.equity.toDecimalPlaces(2).toFixed()}`;
  return `[${status.engine}] ${positions} | realized ${realized.toSignificantDigits(10).toFixed()} | open orders ${status.openOrders}${equity} | intents ${status.intents} errors ${status.errors}`;
}
