import { ZERO, type Decimal } from '../model/decimal.js';
import type { OrderFill } from '../execution/order-tracker.js';
import type { Side } from '../model/instrument.js';
import type { Intent } from '../model/intent.js';
import type { Order, OrderStatus, OrderType } from '../model/resources/order.js';
import type { OrderReport } from '../model/stream/order-report.js';

/**
 * Where one of the strategy's orders stands, as the strategy has been told so far:
 * - `created`: built by `ctx.place`, not yet handed on (the handler has not returned);
 * - `pendingNew`: passed the risk gate, the exchange has not answered;
 * - `open`: the exchange holds it (new, partially filled or suspended);
 * - `pendingReplace` / `pendingCancel`: open, with a replace or cancel on its way;
 * - final: `filled`, `canceled`, `expired` (by the exchange), `rejected` (refused by the
 *   exchange), `denied` (refused by the risk gate: nothing was sent).
 */
export type OrderHandleStatus =
  | 'created' | 'pendingNew' | 'open' | 'pendingReplace' | 'pendingCancel'
  | 'filled' | 'canceled' | 'expired' | 'rejected' | 'denied';

/** Final statuses: the order will never trade again. */
export type ClosedStatus = Extract<OrderHandleStatus, 'filled' | 'canceled' | 'expired' | 'rejected' | 'denied'>;

/** One execution of a handle's order, told once: the execution side's record of it. */
export type HandleFill = OrderFill;

/**
 * A strategy's order from the moment its intent is built: its client_order_id is fixed then (and
 * follows replaces), and its status, executions and average price follow the reports the strategy
 * receives, in the order it receives them. Read-only for the strategy; the runtime updates it
 * before the strategy's handlers see the report that changed it.
 */
export interface OrderHandle {
  /** The id the order has now (a replace moves it to the replacement's id). */
  readonly clientOrderId: string;
  /** The id the order had before its latest replace; undefined before any. */
  readonly previousClientOrderId?: string;
  /** The intent that made the order; undefined for orders found on the exchange at start. */
  readonly intentId?: string;
  readonly tag?: string;
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  /** Requested quantity (the latest replace's). */
  readonly quantity: Decimal;
  /** Limit price (the latest replace's); undefined for market orders. */
  readonly price?: Decimal;
  readonly status: OrderHandleStatus;
  /** The exchange may still trade it (pending new, open, pending replace or cancel). */
  readonly isOpen: boolean;
  readonly isClosed: boolean;
  /** Executed quantity, as the exchange reports it (never decreases). */
  readonly filled: Decimal;
  /** Quantity left to execute (zero once closed). */
  readonly remaining: Decimal;
  /** Quantity-weighted mean price of the executions told so far; undefined before the first. */
  readonly averagePrice?: Decimal;
  readonly fills: readonly HandleFill[];
  /** The latest order fields the exchange sent; undefined before its first answer or report. */
  readonly order?: Order;
  /** Position in its order list (0 = first) for a list's leg. */
  readonly leg?: number;
  /** Exchange error code of a rejection, the risk check of a denial. */
  readonly refusal?: { readonly code?: number; readonly check?: string; readonly reason: string };
}

/** The legs of an order list, each its own handle. */
export interface OrderListHandle {
  readonly orderListId: string;
  readonly intentId: string;
  readonly orders: readonly OrderHandle[];
  /** Some leg may still trade. */
  readonly isOpen: boolean;
}

const ACTIVE: ReadonlySet<OrderStatus> = new Set<OrderStatus>(['new', 'suspended', 'partiallyFilled']);

/** True while an exchange status lets the order trade. */
export function isActiveStatus(status: OrderStatus): boolean {
  return ACTIVE.has(status);
}

/** What applying something to a handle did, for the typed callbacks. */
export interface HandleChange {
  readonly fills: readonly HandleFill[];
  /** True when this change closed the handle. */
  readonly closed: boolean;
}

const UNCHANGED: HandleChange = { fills: [], closed: false };

/** The runtime's side of an {@link OrderHandle}: every mutation goes through here. */
export class MutableOrderHandle implements OrderHandle {
  clientOrderId: string;
  previousClientOrderId: string | undefined;
  quantity: Decimal;
  price: Decimal | undefined;
  status: OrderHandleStatus = 'created';
  filled: Decimal = ZERO;
  readonly fills: HandleFill[] = [];
  order: Order | undefined;
  refusal: OrderHandle['refusal'];
  /** The replacement id while a replace is on its way. */
  replacingWith: string | undefined;
  /** The replace or cancel on its way: only its own answer or refusal ends the pending status. */
  private pendingIntent: string | undefined;
  private notional: Decimal = ZERO;
  private readonly tradeIds = new Set<string>();

  constructor(
    clientOrderId: string,
    readonly symbol: string,
    readonly side: Side,
    readonly type: OrderType,
    quantity: Decimal,
    price: Decimal | undefined,
    readonly intentId: string | undefined,
    readonly tag: string | undefined,
    readonly leg?: number,
  ) {
    this.clientOrderId = clientOrderId;
    this.quantity = quantity;
    this.price = price;
  }

  get isClosed(): boolean {
    return isClosedStatus(this.status);
  }

  get isOpen(): boolean {
    return !this.isClosed && this.status !== 'created';
  }

