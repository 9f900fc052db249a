import type { OrderBook } from '../exchange/book/order-book.js';
import { ZERO } from '../model/decimal.js';
import type { Instrument } from '../model/instrument.js';
import type { Intent, OrderSpec } from '../model/intent.js';
import { PositionAccumulator, type PositionView } from '../model/position.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { Order } from '../model/resources/order.js';
import type { StrategyReport } from '../model/strategy-report.js';
import type { OrderReport } from '../model/stream/order-report.js';
import { MutableOrderHandle, isActiveStatus, type HandleFill, type OrderHandle, type OrderListHandle } from './order-handle.js';

/** Closed handles kept for late reports (a trade report behind its order's final status), by default. */
export const CLOSED_HANDLES_KEPT = 10_000;

/** What a report did to one of the strategy's order handles. */
export interface HandleUpdate {
  readonly handle: OrderHandle;
  /** Executions told for the first time. */
  readonly fills: readonly HandleFill[];
  /** The report closed the handle. */
  readonly closed: boolean;
}

/**
 * What one strategy knows of the world, fed by the engine in event order: live books, balances,
 * and its orders as {@link OrderHandle}s, made when an intent is built and moved by the answers and
 * order reports the strategy receives.
 *
 * Order rules: a handle answers to every id its order had; a final status closes it for good (a
 * late answer cannot reopen it, a late execution still counts); an older `updated_at` never
 * overwrites a newer state; an execution counts once per trade id. The fallback positions (when
 * the engine is given none from execution) follow the framework's one rule from the handles' fills.
 */
export class RuntimeState {
  private readonly books = new Map<string, OrderBook>();
  private readonly balances = new Map<string, TradingBalance>();
  /** Every id an unclosed handle answers to. */
  private readonly byId = new Map<string, MutableOrderHandle>();
  /** Handles concerned by each intent waiting for its answer. */
  private readonly byIntent = new Map<string, MutableOrderHandle[]>();
  /** Handles built by an intent not handed on yet, by intent. */
  private readonly created = new Map<string, MutableOrderHandle[]>();
  /** Handles not closed, in the order they were made. */
  private readonly live = new Set<MutableOrderHandle>();
  /** Recently closed handles by id, oldest first. */
  private readonly closed = new Map<string, MutableOrderHandle>();
  private readonly fallbackPositions = new Map<string, PositionAccumulator>();

  constructor(
    private readonly instruments: (symbol: string) => Instrument | undefined = () => undefined,
    /** Closed handles kept for late reports ({@link CLOSED_HANDLES_KEPT} by default). */
    private readonly closedKept = CLOSED_HANDLES_KEPT,
  ) {}

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

  /** The position from the handles' fills (used when execution's books are not at hand). */
  position(symbol: string): PositionView | undefined {
    return this.fallbackPositions.get(symbol)?.view();
  }

  /** Open orders known before the first event (reconciled with the exchange at start). */
  seedOrders(orders: readonly (Order & { readonly intentId?: string })[]): void {
    for (const order of orders) {
      if (!isActiveStatus(order.status) || this.byId.has(order.client_order_id)) continue;
      const handle = new MutableOrderHandle(order.client_order_id, order.symbol, order.side, order.type, order.quantity, order.price, order.intentId, undefined);
      handle.applyOrder(order);
      this.register(handle);
    }
  }

  /** The exchange's snapshots of the orders it holds (optionally of one symbol). */
  openOrders(symbol?: string): readonly Order[] {
    const out: Order[] = [];
    for (const handle of this.live) {
      const order = handle.order;
      if (order !== undefined && isActiveStatus(order.status) && (symbol === undefined || handle.symbol === symbol)) out.push(order);
    }
    return out;
  }

  /** Handles that may still trade, oldest first. */
  orders(symbol?: string): readonly OrderHandle[] {
    const out: OrderHandle[] = [];
    for (const handle of this.live) if (handle.isOpen && (symbol === undefined || handle.symbol === symbol)) out.push(handle);
    return out;
  }

  /** The handle answering to `clientOrderId` (open, or closed recently). */
  order(clientOrderId: string): OrderHandle | undefined {
    return this.byId.get(clientOrderId) ?? this.closed.get(clientOrderId);
  }

