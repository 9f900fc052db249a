import type { ExecutionAdapter } from '../../framework/execution/execution-adapter.js';
import type { OrderTracker, TrackedOrderInfo } from '../../framework/execution/order-tracker.js';
import type { EventCause } from '../venue/venue-types.js';
import { Decimal, ZERO } from '../../framework/model/decimal.js';
import type { Instrument } from '../../framework/model/instrument.js';
import type { TradingBalance } from '../../framework/model/resources/balance.js';
import type { OrderReport } from '../../framework/model/stream/order-report.js';
import type { CandleTick } from '../../framework/model/stream/market-records.js';
import type { IndicatorDeclaration, IndicatorValue } from '../../framework/runtime/strategy-indicators.js';
import type { BookTopPoint, EquityPoint, FillRecord, IndicatorSeries, OrderRecord, PriceBar, StreamedRows } from '../report/backtest-result.js';
import type { PlacedOrder, StreamedRowsWriter } from '../report/streamed-rows-writer.js';
import { valueHoldings } from '../../framework/risk/valuation.js';
import { PriceBars } from './price-bars.js';
import { causeText, orderRecord } from './report-records.js';
import { SampledSeries } from './sampled-series.js';
import { ScaledHoldings } from './scaled-holdings.js';
import { ScaledEquityPoint } from '../report/scaled-equity.js';

/** Most points a chart series keeps (bars, book tops, each indicator); coarser buckets beyond. */
export const CHART_POINTS = 1_500;

/** The best bid and ask of a symbol's book as exact texts (a side absent while empty). */
export interface BookTop {
  readonly bid?: string;
  readonly ask?: string;
}

/** A book top with the bot's own best resting limit prices at the same time. */
interface SampledTop extends BookTop {
  readonly ownBid?: Decimal;
  readonly ownAsk?: Decimal;
}

/** One of the bot's resting limit orders. */
interface RestingQuote {
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly price: Decimal;
}

/**
 * Gathers what a backtest report needs while the replay runs: every fill of the bot (from the
 * venue's own reports, so fills are counted where they happened, with the intent that made the
 * order), price bars per symbol (from trade prices, else candle closes, else book mids sampled
 * with the equity), and an equity series sampled every `sampleMs` of virtual time and after each
 * fill. Per-event work is limited to trades and fills; books are only read at sample time.
 *
 * The chart series fit the run in bounded memory ({@link CHART_POINTS} points each at most): price
 * bars start `barMs` wide and the best bid/ask (read from `top` once per time bucket) and the
 * strategy's indicator values are kept per bucket, all moving to coarser buckets as the run grows
 * (see {@link SampledSeries}).
 *
 * Rows (fills, orders, equity samples) are kept in memory for the result by default. With a
 * `stream`, they go to their CSV files as they come instead, and the result keeps the figures and
 * chart series worked out on the way ({@link StreamedRows}): memory then stays bounded however
 * long the run (orders that ended while an older one is live wait for it, see
 * {@link StreamedRowsWriter}).
 */
export class ResultCollector {
  readonly fills: FillRecord[] = [];
  readonly equity: EquityPoint[] = [];
  private readonly bars: PriceBars;
  /** Last price per symbol: a fill's Decimal, or a public price's text (parsed when needed). */
  private readonly lastPrice = new Map<string, Decimal | string>();
  private readonly balances = new Map<string, Decimal>();
  /** The spot balances' valuation in integers (the samples of a run without futures or margin positions). */
  private readonly holdings: ScaledHoldings;
  private readonly positions = new Map<string, Decimal>();
  /** Open futures positions as the venue keeps them (signed quantity, entry price), by symbol. */
  private readonly contracts = new Map<string, { readonly quantity: Decimal; readonly entry: Decimal }>();
  /** A futures account's cash by margin currency (equity's base there); undefined on spot. */
  private cash: ((currency: string) => Decimal) | undefined;
  /** The positions as a sample carries them, shared by every sample until the next fill changes them. */
  private positionsRecord: Readonly<Record<string, Decimal>> | undefined;
  private readonly finished = new Map<string, OrderRecord>();
  /** Creation index by client_order_id (a streamed run forgets an order's once it is written). */
  private readonly created = new Map<string, number>();
  private createdCount = 0;
  private readonly tradePriced = new Set<string>();
  private nextSample = Number.NEGATIVE_INFINITY;
  private pendingFillSample = false;
  private readonly tops = new Map<string, SampledSeries<SampledTop>>();
  /** The keys of {@link tops}. */
  private readonly topSymbols: string[] = [];
  /** The bot's resting limit orders by client_order_id, from its order reports. */
  private readonly resting = new Map<string, RestingQuote>();
  private readonly declared = new Map<string, IndicatorDeclaration>();
  /** Indicator values by indicator id, then symbol. */
  private readonly indicatorValues = new Map<string, Map<string, SampledSeries<number>>>();

