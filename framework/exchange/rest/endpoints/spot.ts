import type { TradingBalance } from '../../../model/resources/balance.js';
import type { FeeRate } from '../../../model/resources/fee.js';
import { parseOrderList, type Order } from '../../../model/resources/order.js';
import { parseTradeHistoryList, type TradeHistoryRecord } from '../../../model/resources/trade-history.js';
import type { RestExecutor } from '../rest-request.js';
import { privateGet } from './endpoint-request.js';
import {
  spotOrderHistoryQuery, tradeHistoryQuery, type SpotOrderHistoryParams, type TradeHistoryParams,
} from './history-params.js';
import {
  orderBody, orderListBody, replaceBody, type NewOrderParams, type OrderListParams, type ReplaceOrderParams,
} from './order-params.js';
import {
  activeOrderRequest, activeOrdersRequest, balanceRequest, balancesRequest, cancelOrderRequest, cancelOrdersRequest,
  createOrderListRequest, createOrderRequest, feeRequest, feesRequest, replaceOrderRequest, type SymbolParam,
} from './trading-requests.js';

/**
 * Spot trading (document 001, Spot): balances, orders, order lists, fees and history. Every
 * request is authenticated; place, replace and cancel spend the `trading` budget.
 */
export class SpotEndpoints {
  constructor(private readonly executor: RestExecutor) {}

  /** `GET /spot/balance`. */
  async getBalances(): Promise<TradingBalance[]> {
    return this.executor.execute(balancesRequest('/spot'));
  }

  /** `GET /spot/balance/{currency}` (the exchange may leave `currency` out of the answer). */
  async getBalance(currency: string): Promise<TradingBalance> {
    return this.executor.execute(balanceRequest('/spot', currency));
  }

  /** `GET /spot/order`: active orders. */
  async getActiveOrders(params?: SymbolParam): Promise<Order[]> {
    return this.executor.execute(activeOrdersRequest('/spot', params?.symbol));
  }

  /** `GET /spot/order/{client_order_id}`. */
  async getActiveOrder(clientOrderId: string): Promise<Order> {
    return this.executor.execute(activeOrderRequest('/spot', clientOrderId));
  }

  /**
   * `POST /spot/order`. Give a client_order_id to make the placement safe to retry: a duplicate
   * refusal after an unknown outcome is resolved by fetching the order (active, then history).
   */
  async createOrder(params: NewOrderParams): Promise<Order> {
    const body = orderBody(params, { reduceOnly: false });
    return this.executor.execute(createOrderRequest(this.executor, '/spot', body, true));
  }

  /** `POST /spot/order/list`: allOrNone, oneCancelOther or oneTriggerOneCancelOther. */
  async createOrderList(params: OrderListParams): Promise<Order[]> {
    const body = orderListBody(params, false);
    return this.executor.execute(createOrderListRequest(this.executor, '/spot', body));
  }

  /** `PATCH /spot/order/{client_order_id}`. */
  async replaceOrder(clientOrderId: string, params: ReplaceOrderParams): Promise<Order> {
    return this.executor.execute(replaceOrderRequest('/spot', clientOrderId, replaceBody(params)));
  }

  /** `DELETE /spot/order`: cancels all active orders (of one symbol). */
  async cancelOrders(params?: SymbolParam): Promise<Order[]> {
    return this.executor.execute(cancelOrdersRequest('/spot', params?.symbol));
  }

  /** `DELETE /spot/order/{client_order_id}`. */
  async cancelOrder(clientOrderId: string): Promise<Order> {
    return this.executor.execute(cancelOrderRequest('/spot', clientOrderId));
  }

  /** `GET /spot/fee`. */
  async getFees(): Promise<FeeRate[]> {
    return this.executor.execute(feesRequest('/spot'));
  }

  /** `GET /spot/fee/{symbol}`. */
  async getFee(symbol: string): Promise<FeeRate> {
    return this.executor.execute(feeRequest('/spot', symbol));
  }

  /** `GET /spot/history/order` (limit 1-1000 default 100, offset 0-100000; by default id). */
  async getOrderHistory(params?: SpotOrderHistoryParams): Promise<Order[]> {
    return this.executor.execute(privateGet('/spot/history/order', (b) => parseOrderList(b), spotOrderHistoryQuery(params)));
  }

  /** `GET /spot/history/trade` (`from`/`till` are ids when `by` is id, the default). */
  async getTradeHistory(params?: TradeHistoryParams): Promise<TradeHistoryRecord[]> {
    return this.executor.execute(privateGet('/spot/history/trade', (b) => parseTradeHistoryList(b), tradeHistoryQuery(params)));
  }
}
