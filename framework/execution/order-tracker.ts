import { ZERO, type Decimal } from '../model/decimal.js';
import type { DecisionFrame } from '../model/decision-frame.js';
import type { Side } from '../model/instrument.js';
import type { Order, OrderStatus } from '../model/resources/order.js';
import type { OrderReport } from '../model/stream/order-report.js';

/** An order's status as the tracker knows it: `pending` until the exchange has said anything. */
export type TrackedStatus = 'pending' | OrderStatus;

/**
 * The statuses each status may move to (document 001, States and transitions). `pending` (no
 * order yet) may become anything, because a create answers with the status reached instantly
 * (new, suspended, partiallyFilled, filled, or expired for IOC/FOK/post-only, canceled for a list
 * member). A suspended order's release is "not shown"; it is taken to go where a new order goes.
 * Terminal statuses go nowhere.
 */
export const TRANSITIONS: Readonly<Record<TrackedStatus, readonly OrderStatus[]>> = {
  pending: ['new', 'suspended', 'partiallyFilled', 'filled', 'canceled', 'expired'],
  suspended: ['new', 'partiallyFilled', 'filled', 'canceled', 'expired'],
  new: ['partiallyFilled', 'filled', 'canceled', 'expired'],
  partiallyFilled: ['partiallyFilled', 'filled', 'canceled', 'expired'],
  filled: [],
  canceled: [],
  expired: [],
};

/** Whether the exchange will never change an order in this status again. */
export function isTerminal(status: TrackedStatus): boolean {
  return status === 'filled' || status === 'canceled' || status === 'expired';
}

/** One execution of the tracked order, counted once. */
export interface OrderFill {
  readonly tradeId: string;
  readonly quantity: Decimal;
  readonly price: Decimal;
  /** Negative is a rebate. */
  readonly fee: Decimal;
  readonly taker?: boolean;
  readonly time: number;
}

/** What applying a report or a snapshot did. */
export interface TrackerUpdate {
  /** The status or the executed quantity moved forward. */
  readonly changed: boolean;
  /** Executions seen for the first time (never one twice). */
  readonly fills: readonly OrderFill[];
  /** The report was older than what the tracker knows (its status part was ignored). */
  readonly stale: boolean;
}

/** Who an order belongs to and what it is. */
export interface TrackedOrderInfo {
  readonly clientOrderId: string;
  /** The intent that made the order; undefined for orders adopted at reconciliation. */
  readonly intentId?: string;
  readonly strategyId?: string;
  readonly symbol: string;
  readonly side: Side;
  readonly quantity: Decimal;
  readonly orderListId?: string;
  /** Position of the order in its intent's order list (0 = first); undefined for single orders. */
  readonly leg?: number;
  /** For a replacement: the client_order_id of the order it replaces. */
  readonly replaces?: string;
  /**
   * Local time (UNIX ms) the order's request was about to leave: the exchange created it at about
   * this time, so a reconciliation can find it in the history by time range.
   */
  readonly sentAt?: number;
  /** The order's type and limit price as sent (absent for adopted orders and market orders' price). */
  readonly type?: string;
  readonly price?: Decimal;
  /** The market frame behind the decision that made the order (absent: unknown, e.g. adopted). */
  readonly decidedOn?: DecisionFrame;
  /** The venue's forced close of a position (a liquidation), not an order of the bot. */
  readonly liquidation?: boolean;
}

/** Why a pending order ended without the exchange ever holding it. */
export type UnplacedReason = 'rejected' | 'never-existed';

/**
 * One order's life, driven by the exchange's answers and trading-stream reports. Reports may come
 * twice or out of order (reconnects, the stream racing a request's reply): the status only moves
 * along {@link TRANSITIONS} and never to an executed quantity below the one already known, and each
 * execution counts once, by trade_id (a trade report without one is keyed by its cumulative
 * quantity). A report that arrives late still contributes its execution if that is new.
 */
export class OrderTracker {
  private currentStatus: TrackedStatus = 'pending';
  private cumulative: Decimal = ZERO;
  private readonly seenTrades = new Set<string>();
  private readonly fillList: OrderFill[] = [];
  private latest: Omit<Order, 'trades'> | undefined;
  /** The order that replaced this one (set by the replace that made it; a `replaced` report does not name it). */
  replacedBy: string | undefined;
  /** The request that makes this order is still waiting for its answer. */
  inFlight = false;
  /** Set when the order ended pending: its request was refused, or a lookup showed it never existed. */
  unplaced: UnplacedReason | undefined;

  constructor(readonly info: TrackedOrderInfo) {}

  get clientOrderId(): string {
    return this.info.clientOrderId;
  }

  get intentId(): string | undefined {
    return this.info.intentId;
  }