  constructor(
    private readonly instruments: readonly Instrument[],
    readonly quoteCurrency: string,
    private readonly adapter: ExecutionAdapter,
    private readonly barMs: number,
    private readonly sampleMs: number,
    private readonly mid: (symbol: string) => string | undefined,
    private readonly top?: (symbol: string) => BookTop | undefined,
    private readonly stream?: StreamedRowsWriter,
  ) {
    this.bars = new PriceBars(barMs, CHART_POINTS);
    this.holdings = new ScaledHoldings(quoteCurrency, instruments);
    if (top !== undefined) {
      for (const i of instruments) this.tops.set(i.symbol, new SampledSeries<SampledTop>(CHART_POINTS, barMs));
      this.topSymbols.push(...this.tops.keys());
    }
  }

  /** The strategy's indicator declarations (already checked by the runtime). */
  declareIndicators(declarations: readonly IndicatorDeclaration[]): void {
    for (const d of declarations) this.declared.set(d.id, d);
  }

  /** A value the strategy recorded (ids it did not declare never get here: the context refuses them). */
  onIndicator(value: IndicatorValue): void {
    let bySymbol = this.indicatorValues.get(value.indicator);
    if (bySymbol === undefined) this.indicatorValues.set(value.indicator, (bySymbol = new Map()));
    let series = bySymbol.get(value.symbol);
    if (series === undefined) bySymbol.set(value.symbol, (series = new SampledSeries<number>(CHART_POINTS, this.barMs)));
    series.add(value.time, value.value);
  }

  /** Balances as the venue reports them (total = available + reserved; on futures reserved includes position margin). */
  onBalances(balances: readonly TradingBalance[]): void {
    for (const b of balances) if (b.currency !== undefined) this.balances.set(b.currency, b.available.plus(b.reserved));
    this.holdings.balancesChanged();
  }

  /**
   * The run trades a futures account: equity is its cash in each margin currency (read from the
   * venue when a sample is taken) plus each open position's unrealized PnL at the price of the
   * moment, never the balances, which already count unrealized losses at the venue's own mark.
   */
  valueFuturesCash(cash: (currency: string) => Decimal): void {
    this.cash = cash;
  }

  /** A futures account changed: its margin balances, and its positions (a closed one comes with quantity zero). */
  onFutures(
    balances: readonly TradingBalance[],
    positions: readonly { readonly symbol: string; readonly quantity: Decimal; readonly price_entry?: Decimal }[],
  ): void {
    this.onBalances(balances);
    for (const p of positions) {
      if (p.quantity.isZero() || p.price_entry === undefined) this.contracts.delete(p.symbol);
      else this.contracts.set(p.symbol, { quantity: p.quantity, entry: p.price_entry });
    }
  }

