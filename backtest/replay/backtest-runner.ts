import { performance } from 'node:perf_hooks';
import { share } from 'rxjs';
import type { OrderBook } from '../../framework/exchange/book/order-book.js';
import type { AccountBalances } from '../venue/ledger.js';
import { marginFunding } from '../venue/margin/margin-funding.js';
import { SimulatedVenuePort } from '../venue/simulated-venue-port.js';
import { Decimal, toWire } from '../../framework/model/decimal.js';
import type { TradingBalance } from '../../framework/model/resources/balance.js';
import { ParseError, ValidationError } from '../../framework/model/errors.js';
import { Instrument } from '../../framework/model/instrument.js';
import type { CandlePeriod } from '../../framework/model/resources/candle.js';
import type { CandlesEvent } from '../../framework/model/stream/market-events.js';
import { BotKernel } from '../../framework/runtime/bot-kernel.js';
import { closedCandles } from '../../framework/runtime/candle-closer.js';
import { SILENT_LOGGER, virtualSchedulers, type RuntimeLogger } from '../../framework/runtime/runtime-ports.js';
import type { ErrorPolicy } from '../../framework/runtime/strategy-engine.js';
import type { StrategyPlugin } from '../../framework/runtime/strategy.js';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../framework/time/clock.js';
import type { BacktestResult, FuturesRunFacts } from '../report/backtest-result.js';
import { DEFAULT_ORDER_LATENCY, type LatencySpec } from '../../framework/config/latency-spec.js';
import type { LatencyModel } from '../venue/matching/latency-model.js';
import { latencyModelOf } from '../venue/matching/recorded-latency.js';
import { ReplayedSymbolMarket } from '../venue/matching/replayed-symbol-market.js';
import { queueModelNamed } from '../venue/matching/queue-model.js';
import { SimulatedVenue } from '../venue/simulated-venue.js';
import { liquidationOrderReport } from '../venue/futures/liquidation-order-report.js';
import { MarketLineDecoder } from '../recording/market-line-decoder.js';
import { CandleFeed } from './candle-feed.js';
import { SimulatedGateway } from './simulated-gateway.js';
import { mergeFrameBatches, type LineDecoder } from '../recording/frame-batches.js';
import { CandleLineDecoder } from '../recording/candle-line-decoder.js';
import { FrameQueue } from './frame-queue.js';
import { RecordingError } from '../recording/recording-error.js';
import type { RecordingHeader } from '../recording/recording-format.js';
import { describeRecordingRead, RecordingReadLog } from '../recording/recording-read-log.js';
import { RecordingReader } from '../recording/recording-reader.js';
import { ReplayMarketFeed, type ParsedFrame } from './replay-market-feed.js';
import { ResultCollector, type BookTop } from './result-collector.js';
import { FuturesMarginSampler } from './futures-margin-sampler.js';
import { futuresPositionRows } from '../report/futures-positions.js';
import type { FuturesReport } from '../report/futures-report.js';
import { StreamedRowsWriter } from '../report/streamed-rows-writer.js';
import { channelsAhead, scanChannels } from './scan-channels.js';

/** Finest width of the report's chart series (bars, book tops, indicators); they coarsen as a run grows. */
const CHART_FINEST_MS = 1_000;

