import { OrderBook } from '../../framework/exchange/book/order-book.js';
import { dec, type DecimalString } from '../../framework/model/decimal.js';
import type { Intent, OrderSpec } from '../../framework/model/intent.js';
import { Instrument } from '../../framework/model/instrument.js';
import type { Order, OrderStatus } from '../../framework/model/resources/order.js';
import { parseSymbolInfo } from '../../framework/model/resources/symbol.js';
import type { CandlesEvent } from '../../framework/model/stream/market-events.js';
import type { OrderReport, ReportType } from '../../framework/model/stream/order-report.js';
import { virtualSchedulers } from '../../framework/runtime/runtime-ports.js';
import { StrategyEngine } from '../../framework/runtime/strategy-engine.js';
import type { PositionView, StrategyPlugin } from '../../framework/runtime/strategy.js';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../framework/time/clock.js';
import { FakePorts } from '../runtime/runtime-fixtures.js';

/** ETHUSDT as in the sample recording: tick 0.01, lot 0.0001. */
export const ETHUSDT = new Instrument('ETHUSDT', parseSymbolInfo({
  type: 'spot', base_currency: 'ETH', quote_currency: 'USDT', quantity_increment: '0.0001', tick_size: '0.01',
  take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT',
}));

/** BTCUSDT as in the sample recording: tick 0.01, lot 0.00001. */
export const BTCUSDT = new Instrument('BTCUSDT', parseSymbolInfo({
  type: 'spot', base_currency: 'BTC', quote_currency: 'USDT', quantity_increment: '0.00001', tick_size: '0.01',
  take_rate: '0.001', make_rate: '0.001', fee_currency: 'USDT',
}));

/** BTCUSDT_PERP: a perpetual on the BTCUSDT grid, margin and fees in USDT. */
export const BTCUSDT_PERP = new Instrument('BTCUSDT_PERP', parseSymbolInfo({
  type: 'futures', contract_type: 'perpetual', expiry: null, underlying: 'BTC', base_currency: null, quote_currency: 'USDT',
  quantity_increment: '0.00001', tick_size: '0.01', take_rate: '0.0005', make_rate: '0.0002', fee_currency: 'USDT', margin_trading: true,
}));

const INSTRUMENTS = new Map([ETHUSDT, BTCUSDT, BTCUSDT_PERP].map((i) => [i.symbol, i]));
/** Start of virtual time in the strategy tests (UNIX ms). */
export const T0 = 1_700_000_000_000;

/** An order as the exchange would answer for `spec` (or a replace of `base`). */
export function orderOf(spec: Pick<OrderSpec, 'symbol' | 'side' | 'type' | 'quantity' | 'price' | 'stopPrice'>, clientOrderId: string, status: OrderStatus, time: number, extra: Partial<Order> = {}): Order {
  return {
    id: `x-${clientOrderId}`, client_order_id: clientOrderId, symbol: spec.symbol, side: spec.side, status, type: spec.type,
    time_in_force: 'GTC', quantity: spec.quantity, quantity_cumulative: status === 'filled' ? spec.quantity : dec('0'),
    price: spec.price, stop_price: spec.stopPrice, post_only: false, created_at: time, updated_at: time, ...extra,
  };
}

/**
 * One strategy plugin run through the real StrategyEngine on virtual time, with FakePorts:
 * the test plays the exchange (answers, order updates) and the market (books, candles).
 */
export class StrategyHarness<P> {
  readonly ports = new FakePorts();
  readonly scheduler = new VirtualClockScheduler(new VirtualClock(T0));
  readonly engine: StrategyEngine<P>;
  private taken = 0;
  private readonly books = new Map<string, OrderBook>();
  private sequence = 0;

  /** `positions`: the execution side's positions (margin terms included) when a test plays them; else the engine's own. */
  constructor(plugin: StrategyPlugin<P>, rawParams: unknown, positions?: (symbol: string) => PositionView | undefined) {
    const params = plugin.parseParams(rawParams);
    this.engine = new StrategyEngine({
      strategyId: 's', strategy: plugin.create(params), params, sink: this.ports.sink, market: this.ports.marketSource, positions,
      account: this.ports.account, clock: this.scheduler.clock, schedulers: virtualSchedulers(this.scheduler), errorPolicy: 'halt',
      instruments: (symbol) => INSTRUMENTS.get(symbol),
      onHalt: (error) => {
        throw error;
      },
    });
    this.engine.start();
  }

  now(): number {
    return this.scheduler.clock.now();
  }

  /** Intents submitted since the last call. */
  take(): Intent[] {
    const out = this.ports.submitted.slice(this.taken);
    this.taken = this.ports.submitted.length;
    return out;
  }

  /** Moves virtual time by `ms`, firing due timers. */
  advance(ms: number): void {
    this.scheduler.advanceTo(this.now() + ms);
  }

  /** Replaces the book of `symbol` with one bid and one ask level (a snapshot) and dispatches it. */
  book(symbol: string, bid: string, ask: string): void {
    let book = this.books.get(symbol);
    if (book === undefined) {
      book = new OrderBook(symbol, { instrument: INSTRUMENTS.get(symbol), windowSize: 1 << 16 });
      this.books.set(symbol, book);
    }
    this.sequence++;
    const t = this.now();
    book.apply({ symbol, sequence: this.sequence, exchangeTime: t, receivedAt: t, snapshot: true, bids: [[bid, '5']], asks: [[ask, '5']] });
    this.ports.books.next({ kind: 'snapshot', symbol, sequence: this.sequence, book });
    this.scheduler.flush();
  }

  /** A candle of `symbol` closing at `close` (closed) or still forming. */
  candle(symbol: string, timestamp: number, close: string, closed = true): void {
    const c = close as DecimalString;
    const event: CandlesEvent = {
      kind: 'candles', channel: 'candles/M1', symbol, snapshot: false, exchangeTime: timestamp, receivedAt: timestamp, period: 'M1',
      candles: [{ timestamp, open: c, close: c, high: c, low: c, volume: '1' as DecimalString, volumeQuote: c }],
    };
    if (closed) this.ports.candleClosed.next(event);
    else this.ports.market.next(event);
    this.scheduler.flush();
  }

  /** The exchange accepted `intent` with these orders. */
  accept(intent: Intent, orders: readonly Order[]): void {
    this.ports.reports.next({ kind: 'accepted', intent, orders, time: this.now() });
    this.scheduler.flush();
  }

  /** The exchange rejected `intent`. */
  reject(intent: Intent): void {
    this.ports.reports.next({ kind: 'rejected', intent, code: 10001, message: 'no', time: this.now() });
    this.scheduler.flush();
  }

  /** The risk gate denied `intent`. */
  deny(intent: Intent): void {
    this.ports.reports.next({ kind: 'denied', intent, check: 'price-band', reason: 'no', time: this.now() });
    this.scheduler.flush();
  }

  /** A trading-stream update of `order` (with its intent), e.g. a fill or a cancel. */
  update(order: Order, reportType: ReportType, intentId?: string, trade?: { quantity: string; price: string }): void {
    const { trades: _trades, ...fields } = order;
    const report: OrderReport = {
      ...fields, updated_at: this.now(), report_type: reportType,
      ...(trade === undefined ? {} : { trade_id: `t-${this.sequence++}`, trade_quantity: dec(trade.quantity), trade_price: dec(trade.price), trade_fee: dec('0') }),
    };
    this.ports.orderReports.next({ kind: 'order', report, intentId, time: this.now() });
    this.scheduler.flush();
  }

  stop(): void {
    this.engine.stop();
  }
}