  /** One of the bot's order reports from the venue; trades become fill records. */
  onOrderReport(report: OrderReport, time: number, cause?: EventCause): void {
    this.trackResting(report);
    if (report.report_type !== 'trade' || report.trade_quantity === undefined || report.trade_price === undefined) return;
    const tracker = this.adapter.account.get(report.client_order_id);
    const instrument = this.instruments.find((i) => i.symbol === report.symbol);
    const fill: FillRecord = {
      time, symbol: report.symbol, side: report.side, price: report.trade_price, quantity: report.trade_quantity,
      fee: report.trade_fee ?? ZERO, feeCurrency: instrument?.info.fee_currency ?? this.quoteCurrency,
      liquidity: report.trade_taker === true ? 'taker' : 'maker', clientOrderId: report.client_order_id,
      tradeId: report.trade_id ?? `${report.client_order_id}:${report.quantity_cumulative.toFixed()}`,
      intentId: tracker?.intentId, strategyId: tracker?.info.strategyId, cause: cause === undefined ? undefined : causeText(cause),
      decision: tracker?.info.decidedOn, ...(report.liquidation === true ? { liquidation: true } : {}),
    };
    if (this.stream === undefined) this.fills.push(fill);
    else this.stream.fill(fill);
    const signed = report.side === 'buy' ? report.trade_quantity : report.trade_quantity.negated();
    this.positions.set(report.symbol, (this.positions.get(report.symbol) ?? ZERO).plus(signed));
    this.positionsRecord = undefined;
    this.lastPrice.set(report.symbol, report.trade_price);
    this.pendingFillSample = true;
  }

  /** A public trade or closed-candle price of a symbol at `time` (bars and valuation). */
  onPrice(symbol: string, price: string, time: number): void {
    this.tradePriced.add(symbol);
    this.lastPrice.set(symbol, price);
    this.bars.add(symbol, price, time);
  }

  /** A closed candle of a symbol at `time`: its open, high, low and close, in that order, as {@link onPrice} takes prices. */
  onCandle(symbol: string, candle: CandleTick, time: number): void {
    this.tradePriced.add(symbol);
    this.lastPrice.set(symbol, candle.close);
    this.bars.add(symbol, candle.open, time);
    this.bars.add(symbol, candle.high, time);
    this.bars.add(symbol, candle.low, time);
    this.bars.add(symbol, candle.close, time);
  }

  /** Samples equity when a sample is due (or a fill happened since the last one). */
  tick(time: number): void {
    if (this.top !== undefined) this.sampleTops(time);
    if (time < this.nextSample && !this.pendingFillSample) return;
    this.sample(time);
  }

  /** Reads each book's top once per bucket of its series; mids also make the bars where no trade prices do. */
  private sampleTops(time: number): void {
    // Runs on every frame: the symbols are walked as an array (a Map's entries iterator and its
    // [key, value] pairs would be garbage made per frame).
    const symbols = this.topSymbols;
    for (let i = 0; i < symbols.length; i++) {
      const symbol = symbols[i]!;
      const series = this.tops.get(symbol)!;
      if (!series.startsBucket(time)) continue;
      const top = this.top!(symbol);
      if (top === undefined || (top.bid === undefined && top.ask === undefined)) continue;
      series.add(time, { ...top, ...this.ownBest(symbol) });
      if (!this.tradePriced.has(symbol)) {
        const mid = this.mid(symbol);
        if (mid !== undefined) this.bars.add(symbol, mid, time);
      }
    }
  }

  /** Keeps the bot's resting limit orders: a replacement takes its original's place. */
  private trackResting(report: OrderReport): void {
    if (report.original_client_order_id !== undefined) this.resting.delete(report.original_client_order_id);
    const rests = (report.status === 'new' || report.status === 'partiallyFilled') && report.type === 'limit' && report.price !== undefined;
    if (rests) this.resting.set(report.client_order_id, { symbol: report.symbol, side: report.side, price: report.price! });
    else this.resting.delete(report.client_order_id);
  }

  /** The bot's highest resting buy and lowest resting sell of `symbol`. */
  private ownBest(symbol: string): { ownBid?: Decimal; ownAsk?: Decimal } {
    let ownBid: Decimal | undefined;
    let ownAsk: Decimal | undefined;
    for (const quote of this.resting.values()) {
      if (quote.symbol !== symbol) continue;
      if (quote.side === 'buy' && (ownBid === undefined || quote.price.greaterThan(ownBid))) ownBid = quote.price;
      if (quote.side === 'sell' && (ownAsk === undefined || quote.price.lessThan(ownAsk))) ownAsk = quote.price;
    }
    return { ...(ownBid === undefined ? {} : { ownBid }), ...(ownAsk === undefined ? {} : { ownAsk }) };
  }

