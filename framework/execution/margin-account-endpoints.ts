import type { TradeHistoryParams } from '../exchange/rest/endpoints/history-params.js';
import type { FuturesNewOrderParams, OrderListParams, ReplaceOrderParams } from '../exchange/rest/endpoints/order-params.js';
import type { ExtraParams, ExtraValue } from '../exchange/rest/params.js';
import type { RestClient } from '../exchange/rest/rest-client.js';
import { Decimal, ZERO } from '../model/decimal.js';
import { ValidationError } from '../model/errors.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { MarginAccount } from '../model/resources/margin-account.js';
import type { Order } from '../model/resources/order.js';
import type { TradeHistoryRecord } from '../model/resources/trade-history.js';

/** The REST calls a venue port makes, which the spot, margin and futures sections share (same paths under their prefix). */
export interface AccountEndpoints {
  getBalances(): Promise<TradingBalance[]>;
  getActiveOrders(): Promise<Order[]>;
  getActiveOrder(clientOrderId: string): Promise<Order>;
  createOrder(params: FuturesNewOrderParams): Promise<Order>;
  createOrderList(params: OrderListParams<FuturesNewOrderParams>): Promise<Order[]>;
  replaceOrder(clientOrderId: string, params: ReplaceOrderParams): Promise<Order>;
  cancelOrders(params?: { readonly symbol?: string }): Promise<Order[]>;
  cancelOrder(clientOrderId: string): Promise<Order>;
  getOrderHistory(params: { readonly client_order_id?: string; readonly limit?: number; readonly offset?: number; readonly sort?: 'ASC' | 'DESC' }): Promise<Order[]>;
  getTradeHistory(params: TradeHistoryParams): Promise<TradeHistoryRecord[]>;
}

/**
 * The margin section as {@link AccountEndpoints}. Where the spec leaves margin out, the gaps are
 * filled so: a new order sends the Create order parameters past `quantity` (not shown for margin)
 * under their spot names; order lists are refused before anything is sent (no margin order list
 * is shown, and the sandbox serves none); the trading balances, which have no margin REST path,
 * are the totals per currency of the isolated accounts (see {@link marginBalancesOf}).
 */
export function marginAccountEndpoints(rest: RestClient): AccountEndpoints {
  const margin = rest.margin;
  return {
    getBalances: async () => marginBalancesOf(await margin.getAccounts()),
    getActiveOrders: () => margin.getActiveOrders(),
    getActiveOrder: (clientOrderId) => margin.getActiveOrder(clientOrderId),
    createOrder: (params) => margin.createOrder({
      client_order_id: params.client_order_id, symbol: params.symbol, side: params.side, type: params.type,
      time_in_force: params.time_in_force, quantity: params.quantity, extra: orderExtra(params),
    }),
    createOrderList: () => Promise.reject(new ValidationError('orders', 'order lists are not offered on margin accounts')),
    replaceOrder: (clientOrderId, params) => margin.replaceOrder(clientOrderId, params),
    cancelOrders: (params) => margin.cancelOrders(params),
    cancelOrder: (clientOrderId) => margin.cancelOrder(clientOrderId),
    getOrderHistory: (params) => margin.getOrderHistory(params),
    getTradeHistory: (params) => margin.getTradeHistory(params),
  };
}

/**
 * Trading balances per currency from isolated margin accounts: reserved = orders' + positions'
 * margin, reserved_margin = the positions', available = margin balance - unrealized profit -
 * reserved (an unrealized loss is already in the margin balance and reduces what is free; a profit
 * is not free until realized), as the `margin_balance` stream reports them.
 */
export function marginBalancesOf(accounts: readonly MarginAccount[]): TradingBalance[] {
  const totals = new Map<string, { available: Decimal; reserved: Decimal; margin: Decimal }>();
  for (const account of accounts) {
    const profit = Decimal.max(ZERO, (account.positions ?? []).reduce((sum, p) => sum.plus(p.pnl ?? ZERO), ZERO));
    for (const c of account.currencies) {
      const reserved = c.reserved_orders.plus(c.reserved_positions);
      const sum = totals.get(c.code) ?? { available: ZERO, reserved: ZERO, margin: ZERO };
      totals.set(c.code, {
        available: sum.available.plus(c.margin_balance.minus(profit).minus(reserved)),
        reserved: sum.reserved.plus(reserved),
        margin: sum.margin.plus(c.reserved_positions),
      });
    }
  }
  return [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, t]) => ({ currency, available: t.available, reserved: t.reserved, reserved_margin: t.margin }));
}

/** The Create order parameters past `quantity`, as the margin create's `extra` (undefined ones left out). */
function orderExtra(params: FuturesNewOrderParams): ExtraParams {
  const out: Record<string, ExtraValue> = {};
  const put = (name: string, value: ExtraValue | undefined): void => {
    if (value !== undefined) out[name] = value;
  };
  put('price', params.price);
  put('stop_price', params.stop_price);
  put('expire_time', params.expire_time === undefined ? undefined : new Date(params.expire_time).toISOString());
  put('strict_validate', params.strict_validate);
  put('post_only', params.post_only);
  put('reduce_only', params.reduce_only);
  put('take_rate', params.take_rate);
  put('make_rate', params.make_rate);
  return out;
}

