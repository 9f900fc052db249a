import type { ExecutionAdapter } from '../../framework/execution/execution-adapter.js';
import type { OrderTracker, TrackedOrderInfo } from '../../framework/execution/order-tracker.js';
import type { EventCause } from '../venue/venue-types.js';
import { Decimal, ZERO } from '../../framework/model/decimal.js';
import type { Instrument } from '../../framework/model/instrument.js';
import type { TradingBalance } from '../../framework/model/resources/balance.js';
import type { OrderReport } from '../../framework/model/stream/order-report.js';
import type { EquityPoint, FillRecord, OrderRecord, PriceBar } from '../report/backtest-result.js';
import { PriceBars } from './price-bars.js';

/**
 * Gathers what a backtest report needs while the replay runs: every fill of the bot (from the
 * venue's own reports, so fills are counted where they happened, with the intent that made the
 * order), price bars per symbol (from trade prices, else candle closes, else book mids sampled
 * with the equity), and an equity series sampled every `sampleMs` of virtual time and after each
 * fill. Per-event work is limited to trades and fills; books are only read at sample time.
 */
export class ResultCollector {
  readonly fills: FillRecord[] = [];
  readonly equity: EquityPoint[] = [];
  private readonly bars: PriceBars;
  /** Last price per symbol: a fill's Decimal, or a public price's text (parsed when needed). */
  private readonly lastPrice = new Map<string, Decimal | string>();
  private readonly balances = new Map<string, Decimal>();
  private readonly positions = new Map<string, Decimal>();
  private readonly finished = new Map<string, OrderRecord>();
  private readonly created = new Map<string, number>();
  private readonly tradePriced = new Set<string>();
  private nextSample = Number.NEGATIVE_INFINITY;
  private pendingFillSample = false;

  constructor(
    private readonly instruments: readonly Instrument[],
    readonly quoteCurrency: string,
    private readonly adapter: ExecutionAdapter,
    private readonly barMs: number,
    private readonly sampleMs: number,
    private readonly mid: (symbol: string) => string | undefined,
  ) {
    this.bars = new PriceBars(barMs);
  }

  /** Balances as the venue reports them (total = available + reserved). */
  onBalances(balances: readonly TradingBalance[]): void {
    for (const b of balances) if (b.currency !== undefined) this.balances.set(b.currency, b.available.plus(b.reserved));
  }

  /** One of the bot's order reports from the venue; trades become fill records. */
  onOrderReport(report: OrderReport, time: number, cause?: EventCause): void {
    if (report.report_type !== 'trade' || report.trade_quantity === undefined || report.trade_price === undefined) return;
    const tracker = this.adapter.registry.get(report.client_order_id);
    const instrument = this.instruments.find((i) => i.symbol === report.symbol);
    this.fills.push({
      time, symbol: report.symbol, side: report.side, price: report.trade_price, quantity: report.trade_quantity,
      fee: report.trade_fee ?? ZERO, feeCurrency: instrument?.info.fee_currency ?? this.quoteCurrency,
      liquidity: report.trade_taker === true ? 'taker' : 'maker', clientOrderId: report.client_order_id,
      tradeId: report.trade_id ?? `${report.client_order_id}:${report.quantity_cumulative.toFixed()}`,
      intentId: tracker?.intentId, strategyId: tracker?.info.strategyId, cause: cause === undefined ? undefined : causeText(cause),
    });
    const signed = report.side === 'buy' ? report.trade_quantity : report.trade_quantity.negated();
    this.positions.set(report.symbol, (this.positions.get(report.symbol) ?? ZERO).plus(signed));
    this.lastPrice.set(report.symbol, report.trade_price);
    this.pendingFillSample = true;
  }

  /** A public trade or closed-candle price of a symbol at `time` (bars and valuation). */
  onPrice(symbol: string, price: string, time: number): void {
    this.tradePriced.add(symbol);
    this.lastPrice.set(symbol, price);
    this.bars.add(symbol, price, time);
  }

  /** Samples equity when a sample is due (or a fill happened since the last one). */
  tick(time: number): void {
    if (time < this.nextSample && !this.pendingFillSample) return;
    this.sample(time);
  }

  /**
   * Takes a sample now. Skipped while a held currency has no price yet (before the first book or
   * trade), so the series never starts with holdings valued at zero.
   */
  sample(time: number): void {
    let equity = ZERO;
    for (const [currency, amount] of this.balances) {
      if (currency === this.quoteCurrency) {
        equity = equity.plus(amount);
        continue;
      }
      if (amount.isZero()) continue;
      const price = this.priceOf(currency, time);
      if (price === undefined) return;
      equity = equity.plus(amount.times(price));
    }
    this.pendingFillSample = false;
    if (time >= this.nextSample) this.nextSample = (Math.floor(time / this.sampleMs) + 1) * this.sampleMs;
    this.equity.push({ time, equity, positions: Object.fromEntries(this.positions) });
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
    for (const tracker of this.adapter.registry.all()) {
      const record = orderRecord(tracker);
      if (record !== undefined && !records.has(tracker.clientOrderId)) records.set(tracker.clientOrderId, record);
    }
    return [...records.values()].sort((a, b) => (this.created.get(a.clientOrderId) ?? 0) - (this.created.get(b.clientOrderId) ?? 0));
  }

  /** An order was created (tracked before its request left): its place in the orders' list. */
  onTrack(info: TrackedOrderInfo): void {
    this.created.set(info.clientOrderId, this.created.size);
  }

  /** An order ended: its final record is kept here, as the registry forgets old finished orders. */
  onOrderFinished(tracker: OrderTracker): void {
    const record = orderRecord(tracker);
    if (record !== undefined) this.finished.set(tracker.clientOrderId, record);
  }

  /** Value of one unit of `currency` in the quote currency: last trade price, else the book's mid. */
  private priceOf(currency: string, time: number): Decimal | undefined {
    for (const instrument of this.instruments) {
      if (instrument.baseCurrency !== currency || instrument.quoteCurrency !== this.quoteCurrency) continue;
      const mid = this.mid(instrument.symbol);
      if (mid === undefined) return this.lastDecimal(instrument.symbol);
      // Without public trades or candles, the sampled mids are the only price series there is.
      if (!this.tradePriced.has(instrument.symbol)) this.bars.add(instrument.symbol, mid, time);
      return new Decimal(mid);
    }
    return undefined;
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

function orderRecord(tracker: OrderTracker): OrderRecord | undefined {
  const order = tracker.order;
  if (order === undefined) return undefined;
  return {
    clientOrderId: tracker.clientOrderId, intentId: tracker.intentId, symbol: order.symbol, side: order.side, type: order.type,
    price: order.price, quantity: order.quantity, filledQuantity: tracker.quantityCumulative, status: order.status,
    createdAt: order.created_at, updatedAt: order.updated_at,
  };
}

/** A venue event cause as one short, stable text (see FillRecord.cause). */
export function causeText(cause: EventCause): string {
  switch (cause.kind) {
    case 'request': return `request#${cause.requestId}`;
    case 'market': return `market:${cause.channel}:${cause.symbol}@${cause.frameTime}${cause.sequence === undefined ? '' : `#${cause.sequence}`}`;
    case 'timer': return `timer:${cause.reason}@${cause.time}`;
  }
}
