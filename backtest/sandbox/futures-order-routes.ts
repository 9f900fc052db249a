import { feeRateToWire } from '../../framework/model/resources/fee.js';
import { orderToWire, type Order } from '../../framework/model/resources/order.js';
import type { Venue } from '../venue/venue-types.js';
import { orderHistory, tradeHistory } from './account-routes.js';
import type { FuturesScope } from './futures-scope.js';
import {
  invalid, newOrderRequest, optText, orderListRequest, replaceOrderRequest, type Params,
} from './request-params.js';
import { accountOf, type Route } from './rest-route.js';

const SEG = '([^/]+)';

/**
 * Futures orders (document 001, Futures): create (with reduce_only), order lists (oneCancelOther
 * and oneTriggerOneCancelOther), active orders, replace, cancel, cancel all, fees and the order and
 * trade histories, over the venue's ordinary order calls (which apply the futures rules to a futures
 * symbol's orders). Rights, budgets and refusals as the spot routes; only futures contracts and
 * their orders are seen here (see {@link FuturesScope}).
 */
export function futuresOrderRoutes(venue: Venue, scope: FuturesScope): Route[] {
  const activeOrder = (account: string, id: string): Order => scope.requireOrder(venue.getOpenOrder(account, id));
  return [
    { method: 'GET', pattern: /^\/futures\/order$/, scope: 'other', right: 'trading',
      handle: (c) => scope.only(venue.openOrders(accountOf(c), symbolQuery(scope, c.query))).map(orderToWire) },
    { method: 'GET', pattern: new RegExp(`^/futures/order/${SEG}$`), scope: 'other', right: 'trading',
      handle: (c) => orderToWire(activeOrder(accountOf(c), c.params[0] ?? '')) },
    { method: 'POST', pattern: /^\/futures\/order$/, scope: 'trading', right: 'trading',
      handle: (c) => {
        const request = newOrderRequest(c.body);
        scope.require(request.symbol);
        return orderToWire(venue.placeOrder(accountOf(c), request));
      } },
    { method: 'POST', pattern: /^\/futures\/order\/list$/, scope: 'trading', right: 'trading',
      handle: (c) => {
        const request = orderListRequest(c.body);
        if (request.contingency_type === 'allOrNone') throw invalid('contingency_type', 'must be oneCancelOther or oneTriggerOneCancelOther on futures');
        for (const order of request.orders) scope.require(order.symbol);
        return venue.placeOrderList(accountOf(c), request).map(orderToWire);
      } },
    { method: 'PATCH', pattern: new RegExp(`^/futures/order/${SEG}$`), scope: 'trading', right: 'trading',
      handle: (c) => {
        const id = c.params[0] ?? '';
        activeOrder(accountOf(c), id);
        return orderToWire(venue.replaceOrder(accountOf(c), replaceOrderRequest(id, c.body)));
      } },
    { method: 'DELETE', pattern: /^\/futures\/order$/, scope: 'trading', right: 'trading',
      handle: (c) => scope.cancelAll(venue, accountOf(c), true, symbolQuery(scope, c.query) ?? symbolQuery(scope, c.body)).map(orderToWire) },
    { method: 'DELETE', pattern: new RegExp(`^/futures/order/${SEG}$`), scope: 'trading', right: 'trading',
      handle: (c) => {
        const id = c.params[0] ?? '';
        activeOrder(accountOf(c), id);
        return orderToWire(venue.cancelOrder(accountOf(c), id));
      } },
    { method: 'GET', pattern: /^\/futures\/fee$/, scope: 'other', right: 'trading',
      handle: (c) => scope.symbols.map((s) => feeRateToWire({ symbol: s, ...venue.feeRate(accountOf(c), s) })) },
    { method: 'GET', pattern: new RegExp(`^/futures/fee/${SEG}$`), scope: 'other', right: 'trading',
      handle: (c) => {
        const symbol = scope.require(c.params[0] ?? '');
        return feeRateToWire({ symbol, ...venue.feeRate(accountOf(c), symbol) });
      } },
    { method: 'GET', pattern: /^\/futures\/history\/order$/, scope: 'other', right: 'orderbook',
      handle: (c) => orderHistory(scope.only(venue.orderHistory(accountOf(c))), c.query) },
    { method: 'GET', pattern: /^\/futures\/history\/trade$/, scope: 'other', right: 'orderbook',
      // Document 001 types a futures trade's id and order_id as String (Number for spot and margin).
      handle: (c) => tradeHistory(venue.tradeHistory(accountOf(c)).filter((t) => scope.has(t.symbol)), c.query)
        .map((t) => ({ ...t, id: String(t['id']), order_id: String(t['order_id']) })) },
  ];
}

/** The optional `symbol` of a request, which must then be a futures contract. */
function symbolQuery(scope: FuturesScope, p: Params): string | undefined {
  const symbol = optText(p, 'symbol');
  return symbol === undefined ? undefined : scope.require(symbol);
}