/** Everything one backtest run needs. */
export interface BacktestOptions {
  /** Plugin reference as configured (for the report). */
  readonly strategyRef: string;
  readonly plugin: StrategyPlugin;
  /** Validated by the plugin already. */
  readonly params: unknown;
  readonly symbols: readonly string[];
  readonly recordings: readonly string[];
  /**
   * The account traded (`bot.account`); by default the one the symbols need (futures contracts:
   * futures; spot pairs: spot). `margin` trades the spot pairs' isolated margin accounts.
   */
  readonly account?: 'spot' | 'margin' | 'futures';
  /** Queue position model of resting orders by name (`trades-only`, the default; see queue-model.ts). */
  readonly queueModel?: string;
  /** Futures: the leverage set on these contracts before the strategy starts (`bot.leverage`). */
  readonly leverage?: Readonly<Record<string, Decimal>>;
  /**
   * Starting balances of the simulated account (the futures account's margin currencies on futures;
   * on margin, a quote currency's amount is the margin balance of the isolated account of the one
   * symbol quoted in it, the other currencies stay on spot).
   */
  readonly balances: Readonly<Record<string, Decimal | string>>;
  readonly risk?: unknown;
  /** Seeds the latency jitter; the run is a pure function of (recordings, strategy, params, seed). */
  readonly seed?: number;
  /** How requests and their answers are delayed (jitter drawn from `seed`); {@link DEFAULT_ORDER_LATENCY} by default. */
  readonly latency?: LatencySpec;
  /** Candle period the strategy wants; built from trades when the recording has none. */
  readonly candles?: CandlePeriod;
  /** Slippage of candle-only backtests (market orders fill at the next open +/- this). */
  readonly candleSlippageBps?: number;
  readonly errorPolicy?: ErrorPolicy;
  readonly botId?: string;
  readonly logger?: RuntimeLogger;
  /** Equity sampling period (virtual ms); 60 s by default. */
  readonly sampleMs?: number;
  /**
   * Decode `orderbook/full`, `trades` and `candles/{period}` lines straight from the bytes (true,
   * the default) or parse every line with JSON.parse and the live frame parsers (false): the
   * results are the same, the default is faster; false is there to check exactly that.
   */
  readonly decodeMarketLines?: boolean;
  /**
   * Refuse a damaged recording (true: its first problem is a {@link RecordingError} naming the file
   * and the line) or replay what is readable and report what was skipped (false, the default). The
   * rules: {@link RecordingLineCheck}.
   */
  readonly strictRecordings?: boolean;
  /** How far a frame's time may go back and still be replayed, at the earlier frame's time; 5 ms by default. */
  readonly backwardsToleranceMs?: number;
  /** Told of every chunk read from the recordings (bytes on disk): progress against the files' sizes. */
  readonly onBytesRead?: (bytes: number) => void;
  /**
   * Write the fills, orders and equity rows into this folder (fills.csv, orders.csv, equity.csv,
   * as `writeReport` does) as the run goes, instead of keeping them in the result: the result's
   * lists are then empty and `streamed` holds the figures and chart series worked out on the way,
   * so a long run's memory does not grow with its rows. Without it (library callers, tests) every
   * row is kept in memory.
   */
  readonly reportDir?: string;
  /** Called every `progressEvery` frames with the frames replayed so far. */
  readonly onProgress?: (frames: number) => void;
  readonly progressEvery?: number;
}

const ACCOUNT = 'backtest';
/** The REST path of recorded futures info (mark, funding, settlement prices). */
const FUTURES_INFO_PATH = '/api/3/public/futures/info';
/**
 * Canceled orders the venue keeps in its history, and finished orders the bot's account keeps:
 * nothing in a backtest reads more than the latest (an unknown outcome's lookup; reports are
 * late by the order latency at most), and a market maker cancels thousands. Each kept order is
 * a few KiB of tracker, report and venue record: at 1,000 a long replay held ~2.5 MiB more than
 * a short one, all of it orders nobody would look at again.
 */
const UNFILLED_HISTORY_KEPT = 100;

/**
 * Replays recordings through the live code path: the same {@link BotKernel} (strategy engine,
 * risk gate, execution adapter) trades against the in-process {@link SimulatedVenue} on a virtual
 * clock. Frames are merged by local receive time; for each frame the clock advances to its time
 * (timers and delayed requests due by then run first), the venue sees the market move, then the
 * strategy sees it: a strategy never sees an event before its receive time, and its orders meet
 * the market after it. No wall-clock time enters the run, so equal inputs give equal results.
 *
 * Book mode (the recording has `orderbook/full`): fills follow the venue's matching and queue
 * models. Candle mode (candles only): see {@link CandleFeed}, and CandleMarket for the fill rules.
 */
