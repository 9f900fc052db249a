import type { Decimal } from '../../framework/model/decimal.js';
import type { Instrument, Side } from '../../framework/model/instrument.js';
import type {
  ContingencyType, Order, OrderStatus, OrderTrade, OrderType, TimeInForce,
} from '../../framework/model/resources/order.js';
import type { OrderReport, ReportType } from '../../framework/model/stream/order-report.js';
import type { FeeRates } from './fees.js';
import { lotsDecimal, ticksDecimal } from './grid-decimals.js';
import type { AccountId } from './venue-types.js';

/**
 * Order statuses reachable from each status (document 001, "States and transitions"). `none` is an
 * order not yet accepted. Every accepted order first reports `new` (or `suspended` for stop and
 * take-profit types); a request's response may already show a later status because the response
 * is taken after the request's executions.
 */
export const STATUS_TRANSITIONS: Readonly<Record<OrderStatus | 'none', readonly OrderStatus[]>> = {
  none: ['new', 'suspended'],
  suspended: ['new', 'canceled', 'expired'],
  new: ['partiallyFilled', 'filled', 'canceled', 'expired'],
  partiallyFilled: ['partiallyFilled', 'filled', 'canceled', 'expired'],
  filled: [],
  canceled: [],
  expired: [],
};

/** Thrown on a transition the table does not allow: a venue bug, never a client error. */
export class OrderStateError extends Error {
  constructor(from: OrderStatus | 'none', to: OrderStatus, clientOrderId: string) {
    super(`order ${clientOrderId}: transition ${from} -> ${to} is not allowed`);
    this.name = 'OrderStateError';
  }
}

/** True when the status is final (filled, canceled, expired). */
export function isClosedStatus(status: OrderStatus): boolean {
  return status === 'filled' || status === 'canceled' || status === 'expired';
}

/**
 * The venue's mutable record of one order. Prices and sizes are integer ticks and lots of the
 * symbol's instrument (the matching model's units); Decimals are built only for reports.
 */
export interface OrderRecord {
  /** The matching model's key; a replacement keeps it (and with it, when allowed, the queue place). */
  readonly key: number;
  readonly id: string;
  readonly account: AccountId;
  readonly clientOrderId: string;
  readonly instrument: Instrument;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly quantityLots: number;
  cumulativeLots: number;
  readonly priceTicks?: number;
  readonly stopTicks?: number;
  readonly expireTime?: number;
  readonly postOnly: boolean;
  readonly rates: FeeRates;
  status: OrderStatus | 'none';
  /** Secondary of a oneTriggerOneCancelOther list not yet activated. */
  inactive: boolean;
  /** A stop or take-profit order whose trigger fired: it now acts as a limit or market order. */
  triggered: boolean;
  /** In the matching model's book. */
  resting: boolean;
  /** Funds left for a market buy in flight (its reserve less what its fills spent). */
  marketBudget?: Decimal;
  readonly createdAt: number;
  updatedAt: number;
  readonly orderListId?: string;
  readonly contingencyType?: ContingencyType;
  /** The reservation group: the list's for oneCancelOther legs, the order's own otherwise. */
  readonly reserveGroup: string;
  readonly originalClientOrderId?: string;
  readonly trades: OrderTrade[];
  /** Sum of price x quantity of the executions, for price_average. */
  notional: Decimal;
  /** Futures: fills never grow or flip the position. */
  readonly reduceOnly: boolean;
  /** Futures: an order the venue placed to liquidate a position. */
  readonly liquidation: boolean;
  /** An order of the isolated margin account of its (spot) symbol, not of the spot account. */
  readonly margin: boolean;
}

/** True for an order that trades a position (futures contract, or margin account) rather than spot funds. */
export function tradesPosition(order: OrderRecord): boolean {
  return order.margin || order.instrument.info.type === 'futures';
}

/** Moves the record to `to`, refusing transitions the status table does not allow. */
export function transition(order: OrderRecord, to: OrderStatus, time: number): void {
  if (!STATUS_TRANSITIONS[order.status].includes(to)) throw new OrderStateError(order.status, to, order.clientOrderId);
  order.status = to;
  order.updatedAt = time;
}

/** Lots still to fill. */
export function remainingLots(order: OrderRecord): number {
  return order.quantityLots - order.cumulativeLots;
}

/** True while the order can still fill or be triggered. */
export function isActive(order: OrderRecord): boolean {
  return order.status !== 'none' && !isClosedStatus(order.status);
}

