import type { Decimal } from '../decimal.js';
import type { Side } from '../instrument.js';
import {
  asObject, mapArray, optArray, optBool, optDecimal, optEnum, optId, optString, optTime, reqBool, reqDecimal, reqEnum,
  reqId, reqString, reqTime, type WireObject,
} from '../wire.js';
import { idToWire, msToIso, wireRecord } from './wire-values.js';

/** Order sides. */
export const SIDES: readonly Side[] = ['buy', 'sell'];
/** Order statuses (document 001). */
export const ORDER_STATUSES = ['new', 'suspended', 'partiallyFilled', 'filled', 'canceled', 'expired'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** Order types. */
export const ORDER_TYPES = ['limit', 'market', 'stopLimit', 'stopMarket', 'takeProfitLimit', 'takeProfitMarket'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
/** Time in force values. */
export const TIME_IN_FORCES = ['GTC', 'IOC', 'FOK', 'Day', 'GTD'] as const;
export type TimeInForce = (typeof TIME_IN_FORCES)[number];
/** Order list contingency types (futures lists allow only the last two). */
export const CONTINGENCY_TYPES = ['allOrNone', 'oneCancelOther', 'oneTriggerOneCancelOther'] as const;
export type ContingencyType = (typeof CONTINGENCY_TYPES)[number];

/** One execution of an order, as listed in `Order.trades`. */
export interface OrderTrade {
  readonly id: string;
  /** Margin and futures. */
  readonly position_id?: string;
  readonly quantity: Decimal;
  readonly price: Decimal;
  /** Negative is a rebate. */
  readonly fee: Decimal;
  /** Absent on executions older than the 24.08.2021 change that added it. */
  readonly taker?: boolean;
  readonly timestamp: number;
}

/** API v3 Order (spot, margin, futures), document 001. */
export interface Order {
  readonly id: string;
  readonly client_order_id: string;
  readonly order_list_id?: string;
  readonly contingency_type?: ContingencyType;
  readonly symbol: string;
  readonly side: Side;
  readonly status: OrderStatus;
  readonly type: OrderType;
  readonly time_in_force: TimeInForce;
  readonly quantity: Decimal;
  readonly quantity_cumulative: Decimal;
  readonly price?: Decimal;
  /** History responses only. */
  readonly price_average?: Decimal;
  readonly stop_price?: Decimal;
  /** Present for GTD. */
  readonly expire_time?: number;
  readonly post_only: boolean;
  /** Margin and futures only. */
  readonly reduce_only?: boolean;
  readonly original_client_order_id?: string;
  /** Futures history. */
  readonly position_id?: string;
  /** True on secondary orders of an order list that are not yet activated. */
  readonly inactive?: boolean;
  readonly created_at: number;
  readonly updated_at: number;
  readonly trades?: readonly OrderTrade[];
}

/** Parses one execution of an order. */
export function parseOrderTrade(value: unknown, path = 'trade'): OrderTrade {
  const o = asObject(value, path);
  return {
    id: reqId(o, 'id', path),
    position_id: optId(o, 'position_id', path),
    quantity: reqDecimal(o, 'quantity', path),
    price: reqDecimal(o, 'price', path),
    fee: reqDecimal(o, 'fee', path),
    taker: optBool(o, 'taker', path),
    timestamp: reqTime(o, 'timestamp', path),
  };
}

/**
 * Reads the Order fields of an already validated object; shared with the trading-stream order
 * report, which carries the same fields plus the report ones. `post_only` defaults to false when a
 * venue leaves it out.
 */
export function readOrderFields(o: WireObject, path: string): Order {
  return {
    id: reqId(o, 'id', path),
    client_order_id: reqString(o, 'client_order_id', path),
    order_list_id: optString(o, 'order_list_id', path),
    contingency_type: optEnum(o, 'contingency_type', CONTINGENCY_TYPES, path),
    symbol: reqString(o, 'symbol', path),
    side: reqEnum(o, 'side', SIDES, path),
    status: reqEnum(o, 'status', ORDER_STATUSES, path),
    type: reqEnum(o, 'type', ORDER_TYPES, path),
    time_in_force: reqEnum(o, 'time_in_force', TIME_IN_FORCES, path),
    quantity: reqDecimal(o, 'quantity', path),
    quantity_cumulative: reqDecimal(o, 'quantity_cumulative', path),
    price: optDecimal(o, 'price', path),
    price_average: optDecimal(o, 'price_average', path),
    stop_price: optDecimal(o, 'stop_price', path),
    expire_time: optTime(o, 'expire_time', path),
    post_only: o['post_only'] == null ? false : reqBool(o, 'post_only', path),
    reduce_only: optBool(o, 'reduce_only', path),
    original_client_order_id: optString(o, 'original_client_order_id', path),
    position_id: optId(o, 'position_id', path),
    inactive: optBool(o, 'inactive', path),
    created_at: reqTime(o, 'created_at', path),
    updated_at: reqTime(o, 'updated_at', path),
    trades: optArray(o, 'trades', path, (v, p) => parseOrderTrade(v, p)),
  };
}

/** Parses an Order. */
export function parseOrder(value: unknown, path = 'order'): Order {
  return readOrderFields(asObject(value, path), path);
}

/** Parses an array of orders (active orders, history, cancel-all, order lists). */
export function parseOrderList(value: unknown, path = 'orders'): Order[] {
  return mapArray(value, path, (v, p) => parseOrder(v, p));
}

/** Wire form of an order execution. */
export function orderTradeToWire(t: OrderTrade): Record<string, unknown> {
  return wireRecord({
    ...t,
    id: idToWire(t.id),
    position_id: t.position_id === undefined ? undefined : idToWire(t.position_id),
    timestamp: msToIso(t.timestamp),
  });
}

/** Wire form of an Order, as the exchange sends it (ids as numbers, times ISO 8601, decimals as text). */
export function orderToWire(order: Order): Record<string, unknown> {
  return wireRecord({
    ...order,
    id: idToWire(order.id),
    position_id: order.position_id === undefined ? undefined : idToWire(order.position_id),
    expire_time: order.expire_time === undefined ? undefined : msToIso(order.expire_time),
    created_at: msToIso(order.created_at),
    updated_at: msToIso(order.updated_at),
    trades: order.trades?.map(orderTradeToWire),
  });
}