export async function runBacktest(options: BacktestOptions): Promise<BacktestResult> {
  const wallStart = performance.now();
  const logger = options.logger ?? SILENT_LOGGER;
  if (options.recordings.length === 0) throw new ValidationError('recordings', 'name at least one recording');
  const strict = options.strictRecordings === true;
  const readLog = new RecordingReadLog((message) => logger.log('warn', message));
  const { instruments, recordings } = await loadInstruments(options.recordings, options.symbols, strict, readLog);
  const account = accountOf(instruments, options.account);
  const lineDecoder = options.decodeMarketLines === false ? undefined : replayLineDecoder(instruments);
  const frames = new FrameQueue(mergeFrameBatches(recordings, {
    onError: strict ? 'throw' : 'skip', log: readLog, backwardsToleranceMs: options.backwardsToleranceMs, onBytesRead: options.onBytesRead, lineDecoder,
  })[Symbol.asyncIterator]());
  // One recording: its first frames are read once, for the channels and then for the replay.
  let channels: Set<string>;
  if (recordings.length === 1) {
    channels = await channelsAhead(frames, options.symbols, options.candles);
  } else {
    channels = await scanChannels(recordings, options.symbols);
  }
  const mode = channels.has('orderbook/full') ? 'book' : 'candles';
  if (mode === 'candles' && ![...channels].some((c) => c.startsWith('candles/'))) {
    throw new ValidationError('recordings', 'have neither orderbook/full nor candles frames for the configured symbols', recordings.join(', '));
  }
  const wantsCandles = options.candles;
  const buildCandles = wantsCandles !== undefined && !channels.has(`candles/${wantsCandles}`) ? wantsCandles : undefined;

  await frames.fill(1);
  const first = frames.peek(0);
  if (first === undefined) throw new ValidationError('recordings', 'contain no frames');

  const clock = new VirtualClock(Math.floor(first.t));
  const scheduler = new VirtualClockScheduler(clock);
  const quote = instruments[0]!.quoteCurrency;
  const port = new SimulatedVenuePort(ACCOUNT, account);
  // The venue reports from its first call on; the collector needs the kernel, built after the venue.
  const late: { collector?: ResultCollector } = {};
  const balances = Object.fromEntries(Object.entries(options.balances).map(([c, v]) => [c, toWire(new Decimal(v))]));
  const queueModel = queueModelNamed(options.queueModel ?? 'trades-only', 'backtest.queueModel');
  const venue = new SimulatedVenue(instruments, { [ACCOUNT]: startingBalances(account, instruments, balances) }, (i) => new ReplayedSymbolMarket(i, { queueModel }), (event) => {
    port.onVenueEvent(event);
    if (event.account !== ACCOUNT) return;
    if (event.kind === 'order') late.collector?.onOrderReport(event.report, venue.now(), event.cause);
    else if (event.kind === 'liquidation') late.collector?.onOrderReport(liquidationOrderReport(event.liquidation), venue.now(), event.cause);
    else if (event.kind === 'balance' && account === 'spot') late.collector?.onBalances(event.balances);
    else if (event.kind === account) late.collector?.onFutures(event.balances, event.positions);
  }, Math.floor(first.t), { maxUnfilledClosed: UNFILLED_HISTORY_KEPT });
  const accountBalances = (): TradingBalance[] => (account === 'spot' ? venue.spotBalances(ACCOUNT) : venue[account].balances(ACCOUNT));
  port.attach(venue);
  // A bar is a candle run's unit of time: orders sent on a closed candle fill at the next open,
  // stamped when the candle closed (CandleMarket rule 5), whatever the latency of a book run.
  const latency = latencyModel(mode === 'candles' ? { ...options, latency: NO_LATENCY } : options);
  const feed = new ReplayMarketFeed({ instruments, buildCandles });
  const candleFeed = new CandleFeed(frames, venue, instruments, options.candleSlippageBps ?? 5);

  // One candle closer for the strategy and the chart (a closer per subscriber would run twice per candle).
  const candleClosed$ = closedCandles(feed.market$).pipe(share());
  const kernel = new BotKernel({
    botId: options.botId ?? 'bt', strategyId: options.plugin.name, plugin: options.plugin, params: options.params, instruments,
    market: { books$: feed.books$, market$: feed.market$, candleClosed$: candleClosed$ },
    venue: port, gateway: new SimulatedGateway(port, scheduler, latency, () => venue.advanceTo(clock.now())),
    clock, schedulers: virtualSchedulers(scheduler), risk: options.risk ?? {}, errorPolicy: options.errorPolicy ?? 'halt',
    unknownOrders: 'cancel', logger, leverage: options.leverage, finishedOrdersKept: UNFILLED_HISTORY_KEPT,
    hooks: {
      onTrack: (info) => late.collector?.onTrack(info),
      onOrderFinished: (tracker) => late.collector?.onOrderFinished(tracker),
      onIndicator: (value) => late.collector?.onIndicator(value),
    },
  });
  const book = (symbol: string): OrderBook | undefined => feed.keeper.book(symbol);
  const collector = new ResultCollector(instruments, quote, kernel.adapter, CHART_FINEST_MS, options.sampleMs ?? 60_000, (symbol) => book(symbol)?.mid(),
    mode === 'book' ? (symbol) => bookTop(book(symbol)) : undefined,
    options.reportDir === undefined ? undefined : new StreamedRowsWriter(options.reportDir, quote, instruments.map((i) => i.symbol)));
  late.collector = collector;
  collector.declareIndicators(kernel.engine.indicators);
  collector.onBalances(accountBalances());
  if (account === 'futures') collector.valueFuturesCash((currency) => venue.futures.cash(ACCOUNT, currency));
  if (account === 'margin') collector.valueFuturesCash((currency) => venue.margin.cashIn(ACCOUNT, currency));
  const margin = account === 'futures' ? new FuturesMarginSampler(() => venue.futures.marginUse(ACCOUNT, quote), options.sampleMs ?? 60_000) : undefined;
  const initialBalances = totals(accountBalances());

  // The venue answers the start-up reconciliation's reads at once: no virtual time passes.
  await kernel.start();
  // Candle-only runs chart the candles themselves; book runs take prices from trades.
  const closedBy = mode === 'candles' ? candleClosed$.subscribe((event) => onClosedCandle(event)) : undefined;
  function onClosedCandle(event: CandlesEvent): void {
    const candle = event.candles[0];
    if (candle === undefined) return;
    collector.onCandle(event.symbol, candle, candle.timestamp);
  }

  let count = 0;
  let lastTime = first.t;
  const progressEvery = options.progressEvery ?? 50_000;
  for (;;) {
    let frame = frames.shift();
    if (frame === undefined) {
      if (!(await frames.fill(1))) break;
      frame = frames.shift()!;
    }
    if (frame.src === 'rest') {
      if (account === 'futures' && frame.books === undefined) applyRestFrame(frame.msg, frame.t);
      continue;
    }
    if (frame.src !== 'ws/public') continue;
    count++;
    const time = frame.t;
    lastTime = time;
    scheduler.advanceTo(time);
    let parsed: ParsedFrame;
    try {
      parsed = frame.books !== undefined ? frame : feed.parse(frame.msg, time);
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      // Noted against its file and line (a RecordingError there in strict mode).
      const general = frame.books === undefined ? frame : undefined;
      if (general?.origin !== undefined && general.line !== undefined) general.origin.malformedLine(general.line, `refused by the market parsers: ${error.message}`);
      else logger.log('warn', 'malformed frame skipped', { time, error: error.message });
      continue;
    }
    if (mode === 'book') venue.onParsedMarket(parsed.books, parsed.events, time);
    else {
      const reading = candleFeed.feed(parsed, time);
      if (reading !== undefined) await reading;
    }
    feed.publish(parsed, time);
    for (let i = 0; i < parsed.events.length; i++) {
      const event = parsed.events[i]!;
      if (event.kind === 'trades') {
        const last = event.trades[event.trades.length - 1];
        if (last !== undefined) collector.onPrice(event.symbol, last.price, time);
      }
    }
    scheduler.advanceTo(time);
    collector.tick(time);
    margin?.tick(time);
    if (options.onProgress !== undefined && count % progressEvery === 0) options.onProgress(count);
  }

  /**
   * A recorded REST answer: futures info (`GET /api/3/public/futures/info`, polled by the recorder)
   * gives the venue its recorded mark prices, funding rates and times, and settlement prices, at
   * the answer's receive time. Other answers, and failed ones, are not market data: skipped. A body
   * the parser refuses is noted and skipped like a malformed frame.
   */
  function applyRestFrame(msg: unknown, time: number): void {
    const answer = msg as { readonly path?: unknown; readonly status?: unknown; readonly body?: unknown };
    if (typeof answer.path !== 'string' || !answer.path.startsWith(FUTURES_INFO_PATH) || answer.status !== 200) return;
    scheduler.advanceTo(time);
    try {
      venue.futures.applyFuturesInfo(answer.body, time);
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      logger.log('warn', 'recorded futures info skipped', { time, error: error.message });
    }
    scheduler.advanceTo(time);
  }

  // In the order the recordings were named (a file left out whole was noted first).
  const recordingReads = readLog.reports().sort((a, b) => options.recordings.indexOf(a.file) - options.recordings.indexOf(b.file));
  for (const report of recordingReads) {
    const problems = describeRecordingRead(report);
    if (problems.length > 0) logger.log('warn', `${report.file}: not replayed as recorded: ${problems.join('; ')}`);
  }

  scheduler.advanceTo(lastTime);
  // No market time comes any more: the stop's commands and answers run as they are scheduled.
  scheduler.runFreely();
  await kernel.stop('cancel');
  closedBy?.unsubscribe();
  collector.sample(lastTime);
  margin?.sample(lastTime);
  feed.close();
  port.close();
  const finalBalances = totals(accountBalances());
  const futures = account === 'futures' ? futuresFacts(venue) : undefined;
  const futuresReport = margin === undefined ? undefined : futuresReportOf(venue, quote, margin);
  const rows = await collector.rows(initialBalances, finalBalances);
  return {
    meta: {
      strategy: options.strategyRef, params: options.params, symbols: options.symbols, recordings: options.recordings,
      seed: options.seed ?? 1, quoteCurrency: quote, startTime: Math.floor(first.t), endTime: Math.floor(lastTime), events: count,
      wallMs: Math.round(performance.now() - wallStart), bookResyncs: feed.resyncs, mode, recordingReads, ...(futures === undefined ? {} : { futures }),
    },
    initialBalances, finalBalances, fills: rows.fills, orders: rows.orders, equity: rows.equity, prices: collector.priceBars(),
    bookTops: collector.bookTops(), indicators: collector.indicators(), ...(rows.streamed === undefined ? {} : { streamed: rows.streamed }),
    ...(futuresReport === undefined ? {} : { futures: futuresReport }),
  };
}

