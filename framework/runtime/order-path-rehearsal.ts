import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers/promises';
import { NEVER, Subject } from 'rxjs';
import type { BookEvent } from '../exchange/book/book-event.js';
import { OrderBook } from '../exchange/book/order-book.js';
import { RehearsalVenuePort } from '../execution/rehearsal-venue-port.js';
import type { Instrument } from '../model/instrument.js';
import { parseRiskConfig, type RiskConfig } from '../risk/risk-config.js';
import type { Clock } from '../time/clock.js';
import type { BotKernel, BotKernelOptions } from './bot-kernel.js';
import { liveSchedulers, SILENT_LOGGER } from './runtime-ports.js';
import type { OrderHandle } from './order-handle.js';
import type { Strategy, StrategyContext, StrategyPlugin } from './strategy.js';

/** Books a rehearsal shows its strategy (each makes up to two intents): about 0.2-0.3 s at start-up. */
export const REHEARSAL_BOOKS = 1000;

/** What a rehearsal did. */
export interface RehearsalSummary {
  /** Books shown to the rehearsal strategies, per symbol (both runs when there were two). */
  readonly books: number;
  /** Order requests (places, replaces, cancels) that reached the rehearsal venue. */
  readonly requests: number;
  /**
   * The strategies rehearsed: the built-in quoting strategy, then, when its plugin is
   * {@link StrategyPlugin.rehearsable}, the bot's own (`both`).
   */
  readonly strategy: 'built-in' | 'both';
  readonly ms: number;
}

/** A rehearsal's summary and, when one was asked for, its {@link StandingRehearsal}. */
export interface RehearsalOutcome {
  readonly summary: RehearsalSummary;
  readonly standing: StandingRehearsal | undefined;
}

/**
 * Finished orders and closed handles a standing rehearsal keeps (its stand-in venue never sends a
 * late report): it runs for the bot's whole life, and the defaults would keep some 6 MiB of them.
 */
const STANDING_FINISHED_KEPT = 64;

/**
 * Rehearses the order path of a bot before it trades, so that its first intents, and every one
 * after, run compiled code. At a live bot's pace (a few intents a second) V8 never optimises the
 * code between a strategy's intent and the venue port: too few calls reach its threshold, and the
 * first intent of a bot also compiles every function it meets. A rehearsal runs a second kernel of
 * the same classes as `options` describe (risk config, instruments, strategy id) against a
 * {@link RehearsalVenuePort} (accepts everything, answers at once, fills one order in twenty) and
 * shows it synthetic books: first with a built-in strategy that places, moves and cancels one-lot
 * quotes a few ticks from the books (some thousand intents through the very functions the bot's
 * own intents take), then, when the bot's plugin is {@link StrategyPlugin.rehearsable}, with new
 * instances (two, half the books each) of the bot's own strategy and parameters, so that its code
 * is compiled too and the order path has seen its intents last (the bot's strategy alone would
 * leave the paths it seldom takes, such as cancels, cold: measured, its later intents then waited
 * for them). A rehearsal touches nothing of the bot: its own ids, account, ledger and no journal,
 * log or latency sample. Its clock runs a second ahead per book, so the order-rate window of the
 * risk config never refuses it.
 *
 * With `standing`, the built-in strategy's kernel is not stopped but handed back as a
 * {@link StandingRehearsal}, which the bot shows a book now and then while it trades.
 *
 * Spot accounts only: a margin or futures account reconciles margin accounts and leverage, which
 * the rehearsal venue does not hold (their rehearsal returns at once, with nothing done).
 * `stopped` is asked between books: a stop asked during start-up ends the rehearsal there.
 */