  /** Best bid and ask per symbol, sampled (symbols whose book never had a level are left out). */
  bookTops(): Record<string, BookTopPoint[]> {
    const out: Record<string, BookTopPoint[]> = {};
    for (const [symbol, series] of this.tops) {
      const points = series.list().map(({ time, value }): BookTopPoint => ({
        time, ...(value.bid === undefined ? {} : { bid: new Decimal(value.bid) }), ...(value.ask === undefined ? {} : { ask: new Decimal(value.ask) }),
        ...(value.ownBid === undefined ? {} : { ownBid: value.ownBid }), ...(value.ownAsk === undefined ? {} : { ownAsk: value.ownAsk }),
      }));
      if (points.length > 0) out[symbol] = points;
    }
    return out;
  }

  /** Every declared indicator per symbol it was recorded for, in declaration order, then symbol order. */
  indicators(): IndicatorSeries[] {
    const out: IndicatorSeries[] = [];
    for (const d of this.declared.values()) {
      for (const instrument of this.instruments) {
        const series = this.indicatorValues.get(d.id)?.get(instrument.symbol);
        if (series === undefined) continue;
        out.push({
          id: d.id, label: d.label ?? d.id, pane: d.pane, ...(d.color === undefined ? {} : { color: d.color }), symbol: instrument.symbol,
          points: series.list().map((p) => ({ time: p.time, value: p.value })),
        });
      }
    }
    return out;
  }

  /**
   * Takes a sample now. Skipped while a held currency has no price yet (before the first book or
   * trade), so the series never starts with holdings valued at zero. Spot balances are valued in
   * integers ({@link ScaledHoldings}); futures and margin accounts, and values no safe integer
   * holds, with decimal.js.
   */
  sample(time: number): void {
    let point: EquityPoint;
    this.sampleTime = time;
    const units = this.cash === undefined && this.contracts.size === 0 ? this.holdings.value(this.balances, this.priceTextNow) : Number.NaN;
    if (units === undefined) return;
    this.positionsRecord ??= Object.freeze(Object.fromEntries(this.positions));
    if (units === units) {
      point = new ScaledEquityPoint(time, units, this.holdings.scale, this.positionsRecord);
    } else {
      const equity = this.decimalEquity(time);
      if (equity === undefined) return;
      point = { time, equity, positions: this.positionsRecord };
    }
    this.pendingFillSample = false;
    if (time >= this.nextSample) this.nextSample = (Math.floor(time / this.sampleMs) + 1) * this.sampleMs;
    // Kept rows are plain records, as the result's readers expect.
    if (this.stream === undefined) this.equity.push({ time, equity: point.equity, positions: point.positions });
    else this.stream.sample(point);
  }

  /** The equity now with decimal.js: cash (futures, margin) or balances, plus the open contracts' PnL; undefined while a price is missing. */
  private decimalEquity(time: number): Decimal | undefined {
    if (this.cash !== undefined) for (const currency of this.balances.keys()) this.balances.set(currency, this.cash(currency));
    const held = valueHoldings(this.balances, this.quoteCurrency, (currency) => this.priceOf(currency, time));
    if (held === undefined) return undefined;
    const unrealized = this.unrealizedPnl();
    if (unrealized === undefined) return undefined;
    return unrealized.isZero() ? held : held.plus(unrealized);
  }

  /** Final price bars per symbol, oldest first. */
  priceBars(): Record<string, PriceBar[]> {
    const out: Record<string, PriceBar[]> = {};
    for (const instrument of this.instruments) out[instrument.symbol] = this.bars.list(instrument.symbol);
    return out;
  }

  /** Every order the bot made, in creation order, with its last known state. */
  orders(): OrderRecord[] {
    const records = new Map(this.finished);
    for (const tracker of this.adapter.account.all()) {
      const record = orderRecord(tracker);
      if (record !== undefined && !records.has(tracker.clientOrderId)) records.set(tracker.clientOrderId, record);
    }
    return [...records.values()].sort((a, b) => (this.created.get(a.clientOrderId) ?? 0) - (this.created.get(b.clientOrderId) ?? 0));
  }