/** The decoders of a replay's market lines: books and trades, then candles. */
function replayLineDecoder(instruments: readonly Instrument[]): LineDecoder {
  const market = new MarketLineDecoder(new Map(instruments.map((i) => [i.symbol, { priceScale: i.priceScale, quantityScale: i.quantityScale }])));
  const candles = new CandleLineDecoder(instruments.map((i) => i.symbol));
  return { decode: (bytes, start, end) => market.decode(bytes, start, end) ?? candles.decode(bytes, start, end) };
}

/** The futures report of the run's account: its margin samples and every position from open to flat. */
function futuresReportOf(venue: SimulatedVenue, currency: string, margin: FuturesMarginSampler): FuturesReport {
  const positions = futuresPositionRows(venue.tradeHistory(ACCOUNT), venue.futures.clearing(ACCOUNT), venue.futures.positionHistory(ACCOUNT));
  return { currency, margin: margin.samples(), positions };
}

/**
 * The instruments of `symbols` from the recordings' headers, and the recordings to replay: outside
 * strict mode a file with no line at all (empty, or a gzip stream broken before its first line
 * ends) is left out with a warning, unless it is the only one. A first line that is not a header
 * is refused in every mode: the file is not a recording.
 */
async function loadInstruments(
  recordings: readonly string[], symbols: readonly string[], strict: boolean, log: RecordingReadLog,
): Promise<{ instruments: Instrument[]; recordings: string[] }> {
  if (symbols.length === 0) throw new ValidationError('strategy.symbols', 'name at least one symbol');
  const headers: RecordingHeader[] = [];
  const readable: string[] = [];
  const unreadable: RecordingError[] = [];
  for (const path of recordings) {
    try {
      headers.push(await new RecordingReader(path).readHeader());
      readable.push(path);
    } catch (error) {
      if (strict || !(error instanceof RecordingError) || error.problem !== 'no-header' || error.line !== undefined) throw error;
      unreadable.push(error);
    }
  }
  if (readable.length === 0) throw unreadable[0]!;
  for (const error of unreadable) log.unreadable(error);
  const instruments = symbols.map((symbol, index) => {
    const info = headers.map((h) => h.symbols[symbol]).find((i) => i !== undefined);
    if (info === undefined) throw new ValidationError(`strategy.symbols[${index}]`, 'is not described in any recording header', symbol);
    return new Instrument(symbol, info);
  });
  return { instruments, recordings: readable };
}

