import { Subject } from 'rxjs';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { OrderBook } from '../../framework/exchange/book/order-book.js';
import { dec } from '../../framework/model/decimal.js';
import type { Intent } from '../../framework/model/intent.js';
import type { Side } from '../../framework/model/instrument.js';
import type { TradingBalance } from '../../framework/model/resources/balance.js';
import type { OrderStatus } from '../../framework/model/resources/order.js';
import type { OrderUpdateReport, StrategyReport } from '../../framework/model/strategy-report.js';
import type { CandlesEvent, MarketEvent, TradesEvent } from '../../framework/model/stream/market-events.js';
import type { OrderReport, ReportType } from '../../framework/model/stream/order-report.js';
import type { AccountSource, IntentSink, MarketSource } from '../../framework/runtime/runtime-ports.js';

/** Subjects standing in for every port, and the intents the sink received. */
export class FakePorts {
  readonly submitted: Intent[] = [];
  readonly reports = new Subject<StrategyReport>();
  readonly orderReports = new Subject<OrderUpdateReport>();
  readonly balances = new Subject<readonly TradingBalance[]>();
  readonly books = new Subject<BookEvent>();
  readonly market = new Subject<MarketEvent>();
  readonly candleClosed = new Subject<CandlesEvent>();
  /** Called on each submit (e.g. to answer synchronously). */
  onSubmit: (intent: Intent) => void = () => {};

  readonly sink: IntentSink = {
    submit: (intent) => {
      this.submitted.push(intent);
      this.onSubmit(intent);
    },
    reports$: this.reports,
  };
  readonly marketSource: MarketSource = { books$: this.books, market$: this.market, candleClosed$: this.candleClosed };
  readonly account: AccountSource = { orderReports$: this.orderReports, balances$: this.balances };
}

const books = new Map<string, OrderBook>();

/** A book update event for `symbol` (the book object is shared per symbol, as the keeper's is). */
export function bookUpdate(symbol: string, sequence: number): BookEvent {
  let book = books.get(symbol);
  if (book === undefined) {
    book = new OrderBook(symbol, { windowSize: 64 });
    books.set(symbol, book);
  }
  return { kind: 'update', symbol, sequence, book };
}

/** A trades event. */
export function trades(symbol: string, time: number): TradesEvent {
  return { kind: 'trades', channel: 'trades', symbol, snapshot: false, exchangeTime: time, receivedAt: time, trades: [] };
}

/** An order report wrapped as the account source delivers it. */
export function orderUpdate(fields: {
  clientOrderId: string; status: OrderStatus; reportType?: ReportType; side?: Side; symbol?: string; quantity?: string; price?: string;
  updatedAt?: number; trade?: { id: string; quantity: string; price: string; fee?: string }; original?: string;
}): OrderUpdateReport {
  const report: OrderReport = {
    id: `x-${fields.clientOrderId}`,
    client_order_id: fields.clientOrderId,
    symbol: fields.symbol ?? 'BTCUSDT',
    side: fields.side ?? 'buy',
    status: fields.status,
    type: 'limit',
    time_in_force: 'GTC',
    quantity: dec(fields.quantity ?? '1'),
    quantity_cumulative: dec('0'),
    price: dec(fields.price ?? '100'),
    post_only: false,
    created_at: 0,
    updated_at: fields.updatedAt ?? 0,
    report_type: fields.reportType ?? (fields.trade === undefined ? 'status' : 'trade'),
    ...(fields.original === undefined ? {} : { original_client_order_id: fields.original }),
    ...(fields.trade === undefined ? {} : {
      trade_id: fields.trade.id,
      trade_quantity: dec(fields.trade.quantity),
      trade_price: dec(fields.trade.price),
      trade_fee: dec(fields.trade.fee ?? '0'),
    }),
  };
  return { kind: 'order', report, time: fields.updatedAt ?? 0 };
}