export async function rehearseOrderPath(
  options: BotKernelOptions,
  createKernel: (options: BotKernelOptions) => BotKernel,
  books: number,
  stopped: () => boolean,
  standing = false,
): Promise<RehearsalOutcome> {
  const started = performance.now();
  if (options.venue.account !== 'spot' || options.instruments.length === 0) {
    return { summary: { books: 0, requests: 0, strategy: 'built-in', ms: 0 }, standing: undefined };
  }
  const builtIn = new RehearsalRun(options, createKernel, REHEARSAL_PLUGIN as StrategyPlugin, undefined, standing ? STANDING_FINISHED_KEPT : undefined);
  let kept: StandingRehearsal | undefined;
  try {
    await builtIn.run(books, stopped);
    kept = standing && !stopped() ? new StandingRehearsal(builtIn) : undefined;
  } finally {
    if (kept === undefined) await builtIn.stop();
  }
  // Two instances of the bot's strategy, half the books each: calls between the functions a strategy
  // makes per instance (closures) are then compiled for any instance, the bot's own included,
  // rather than for the one instance a single rehearsal showed (its first live call would undo it).
  let own: { books: number; requests: number } | undefined;
  try {
    if (options.plugin.rehearsable === true) {
      const first = await rehearseOnce(options, createKernel, options.plugin, options.params, Math.ceil(books / 2), stopped);
      const second = await rehearseOnce(options, createKernel, options.plugin, options.params, Math.floor(books / 2), stopped);
      own = { books: first.books + second.books, requests: first.requests + second.requests };
    }
  } catch (error) {
    await kept?.stop();
    throw error;
  }
  if (kept !== undefined && stopped()) {
    await kept.stop();
    kept = undefined;
  }
  const summary: RehearsalSummary = {
    books: builtIn.books + (own?.books ?? 0), requests: builtIn.requests + (own?.requests ?? 0),
    strategy: own === undefined ? 'built-in' : 'both', ms: performance.now() - started,
  };
  return { summary, standing: kept };
}

/** One rehearsal kernel running `plugin` with `params` on `books` synthetic books, then stopped. */
async function rehearseOnce(
  options: BotKernelOptions,
  createKernel: (options: BotKernelOptions) => BotKernel,
  plugin: StrategyPlugin,
  params: unknown,
  books: number,
  stopped: () => boolean,
): Promise<{ books: number; requests: number }> {
  const run = new RehearsalRun(options, createKernel, plugin, params, undefined);
  try {
    await run.run(books, stopped);
  } finally {
    await run.stop();
  }
  return { books: run.books, requests: run.requests };
}

/** A rehearsal kernel, its stand-in venue, its clock and its synthetic books. */
class RehearsalRun {
  readonly kernel: BotKernel;
  private readonly clock: RehearsalClock;
  private readonly venue: RehearsalVenuePort;
  private readonly bookEvents = new Subject<BookEvent>();
  private readonly ladders: readonly { readonly instrument: Instrument; readonly book: OrderBook }[];
  /** Books shown so far, per symbol. */
  books = 0;

  constructor(
    options: BotKernelOptions,
    createKernel: (options: BotKernelOptions) => BotKernel,
    plugin: StrategyPlugin,
    params: unknown,
    finishedOrdersKept: number | undefined,
  ) {
    this.clock = new RehearsalClock(options.clock);
    const currencies = [...new Set(options.instruments.flatMap((i) => [i.baseCurrency ?? [], i.quoteCurrency, i.info.fee_currency ?? i.quoteCurrency].flat()))];
    this.venue = new RehearsalVenuePort('spot', this.clock, currencies);
    this.kernel = createKernel({
      ...options, botId: 'rehearsal', plugin, params, errorPolicy: 'halt', finishedOrdersKept, closedHandlesKept: finishedOrdersKept,
      // Its mids jump between two magnitudes, which a drawdown or daily-loss limit reads as losses:
      // an engaged kill switch would deny its intents. The bot's own gate keeps that check warm
      // (the warmer's dry runs run every check the bot has).
      risk: withoutKillSwitch(options.risk),
      // Live schedulers whatever the bot's: the rehearsal runs now, in wall time, not in a replay's.
      market: { books$: this.bookEvents, market$: NEVER }, venue: this.venue, gateway: undefined, clock: this.clock, schedulers: liveSchedulers(),
      logger: SILENT_LOGGER, hooks: undefined, onLatency: undefined, resumeIds: undefined, intentsBefore: undefined, leverage: undefined, keepOrderPathWarmMs: undefined,
    });
    this.ladders = options.instruments.map((instrument) => ({ instrument, book: new OrderBook(instrument.symbol, { instrument }) }));
  }

