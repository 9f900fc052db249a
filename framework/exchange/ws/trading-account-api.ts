import { ValidationError } from '../../model/errors.js';
import { parseTradingBalance, parseTradingBalanceList, type TradingBalance } from '../../model/resources/balance.js';
import { parseFeeRate, parseFeeRateList, type FeeRate } from '../../model/resources/fee.js';
import { parseOrder, parseOrderList, type Order } from '../../model/resources/order.js';
import type { TradingAccount } from '../../model/stream/order-report.js';
import {
  cancelOrderParams, newOrderListParams, newOrderParams, replaceOrderParams, type FuturesNewOrderParams, type OrderListParams,
  type StreamReplaceOrderParams,
} from './order-params.js';

/** What the per-account methods need from their session. */
export interface SessionRequester {
  request<T>(method: string, params: Readonly<Record<string, unknown>> | undefined, parse: (result: unknown) => T): Promise<T>;
  subscribeStream(key: string, method: string, params?: Readonly<Record<string, unknown>>): Promise<void>;
  unsubscribeStream(key: string, method: string): Promise<void>;
}

const parseOrderResult = (result: unknown): Order => parseOrder(result, 'result');
const parseOrderListResult = (result: unknown): Order[] => parseOrderList(result, 'result');

/** How balance notifications arrive: one per change, or batched. */
export type BalanceMode = 'updates' | 'batches';

const CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function code(value: unknown, field: string): string {
  if (typeof value !== 'string' || !CODE.test(value)) throw new ValidationError(field, 'must be a symbol or currency code', value);
  return value;
}

/**
 * The trading-stream methods of one account (`spot_`, `margin_`, `futures_`), typed and validated
 * before sending (a bad parameter rejects with ValidationError and nothing is sent). Replies are parsed with the REST resource parsers, so a WebSocket order is the
 * same `Order` as a REST one. Order-report and balance subscriptions are restored after reconnects.
 */
export class TradingAccountApi {
  /** Method names of the order path, built once. */
  private readonly methods: { readonly newOrder: string; readonly newOrderList: string; readonly cancelOrder: string; readonly replaceOrder: string };

  constructor(
    private readonly session: SessionRequester,
    readonly account: TradingAccount,
  ) {
    this.methods = {
      newOrder: this.method('new_order'), newOrderList: this.method('new_order_list'),
      cancelOrder: this.method('cancel_order'), replaceOrder: this.method('replace_order'),
    };
  }

  /** Subscribes to order reports (a snapshot of active orders, then one report per change). */
  async subscribe(): Promise<void> {
    return this.session.subscribeStream(this.method('subscribe'), this.method('subscribe'));
  }

  /** Stops order reports. */
  async unsubscribe(): Promise<void> {
    return this.session.unsubscribeStream(this.method('subscribe'), this.method('unsubscribe'));
  }

  /** Active orders. */
  async getOrders(): Promise<Order[]> {
    return this.session.request(this.method('get_orders'), undefined, (r) => parseOrderList(r, 'result'));
  }

  // The order methods are not `async`: the request leaves in this turn without an extra promise
  // and its hops (they are on every intent's path); a bad parameter still rejects, never throws.

  /** Places an order; resolves with the order as the exchange accepted it. */
  newOrder(params: FuturesNewOrderParams): Promise<Order> {
    try {
      return this.session.request(this.methods.newOrder, newOrderParams(params, this.account), parseOrderResult);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Places an order list (allOrNone, oneCancelOther, oneTriggerOneCancelOther). */
  newOrderList(params: OrderListParams<FuturesNewOrderParams>): Promise<Order[]> {
    try {
      return this.session.request(this.methods.newOrderList, newOrderListParams(params, this.account), parseOrderListResult);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Cancels one order by client order id. */
  cancelOrder(clientOrderId: string): Promise<Order> {
    try {
      return this.session.request(this.methods.cancelOrder, cancelOrderParams(clientOrderId), parseOrderResult);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Cancels every active order of the account. */
  async cancelOrders(): Promise<Order[]> {
    return this.session.request(this.method('cancel_orders'), undefined, (r) => parseOrderList(r, 'result'));
  }

  /** Replaces an order's quantity and price under a new client order id. */
  replaceOrder(params: StreamReplaceOrderParams): Promise<Order> {
    try {
      return this.session.request(this.methods.replaceOrder, replaceOrderParams(params), parseOrderResult);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Subscribes to balance notifications. */
  async balanceSubscribe(mode: BalanceMode = 'updates'): Promise<void> {
    if (mode !== 'updates' && mode !== 'batches') throw new ValidationError('mode', 'must be updates or batches', mode);
    return this.session.subscribeStream(this.method('balance_subscribe'), this.method('balance_subscribe'), { mode });
  }

  /** Stops balance notifications. */
  async balanceUnsubscribe(): Promise<void> {
    return this.session.unsubscribeStream(this.method('balance_subscribe'), this.method('balance_unsubscribe'));
  }

  /** All balances of the account. */
  async balances(): Promise<TradingBalance[]> {
    return this.session.request(this.method('balances'), undefined, (r) => parseTradingBalanceList(r, 'result'));
  }

  /** The balance of one currency. */
  async balance(currency: string): Promise<TradingBalance> {
    const params = { currency: code(currency, 'currency') };
    return this.session.request(this.method('balance'), params, (r) => parseTradingBalance(r, 'result'));
  }

  /** Fee rates of every symbol. */
  async fees(): Promise<FeeRate[]> {
    return this.session.request(this.method('fees'), undefined, (r) => parseFeeRateList(r, 'result'));
  }

  /** The fee rate of one symbol. */
  async fee(symbol: string): Promise<FeeRate> {
    const params = { symbol: code(symbol, 'symbol') };
    return this.session.request(this.method('fee'), params, (r) => parseFeeRate(r, 'result'));
  }

  private method(name: string): string {
    return `${this.account}_${name}`;
  }
}