/** The Order resource of a record (with `trades` and `price_average` when it executed). */
export function toOrder(order: OrderRecord, withTrades = false): Order {
  const inst = order.instrument;
  const cumulative = lotsDecimal(inst, order.cumulativeLots);
  return {
    id: order.id,
    client_order_id: order.clientOrderId,
    order_list_id: order.orderListId,
    contingency_type: order.contingencyType,
    symbol: inst.symbol,
    side: order.side,
    status: order.status === 'none' ? 'new' : order.status,
    type: order.type,
    time_in_force: order.timeInForce,
    quantity: lotsDecimal(inst, order.quantityLots),
    quantity_cumulative: cumulative,
    price: order.priceTicks === undefined ? undefined : ticksDecimal(inst, order.priceTicks),
    price_average: withTrades && order.cumulativeLots > 0 ? order.notional.dividedBy(cumulative) : undefined,
    stop_price: order.stopTicks === undefined ? undefined : ticksDecimal(inst, order.stopTicks),
    expire_time: order.timeInForce === 'GTD' ? order.expireTime : undefined,
    post_only: order.postOnly,
    original_client_order_id: order.originalClientOrderId,
    inactive: order.inactive ? true : undefined,
    created_at: order.createdAt,
    updated_at: order.updatedAt,
    reduce_only: order.reduceOnly ? true : undefined,
    trades: withTrades && order.trades.length > 0 ? [...order.trades] : undefined,
  };
}

/**
 * A trading-stream report of the record's current state; `trade` for `report_type: 'trade'`. The
 * fields of {@link toOrder} (in its order) without `trades` and `price_average`, built directly: a
 * report goes out for every order change, so no Order is built just to be taken apart.
 */
export function toReport(order: OrderRecord, reportType: ReportType, trade?: OrderTrade): OrderReport {
  return trade === undefined ? plainReport(order, reportType) : tradeReport(order, reportType, trade);
}

function plainReport(order: OrderRecord, reportType: ReportType): OrderReport {
  const inst = order.instrument;
  return {
    id: order.id,
    client_order_id: order.clientOrderId,
    order_list_id: order.orderListId,
    contingency_type: order.contingencyType,
    symbol: inst.symbol,
    side: order.side,
    status: order.status === 'none' ? 'new' : order.status,
    type: order.type,
    time_in_force: order.timeInForce,
    quantity: lotsDecimal(inst, order.quantityLots),
    quantity_cumulative: lotsDecimal(inst, order.cumulativeLots),
    price: order.priceTicks === undefined ? undefined : ticksDecimal(inst, order.priceTicks),
    stop_price: order.stopTicks === undefined ? undefined : ticksDecimal(inst, order.stopTicks),
    expire_time: order.timeInForce === 'GTD' ? order.expireTime : undefined,
    post_only: order.postOnly,
    original_client_order_id: order.originalClientOrderId,
    inactive: order.inactive ? true : undefined,
    created_at: order.createdAt,
    updated_at: order.updatedAt,
    reduce_only: order.reduceOnly ? true : undefined,
    report_type: reportType,
  };
}

/**
 * The same fields followed by the execution's, written out as one literal: copying a plain report
 * with spread gave each run's trade reports a shape of their own, so code reading reports kept
 * meeting an unknown shape and was deoptimised in every run.
 */
function tradeReport(order: OrderRecord, reportType: ReportType, trade: OrderTrade): OrderReport {
  const inst = order.instrument;
  return {
    id: order.id,
    client_order_id: order.clientOrderId,
    order_list_id: order.orderListId,
    contingency_type: order.contingencyType,
    symbol: inst.symbol,
    side: order.side,
    status: order.status === 'none' ? 'new' : order.status,
    type: order.type,
    time_in_force: order.timeInForce,
    quantity: lotsDecimal(inst, order.quantityLots),
    quantity_cumulative: lotsDecimal(inst, order.cumulativeLots),
    price: order.priceTicks === undefined ? undefined : ticksDecimal(inst, order.priceTicks),
    stop_price: order.stopTicks === undefined ? undefined : ticksDecimal(inst, order.stopTicks),
    expire_time: order.timeInForce === 'GTD' ? order.expireTime : undefined,
    post_only: order.postOnly,
    original_client_order_id: order.originalClientOrderId,
    inactive: order.inactive ? true : undefined,
    created_at: order.createdAt,
    updated_at: order.updatedAt,
    reduce_only: order.reduceOnly ? true : undefined,
    report_type: reportType,
    trade_id: trade.id,
    trade_quantity: trade.quantity,
    trade_price: trade.price,
    trade_fee: trade.fee,
    trade_taker: trade.taker,
    trade_position_id: trade.position_id,
  };
}