/** A book's best bid and ask texts; undefined while it is not valid (stale after a gap, or empty). */
function bookTop(book: OrderBook | undefined): BookTop | undefined {
  if (book === undefined || !book.valid) return undefined;
  return { bid: book.bestBid()?.price, ask: book.bestAsk()?.price };
}

/** Candle runs: orders reach the venue in the instant the strategy sent them. */
const NO_LATENCY: LatencySpec = Object.freeze({ kind: 'constant', entryMs: 0, responseMs: 0 });

function latencyModel(options: BacktestOptions): LatencyModel {
  return latencyModelOf(options.latency ?? DEFAULT_ORDER_LATENCY, options.seed ?? 1);
}

/** Funding the run's futures account paid and received (its clearing records), and its liquidations. */
function futuresFacts(venue: SimulatedVenue): FuturesRunFacts {
  const paid: Record<string, Decimal> = {};
  const received: Record<string, Decimal> = {};
  for (const record of venue.futures.clearing(ACCOUNT)) {
    if (record.type !== 'funding' || record.amount.isZero()) continue;
    const side = record.amount.isNegative() ? paid : received;
    side[record.currency] = (side[record.currency] ?? new Decimal(0)).plus(record.amount.abs());
  }
  const liquidations = venue.futures.liquidations().filter((l) => l.account === ACCOUNT)
    .map((l) => ({ symbol: l.symbol, time: l.time, quantity: l.quantity, price: l.price, realized: l.realized }));
  const openPositions: Record<string, { quantity: Decimal; entryPrice?: Decimal }> = {};
  for (const p of venue.futures.accounts(ACCOUNT).flatMap((a) => a.positions ?? [])) {
    if (!p.quantity.isZero()) openPositions[p.symbol] = { quantity: p.quantity, entryPrice: p.price_entry };
  }
  return { fundingPaid: paid, fundingReceived: received, liquidations, openPositions };
}

