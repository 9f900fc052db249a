import type { SimulatedMarginVenue } from '../venue/margin/simulated-margin-venue.js';
import { balanceMethods } from './futures-stream-methods.js';
import { marginAccountToWire } from './futures-wire.js';
import type { MarginScope } from './margin-scope.js';
import { invalid, newOrderRequest, optText, reqText, replaceOrderRequest } from './request-params.js';
import { feeRateToWire } from '../../framework/model/resources/fee.js';
import type { Venue } from '../venue/venue-types.js';
import type { StreamClient, StreamMethod } from './rpc-stream.js';
import { account, reportWire, subscribe, unsubscribe } from './stream-methods.js';
import { send } from './ws-protocol.js';

/** The `margin_subscribe` subscription key (margin order reports). */
export const MARGIN_ORDERS_SUBSCRIPTION = 'margin_subscribe';
/** The `margin_balance_subscribe` subscription key. */
export const MARGIN_BALANCE_SUBSCRIPTION = 'margin_balance_subscribe';

/**
 * `/api/3/ws/trading` margin methods: the spot methods' shapes with the `margin_` prefix
 * (exchange-notes.md) over the venue's isolated margin accounts, plus `margin_get_accounts`
 * (document 002). Order reports (`margin_orders` snapshot, then `margin_order`) carry
 * `trade_position_id` on trades; balances (`margin_balance`) are totals per quote currency over the
 * isolated accounts. Only margin orders are seen (a spot order is 20002), only margin-traded
 * symbols (2001). Fees (`margin_fees`, `margin_fee`) are the symbols' own. Margin order lists are
 * refused with 10001 (the spec shows none, and the venue offers none).
 */
export function marginTradingMethods(venue: Venue, margin: SimulatedMarginVenue, scope: MarginScope, symbols: () => readonly string[]): Record<string, StreamMethod> {
  const fee = (c: StreamClient, symbol: string) => feeRateToWire({ symbol, ...venue.feeRate(account(c), symbol) });
  const active = (c: StreamClient) => margin.openOrders(account(c)).map((o) => reportWire(o, 'status'));
  return {
    margin_subscribe: {
      right: 'trading',
      handle: subscribe(MARGIN_ORDERS_SUBSCRIPTION, (c) => send(c.socket, { jsonrpc: '2.0', method: 'margin_orders', params: active(c) })),
    },
    margin_unsubscribe: { right: 'trading', handle: unsubscribe(MARGIN_ORDERS_SUBSCRIPTION) },
    margin_get_orders: { right: 'trading', handle: (c) => ({ result: active(c) }) },
    margin_new_order: {
      right: 'trading',
      handle: (c, p) => {
        const request = newOrderRequest(p);
        scope.require(request.symbol);
        return { result: reportWire(margin.placeOrder(account(c), request), 'new') };
      },
    },
    margin_new_order_list: {
      right: 'trading',
      handle: () => {
        throw invalid('orders', 'order lists are not offered on margin accounts');
      },
    },
    margin_cancel_order: {
      right: 'trading',
      handle: (c, p) => ({ result: reportWire(margin.cancelOrder(account(c), reqText(p, 'client_order_id')), 'canceled') }),
    },
    margin_cancel_orders: {
      right: 'trading',
      handle: (c, p) => {
        const symbol = optText(p, 'symbol');
        return { result: margin.cancelAll(account(c), symbol === undefined ? undefined : scope.require(symbol)).map((o) => reportWire(o, 'canceled')) };
      },
    },
    margin_replace_order: {
      right: 'trading',
      handle: (c, p) => {
        const id = reqText(p, 'client_order_id');
        return { result: reportWire(margin.replaceOrder(account(c), replaceOrderRequest(id, p)), 'replaced') };
      },
    },
    ...balanceMethods('margin', MARGIN_BALANCE_SUBSCRIPTION, (c) => margin.balances(account(c))),
    margin_fees: { right: 'trading', handle: (c) => ({ result: symbols().map((s) => fee(c, s)) }) },
    margin_fee: { right: 'trading', handle: (c, p) => ({ result: fee(c, scope.require(reqText(p, 'symbol'))) }) },
    margin_get_accounts: { right: 'orderbook', handle: (c) => ({ result: margin.accounts(account(c)).map(marginAccountToWire) }) },
  };
}