  /** An order was created (tracked before its request left): its place in the orders' list. */
  onTrack(info: TrackedOrderInfo): void {
    this.created.set(info.clientOrderId, this.createdCount++);
  }

  /** An order ended: its final record is kept here, as the account forgets old finished orders. */
  onOrderFinished(tracker: OrderTracker): void {
    const record = orderRecord(tracker);
    if (this.stream !== undefined) {
      // Written now (or once the older orders end): its place is no longer needed.
      this.stream.orderEnded(this.created.get(tracker.clientOrderId), record);
      this.created.delete(tracker.clientOrderId);
    } else if (record !== undefined) {
      this.finished.set(tracker.clientOrderId, record);
    }
  }

  /**
   * The rows of the result: in memory, or (with a stream) the orders still live written out, the
   * files closed, and empty lists with what the report needs in `streamed`.
   */
  async rows(initialBalances: Readonly<Record<string, Decimal>>, finalBalances: Readonly<Record<string, Decimal>>): Promise<{
    fills: readonly FillRecord[]; orders: readonly OrderRecord[]; equity: readonly EquityPoint[]; streamed?: StreamedRows;
  }> {
    if (this.stream === undefined) return { fills: this.fills, orders: this.orders(), equity: this.equity };
    const live: PlacedOrder[] = [];
    for (const tracker of this.adapter.account.all()) {
      const index = this.created.get(tracker.clientOrderId);
      const record = orderRecord(tracker);
      if (index !== undefined && record !== undefined) live.push({ index, record });
    }
    const streamed = await this.stream.finish(live, { initialBalances, finalBalances });
    return { fills: [], orders: [], equity: [], streamed };
  }

  /** Value of one unit of `currency` in the quote currency: the book's mid, else the last trade price. */
  private priceOf(currency: string, time: number): Decimal | undefined {
    const instrument = this.instruments.find((i) => i.baseCurrency === currency && i.quoteCurrency === this.quoteCurrency);
    if (instrument === undefined) return undefined;
    const mid = this.sampledMid(instrument.symbol, time);
    return mid === undefined ? this.lastDecimal(instrument.symbol) : new Decimal(mid);
  }

  /** The time of the sample being taken, for {@link priceTextNow}. */
  private sampleTime = 0;
  /** {@link priceText} at the sample's time (one function for every sample, not a closure each). */
  private readonly priceTextNow = (symbol: string): string | undefined => this.priceText(symbol, this.sampleTime);

  /** {@link priceOf} a symbol's base currency, as text. */
  private priceText(symbol: string, time: number): string | undefined {
    const mid = this.sampledMid(symbol, time);
    if (mid !== undefined) return mid;
    const last = this.lastPrice.get(symbol);
    return last === undefined || typeof last === 'string' ? last : last.toFixed();
  }

  /** The book's mid of `symbol` as a sample at `time` reads it: also a price bar while the symbol has no trades or candles. */
  private sampledMid(symbol: string, time: number): string | undefined {
    const mid = this.mid(symbol);
    // Without public trades or candles, the sampled mids are the only price series there is.
    if (mid !== undefined && !this.tradePriced.has(symbol)) this.bars.add(symbol, mid, time);
    return mid;
  }

  /**
   * The open futures positions' PnL at the mid (else the last price) now, in the quote currency;
   * undefined while one of them has no price yet.
   */
  private unrealizedPnl(): Decimal | undefined {
    let sum = ZERO;
    for (const [symbol, position] of this.contracts) {
      const mid = this.mid(symbol);
      const price = mid === undefined ? this.lastDecimal(symbol) : new Decimal(mid);
      if (price === undefined) return undefined;
      sum = sum.plus(position.quantity.times(price.minus(position.entry)));
    }
    return sum;
  }

  /** The last price of `symbol` as a Decimal (a text is parsed once, then kept parsed). */
  private lastDecimal(symbol: string): Decimal | undefined {
    const last = this.lastPrice.get(symbol);
    if (typeof last !== 'string') return last;
    const value = new Decimal(last);
    this.lastPrice.set(symbol, value);
    return value;
  }
}
