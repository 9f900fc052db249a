import { performance } from 'node:perf_hooks';
import type { SchedulerAction, Subscription } from 'rxjs';
import type { OrderFill, OrderTracker, TrackedOrderInfo } from '../../framework/execution/order-tracker.js';
import type { RunObserver } from '../../framework/live/run-observer.js';
import { Decimal, ZERO } from '../../framework/model/decimal.js';
import { valueHoldings } from '../../framework/risk/valuation.js';
import type { Instrument } from '../../framework/model/instrument.js';
import type { BotKernel } from '../../framework/runtime/bot-kernel.js';
import { PriceBars } from './price-bars.js';
import { CHART_POINTS } from './result-collector.js';
import { orderRecord } from './report-records.js';
import type { BacktestResult, EquityPoint, FillRecord } from '../report/backtest-result.js';
import type { PlacedOrder } from '../report/streamed-rows-writer.js';
import { StreamedRowsWriter } from '../report/streamed-rows-writer.js';
import { writeReport, type WrittenReport } from '../report/write-report.js';

/** Options of {@link LiveRunReport}. */
export interface LiveRunReportOptions {
  /** The report folder (checked writable by the caller). */
  readonly dir: string;
  /** The strategy as configured (name or path) and its parameters, for summary.json. */
  readonly strategy: string;
  readonly params: unknown;
  /** Balances before the run (paper: the configured ones); default: the first the venue reports. */
  readonly initialBalances?: Readonly<Record<string, Decimal>>;
  /** Market time between two equity samples, ms (default one minute, as a backtest). */
  readonly sampleMs?: number;
  /**
   * Market time between two looks at the market (equity due, the books' mids), ms (default one
   * second), on the kernel's timer scheduler: a lockstep run looks at the same moments every time.
   */
  readonly tickMs?: number;
  /** Wall time between two flushes of the rows gathered to their files, ms (default one second). */
  readonly flushMs?: number;
  /** Told where the report went once it is written. */
  readonly onWritten?: (written: WrittenReport) => void;
}

/**
 * The report folder of a paper or live run, in the formats of `tradeloop backtest --out`: fills,
 * orders and equity rows are appended to their CSV files as the run goes (bounded memory, see
 * {@link StreamedRowsWriter}), and summary.json, run.json and report.html are written when the run
 * stops, whatever stopped it (SIGINT, SIGTERM, the end of a paper recording).
 *
 * Times are market times: a fill's is the time its report gives (the exchange's), an equity
 * sample's that of the latest market frame the strategy was shown (its exchange time, else its
 * receive time). Equity is the risk gate's valuation of the account; a sample is taken every
 * `sampleMs` of market time and after each fill, looked at every `tickMs` of market time (on the
 * kernel's timer scheduler), when each book's mid also goes to the price bars of the page. What
 * is gathered reaches the files every `flushMs` of wall time.
 */
export class LiveRunReport implements RunObserver {
  private kernel: BotKernel | undefined;
  private instruments: readonly Instrument[] = [];
  private writer: StreamedRowsWriter | undefined;
  private timer: NodeJS.Timeout | undefined;
  private looks: Subscription | undefined;
  private readonly created = new Map<string, number>();
  private createdCount = 0;
  private initialBalances: Readonly<Record<string, Decimal>> | undefined;
  private nextSample = Number.NEGATIVE_INFINITY;
  private lastSample = Number.NEGATIVE_INFINITY;
  private pendingFillSample = false;
  private startTime: number | undefined;
  private endTime = 0;
  private readonly startedAt = performance.now();
  private strategyId = '';
  private quoteCurrency = '';
  private readonly lastPrice = new Map<string, Decimal>();
  /** Mid bars for the price charts, one mid per symbol per look at the market (bounded, see PriceBars). */
  private readonly bars = new PriceBars(1_000, CHART_POINTS);

  constructor(private readonly options: LiveRunReportOptions) {
    this.initialBalances = options.initialBalances;
  }

  attach(kernel: BotKernel, instruments: readonly Instrument[]): void {
    this.kernel = kernel;
    this.instruments = instruments;
    this.strategyId = kernel.engine.context.strategyId;
    this.quoteCurrency = instruments[0]?.quoteCurrency ?? 'USDT';
    this.writer = new StreamedRowsWriter(this.options.dir, this.quoteCurrency, instruments.map((i) => i.symbol), { fillsInArrivalOrder: true });
    // Until the bot stops: a stopping run lets its timers run out (a replay's clock runs freely).
    this.looks = kernel.schedulers.timers.schedule(function (this: SchedulerAction<LiveRunReport>, report) {
      report!.look();
      if (!kernel.stopping) this.schedule(report, report!.options.tickMs ?? 1000);
    }, this.options.tickMs ?? 1000, this);
    this.timer = setInterval(() => this.writer?.flush(), this.options.flushMs ?? 1000);
    this.timer.unref();
  }

  onTrack(info: TrackedOrderInfo): void {
    this.created.set(info.clientOrderId, this.createdCount++);
  }

  onFill(info: TrackedOrderInfo, fill: OrderFill): void {
    const instrument = this.instruments.find((i) => i.symbol === info.symbol);
    const record: FillRecord = {
      time: fill.time, symbol: info.symbol, side: info.side, price: fill.price, quantity: fill.quantity, fee: fill.fee,
      feeCurrency: instrument?.info.fee_currency ?? this.quoteCurrency, liquidity: fill.taker === true ? 'taker' : 'maker',
      clientOrderId: info.clientOrderId, tradeId: fill.tradeId, intentId: info.intentId, strategyId: info.strategyId,
      ...(info.decidedOn === undefined ? {} : { decision: info.decidedOn }), ...(info.liquidation === true ? { liquidation: true } : {}),
    };
    this.writer?.fill(record);
    this.lastPrice.set(info.symbol, fill.price);
    this.seeTime(fill.time);
    this.pendingFillSample = true;
  }

