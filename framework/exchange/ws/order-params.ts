import { ValidationError } from '../../model/errors.js';
import type { TradingAccount } from '../../model/stream/order-report.js';
import {
  orderBody, orderListBody, replaceBody, type FuturesNewOrderParams, type OrderListParams, type ReplaceOrderParams,
} from '../rest/endpoints/order-params.js';
import { clientOrderIdParam } from '../rest/params.js';

/**
 * Order parameters of the trading stream. The stream takes the same fields as REST, so the REST
 * client's validation is the single source of the rules (required fields, price for priced types,
 * stop_price for triggered types, expire_time for GTD, list rules, decimals as exact text never JS
 * numbers); only the shape of a replace differs, because REST carries the order id in the path.
 */
export type { FuturesNewOrderParams, NewOrderParams, OrderListParams } from '../rest/endpoints/order-params.js';

/** Parameters of `{account}_replace_order`. */
export interface StreamReplaceOrderParams extends ReplaceOrderParams {
  /** The order to replace. */
  readonly client_order_id: string;
  /** The replacement's id: required on the stream. */
  readonly new_client_order_id: string;
}

/** Validated `params` of `{account}_new_order`; reduce_only is accepted on margin and futures only. */
export function newOrderParams(params: FuturesNewOrderParams, account: TradingAccount): Record<string, unknown> {
  return orderBody(params, { reduceOnly: account !== 'spot' });
}

/** Validated `params` of `{account}_new_order_list` (futures lists have no allOrNone). */
export function newOrderListParams(params: OrderListParams<FuturesNewOrderParams>, account: TradingAccount): Record<string, unknown> {
  return orderListBody(params, account === 'futures');
}

/** Validated `params` of `{account}_replace_order`. */
export function replaceOrderParams(params: StreamReplaceOrderParams): Record<string, unknown> {
  const body = replaceBody(params);
  const clientOrderId = clientOrderIdParam('client_order_id', params.client_order_id);
  // The body validated the new id when present (once per order is enough); the stream requires it.
  if (body.new_client_order_id === undefined) throw new ValidationError('new_client_order_id', 'is required', params.new_client_order_id);
  return { client_order_id: clientOrderId, ...body };
}

/** Validated `params` of `{account}_cancel_order`. */
export function cancelOrderParams(clientOrderId: string): Record<string, unknown> {
  return { client_order_id: clientOrderIdParam('client_order_id', clientOrderId) };
}
