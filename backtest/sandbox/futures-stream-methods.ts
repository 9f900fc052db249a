import { Decimal } from '../../framework/model/decimal.js';
import { tradingBalanceToWire, type TradingBalance } from '../../framework/model/resources/balance.js';
import { feeRateToWire } from '../../framework/model/resources/fee.js';
import type { Order } from '../../framework/model/resources/order.js';
import type { SimulatedFuturesVenue } from '../venue/futures/simulated-futures-venue.js';
import type { Venue } from '../venue/venue-types.js';
import type { FuturesScope } from './futures-scope.js';
import { marginAccountToWire } from './futures-wire.js';
import { invalid, newOrderRequest, orderListRequest, reqText, replaceOrderRequest } from './request-params.js';
import type { StreamClient, StreamMethod } from './rpc-stream.js';
import { account, reportWire, subscribe, unsubscribe } from './stream-methods.js';
import { send } from './ws-protocol.js';

/** The `futures_subscribe` subscription key (futures order reports). */
export const FUTURES_ORDERS_SUBSCRIPTION = 'futures_subscribe';
/** The `futures_balance_subscribe` subscription key. */
export const FUTURES_BALANCE_SUBSCRIPTION = 'futures_balance_subscribe';

/**
 * `/api/3/ws/trading` futures methods: the spot methods' shapes with the `futures_` prefix
 * (exchange-notes.md), over the venue's order calls and its futures accounts, plus
 * `futures_get_accounts` (document 002). Only futures contracts and their orders are seen: a spot
 * symbol is 2001, a spot order 20002, as over REST.
 */
export function futuresTradingMethods(venue: Venue, futures: SimulatedFuturesVenue, scope: FuturesScope): Record<string, StreamMethod> {
  const active = (c: StreamClient) => scope.only(venue.openOrders(account(c))).map((o) => reportWire(o, 'status'));
  const activeOrder = (c: StreamClient, id: string): Order => scope.requireOrder(venue.getOpenOrder(account(c), id));
  const fee = (c: StreamClient, symbol: string) => feeRateToWire({ symbol, ...venue.feeRate(account(c), symbol) });
  return {
    futures_subscribe: {
      right: 'trading',
      handle: subscribe(FUTURES_ORDERS_SUBSCRIPTION, (c) => send(c.socket, { jsonrpc: '2.0', method: 'futures_orders', params: active(c) })),
    },
    futures_unsubscribe: { right: 'trading', handle: unsubscribe(FUTURES_ORDERS_SUBSCRIPTION) },
    futures_get_orders: { right: 'trading', handle: (c) => ({ result: active(c) }) },
    futures_new_order: {
      right: 'trading',
      handle: (c, p) => {
        const request = newOrderRequest(p);
        scope.require(request.symbol);
        return { result: reportWire(venue.placeOrder(account(c), request), 'new') };
      },
    },
    futures_new_order_list: {
      right: 'trading',
      handle: (c, p) => {
        const request = orderListRequest(p);
        if (request.contingency_type === 'allOrNone') throw invalid('contingency_type', 'must be oneCancelOther or oneTriggerOneCancelOther on futures');
        for (const order of request.orders) scope.require(order.symbol);
        return { result: venue.placeOrderList(account(c), request).map((o) => reportWire(o, 'new')) };
      },
    },
    futures_cancel_order: {
      right: 'trading',
      handle: (c, p) => {
        const id = reqText(p, 'client_order_id');
        activeOrder(c, id);
        return { result: reportWire(venue.cancelOrder(account(c), id), 'canceled') };
      },
    },
    futures_cancel_orders: {
      right: 'trading',
      handle: (c) => ({ result: scope.cancelAll(venue, account(c), true).map((o) => reportWire(o, 'canceled')) }),
    },
    futures_replace_order: {
      right: 'trading',
      handle: (c, p) => {
        const id = reqText(p, 'client_order_id');
        activeOrder(c, id);
        return { result: reportWire(venue.replaceOrder(account(c), replaceOrderRequest(id, p)), 'replaced') };
      },
    },
    ...balanceMethods('futures', FUTURES_BALANCE_SUBSCRIPTION, (c) => futures.balances(account(c))),
    futures_get_accounts: { right: 'orderbook', handle: (c) => ({ result: futures.accounts(account(c)).map(marginAccountToWire) }) },
    futures_fees: { right: 'trading', handle: (c) => ({ result: scope.symbols.map((s) => fee(c, s)) }) },
    futures_fee: {
      right: 'trading',
      handle: (c, p) => {
        return { result: fee(c, scope.require(reqText(p, 'symbol'))) };
      },
    },
  };
}

/**
 * The balance methods of a section (`{prefix}_balance_subscribe` with a `{prefix}_balance`
 * snapshot, `_unsubscribe`, `{prefix}_balances`, `{prefix}_balance` of one currency, zeros when the
 * section never held it), over the section's trading balances.
 */
export function balanceMethods(
  prefix: 'futures' | 'margin', subscription: string, balancesOf: (client: StreamClient) => readonly TradingBalance[],
): Record<string, StreamMethod> {
  const wire = (c: StreamClient) => balancesOf(c).map(tradingBalanceToWire);
  return {
    [`${prefix}_balance_subscribe`]: {
      right: 'orderbook',
      handle: subscribe(subscription, (c) => send(c.socket, { jsonrpc: '2.0', method: `${prefix}_balance`, params: wire(c) })),
    },
    [`${prefix}_balance_unsubscribe`]: { right: 'orderbook', handle: unsubscribe(subscription) },
    [`${prefix}_balances`]: { right: 'orderbook', handle: (c) => ({ result: wire(c) }) },
    [`${prefix}_balance`]: {
      right: 'orderbook',
      handle: (c, p) => {
        const currency = reqText(p, 'currency');
        const zero = new Decimal(0);
        const found = balancesOf(c).find((b) => b.currency === currency);
        return { result: tradingBalanceToWire(found ?? { currency, available: zero, reserved: zero, reserved_margin: zero }) };
      },
    },
  };
}
