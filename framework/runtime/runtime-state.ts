import type { OrderBook } from '../exchange/book/order-book.js';
import type { Instrument } from '../model/instrument.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { Order, OrderStatus } from '../model/resources/order.js';
import type { StrategyReport } from '../model/strategy-report.js';
import type { OrderReport } from '../model/stream/order-report.js';
import { BoundedSet } from '../model/bounded-set.js';
import { PositionLedger } from './position-ledger.js';
import type { PositionView } from './strategy.js';

const ACTIVE: ReadonlySet<OrderStatus> = new Set<OrderStatus>(['new', 'suspended', 'partiallyFilled']);

/** True while an order can still trade (and so must be managed). */
export function isActiveOrder(order: Pick<Order, 'status'>): boolean {
  return ACTIVE.has(order.status);
}

/**
 * What one strategy knows of the world, fed by the engine in event order: live books, balances,
 * its open orders (from accepted answers and order reports) and its positions (from fills).
 *
 * Order rules: an active order is stored by client_order_id; a final one (filled, canceled,
 * expired, rejected) is removed and remembered, so a late `accepted` answer cannot bring it back;
 * an older `updated_at` never overwrites a newer state; a replacement removes the order it
 * replaced. A fill is applied once per trade id (a reconnect snapshot may repeat one).
 */
export class RuntimeState {
  readonly positions = new PositionLedger();
  private readonly books = new Map<string, OrderBook>();
  private readonly balances = new Map<string, TradingBalance>();
  private readonly orders = new Map<string, Order>();
  /** Recently finished orders (a late `accepted` must not revive one) and booked trades; bounded. */
  private readonly finished = new BoundedSet<string>(10_000);
  private readonly seenTrades = new BoundedSet<string>(100_000);

  constructor(private readonly instruments: (symbol: string) => Instrument | undefined = () => undefined) {}

  instrument(symbol: string): Instrument | undefined {
    return this.instruments(symbol);
  }

  book(symbol: string): OrderBook | undefined {
    return this.books.get(symbol);
  }

  /** Records the live book of a symbol, or forgets it (stale) with undefined. */
  setBook(symbol: string, book: OrderBook | undefined): void {
    if (book === undefined) this.books.delete(symbol);
    else this.books.set(symbol, book);
  }

  balance(currency: string): TradingBalance | undefined {
    return this.balances.get(currency);
  }

  /** Balance notifications carry absolute values: each entry replaces its currency. */
  applyBalances(balances: readonly TradingBalance[]): void {
    for (const b of balances) if (b.currency !== undefined) this.balances.set(b.currency, b);
  }

  /** Open orders known before the first event (reconciled with the exchange at start). */
  seedOrders(orders: readonly Order[]): void {
    for (const order of orders) this.applyOrder(order);
  }

  openOrders(symbol?: string): readonly Order[] {
    const out: Order[] = [];
    for (const order of this.orders.values()) if (symbol === undefined || order.symbol === symbol) out.push(order);
    return out;
  }

  /** Updates orders and positions from a report; returns the fill's position when it carried one. */
  applyReport(report: StrategyReport): PositionView | undefined {
    if (report.kind === 'accepted') {
      for (const order of report.orders) this.applyOrder(order);
      return undefined;
    }
    if (report.kind !== 'order') return undefined;
    const r = report.report;
    const position = this.applyFill(r);
    if (r.original_client_order_id !== undefined && r.original_client_order_id !== r.client_order_id) {
      this.finish(r.original_client_order_id);
    }
    if (r.report_type === 'rejected') this.finish(r.client_order_id);
    else this.applyOrder(r);
    return position;
  }

  private applyOrder(order: Order): void {
    const id = order.client_order_id;
    if (this.finished.has(id)) return;
    const known = this.orders.get(id);
    if (known !== undefined && known.updated_at > order.updated_at) return;
    if (isActiveOrder(order)) this.orders.set(id, order);
    else this.finish(id);
  }

  private applyFill(r: OrderReport): PositionView | undefined {
    if (r.report_type !== 'trade' || r.trade_quantity === undefined || r.trade_price === undefined) return undefined;
    const key = r.trade_id === undefined ? undefined : `${r.symbol}:${r.trade_id}`;
    if (key !== undefined) {
      if (this.seenTrades.has(key)) return undefined;
      this.seenTrades.add(key);
    }
    return this.positions.applyFill(r.symbol, r.side, r.trade_quantity, r.trade_price, r.trade_fee);
  }

  private finish(clientOrderId: string): void {
    this.orders.delete(clientOrderId);
    this.finished.add(clientOrderId);
  }
}
