import { setImmediate } from 'node:timers';
import { NEVER, Subject, type Observable } from 'rxjs';
import { Decimal } from '../model/decimal.js';
import { parseTradingBalance, type TradingBalance } from '../model/resources/balance.js';
import { orderToWire, parseOrder, type Order, type OrderStatus } from '../model/resources/order.js';
import { orderReportToWire, parseOrderReport, type OrderReport, type ReportType } from '../model/stream/order-report.js';
import type { Clock } from '../time/clock.js';
import type { TradeHistoryRecord } from '../model/resources/trade-history.js';
import type { VenueOrderListRequest, VenueOrderRequest, VenuePort, VenueReplaceRequest } from './venue-port.js';

/**
 * An exchange stand-in that accepts every order, answering at once, and fills every
 * {@link FILL_EVERY}th order it places in full at its limit price just after (so the way of a fill,
 * from the report to the account, the position and the strategy's `onFill`, is rehearsed too): the
 * venue of an order-path rehearsal (see order-path-rehearsal.ts). Its answers and reports are built
 * in the exchange's wire form and read by the same parsers the live client reads the exchange with,
 * so the objects the order path handles have the very shapes it will handle live. Nothing here
 * reaches a network or the bot's account.
 */
export class RehearsalVenuePort implements VenuePort {
  readonly balances$: Observable<readonly TradingBalance[]> = NEVER;
  readonly reconnected$: Observable<number> = NEVER;
  private readonly reports = new Subject<OrderReport>();
  readonly orderReports$: Observable<OrderReport> = this.reports.asObservable();
  private readonly open = new Map<string, Order>();
  private lastId = 0;
  private placed = 0;
  /** Executions reported so far (each fills an order in full). */
  fills = 0;
  /** Order requests answered so far (places, replaces, cancels). */
  requests = 0;

  constructor(
    readonly account: 'spot' | 'margin' | 'futures',
    private readonly clock: Clock,
    /** Currencies the account holds, each with a balance no rehearsal order exhausts. */
    private readonly currencies: readonly string[],
  ) {}

  placeOrder(request: VenueOrderRequest): Promise<Order> {
    this.requests++;
    const now = this.stamp();
    const order = parseOrder({
      id: ++this.lastId, client_order_id: request.client_order_id, symbol: request.symbol, side: request.side, status: 'new', type: request.type,
      time_in_force: request.time_in_force ?? 'GTC', quantity: request.quantity.toFixed(), quantity_cumulative: '0', price: request.price?.toFixed(),
      post_only: request.post_only === true, created_at: now, updated_at: now,
    });
    this.open.set(order.client_order_id, order);
    this.report(order, 'new');
    if (++this.placed % FILL_EVERY === 0 && order.price !== undefined) this.fill(order, order.price);
    return Promise.resolve(order);
  }

  placeOrderList(list: VenueOrderListRequest): Promise<Order[]> {
    return Promise.all(list.orders.map((order) => this.placeOrder(order)));
  }

  replaceOrder(clientOrderId: string, change: VenueReplaceRequest): Promise<Order> {
    this.requests++;
    const old = this.open.get(clientOrderId);
    if (old === undefined) return Promise.reject(new Error(`rehearsal: no open order ${clientOrderId}`));
    this.open.delete(clientOrderId);
    const order = parseOrder({
      ...orderToWire(old), id: ++this.lastId, client_order_id: change.new_client_order_id, original_client_order_id: clientOrderId,
      quantity: change.quantity.toFixed(), price: (change.price ?? old.price)?.toFixed(), updated_at: this.stamp(),
    });
    this.open.set(order.client_order_id, order);
    // One report, as the exchange sends it: the new order, naming the old one.
    this.report(order, 'replaced');
    return Promise.resolve(order);
  }

  cancelOrder(clientOrderId: string): Promise<Order> {
    this.requests++;
    const old = this.open.get(clientOrderId);
    if (old === undefined) return Promise.reject(new Error(`rehearsal: no open order ${clientOrderId}`));
    this.open.delete(clientOrderId);
    const canceled = this.withStatus(old, 'canceled');
    this.report(canceled, 'canceled');
    return Promise.resolve(canceled);
  }

  cancelAll(symbol?: string): Promise<Order[]> {
    const ids = [...this.open.values()].filter((o) => symbol === undefined || o.symbol === symbol).map((o) => o.client_order_id);
    return Promise.all(ids.map((id) => this.cancelOrder(id)));
  }

  findOrder(clientOrderId: string): Promise<Order | undefined> {
    return Promise.resolve(this.open.get(clientOrderId));
  }

  openOrders(symbol?: string): Promise<Order[]> {
    return Promise.resolve([...this.open.values()].filter((o) => symbol === undefined || o.symbol === symbol));
  }

  balances(): Promise<TradingBalance[]> {
    // A balance far above any rehearsal order (a lot or two at a few ticks), so no check refuses one for funds.
    return Promise.resolve(this.currencies.map((currency) => parseTradingBalance({ currency, available: AMPLE.toFixed(), reserved: '0' })));
  }

  orderTrades(): Promise<TradeHistoryRecord[]> {
    return Promise.resolve([]);
  }

  /** Orders still open (a rehearsal ends with none). */
  get openCount(): number {
    return this.open.size;
  }

  /** Ends the report stream. */
  close(): void {
    this.reports.complete();
  }

  /** The time the exchange writes on an order it changes now. */
  private stamp(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** `order` as the exchange answers it changed now: with `status`, and `changes` in wire form. */
  private withStatus(order: Order, status: OrderStatus, changes: Record<string, unknown> = {}): Order {
    return parseOrder({ ...orderToWire(order), ...changes, status, updated_at: this.stamp() });
  }

  /** Fills `order` in full at `price`: a trade report after its other reports, the order closed. */
  private fill(order: Order, price: Decimal): void {
    this.open.delete(order.client_order_id);
    const filled = this.withStatus(order, 'filled', { quantity_cumulative: order.quantity.toFixed(), price_average: price.toFixed() });
    this.fills++;
    this.report(filled, 'trade', {
      trade_id: this.fills, trade_quantity: order.quantity.toFixed(), trade_price: price.toFixed(), trade_fee: '0', trade_taker: false,
    });
  }

  /** A report of `order`, arriving after the request's answer, as a socket message would. */
  private report(order: Order, reportType: ReportType, trade?: Record<string, unknown>): void {
    const { trades: _trades, ...fields } = order;
    const report = parseOrderReport({ ...orderReportToWire({ ...fields, report_type: reportType }), ...trade });
    setImmediate(() => this.reports.next(report));
  }
}

const AMPLE = new Decimal('1000000000');

/** Every this many orders placed (limit orders), one is filled. */
const FILL_EVERY = 20;
