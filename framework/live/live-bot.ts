import path from 'node:path';
import { inject, injectable } from 'inversify';
import type { BotConfig } from '../config/bot-config.js';
import { ClientOrderIdGenerator } from '../execution/client-order-ids.js';
import type { ClientVenuePort } from '../execution/client-venue-port.js';
import type { RestClient } from '../exchange/rest/rest-client.js';
import type { PublicSession } from '../exchange/ws/public-session.js';
import type { BotLogger } from '../log/logger.js';
import { ValidationError } from '../model/errors.js';
import { Instrument } from '../model/instrument.js';
import { LatencyLog } from './latency-log.js';
import { BotKernel, formatStatus } from '../runtime/bot-kernel.js';
import type { LoadedStrategy } from '../runtime/plugin-loader.js';
import type { RuntimeSchedulers } from '../runtime/runtime-ports.js';
import type { Clock } from '../time/clock.js';
import { MarketClock } from '../time/market-clock.js';
import type { Journal } from './journal.js';
import { finalAccount } from './final-account.js';
import { retryStartStep } from './start-step.js';
import { keepHelperThreadsBehind } from './helper-threads.js';
import { LiveMarketFeed } from './live-market-feed.js';
import { TOKENS } from './tokens.js';
import { TradeActivityLog, type TradeActivity } from './trade-activity-log.js';
import { bothHooks, type RunObserver } from './run-observer.js';

/** Seconds the bot waits for the trading stream and the first reconciliation. */
const START_TIMEOUT_MS = 15_000;

/** What {@link unlessStopped} resolves to when the stop came first. */
const STOPPED: unique symbol = Symbol('stopped');

/**
 * The result of a start-up step, or {@link STOPPED} when the stop comes first: the step is then
 * abandoned (its late result or failure is ignored; the shutdown deals with what it left).
 */
function unlessStopped<T>(work: Promise<T>, stopped: Promise<typeof STOPPED>): Promise<T | typeof STOPPED> {
  return Promise.race([work, stopped]);
}

/** Waits `ms`; false when the stop came first. */
async function pauseUnlessStopped(ms: number, stopped: Promise<typeof STOPPED>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const paused = new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), ms)));
  try {
    return (await Promise.race([paused, stopped])) === true;
  } finally {
    clearTimeout(timer);
  }
}

/** Where a {@link LiveBot} stands; a stop may come in any phase. */
export type LiveBotPhase = 'idle' | 'starting' | 'connecting' | 'reconciling' | 'running' | 'stopping' | 'stopped';

/**
 * A long-lived bot: fetches its instruments, recovers its journal, connects the trading stream and
 * the market feed, reconciles with the exchange (its open orders and balances are the truth;
 * journaled orders are settled by lookup, unknown ones adopted or canceled by config), starts the
 * strategy, logs each order and fill and a status line periodically, and on stop shuts down in order: strategy first,
 * then open orders by policy, then the journal is flushed and every connection closed.
 */
@injectable()
export class LiveBot {
  private kernel: BotKernel | undefined;
  private activityLog: TradeActivityLog | undefined;
  private currentPhase: LiveBotPhase = 'idle';
  private marketSubscribed!: () => void;
  /**
   * Resolves once a run has subscribed its market data, the strategy running: the moment a paper
   * exchange starts its replay, so the bot sees the market from its first frame. Never resolves
   * for a run stopped before.
   */
  readonly trading: Promise<void> = new Promise<void>((resolve) => (this.marketSubscribed = resolve));