  /** Order requests answered by the stand-in venue so far. */
  get requests(): number {
    return this.venue.requests;
  }

  /** Starts the kernel and shows it `books` books, one turn of the event loop each, unless `stopped` says so first. */
  async run(books: number, stopped: () => boolean): Promise<void> {
    await this.kernel.start();
    for (let shown = 0; shown < books && !stopped(); shown++) {
      this.show();
      // Answers and reports come back as they would from a socket: in later turns.
      await setImmediate();
    }
  }

  /** Shows the kernel the next synthetic book of each instrument; its clock moves a second on. */
  show(): void {
    const n = this.books++;
    const time = this.clock.now();
    for (const { instrument, book } of this.ladders) {
      book.apply(syntheticFrame(instrument, n, time));
      this.bookEvents.next({ kind: n === 0 ? 'snapshot' : 'update', symbol: instrument.symbol, sequence: n, book });
    }
    this.clock.advance(1000);
  }

  /** Stops the kernel (its orders canceled at the stand-in venue) and ends its streams. */
  async stop(): Promise<void> {
    try {
      await this.kernel.stop('cancel');
    } finally {
      this.bookEvents.complete();
      this.venue.close();
    }
  }
}

/**
 * The built-in strategy's rehearsal kernel, kept after the start-up rehearsal and shown one more
 * synthetic book at a time while the bot trades ({@link OrderPathWarmer} does it every so many ms
 * while the bot is idle). A bot sends a few intents a second: between two, its order path went
 * through deoptimisations that its own calls are too few to repair (an object of a shape the
 * rehearsal's did not have), and its code and data left the caches. Measured against the sandbox,
 * a market maker's tick-to-intent median went from ~115 to ~75-85 µs with a book every 5 ms, and
 * its risk gate and execution adapter from ~60 to ~30 µs. The same code run back to back takes
 * ~10 µs. A step costs ~0.3 ms of CPU (the stand-in venue answers and reports in the exchange's
 * wire form, read by the client's parsers): ~7% of a core at 5 ms, ~3% at 20 ms. Like the
 * start-up rehearsal, it touches nothing of the bot.
 */
export class StandingRehearsal {
  private stopping: Promise<void> | undefined;

  /** @internal Made by {@link rehearseOrderPath}. */
  constructor(private readonly run: RehearsalRun) {}

  /** Books shown since the start-up rehearsal began (per symbol). */
  get books(): number {
    return this.run.books;
  }

  /** Order requests its stand-in venue answered so far. */
  get requests(): number {
    return this.run.requests;
  }

  /**
   * Whether it still takes books: not once stopped, nor once its kernel's strategy halted (a
   * failed intent or handler stops a rehearsal kernel, which then sends nothing).
   */
  get active(): boolean {
    return this.stopping === undefined && this.run.kernel.engine.status === 'running';
  }

  /** Shows the rehearsal kernel one more synthetic book; false (and nothing done) when not {@link active}. */
  step(): boolean {
    if (!this.active) return false;
    this.run.show();
    return true;
  }

  /** Stops its kernel and closes its stand-in venue (once; later calls wait for the same stop). */
  stop(): Promise<void> {
    this.stopping ??= this.run.stop();
    return this.stopping;
  }
}

/**
 * Ticks of the synthetic mids: far from zero at any tick size, one a small count and one beyond
 * 2^32, so that the code meets the magnitudes of any market (V8 compiles arithmetic for the number
 * types it has seen; a first larger value would send it back to the interpreter).
 */
