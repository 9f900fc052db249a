import type { TradingBalance } from '../../../model/resources/balance.js';
import { parseClearingList, type ClearingRecord } from '../../../model/resources/clearing.js';
import type { FeeRate } from '../../../model/resources/fee.js';
import { parseFuturesConfigResponse, type FuturesPositionConfig } from '../../../model/resources/futures-config.js';
import {
  parseMarginAccount, parseMarginAccountList, parsePositionList, type MarginAccount, type Position,
} from '../../../model/resources/margin-account.js';
import { parseOrderList, type Order } from '../../../model/resources/order.js';
import { parsePositionHistoryList, type PositionHistoryRecord } from '../../../model/resources/position-history.js';
import { parseTradeHistoryList, type TradeHistoryRecord } from '../../../model/resources/trade-history.js';
import {
  decimalParam, optionalBool, optionalDecimal, pathSegment, withExtra, type DecimalInput, type ExtraParams,
} from '../params.js';
import type { RestExecutor } from '../rest-request.js';
import { privateCall, privateGet } from './endpoint-request.js';
import {
  clearingHistoryQuery, futuresOrderHistoryQuery, positionHistoryQuery, tradeHistoryQuery, type ClearingHistoryParams,
  type FuturesOrderHistoryParams, type PositionHistoryParams, type TradeHistoryParams,
} from './history-params.js';
import { closePositionRequest, type ClosePositionParams, type MarginAccountParams } from './margin.js';
import {
  orderBody, orderListBody, type FuturesNewOrderParams, type OrderListParams,
} from './order-params.js';
import {
  activeOrderRequest, activeOrdersRequest, balanceRequest, balancesRequest, cancelOrderRequest, cancelOrdersRequest,
  createOrderListRequest, createOrderRequest, feeRequest, feesRequest, replaceOrderRequest, type SymbolParam,
} from './trading-requests.js';

/** `PUT /futures/account/isolated/{symbol}`. */
export interface FuturesAccountParams extends MarginAccountParams {
  /** Requested leverage of the isolated account. */
  readonly leverage?: DecimalInput;
}

/**
 * `PATCH /futures/order/{client_order_id}`: the spec lists quantity, price and strict_validate
 * ("as spot replace"); anything else (such as new_client_order_id) goes in `extra`.
 */
export interface FuturesReplaceOrderParams {
  readonly quantity: DecimalInput;
  /** Required when the order being replaced is limit, stopLimit or takeProfitLimit. */
  readonly price?: DecimalInput;
  readonly strict_validate?: boolean;
  readonly extra?: ExtraParams;
}

/** Futures order lists: oneCancelOther and oneTriggerOneCancelOther only. */
export type FuturesOrderListParams = OrderListParams<FuturesNewOrderParams>;

/**
 * Futures trading (document 001, Futures): balances, isolated accounts, positions, orders, order
 * lists, configuration, fees and history. Place, replace and cancel spend the `trading` budget.
 */
export class FuturesEndpoints {
  constructor(private readonly executor: RestExecutor) {}

  /** `GET /futures/balance`. */
  async getBalances(): Promise<TradingBalance[]> {
    return this.executor.execute(balancesRequest('/futures'));
  }

  /** `GET /futures/balance/{currency}`. */
  async getBalance(currency: string): Promise<TradingBalance> {
    return this.executor.execute(balanceRequest('/futures', currency));
  }

  /** `GET /futures/account`. */
  async getAccounts(): Promise<MarginAccount[]> {
    return this.executor.execute(privateGet('/futures/account', (b) => parseMarginAccountList(b)));
  }

  /** `GET /futures/account/isolated/{symbol}`. */
  async getAccount(symbol: string): Promise<MarginAccount> {
    const path = `/futures/account/isolated/${pathSegment('symbol', symbol)}`;
    return this.executor.execute(privateGet(path, (b) => parseMarginAccount(b)));
  }

  /** `PUT /futures/account/isolated/{symbol}`: absolute balance and leverage, so a repeat changes nothing more. */
  async updateAccount(symbol: string, params: FuturesAccountParams): Promise<MarginAccount> {
    const body = {
      margin_balance: decimalParam('margin_balance', params.margin_balance, 'non-negative'),
      leverage: optionalDecimal('leverage', params.leverage, 'positive'),
      strict_validate: optionalBool('strict_validate', params.strict_validate),
    };
    const path = `/futures/account/isolated/${pathSegment('symbol', symbol)}`;
    return this.executor.execute(privateCall('PUT', path, (b) => parseMarginAccount(b), { scope: 'other', idempotent: true, body }));
  }