  /**
   * An order that ended is written at once: orders.csv lists a live run's orders in the order they
   * ended (those still open at the stop last, in creation order), since in creation order one order
   * resting for days would hold every later one in memory.
   */
  onOrderFinished(tracker: OrderTracker): void {
    this.created.delete(tracker.clientOrderId);
    this.writer?.orderEnded(undefined, orderRecord(tracker));
  }

  /** Takes an equity sample when one is due (market time), and the books' mids for the page. */
  look(): void {
    const kernel = this.kernel;
    if (kernel === undefined || this.writer === undefined) return;
    this.initialBalances ??= this.balances();
    const time = this.marketTime();
    if (time !== undefined) {
      for (const instrument of this.instruments) {
        const mid = kernel.engine.state.book(instrument.symbol)?.mid();
        if (mid !== undefined) this.bars.add(instrument.symbol, mid, time);
      }
      if (time >= this.nextSample || this.pendingFillSample) this.sample(time);
    }
  }

  async finish(kernel: BotKernel): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.looks?.unsubscribe();
    const writer = this.writer;
    if (writer === undefined) return;
    const time = this.marketTime();
    if (time !== undefined) this.sample(time, true);
    const live: PlacedOrder[] = [];
    for (const tracker of kernel.adapter.account.all()) {
      const index = this.created.get(tracker.clientOrderId);
      const record = orderRecord(tracker);
      if (index !== undefined && record !== undefined) live.push({ index, record });
    }
    const finalBalances = this.balances() ?? {};
    const initialBalances = this.initialBalances ?? finalBalances;
    const streamed = await writer.finish(live, { initialBalances, finalBalances });
    const symbols = this.instruments.map((i) => i.symbol);
    const result: BacktestResult = {
      meta: {
        strategy: this.options.strategy, params: this.options.params, symbols, recordings: [], seed: 0, quoteCurrency: this.quoteCurrency,
        startTime: this.startTime ?? this.endTime, endTime: this.endTime, events: kernel.engine.stats.received,
        wallMs: Math.round(performance.now() - this.startedAt), bookResyncs: [], mode: 'book',
      },
      initialBalances, finalBalances, fills: [], orders: [], equity: [], prices: Object.fromEntries(symbols.map((s) => [s, this.bars.list(s)])), streamed,
    };
    this.options.onWritten?.(await writeReport(result, this.options.dir, streamed.metrics));
  }

  /** Market time now: the latest frame's exchange time (else receive time), never before a fill already seen. */
  private marketTime(): number | undefined {
    const frame = this.kernel?.engine.decisionFrame;
    if (frame !== undefined) this.seeTime(Math.floor(frame.exchangeTime ?? frame.receivedAt));
    return this.startTime === undefined ? undefined : this.endTime;
  }

  private seeTime(time: number): void {
    this.startTime ??= time;
    if (time > this.endTime) this.endTime = time;
  }

  private sample(time: number, last = false): void {
    const kernel = this.kernel!;
    const equity = this.equity(kernel);
    if (equity === undefined || (last && time <= this.lastSample && !this.pendingFillSample)) return;
    const at = Math.max(time, this.lastSample);
    const positions: Record<string, Decimal> = {};
    for (const instrument of this.instruments) {
      const position = kernel.adapter.account.positions.position(this.strategyId, instrument.symbol);
      if (position !== undefined) positions[instrument.symbol] = position.quantity;
    }
    const point: EquityPoint = { time: at, equity, positions };
    this.writer!.sample(point);
    this.lastSample = at;
    this.pendingFillSample = false;
    const sampleMs = this.options.sampleMs ?? 60_000;
    this.nextSample = (Math.floor(at / sampleMs) + 1) * sampleMs;
  }

  /**
   * The account valued in the quote currency: spot holdings at each book's mid (else the last fill
   * price), as a backtest values them; a futures account as the risk gate values it.
   */
  private equity(kernel: BotKernel): Decimal | undefined {
    if (this.instruments.some((i) => i.info.type === 'futures')) return kernel.status().equity;
    const balances = this.balances();
    if (balances === undefined) return undefined;
    return valueHoldings(Object.entries(balances), this.quoteCurrency, (currency) => {
      const instrument = this.instruments.find((i) => i.baseCurrency === currency && i.quoteCurrency === this.quoteCurrency);
      if (instrument === undefined) return undefined;
      const mid = kernel.engine.state.book(instrument.symbol)?.mid();
      return mid === undefined ? this.lastPrice.get(instrument.symbol) : new Decimal(mid);
    });
  }

  /** Balances (available + reserved) by currency as the venue last told the bot; undefined before any. */
  private balances(): Record<string, Decimal> | undefined {
    const out: Record<string, Decimal> = {};
    let any = false;
    for (const b of this.kernel?.adapter.account.balances() ?? []) {
      if (b.currency === undefined) continue;
      out[b.currency] = (out[b.currency] ?? ZERO).plus(b.available.plus(b.reserved));
      any = true;
    }
    return any ? out : undefined;
  }
}