const MID_TICKS = [10_000, 2 ** 33 + 10_000];

/**
 * The mid, in ticks, of the `stage`th stretch of a rehearsal's synthetic market: the
 * {@link MID_TICKS} in turn (the order path's books and the feed's messages take the same ones).
 */
export function rehearsalMidTicks(stage: number): number {
  return MID_TICKS[stage % MID_TICKS.length] as number;
}

/** Books at one synthetic mid before the next. */
const MID_SPAN = 64;

/**
 * A one-level-a-side book around the mid of book `n`, the touch moving a tick every other book;
 * a rehearsal order is one lot.
 */
function syntheticFrame(instrument: Instrument, n: number, time: number): Parameters<OrderBook['apply']>[0] {
  const mid = rehearsalMidTicks(Math.floor(n / MID_SPAN)) + (n % 2);
  const lot = instrument.lotsToQuantity(1);
  return {
    symbol: instrument.symbol, sequence: n, exchangeTime: time, receivedAt: time, snapshot: true,
    bids: [[instrument.ticksToPrice(mid - 1), lot]], asks: [[instrument.ticksToPrice(mid + 1), lot]],
  };
}

/** `risk` (raw or parsed) with the kill switch's limits taken out. */
function withoutKillSwitch(risk: unknown): RiskConfig {
  const config = parseRiskConfig(risk);
  return { ...config, killSwitch: { flatten: false } };
}

/** The bot's clock ahead by what the rehearsal advanced it. */
class RehearsalClock implements Clock {
  private ahead = 0;

  constructor(private readonly base: Clock) {}

  now(): number {
    return this.base.now() + this.ahead;
  }

  advance(ms: number): void {
    this.ahead += ms;
  }
}

/**
 * The rehearsal's strategy: per symbol a one-lot post-only bid and ask a few ticks from the mid,
 * moved with a replace on every book (their distance cycles through four values), cancelled every
 * sixteenth book and placed again on the next: the intents a quoting bot makes most.
 */
const REHEARSAL_PLUGIN: StrategyPlugin<undefined> = {
  name: 'order-path-rehearsal',
  description: 'Places, moves and cancels one-lot quotes on synthetic books (the order-path rehearsal)',
  parseParams: () => undefined,
  create: (): Strategy<undefined> => {
    const quotes = new Map<string, { bid?: OrderHandle; ask?: OrderHandle }>();
    let books = 0;
    const quote = (ctx: StrategyContext<undefined>, instrument: Instrument, side: 'bid' | 'ask', ticks: number, cancel: boolean): OrderHandle | undefined => {
      const held = quotes.get(instrument.symbol) ?? {};
      quotes.set(instrument.symbol, held);
      const live = held[side];
      const price = instrument.ticksToDecimal(ticks);
      if (live === undefined || live.isClosed) {
        held[side] = ctx.place({
          symbol: instrument.symbol, side: side === 'bid' ? 'buy' : 'sell', type: 'limit', quantity: instrument.quantityIncrement, price, timeInForce: 'GTC', postOnly: true,
        }, 'rehearsal');
        return held[side];
      }
      if (live.status !== 'open') return undefined;
      return cancel ? ctx.cancel(live, 'rehearsal') : ctx.replace(live, live.quantity, price, 'rehearsal');
    };
    return {
      onBook: (ctx, symbol) => {
        const instrument = ctx.instrument(symbol);
        if (instrument === undefined) return undefined;
        const n = books++;
        const away = 2 + (n % 4);
        const cancel = n % 16 === 15;
        const out: OrderHandle[] = [];
        const mid = rehearsalMidTicks(Math.floor(n / MID_SPAN));
        const bid = quote(ctx, instrument, 'bid', mid - away, cancel);
        const ask = quote(ctx, instrument, 'ask', mid + away, cancel);
        if (bid !== undefined) out.push(bid);
        if (ask !== undefined) out.push(ask);
        return out;
      },
    };
  },
};