  /** `DELETE /futures/position`: closes every position. */
  async closeAllPositions(): Promise<Position[]> {
    return this.executor.execute(privateCall('DELETE', '/futures/position', (b) => parsePositionList(b), { scope: 'other', idempotent: false }));
  }

  /** `DELETE /futures/position/isolated/{symbol}`: limit close at `price`, market close without it. */
  async closePosition(symbol: string, params?: ClosePositionParams): Promise<Position[]> {
    return this.executor.execute(closePositionRequest('/futures', symbol, params));
  }

  /** `GET /futures/order`: active orders. */
  async getActiveOrders(params?: SymbolParam): Promise<Order[]> {
    return this.executor.execute(activeOrdersRequest('/futures', params?.symbol));
  }

  /** `GET /futures/order/{client_order_id}`. */
  async getActiveOrder(clientOrderId: string): Promise<Order> {
    return this.executor.execute(activeOrderRequest('/futures', clientOrderId));
  }

  /** `POST /futures/order`; with a client_order_id a retry is safe (lookup: active, then history). */
  async createOrder(params: FuturesNewOrderParams): Promise<Order> {
    const body = orderBody(params, { reduceOnly: true });
    return this.executor.execute(createOrderRequest(this.executor, '/futures', body, true));
  }

  /** `POST /futures/order/list`: oneCancelOther or oneTriggerOneCancelOther (no allOrNone). */
  async createOrderList(params: FuturesOrderListParams): Promise<Order[]> {
    return this.executor.execute(createOrderListRequest(this.executor, '/futures', orderListBody(params, true)));
  }

  /** `PATCH /futures/order/{client_order_id}`. */
  async replaceOrder(clientOrderId: string, params: FuturesReplaceOrderParams): Promise<Order> {
    const body = withExtra<unknown>({
      quantity: decimalParam('quantity', params.quantity, 'positive'),
      price: optionalDecimal('price', params.price, 'positive'),
      strict_validate: optionalBool('strict_validate', params.strict_validate),
    }, params.extra);
    return this.executor.execute(replaceOrderRequest('/futures', clientOrderId, body));
  }

  /** `DELETE /futures/order`: cancels all active orders (of one contract). */
  async cancelOrders(params?: SymbolParam): Promise<Order[]> {
    return this.executor.execute(cancelOrdersRequest('/futures', params?.symbol));
  }

  /** `DELETE /futures/order/{client_order_id}`. */
  async cancelOrder(clientOrderId: string): Promise<Order> {
    return this.executor.execute(cancelOrderRequest('/futures', clientOrderId));
  }

  /** `GET /futures/config`: position configuration per contract. */
  async getConfig(): Promise<FuturesPositionConfig[]> {
    return this.executor.execute(privateGet('/futures/config', (b) => parseFuturesConfigResponse(b)));
  }

  /** `GET /futures/fee`. */
  async getFees(): Promise<FeeRate[]> {
    return this.executor.execute(feesRequest('/futures'));
  }

  /** `GET /futures/fee/{symbol}`. */
  async getFee(symbol: string): Promise<FeeRate> {
    return this.executor.execute(feeRequest('/futures', symbol));
  }

  /** `GET /futures/history/order` (limit 1-1000 default 100, offset 0-100000). */
  async getOrderHistory(params?: FuturesOrderHistoryParams): Promise<Order[]> {
    return this.executor.execute(privateGet('/futures/history/order', (b) => parseOrderList(b), futuresOrderHistoryQuery(params)));
  }

  /** `GET /futures/history/trade` (`from`/`till` are ids when `by` is id, the default). */
  async getTradeHistory(params?: TradeHistoryParams): Promise<TradeHistoryRecord[]> {
    return this.executor.execute(privateGet('/futures/history/trade', (b) => parseTradeHistoryList(b), tradeHistoryQuery(params)));
  }

  /** `GET /futures/history/positions` (`from`/`till` in UNIX nanoseconds). */
  async getPositionHistory(params?: PositionHistoryParams): Promise<PositionHistoryRecord[]> {
    return this.executor.execute(privateGet('/futures/history/positions', (b) => parsePositionHistoryList(b), positionHistoryQuery(params)));
  }

  /** `GET /futures/history/clearing`. */
  async getClearingHistory(params?: ClearingHistoryParams): Promise<ClearingRecord[]> {
    return this.executor.execute(privateGet('/futures/history/clearing', (b) => parseClearingList(b), clearingHistoryQuery(params)));
  }
}