  get remaining(): Decimal {
    if (this.isClosed) return ZERO;
    const left = this.quantity.minus(this.filled);
    return left.isNegative() ? ZERO : left;
  }

  get averagePrice(): Decimal | undefined {
    let quantity = ZERO;
    for (const fill of this.fills) quantity = quantity.plus(fill.quantity);
    return quantity.isZero() ? undefined : this.notional.div(quantity);
  }

  /** The intent passed the gate and went to the venue. */
  sent(intent: Intent): void {
    if (intent.kind === 'place' || intent.kind === 'closePosition' || intent.kind === 'orderList') {
      if (this.status === 'created') this.status = 'pendingNew';
    } else if (intent.kind === 'replace') {
      if (this.isOpen) this.status = 'pendingReplace';
      this.replacingWith = intent.newClientOrderId;
      this.pendingIntent = intent.intentId;
    } else if (intent.kind === 'cancel' || intent.kind === 'cancelAll') {
      if (this.status === 'open' || this.status === 'pendingReplace') this.status = 'pendingCancel';
      this.pendingIntent = intent.intentId;
    }
  }

  /**
   * The gate or the exchange refused `intent`: a refused place closes the handle; a refused replace
   * or cancel leaves the order as it was (its own reports say if it ended meanwhile).
   */
  refused(intent: Intent, status: 'denied' | 'rejected', refusal: NonNullable<OrderHandle['refusal']>): HandleChange {
    if (intent.kind === 'replace' || intent.kind === 'cancel' || intent.kind === 'cancelAll') {
      if (intent.kind === 'replace' && this.replacingWith === intent.newClientOrderId) this.replacingWith = undefined;
      this.answered(intent.intentId);
      return UNCHANGED;
    }
    if (this.isClosed || this.order !== undefined) return UNCHANGED;
    this.status = status;
    this.refusal = refusal;
    return { fills: [], closed: true };
  }

  /** The exchange's answer or a report brought this order snapshot. */
  applyOrder(order: Order | OrderReport): HandleChange {
    const id = order.client_order_id;
    if (id !== this.clientOrderId && id === this.replacingWith) this.adoptReplacement(id);
    else if (id !== this.clientOrderId) return UNCHANGED;
    if (this.isClosed) return UNCHANGED;
    const known = this.order;
    if (known !== undefined && known.updated_at > order.updated_at) return UNCHANGED;
    if (known !== undefined && order.quantity_cumulative.lessThan(known.quantity_cumulative)) return UNCHANGED;
    this.order = 'report_type' in order ? withoutReportFields(order) : order;
    if (order.quantity_cumulative.greaterThan(this.filled)) this.filled = order.quantity_cumulative;
    this.quantity = order.quantity;
    if (order.price !== undefined) this.price = order.price;
    if (isActiveStatus(order.status)) {
      if (this.status !== 'pendingReplace' && this.status !== 'pendingCancel') this.status = 'open';
      return UNCHANGED;
    }
    this.status = order.status === 'filled' ? 'filled' : order.status === 'expired' ? 'expired' : 'canceled';
    this.replacingWith = undefined;
    this.pendingIntent = undefined;
    return { fills: [], closed: true };
  }

  /** A replace answer: the replacement is the order now. */
  adoptReplacement(newId: string): void {
    if (newId !== this.clientOrderId) this.previousClientOrderId = this.clientOrderId;
    this.clientOrderId = newId;
    this.replacingWith = undefined;
    if (this.status === 'pendingReplace') {
      this.status = 'open';
      this.pendingIntent = undefined;
    }
  }

  /**
   * The answer to `intentId` came: when it is the replace or cancel the order waits on, the order
   * no longer waits (its snapshot says the rest). The late answer of an earlier request (a place
   * answered after a replace was sent) leaves the pending status alone.
   */
  answered(intentId: string): void {
    if (this.pendingIntent !== intentId) return;
    this.pendingIntent = undefined;
    if (this.status === 'pendingReplace' || this.status === 'pendingCancel') this.status = 'open';
  }

  /** The exchange refused the order itself (a `rejected` report). */
  rejectedByExchange(): HandleChange {
    if (this.isClosed) return UNCHANGED;
    this.status = 'rejected';
    this.refusal = { reason: 'rejected by the exchange' };
    this.replacingWith = undefined;
    this.pendingIntent = undefined;
    return { fills: [], closed: true };
  }

  /** Counts an execution once (by trade id); returns it when new. */
  addFill(fill: HandleFill): HandleFill | undefined {
    if (this.tradeIds.has(fill.tradeId)) return undefined;
    this.tradeIds.add(fill.tradeId);
    this.fills.push(fill);
    this.notional = this.notional.plus(fill.quantity.times(fill.price));
    return fill;
  }

}

/** Whether a status is final. */
export function isClosedStatus(status: OrderHandleStatus): status is ClosedStatus {
  return status === 'filled' || status === 'canceled' || status === 'expired' || status === 'rejected' || status === 'denied';
}

function withoutReportFields(report: OrderReport): Order {
  const {
    report_type: _type, trade_id: _id, trade_quantity: _q, trade_price: _p, trade_fee: _f, trade_taker: _t, trade_position_id: _pos,
    ...order
  } = report;
  return order;
}
