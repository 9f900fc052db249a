import { ValidationError } from '../../model/errors.js';
import { CONTINGENCY_TYPES, type ContingencyType, type OrderType, type TimeInForce } from '../../model/resources/order.js';
import type { TradingAccount } from '../../model/stream/order-report.js';
import { newOrderToWire, type NewOrderParams } from './order-params.js';

/** Parameters of `{account}_new_order_list` (document 001, Order list parameters). */
export interface NewOrderListParams {
  /** Must equal the first order's client_order_id when both are given. */
  readonly order_list_id?: string;
  readonly contingency_type: ContingencyType;
  readonly orders: readonly NewOrderParams[];
}

const COUNTS: Record<ContingencyType, readonly [number, number]> = {
  allOrNone: [2, 3],
  oneCancelOther: [2, 3],
  oneTriggerOneCancelOther: [3, 4],
};
const OCO_TYPES: readonly OrderType[] = ['limit', 'stopLimit', 'stopMarket', 'takeProfitLimit', 'takeProfitMarket'];

/**
 * Validates an order list against the per-type rules of document 001 (order count, types, time in
 * force, symbols; futures lists have no allOrNone) and each order as a new order, and returns the
 * wire `params`.
 */
export function newOrderListToWire(params: NewOrderListParams, account: TradingAccount): Record<string, unknown> {
  if (params === null || typeof params !== 'object') throw new ValidationError('params', 'must be an object', params);
  const kind = params.contingency_type;
  if (typeof kind !== 'string' || !(CONTINGENCY_TYPES as readonly string[]).includes(kind)) {
    throw new ValidationError('params.contingency_type', `must be one of ${CONTINGENCY_TYPES.join(', ')}`, kind);
  }
  if (account === 'futures' && kind === 'allOrNone') {
    throw new ValidationError('params.contingency_type', 'allOrNone is not available for futures');
  }
  if (!Array.isArray(params.orders)) throw new ValidationError('params.orders', 'must be an array', params.orders);
  const [min, max] = COUNTS[kind];
  if (params.orders.length < min || params.orders.length > max) {
    throw new ValidationError('params.orders', `${kind} takes ${min} to ${max} orders`, params.orders.length);
  }
  const orders = params.orders.map((order, i) => newOrderToWire(order, account, `params.orders[${i}]`));
  orders.forEach((order, i) => checkListOrder(kind, order, i));
  const symbols = orders.map((o) => o.symbol);
  if (kind === 'allOrNone' && new Set(symbols).size !== symbols.length) {
    throw new ValidationError('params.orders', 'allOrNone needs a different symbol for every order');
  }
  if (kind === 'oneTriggerOneCancelOther' && new Set(symbols).size !== 1) {
    throw new ValidationError('params.orders', 'oneTriggerOneCancelOther needs the same symbol for every order');
  }
  const ids = orders.map((o) => o.client_order_id).filter((id) => id !== undefined);
  if (new Set(ids).size !== ids.length) throw new ValidationError('params.orders', 'client_order_id values must differ');
  const out: Record<string, unknown> = { contingency_type: kind, orders };
  if (params.order_list_id !== undefined) {
    if (typeof params.order_list_id !== 'string' || params.order_list_id === '') {
      throw new ValidationError('params.order_list_id', 'must be a non-empty string', params.order_list_id);
    }
    const first = orders[0]?.client_order_id;
    if (first !== undefined && first !== params.order_list_id) {
      throw new ValidationError('params.order_list_id', 'must equal the client_order_id of the first order');
    }
    out.order_list_id = params.order_list_id;
  }
  return out;
}

function checkListOrder(kind: ContingencyType, order: Record<string, unknown>, index: number): void {
  const path = `params.orders[${index}]`;
  const type = (order.type ?? 'limit') as OrderType;
  const tif = (order.time_in_force ?? 'GTC') as TimeInForce;
  const secondary = kind === 'oneCancelOther' || (kind === 'oneTriggerOneCancelOther' && index > 0);
  if (kind === 'allOrNone') {
    if (type !== 'limit' && type !== 'market') throw new ValidationError(`${path}.type`, 'allOrNone orders must be limit or market', type);
    if (tif !== 'FOK') throw new ValidationError(`${path}.time_in_force`, 'allOrNone orders must be FOK', tif);
  } else if (secondary) {
    if (!OCO_TYPES.includes(type)) throw new ValidationError(`${path}.type`, `${kind} orders cannot be ${type}`, type);
    if (type === 'limit' && (tif === 'IOC' || tif === 'FOK')) {
      throw new ValidationError(`${path}.time_in_force`, `a limit order in ${kind} cannot be ${tif}`, tif);
    }
  }
}
