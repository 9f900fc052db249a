import { setImmediate } from 'node:timers';
import { NEVER, Subject, type Observable } from 'rxjs';
import { Decimal } from '../model/decimal.js';
import { parseTradingBalance, type TradingBalance } from '../model/resources/balance.js';
import { parseOrder, type Order, type OrderStatus } from '../model/resources/order.js';
import { parseOrderReport, type OrderReport, type ReportType } from '../model/stream/order-report.js';
import type { Clock } from '../time/clock.js';
import type { TradeHistoryRecord } from '../model/resources/trade-history.js';
import type { VenueOrderListRequest, VenueOrderRequest, VenuePort, VenueReplaceRequest } from './venue-port.js';

/**
 * An exchange stand-in that accepts every order, answering at once, and fills every
 * {@link FILL_EVERY}th order it places in full at its limit price just after (so the way of a fill,
 * from the report to the account, the position and the strategy's `onFill`, is rehearsed too): the
 * venue of an order-path rehearsal (see order-path-rehearsal.ts). Its answers and reports are built
 * in the exchange's wire form and read by the same parsers the live client reads the exchange with,
 * so the objects the order path handles have the very shapes it will handle live. Each open order
 * keeps the wire record it was read from, and a change is written into a copy of it: a bot keeping
 * its order path warm shows this venue a book every few ms for as long as it runs. Nothing here
 * reaches a network or the bot's account.
 */
export class RehearsalVenuePort implements VenuePort {
  readonly balances$: Observable<readonly TradingBalance[]> = NEVER;
  readonly reconnected$: Observable<number> = NEVER;
  private readonly reports = new Subject<OrderReport>();
  readonly orderReports$: Observable<OrderReport> = this.reports.asObservable();
  private readonly open = new Map<string, OpenOrder>();
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
    const opened = this.keep({
      id: ++this.lastId, client_order_id: request.client_order_id, symbol: request.symbol, side: request.side, status: 'new', type: request.type,
      time_in_force: request.time_in_force ?? 'GTC', quantity: request.quantity.toFixed(), quantity_cumulative: '0', price: request.price?.toFixed(),
      post_only: request.post_only === true, created_at: now, updated_at: now,
    });
    this.report(opened, 'new');
    if (++this.placed % FILL_EVERY === 0 && opened.order.price !== undefined) this.fill(opened);
    return Promise.resolve(opened.order);
  }

  placeOrderList(list: VenueOrderListRequest): Promise<Order[]> {
    return Promise.all(list.orders.map((order) => this.placeOrder(order)));
  }

  replaceOrder(clientOrderId: string, change: VenueReplaceRequest): Promise<Order> {
    this.requests++;
    const old = this.open.get(clientOrderId);
    if (old === undefined) return Promise.reject(new Error(`rehearsal: no open order ${clientOrderId}`));
    this.open.delete(clientOrderId);
    const replaced = this.keep({
      ...old.wire, id: ++this.lastId, client_order_id: change.new_client_order_id, original_client_order_id: clientOrderId,
      quantity: change.quantity.toFixed(), price: change.price === undefined ? old.wire['price'] : change.price.toFixed(), updated_at: this.stamp(),
    });
    // One report, as the exchange sends it: the new order, naming the old one.
    this.report(replaced, 'replaced');
    return Promise.resolve(replaced.order);
  }

  cancelOrder(clientOrderId: string): Promise<Order> {
    this.requests++;
    const old = this.open.get(clientOrderId);
    if (old === undefined) return Promise.reject(new Error(`rehearsal: no open order ${clientOrderId}`));
    this.open.delete(clientOrderId);
    const canceled = this.changed(old, 'canceled');
    this.report(canceled, 'canceled');
    return Promise.resolve(canceled.order);
  }

  cancelAll(symbol?: string): Promise<Order[]> {
    const ids = [...this.open.values()].filter((o) => symbol === undefined || o.order.symbol === symbol).map((o) => o.order.client_order_id);
    return Promise.all(ids.map((id) => this.cancelOrder(id)));
  }

  findOrder(clientOrderId: string): Promise<Order | undefined> {
    return Promise.resolve(this.open.get(clientOrderId)?.order);
  }

  openOrders(symbol?: string): Promise<Order[]> {
    return Promise.resolve([...this.open.values()].map((o) => o.order).filter((o) => symbol === undefined || o.symbol === symbol));
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

  /** The order read from `wire`, kept open with it. */
  private keep(wire: WireRecord): OpenOrder {
    const opened = { order: parseOrder(wire), wire };
    this.open.set(opened.order.client_order_id, opened);
    return opened;
  }

  /** `old` as the exchange answers it changed now: with `status`, and `changes` in wire form. */
  private changed(old: OpenOrder, status: OrderStatus, changes: WireRecord = {}): OpenOrder {
    const wire = { ...old.wire, ...changes, status, updated_at: this.stamp() };
    return { order: parseOrder(wire), wire };
  }

  /** Fills `opened` in full at its limit price: a trade report after its other reports, the order closed. */
  private fill(opened: OpenOrder): void {
    this.open.delete(opened.order.client_order_id);
    const { quantity, price } = opened.wire;
    const filled = this.changed(opened, 'filled', { quantity_cumulative: quantity, price_average: price });
    this.fills++;
    this.report(filled, 'trade', { trade_id: this.fills, trade_quantity: quantity, trade_price: price, trade_fee: '0', trade_taker: false });
  }

  /** A report of `order`, arriving after the request's answer, as a socket message would. */
  private report({ wire }: OpenOrder, reportType: ReportType, trade?: WireRecord): void {
    const report = parseOrderReport({ ...wire, report_type: reportType, ...trade });
    setImmediate(() => this.reports.next(report));
  }
}

type WireRecord = Record<string, unknown>;

/** An order open at the stand-in venue, with the wire record it was read from. */
interface OpenOrder {
  readonly order: Order;
  readonly wire: WireRecord;
}

const AMPLE = new Decimal('1000000000');

/** Every this many orders placed (limit orders), one is filled. */
const FILL_EVERY = 20;