  /** A new order's handle, for a place or closePosition intent (spec: what it asks for). */
  createHandle(intent: Intent & { readonly clientOrderId?: string }, clientOrderId: string, spec: Pick<OrderSpec, 'symbol' | 'side' | 'type' | 'quantity' | 'price'>, leg?: number): MutableOrderHandle {
    const handle = new MutableOrderHandle(clientOrderId, spec.symbol, spec.side, spec.type, spec.quantity, spec.price, intent.intentId, intent.tag, leg);
    this.register(handle);
    const built = this.created.get(intent.intentId);
    if (built === undefined) this.created.set(intent.intentId, [handle]);
    else built.push(handle);
    return handle;
  }

  /** The legs' handles of an order list intent whose ids are fixed. */
  listHandle(intent: Extract<Intent, { kind: 'orderList' }>, legs: readonly MutableOrderHandle[]): OrderListHandle {
    const orders = legs;
    return {
      orderListId: legs[0]?.clientOrderId ?? intent.intentId, intentId: intent.intentId, orders,
      get isOpen(): boolean {
        return orders.some((o) => o.isOpen);
      },
    };
  }

  /** The open handle an intent names by client_order_id. */
  openHandle(clientOrderId: string): MutableOrderHandle | undefined {
    const handle = this.byId.get(clientOrderId);
    return handle !== undefined && !handle.isClosed ? handle : undefined;
  }

  /** A built intent was dropped (its handler failed): its new handles go. */
  discard(intent: Intent): void {
    const built = this.created.get(intent.intentId);
    if (built === undefined) return;
    this.created.delete(intent.intentId);
    for (const handle of built) this.forget(handle);
  }

  /** The intent passed on to the gate: its handles wait for the answer. */
  sent(intent: Intent): void {
    const handles = this.handlesOf(intent);
    if (handles.length === 0) return;
    for (const handle of handles) {
      handle.sent(intent);
      if (intent.kind === 'replace' && intent.newClientOrderId !== undefined) this.byId.set(intent.newClientOrderId, handle);
    }
    this.byIntent.set(intent.intentId, handles);
  }

  /** Applies a report to the handles; returns what changed, for the typed callbacks. */
  applyReport(report: StrategyReport): HandleUpdate[] {
    switch (report.kind) {
      case 'denied':
      case 'rejected': {
        const refusal = report.kind === 'denied' ? { check: report.check, reason: report.reason } : { code: report.code, reason: report.message };
        const updates: HandleUpdate[] = [];
        for (const handle of this.answered(report.intent.intentId)) {
          const pendingId = handle.replacingWith;
          const change = handle.refused(report.intent, report.kind, refusal);
          if (pendingId !== undefined && handle.replacingWith === undefined) this.byId.delete(pendingId);
          updates.push(this.settle(handle, [], change.closed));
        }
        return updates;
      }
      case 'accepted': {
        const handles = this.answered(report.intent.intentId);
        const updates: HandleUpdate[] = [];
        if (report.intent.kind === 'replace') {
          const id = report.intent.newClientOrderId ?? report.orders[0]?.client_order_id;
          for (const handle of handles) if (id !== undefined && handle.replacingWith === id) this.moveTo(handle, id);
        }
        for (const order of report.orders) {
          const update = this.applyOrder(order, undefined);
          if (update !== undefined) updates.push(update);
        }
        for (const handle of handles) handle.answered(report.intent.intentId);
        return updates;
      }
      case 'order': {
        const update = this.applyOrder(report.report, report.intentId);
        return update === undefined ? [] : [update];
      }
    }
  }

