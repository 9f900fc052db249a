import type { Side } from '../../../model/instrument.js';
import { parseClearingList, type ClearingRecord } from '../../../model/resources/clearing.js';
import {
  parseMarginAccount, parseMarginAccountList, parsePosition, parsePositionList, type MarginAccount, type Position,
} from '../../../model/resources/margin-account.js';
import {
  ORDER_TYPES, SIDES, TIME_IN_FORCES, parseOrderList, type Order, type OrderType, type TimeInForce,
} from '../../../model/resources/order.js';
import { parseTradeHistoryList, type TradeHistoryRecord } from '../../../model/resources/trade-history.js';
import { parsePositionHistoryList, type PositionHistoryRecord } from '../../../model/resources/position-history.js';
import {
  decimalParam, enumParam, optionalBool, optionalClientOrderId, optionalDecimal, optionalEnum, pathSegment, requiredText,
  withExtra, type DecimalInput, type ExtraParams,
} from '../params.js';
import type { RestExecutor, RestRequest } from '../rest-request.js';
import { privateCall, privateGet } from './endpoint-request.js';
import {
  clearingHistoryQuery, positionHistoryQuery, spotOrderHistoryQuery, tradeHistoryQuery, type ClearingHistoryParams,
  type PositionHistoryParams, type SpotOrderHistoryParams, type TradeHistoryParams,
} from './history-params.js';
import { replaceBody, type ReplaceOrderParams } from './order-params.js';
import {
  activeOrderRequest, activeOrdersRequest, cancelOrderRequest, cancelOrdersRequest, createOrderRequest, replaceOrderRequest,
  type SymbolParam,
} from './trading-requests.js';

/** `PUT /margin/account/isolated/{symbol}`. */
export interface MarginAccountParams {
  /** Funds to hold on the isolated account; `0` closes it and returns the funds to the trading account. */
  readonly margin_balance: DecimalInput;
  /** Check non-exponential format and currency precision. */
  readonly strict_validate?: boolean;
}

/**
 * `PUT /margin/account/isolated/{symbol}` with a leverage. The spec lists only margin_balance and
 * strict_validate for the margin account, which has a leverage all the same; the exchange takes it
 * here as on the futures account (the sandbox does), so it is sent by name when given.
 */
export interface MarginAccountUpdate extends MarginAccountParams {
  readonly leverage?: DecimalInput;
}

/** `DELETE /{margin|futures}/position/isolated/{symbol}`. */
export interface ClosePositionParams {
  /** Close with a limit order at this price; a market order when omitted. */
  readonly price?: DecimalInput;
  /** Default false. */
  readonly strict_validate?: boolean;
}

/**
 * `POST /margin/order`. The spec documents the parameters up to `quantity` ("as in Create order")
 * and does not show the rest, so price, stop_price and the like go in `extra` under their wire names.
 */
export interface MarginNewOrderParams {
  readonly client_order_id?: string;
  readonly symbol: string;
  readonly side: Side;
  readonly type?: OrderType;
  readonly time_in_force?: TimeInForce;
  readonly quantity: DecimalInput;
  readonly extra?: ExtraParams;
}

/**
 * Margin trading (document 001, Margin): isolated accounts, positions, orders and history. The
 * spec does not show margin order lists, replace, cancel, fees or order/trade history; replace,
 * cancel and the histories are sent as the spot ones under `/margin` (where the exchange and the
 * sandbox serve them), order lists and fees are not offered.
 */
export class MarginEndpoints {
  constructor(private readonly executor: RestExecutor) {}

  /** `GET /margin/account`. */
  async getAccounts(): Promise<MarginAccount[]> {
    return this.executor.execute(privateGet('/margin/account', (b) => parseMarginAccountList(b)));
  }

  /** `GET /margin/account/isolated/{symbol}`. */
  async getAccount(symbol: string): Promise<MarginAccount> {
    return this.executor.execute(privateGet(`/margin/account/isolated/${pathSegment('symbol', symbol)}`, (b) => parseMarginAccount(b)));
  }

  /** `PUT /margin/account/isolated/{symbol}`: sets an absolute balance, so a repeat changes nothing more. */
  async updateAccount(symbol: string, params: MarginAccountUpdate): Promise<MarginAccount> {
    const body = {
      margin_balance: decimalParam('margin_balance', params.margin_balance, 'non-negative'),
      leverage: optionalDecimal('leverage', params.leverage, 'positive'),
      strict_validate: optionalBool('strict_validate', params.strict_validate),
    };
    const path = `/margin/account/isolated/${pathSegment('symbol', symbol)}`;
    return this.executor.execute(privateCall('PUT', path, (b) => parseMarginAccount(b), { scope: 'other', idempotent: true, body }));
  }

