import { parseTradingBalance, parseTradingBalanceList, type TradingBalance } from '../../../model/resources/balance.js';
import { parseFeeRate, parseFeeRateList, type FeeRate } from '../../../model/resources/fee.js';
import { parseOrder, parseOrderList, type Order } from '../../../model/resources/order.js';
import { ErrorCode, ExchangeError } from '../../errors.js';
import { clientOrderIdParam, optionalText, pathSegment } from '../params.js';
import type { RestExecutor, RestRequest } from '../rest-request.js';
import { privateCall, privateGet } from './endpoint-request.js';

/**
 * Requests shared by the spot, margin and futures sections, whose order, balance and fee
 * endpoints differ only by their path prefix. Placing, replacing and cancelling spend the
 * `trading` budget; everything else `other`.
 */

/** Optional symbol filter of the active-order and cancel-all endpoints. */
export interface SymbolParam {
  readonly symbol?: string;
}

/** Path prefix of a trading section. */
export type TradingSection = '/spot' | '/margin' | '/futures';

/** The path of one order, its client_order_id validated and URI-encoded. */
export function orderPath(section: TradingSection, clientOrderId: string): string {
  return `${section}/order/${encodeURIComponent(clientOrderIdParam('client_order_id', clientOrderId))}`;
}

/** `GET {section}/balance`. */
export function balancesRequest(section: TradingSection): RestRequest<TradingBalance[]> {
  return privateGet(`${section}/balance`, (b) => parseTradingBalanceList(b));
}

/** `GET {section}/balance/{currency}`. */
export function balanceRequest(section: TradingSection, currency: string): RestRequest<TradingBalance> {
  return privateGet(`${section}/balance/${pathSegment('currency', currency)}`, (b) => parseTradingBalance(b));
}

/** `GET {section}/fee`. */
export function feesRequest(section: TradingSection): RestRequest<FeeRate[]> {
  return privateGet(`${section}/fee`, (b) => parseFeeRateList(b));
}

/** `GET {section}/fee/{symbol}`. */
export function feeRequest(section: TradingSection, symbol: string): RestRequest<FeeRate> {
  return privateGet(`${section}/fee/${pathSegment('symbol', symbol)}`, (b) => parseFeeRate(b));
}

/** `GET {section}/order`: active orders, optionally of one symbol. */
export function activeOrdersRequest(section: TradingSection, symbol?: string): RestRequest<Order[]> {
  return privateGet(`${section}/order`, (b) => parseOrderList(b), { symbol: optionalText('symbol', symbol) });
}

/** `GET {section}/order/{client_order_id}`: one active order. */
export function activeOrderRequest(section: TradingSection, clientOrderId: string): RestRequest<Order> {
  return privateGet(orderPath(section, clientOrderId), (b) => parseOrder(b));
}

/** `GET {section}/history/order?client_order_id=...`: the exchange ignores every other parameter then. */
export function orderHistoryByClientIdRequest(section: TradingSection, clientOrderId: string): RestRequest<Order[]> {
  return privateGet(`${section}/history/order`, (b) => parseOrderList(b), { client_order_id: clientOrderId });
}

/** Whether `error` says that the requested order or resource does not exist. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ExchangeError && (
    error.exchangeCode === ErrorCode.OrderNotFound || error.exchangeCode === ErrorCode.ResourceNotFound || error.httpStatus === 404
  );
}

/**
 * Finds the order that an earlier attempt placed under `clientOrderId`: first among active
 * orders, then (when the section has an order history) in history, for an order already filled,
 * canceled or expired. The original not-found error is rethrown when neither has it.
 */
export function orderLookup(
  executor: RestExecutor, section: TradingSection, clientOrderId: string, hasHistory: boolean,
): () => Promise<Order> {
  return async () => {
    try {
      return await executor.execute(activeOrderRequest(section, clientOrderId));
    } catch (error) {
      if (!hasHistory || !isNotFound(error)) throw error;
      const history = await executor.execute(orderHistoryByClientIdRequest(section, clientOrderId));
      const found = history.find((order) => order.client_order_id === clientOrderId);
      if (found === undefined) throw error;
      return found;
    }
  };
}

/**
 * `POST {section}/order`. Not idempotent by itself; with a caller-chosen client_order_id a retry
 * is refused as a duplicate, and the transport then fetches the order through the lookup.
 */
export function createOrderRequest(
  executor: RestExecutor, section: TradingSection, body: Readonly<Record<string, unknown>>, hasHistory: boolean,
): RestRequest<Order> {
  const clientOrderId = body['client_order_id'];
  const request = privateCall('POST', `${section}/order`, (b) => parseOrder(b), { scope: 'trading', idempotent: false, body });
  if (typeof clientOrderId !== 'string') return request;
  return { ...request, clientOrderId, lookupAfterDuplicate: orderLookup(executor, section, clientOrderId, hasHistory) };
}

/**
 * `POST {section}/order/list`. A retry is made detectable only when every order carries a
 * caller-chosen client_order_id: the duplicate refusal then names the first one, and the lookup
 * fetches every order of the list.
 */
export function createOrderListRequest(
  executor: RestExecutor, section: TradingSection, body: Readonly<Record<string, unknown>>,
): RestRequest<Order[]> {
  const request = privateCall('POST', `${section}/order/list`, (b) => parseOrderList(b), { scope: 'trading', idempotent: false, body });
  const orders = body['orders'] as readonly Readonly<Record<string, unknown>>[];
  const ids = orders.map((order) => order['client_order_id']);
  if (!ids.every((id): id is string => typeof id === 'string')) return request;
  const [first] = ids;
  if (first === undefined) return request;
  const lookups = ids.map((id) => orderLookup(executor, section, id, true));
  return {
    ...request,
    clientOrderId: first,
    lookupAfterDuplicate: async () => {
      const found: Order[] = [];
      // One after the other: the list is at most four orders and this keeps within the rate budget.
      for (const lookup of lookups) found.push(await lookup());
      return found;
    },
  };
}

/** `PATCH {section}/order/{client_order_id}`: the replacement may carry a new client_order_id, so no blind retry. */
export function replaceOrderRequest(
  section: TradingSection, clientOrderId: string, body: Readonly<Record<string, unknown>>,
): RestRequest<Order> {
  const path = orderPath(section, clientOrderId);
  return privateCall('PATCH', path, (b) => parseOrder(b), { scope: 'trading', idempotent: false, body });
}

/**
 * `DELETE {section}/order`: cancels every active order (of one symbol). Not idempotent: a repeat
 * would also cancel orders placed in between.
 */
export function cancelOrdersRequest(section: TradingSection, symbol?: string): RestRequest<Order[]> {
  const query = { symbol: optionalText('symbol', symbol) };
  return privateCall('DELETE', `${section}/order`, (b) => parseOrderList(b), { scope: 'trading', idempotent: false, query });
}

/** `DELETE {section}/order/{client_order_id}`: cancelling one order twice cannot do more harm. */
export function cancelOrderRequest(section: TradingSection, clientOrderId: string): RestRequest<Order> {
  const path = orderPath(section, clientOrderId);
  return privateCall('DELETE', path, (b) => parseOrder(b), { scope: 'trading', idempotent: true });
}