  private applyOrder(order: Order | OrderReport, intentId: string | undefined): HandleUpdate | undefined {
    let handle = this.byId.get(order.client_order_id) ?? this.closed.get(order.client_order_id);
    const original = order.original_client_order_id;
    if (handle === undefined && original !== undefined && original !== order.client_order_id) {
      // A replacement this strategy did not ask for names the order it took over.
      handle = this.byId.get(original);
      if (handle !== undefined) this.moveTo(handle, order.client_order_id);
    }
    if (handle === undefined) {
      if (!isActiveStatus(order.status)) return undefined;
      // An order of the strategy it has no handle of (found by a reconciliation after a reconnect).
      handle = new MutableOrderHandle(order.client_order_id, order.symbol, order.side, order.type, order.quantity, order.price, intentId, undefined);
      this.register(handle);
    } else if (handle.replacingWith === order.client_order_id) {
      this.moveTo(handle, order.client_order_id);
    }
    const fills: HandleFill[] = [];
    if ('report_type' in order) {
      if (order.report_type === 'trade' && order.trade_quantity !== undefined && order.trade_price !== undefined) {
        const tradeId = order.trade_id ?? `cumulative:${order.quantity_cumulative.toFixed()}`;
        this.addFill(handle, { tradeId, quantity: order.trade_quantity, price: order.trade_price, fee: order.trade_fee ?? ZERO, taker: order.trade_taker, time: order.updated_at }, fills);
      }
      if (order.report_type === 'rejected') return this.settle(handle, fills, handle.rejectedByExchange().closed);
    } else {
      for (const trade of order.trades ?? []) {
        this.addFill(handle, { tradeId: trade.id, quantity: trade.quantity, price: trade.price, fee: trade.fee, taker: trade.taker, time: trade.timestamp }, fills);
      }
    }
    const change = handle.applyOrder(order);
    return this.settle(handle, fills, change.closed);
  }

  private addFill(handle: MutableOrderHandle, fill: HandleFill, out: HandleFill[]): void {
    const fresh = handle.addFill(fill);
    if (fresh === undefined) return;
    out.push(fresh);
    let position = this.fallbackPositions.get(handle.symbol);
    if (position === undefined) this.fallbackPositions.set(handle.symbol, (position = new PositionAccumulator(handle.symbol)));
    position.apply(handle.side, fresh.quantity, fresh.price);
  }

  private settle(handle: MutableOrderHandle, fills: readonly HandleFill[], closed: boolean): HandleUpdate {
    if (closed) this.close(handle);
    return { handle, fills, closed };
  }

  private moveTo(handle: MutableOrderHandle, newId: string): void {
    if (newId === handle.clientOrderId) return;
    const before = handle.previousClientOrderId;
    handle.adoptReplacement(newId);
    this.byId.set(newId, handle);
    // The replaced order's late reports (an execution just before the replace) still find the
    // handle; the id before it is let go, so a quote replaced all day holds two ids, not thousands.
    if (before !== undefined && this.byId.get(before) === handle) this.byId.delete(before);
  }

  private handlesOf(intent: Intent): MutableOrderHandle[] {
    switch (intent.kind) {
      case 'place':
      case 'closePosition':
      case 'orderList': {
        const built = this.created.get(intent.intentId) ?? [];
        this.created.delete(intent.intentId);
        return built;
      }
      case 'replace':
      case 'cancel': {
        const handle = this.openHandle(intent.clientOrderId);
        return handle === undefined ? [] : [handle];
      }
      case 'cancelAll':
        return [...this.live].filter((h) => h.isOpen && (intent.symbol === undefined || h.symbol === intent.symbol));
    }
  }

  private answered(intentId: string): MutableOrderHandle[] {
    const handles = this.byIntent.get(intentId) ?? [];
    this.byIntent.delete(intentId);
    return handles;
  }

  private register(handle: MutableOrderHandle): void {
    this.byId.set(handle.clientOrderId, handle);
    this.live.add(handle);
  }

  private close(handle: MutableOrderHandle): void {
    this.live.delete(handle);
    for (const id of idsOf(handle)) {
      if (this.byId.get(id) === handle) this.byId.delete(id);
      this.closed.delete(id);
      this.closed.set(id, handle);
    }
    while (this.closed.size > this.closedKept) {
      const oldest = this.closed.keys().next().value;
      if (oldest === undefined) break;
      this.closed.delete(oldest);
    }
  }

  private forget(handle: MutableOrderHandle): void {
    this.live.delete(handle);
    for (const id of idsOf(handle)) if (this.byId.get(id) === handle) this.byId.delete(id);
  }
}

/** The ids a handle still answers to: its current one, the one before, a replacement on its way. */
function idsOf(handle: MutableOrderHandle): string[] {
  const ids = [handle.clientOrderId];
  if (handle.previousClientOrderId !== undefined) ids.push(handle.previousClientOrderId);
  if (handle.replacingWith !== undefined) ids.push(handle.replacingWith);
  return ids;
}