  /** `DELETE /margin/position`: closes every position (a repeat could close one opened meanwhile). */
  async closeAllPositions(): Promise<Position[]> {
    return this.executor.execute(privateCall('DELETE', '/margin/position', (b) => parsePositionList(b), { scope: 'other', idempotent: false }));
  }

  /** `DELETE /margin/position/isolated/{symbol}`. */
  async closePosition(symbol: string, params?: ClosePositionParams): Promise<Position[]> {
    return this.executor.execute(closePositionRequest('/margin', symbol, params));
  }

  /** `GET /margin/order`: active margin orders. */
  async getActiveOrders(params?: SymbolParam): Promise<Order[]> {
    return this.executor.execute(activeOrdersRequest('/margin', params?.symbol));
  }

  /** `GET /margin/order/{client_order_id}`. */
  async getActiveOrder(clientOrderId: string): Promise<Order> {
    return this.executor.execute(activeOrderRequest('/margin', clientOrderId));
  }

  /**
   * `POST /margin/order` (needs a margin account for the symbol). With a client_order_id a retry
   * is safe; the lookup after a duplicate refusal searches active orders only, as the spec shows
   * no margin order history.
   */
  async createOrder(params: MarginNewOrderParams): Promise<Order> {
    const body = withExtra<unknown>({
      client_order_id: optionalClientOrderId('client_order_id', params.client_order_id),
      symbol: requiredText('symbol', params.symbol),
      side: enumParam('side', params.side, SIDES),
      type: optionalEnum('type', params.type, ORDER_TYPES),
      time_in_force: optionalEnum('time_in_force', params.time_in_force, TIME_IN_FORCES),
      quantity: decimalParam('quantity', params.quantity, 'positive'),
    }, params.extra);
    return this.executor.execute(createOrderRequest(this.executor, '/margin', body, false));
  }

  /**
   * `PATCH /margin/order/{client_order_id}`. Not shown by the spec ("margin ... replace ...: not
   * shown"): sent as the spot replace, at the spot path's place under `/margin`.
   */
  async replaceOrder(clientOrderId: string, params: ReplaceOrderParams): Promise<Order> {
    return this.executor.execute(replaceOrderRequest('/margin', clientOrderId, replaceBody(params)));
  }

  /** `DELETE /margin/order`: cancels every active margin order (of one symbol). Not shown by the spec; as spot. */
  async cancelOrders(params?: SymbolParam): Promise<Order[]> {
    return this.executor.execute(cancelOrdersRequest('/margin', params?.symbol));
  }

  /** `DELETE /margin/order/{client_order_id}`. Not shown by the spec; as spot. */
  async cancelOrder(clientOrderId: string): Promise<Order> {
    return this.executor.execute(cancelOrderRequest('/margin', clientOrderId));
  }

  /** `GET /margin/history/order`. Not shown by the spec; the spot history's parameters. */
  async getOrderHistory(params?: SpotOrderHistoryParams): Promise<Order[]> {
    return this.executor.execute(privateGet('/margin/history/order', (b) => parseOrderList(b), spotOrderHistoryQuery(params)));
  }

  /** `GET /margin/history/trade`. Not shown by the spec; the spot history's parameters. */
  async getTradeHistory(params?: TradeHistoryParams): Promise<TradeHistoryRecord[]> {
    return this.executor.execute(privateGet('/margin/history/trade', (b) => parseTradeHistoryList(b), tradeHistoryQuery(params)));
  }

  /** `GET /margin/history/positions` (`from`/`till` in UNIX nanoseconds). */
  async getPositionHistory(params?: PositionHistoryParams): Promise<PositionHistoryRecord[]> {
    return this.executor.execute(privateGet('/margin/history/positions', (b) => parsePositionHistoryList(b), positionHistoryQuery(params)));
  }

  /** `GET /margin/history/clearing`. */
  async getClearingHistory(params?: ClearingHistoryParams): Promise<ClearingRecord[]> {
    return this.executor.execute(privateGet('/margin/history/clearing', (b) => parseClearingList(b), clearingHistoryQuery(params)));
  }
}

/**
 * `DELETE /{margin|futures}/position/isolated/{symbol}`. Sends its parameters in the query, as for
 * every DELETE. The answer is documented as "closed position(s)": one object or an array.
 */
export function closePositionRequest(
  section: '/margin' | '/futures', symbol: string, params?: ClosePositionParams,
): RestRequest<Position[]> {
  const query = {
    price: optionalDecimal('price', params?.price, 'positive'),
    strict_validate: optionalBool('strict_validate', params?.strict_validate),
  };
  const path = `${section}/position/isolated/${pathSegment('symbol', symbol)}`;
  return privateCall('DELETE', path, parseClosedPositions, { scope: 'other', idempotent: false, query });
}

function parseClosedPositions(body: unknown): Position[] {
  return Array.isArray(body) ? parsePositionList(body) : [parsePosition(body)];
}