/** The venue's starting balances of the run's account: all on the traded account (spot, futures), or see {@link marginFunding}. */
function startingBalances(account: 'spot' | 'margin' | 'futures', instruments: readonly Instrument[], balances: Readonly<Record<string, string>>): AccountBalances {
  return account === 'margin' ? marginFunding(instruments, balances) : { [account]: balances };
}

/** Each currency's total: available and reserved (on futures, reserved includes the margin held for positions). */
function totals(balances: readonly TradingBalance[]): Record<string, Decimal> {
  const out: Record<string, Decimal> = {};
  for (const b of balances) if (b.currency !== undefined) out[b.currency] = b.available.plus(b.reserved);
  return out;
}

/**
 * The account a run trades, from its instruments: futures contracts on a futures account, spot
 * pairs on spot, or on margin when the config's `bot.account` says so (every pair must then have
 * margin trading); one run trades one account, so a mix is refused, and so is an `expected`
 * account the symbols do not fit.
 */
function accountOf(instruments: readonly Instrument[], expected: 'spot' | 'margin' | 'futures' | undefined): 'spot' | 'margin' | 'futures' {
  if (expected === 'margin') {
    const index = instruments.findIndex((i) => i.info.type === 'futures' || !i.info.margin_trading);
    if (index >= 0) throw new ValidationError(`strategy.symbols[${index}]`, 'must be a spot pair with margin trading on a margin account (bot.account)', instruments[index]!.symbol);
    return 'margin';
  }
  const futures = instruments.filter((i) => i.info.type === 'futures').length;
  if (futures > 0 && futures < instruments.length) {
    const index = instruments.findIndex((i) => i.info.type !== 'futures');
    throw new ValidationError(`strategy.symbols[${index}]`, 'must be a futures contract like the other symbols: one run trades one account', instruments[index]!.symbol);
  }
  const account = futures > 0 ? 'futures' : 'spot';
  if (expected !== undefined && expected !== account) {
    throw new ValidationError('bot.account', `must be ${account} for ${account === 'futures' ? 'futures contracts' : 'spot pairs'}`, expected);
  }
  return account;
}