  constructor(
    @inject(TOKENS.Config) private readonly config: BotConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Schedulers) private readonly schedulers: RuntimeSchedulers,
    @inject(TOKENS.Logger) private readonly log: BotLogger,
    @inject(TOKENS.RestClient) private readonly rest: RestClient,
    @inject(TOKENS.PublicSession) private readonly publicSession: PublicSession,
    @inject(TOKENS.VenuePort) private readonly venue: ClientVenuePort,
    @inject(TOKENS.Journal) private readonly journal: Journal,
    @inject(TOKENS.Strategy) private readonly strategy: LoadedStrategy,
  ) {}

  /** The running kernel (status, tests); undefined before {@link run} started it. */
  get current(): BotKernel | undefined {
    return this.kernel;
  }

  /** The phase of the current or last run. */
  get phase(): LiveBotPhase {
    return this.currentPhase;
  }

  /** Orders and fills of the current or last run (zero before {@link run}). */
  get activity(): TradeActivity {
    return this.activityLog?.activity ?? { orders: 0, fills: 0, feesBySymbol: new Map() };
  }

  /**
   * Runs until `stop` resolves (SIGINT/SIGTERM in the CLI), then shuts down; resolves to the exit
   * code. A stop may come at any moment: while the instruments are fetched nothing has started and
   * the bot just returns; while connecting or reconciling the start-up is abandoned (the strategy
   * never starts) and the shutdown runs as it would later: the answers of requests in flight are
   * awaited (`execution.shutdownTimeoutMs`), pending orders looked up, open orders canceled by
   * policy, and one log line says what was canceled and what was left. An `observer` (a report
   * folder) is told every event and, once the run has stopped, finishes before the connections close.
   */
  async run(stop: Promise<unknown>, observer?: RunObserver): Promise<number> {
    const logger = this.log.runtime;
    const { config } = this;
    let stopAsked = false;
    // Marks the kernel as stopping in the same turn as the stop, before any strategy event or intent can run.
    const stopped = stop.then((): typeof STOPPED => {
      stopAsked = true;
      this.kernel?.requestStop();
      return STOPPED;
    });
    this.currentPhase = 'starting';
    const retrying = <T>(what: string, step: () => Promise<T>): Promise<T | typeof STOPPED> => unlessStopped(
      retryStartStep(step, { what, logger, now: () => this.clock.now(), pause: (ms) => pauseUnlessStopped(ms, stopped) })
        .then((value) => (value === undefined ? STOPPED : value)),
      stopped,
    );
    const instruments = await retrying('fetching the instruments', () => this.instruments()).catch((error: unknown) => {
      this.currentPhase = 'stopped';
      throw error;
    });
    if (instruments === STOPPED) {
      this.currentPhase = 'stopped';
      logger.log('info', 'stopped before start: nothing was connected or placed');
      return 0;
    }
    const recovered = this.journal.recover(new ClientOrderIdGenerator(config.bot.id, this.clock));
    if (recovered.skippedLines > 0) logger.log('warn', 'journal lines skipped (cut off by a crash)', { lines: recovered.skippedLines });
    const compaction = this.journal.open();
    if (compaction !== undefined) logger.log(compaction.failed === undefined ? 'info' : 'warn', 'journal compacted', { ...compaction });
    const activityLog = (this.activityLog = new TradeActivityLog(logger, observer === undefined ? this.journal : bothHooks(this.journal, observer)));
    const clock = this.clock;
    const feed = new LiveMarketFeed({
      session: this.publicSession, instruments, candles: config.strategy.candles, logger,
      onExchangeTime: clock instanceof MarketClock ? (time) => clock.observe(time) : undefined,
    });
    const latencyLog = new LatencyLog(path.join(config.journal.dir, `${config.bot.id}.latency.jsonl`));
    const kernel = new BotKernel({
      botId: config.bot.id, strategyId: this.strategy.plugin.name, plugin: this.strategy.plugin, params: this.strategy.params, instruments,
      market: { books$: feed.books$, market$: feed.market$ }, venue: this.venue, clock: this.clock, schedulers: this.schedulers,
      risk: config.risk, errorPolicy: config.strategy.errorPolicy, unknownOrders: config.execution.unknownOrders, logger,
      hooks: activityLog, resumeIds: recovered.ids, intentsBefore: recovered.intents.get(this.strategy.plugin.name),
      shutdownTimeoutMs: config.execution.shutdownTimeoutMs, onLatency: (sample) => latencyLog.record(sample), leverage: config.bot.leverage,
      keepOrderPathWarmMs: config.execution.keepOrderPathWarmMs === 0 ? undefined : config.execution.keepOrderPathWarmMs,
    });
    this.kernel = kernel;
    observer?.attach?.(kernel, instruments);
    kernel.restore(recovered.orders);
    if (stopAsked) kernel.requestStop();
    let statusTimer: NodeJS.Timeout | undefined;
    let keepHelpersBehind: (() => void) | undefined;
    try {
      this.currentPhase = 'connecting';
      if (!stopAsked && await unlessStopped(this.venue.start(START_TIMEOUT_MS), stopped) !== STOPPED) {
        this.currentPhase = 'reconciling';
        const summary = await unlessStopped(kernel.start(), stopped);
        if (summary !== STOPPED && !stopAsked) {
          this.currentPhase = 'running';
          const open = kernel.adapter.account.open().map((t) => t.clientOrderId);
          this.journal.note('reconciled', { open, adopted: summary.adopted, canceled: summary.canceled, missing: summary.missing });
          logger.log('info', 'bot started', { bot: config.bot.id, strategy: this.strategy.plugin.name, symbols: config.strategy.symbols, openOrders: open.length, restored: recovered.orders.length });
          // The order path is rehearsed by now (kernel.start); the way of book messages to it too.
          if (kernel.rehearsal !== undefined) {
            const { messages, bookEvents, ms } = feed.rehearse();
            logger.log('info', 'book messages rehearsed', { messages, bookEvents, ms: Math.round(ms) });
          }
          // Its helper threads run behind the thread that handles books and intents from here on.
          keepHelpersBehind = keepHelperThreadsBehind(config.execution.helperThreadNiceness);
          // The step resolves to nothing either way: subscribed, or stopped during a pause.
          await retrying('subscribing the market data', () => feed.start());
          if (!stopAsked) this.marketSubscribed();
          if (config.status.intervalMs > 0 && !stopAsked) {
            statusTimer = setInterval(() => logger.log('info', formatStatus(kernel.status())), config.status.intervalMs);
          }
        }
      }
      await stopped;
      logger.log('info', 'stopping', { onShutdown: config.execution.onShutdown, strategy: kernel.engine.status });
      return 0;
    } finally {
      this.currentPhase = 'stopping';
      if (statusTimer !== undefined) clearInterval(statusTimer);
      keepHelpersBehind?.();
      const wound = await kernel.stop(config.execution.onShutdown).catch((error: unknown) => {
        logger.log('error', 'shutdown failed', { error: String(error) });
        return undefined;
      });
      const open = kernel.adapter.account.open().map((t) => t.clientOrderId);
      this.journal.note('stopped', { open, canceled: wound?.canceled ?? [], left: wound?.left ?? open, ...finalAccount(kernel, this.strategy.plugin.name, instruments) });
      if (wound !== undefined) {
        logger.log(wound.left.length === 0 ? 'info' : 'warn', `stopped: ${wound.canceled.length} order(s) canceled, ${wound.left.length} left`, {
          canceled: wound.canceled, left: wound.left, timedOut: wound.timedOut, onShutdown: config.execution.onShutdown,
        });
      }
      logger.log('info', formatStatus(kernel.status()));
      await (async () => observer?.finish?.(kernel))().catch((error: unknown) => logger.log('error', 'writing the run\'s report failed', { error: String(error) }));
      this.journal.close();
      await latencyLog.close();
      await feed.close();
      this.venue.close();
      this.currentPhase = 'stopped';
    }
  }

  private async instruments(): Promise<Instrument[]> {
    const symbols = this.config.strategy.symbols;
    const infos = await this.rest.marketData.getSymbols({ symbols: [...symbols] });
    return symbols.map((symbol, index) => {
      const info = infos[symbol];
      if (info === undefined) throw new ValidationError(`strategy.symbols[${index}]`, 'is not a symbol of the exchange', symbol);
      // One bot trades one account: futures contracts on a futures account, spot pairs on spot,
      // spot pairs with margin trading on margin.
      const account = this.config.bot.account;
      if ((info.type === 'futures') !== (account === 'futures')) {
        throw new ValidationError(`strategy.symbols[${index}]`, `must be ${account === 'futures' ? 'a futures contract' : 'a spot pair'} on a ${account} account (bot.account)`, symbol);
      }
      if (account === 'margin' && !info.margin_trading) {
        throw new ValidationError(`strategy.symbols[${index}]`, 'must be a pair with margin trading on a margin account (bot.account)', symbol);
      }
      return new Instrument(symbol, info);
    });
  }
}