  get status(): TrackedStatus {
    return this.currentStatus;
  }

  /** Executed quantity as the exchange last reported it (never decreases). */
  get quantityCumulative(): Decimal {
    return this.cumulative;
  }

  /** Executions counted so far. */
  get fills(): readonly OrderFill[] {
    return this.fillList;
  }

  /** The latest order fields the exchange sent; undefined while pending. */
  get order(): Omit<Order, 'trades'> | undefined {
    return this.latest;
  }

  /** Active: known to the exchange and not terminal. */
  get active(): boolean {
    return this.currentStatus !== 'pending' && !isTerminal(this.currentStatus);
  }

  /** Executed quantity the exchange reports beyond the executions seen (trade reports missed while disconnected). */
  get unattributedQuantity(): Decimal {
    let seen = ZERO;
    for (const fill of this.fillList) seen = seen.plus(fill.quantity);
    return this.cumulative.minus(seen);
  }

  /** Takes over the executions of the order this one replaced (the exchange carries them over). */
  inherit(from: OrderTracker): void {
    for (const id of from.seenTrades) this.seenTrades.add(id);
    if (from.cumulative.greaterThan(this.cumulative)) this.cumulative = from.cumulative;
  }

  /** Applies a trading-stream report. */
  applyReport(report: OrderReport): TrackerUpdate {
    const fills: OrderFill[] = [];
    if (report.report_type === 'trade' && report.trade_quantity !== undefined && report.trade_price !== undefined) {
      const tradeId = report.trade_id ?? `cumulative:${report.quantity_cumulative.toFixed()}`;
      const fill = this.addFill({
        tradeId, quantity: report.trade_quantity, price: report.trade_price, fee: report.trade_fee ?? ZERO,
        taker: report.trade_taker, time: report.updated_at,
      });
      if (fill !== undefined) fills.push(fill);
    }
    const moved = this.advance(report);
    return { changed: moved || fills.length > 0, fills, stale: !moved && !this.isSameState(report) };
  }

  /** Applies an order as a request's answer or a lookup returned it (its `trades`, when listed, count once). */
  applyOrder(order: Order): TrackerUpdate {
    const fills: OrderFill[] = [];
    for (const trade of order.trades ?? []) {
      const fill = this.addFill({
        tradeId: trade.id, quantity: trade.quantity, price: trade.price, fee: trade.fee, taker: trade.taker, time: trade.timestamp,
      });
      if (fill !== undefined) fills.push(fill);
    }
    const { trades: _trades, ...fields } = order;
    const moved = this.advance(fields);
    return { changed: moved || fills.length > 0, fills, stale: !moved && !this.isSameState(fields) };
  }

  /** Counts an execution known from before a restart (journal), so a lookup's copy of it is not booked twice. */
  restoreFill(fill: OrderFill): boolean {
    return this.addFill(fill) !== undefined;
  }

  /** Ends a pending order that the exchange refused (`rejected`) or never saw (`never-existed`). */
  markRejected(reason: UnplacedReason = 'rejected'): void {
    if (this.currentStatus === 'pending') {
      this.currentStatus = 'canceled';
      this.unplaced = reason;
    }
    this.inFlight = false;
  }

  private addFill(fill: OrderFill): OrderFill | undefined {
    if (this.seenTrades.has(fill.tradeId)) return undefined;
    this.seenTrades.add(fill.tradeId);
    this.fillList.push(fill);
    return fill;
  }

  /** Moves status and cumulative quantity forward when the snapshot is not older than what is known. */
  private advance(snapshot: Omit<Order, 'trades'>): boolean {
    const next = snapshot.status;
    const cumulative = snapshot.quantity_cumulative;
    if (cumulative.lessThan(this.cumulative)) return false;
    const grew = cumulative.greaterThan(this.cumulative);
    const sameStatus = next === this.currentStatus;
    if (!sameStatus && !TRANSITIONS[this.currentStatus].includes(next)) {
      // A terminal order still learns its final executed quantity from a late report.
      if (grew && isTerminal(this.currentStatus)) {
        this.cumulative = cumulative;
        return true;
      }
      return false;
    }
    if (sameStatus && !grew) {
      // A list secondary activated by its primary's execution changes only its `inactive` flag.
      const activated = this.latest?.inactive === true && snapshot.inactive !== true;
      if (activated || this.latest === undefined || snapshot.updated_at > this.latest.updated_at) this.latest = snapshot;
      return activated;
    }
    this.currentStatus = next;
    this.cumulative = cumulative;
    this.latest = snapshot;
    return true;
  }

  private isSameState(snapshot: Omit<Order, 'trades'>): boolean {
    return snapshot.status === this.currentStatus && snapshot.quantity_cumulative.equals(this.cumulative);
  }
}
