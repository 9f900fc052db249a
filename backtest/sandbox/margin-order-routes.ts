import { orderToWire } from '../../framework/model/resources/order.js';
import type { SimulatedMarginVenue } from '../venue/margin/simulated-margin-venue.js';
import { orderHistory, tradeHistory } from './account-routes.js';
import type { MarginScope } from './margin-scope.js';
import { newOrderRequest, optText, replaceOrderRequest, type Params } from './request-params.js';
import { accountOf, type Route } from './rest-route.js';

const SEG = '([^/]+)';

/**
 * Margin orders (document 001, Margin) over the venue's isolated margin accounts: the active
 * orders (all, or of a symbol), one active order, and create (the Create order parameters with
 * reduce_only; it needs a margin account for the symbol). The spec leaves out margin replace,
 * cancel, cancel-all and the order and trade histories ("not shown"); they are served here at the
 * spot paths' places under `/margin`, with the spot shapes (the exchange has them there), so a
 * client can work a margin order over REST as over the stream. Only margin orders are seen: a spot
 * order's client_order_id is 20002 here.
 */
export function marginOrderRoutes(margin: SimulatedMarginVenue, scope: MarginScope): Route[] {
  return [
    { method: 'GET', pattern: /^\/margin\/order$/, scope: 'other', right: 'trading',
      handle: (c) => margin.openOrders(accountOf(c), symbolParam(scope, c.query)).map(orderToWire) },
    { method: 'GET', pattern: new RegExp(`^/margin/order/${SEG}$`), scope: 'other', right: 'trading',
      handle: (c) => orderToWire(margin.getOpenOrder(accountOf(c), c.params[0] ?? '')) },
    { method: 'POST', pattern: /^\/margin\/order$/, scope: 'trading', right: 'trading',
      handle: (c) => {
        const request = newOrderRequest(c.body);
        scope.require(request.symbol);
        return orderToWire(margin.placeOrder(accountOf(c), request));
      } },
    { method: 'PATCH', pattern: new RegExp(`^/margin/order/${SEG}$`), scope: 'trading', right: 'trading',
      handle: (c) => orderToWire(margin.replaceOrder(accountOf(c), replaceOrderRequest(c.params[0] ?? '', c.body))) },
    { method: 'DELETE', pattern: /^\/margin\/order$/, scope: 'trading', right: 'trading',
      handle: (c) => margin.cancelAll(accountOf(c), symbolParam(scope, c.query) ?? symbolParam(scope, c.body)).map(orderToWire) },
    { method: 'DELETE', pattern: new RegExp(`^/margin/order/${SEG}$`), scope: 'trading', right: 'trading',
      handle: (c) => orderToWire(margin.cancelOrder(accountOf(c), c.params[0] ?? '')) },
    { method: 'GET', pattern: /^\/margin\/history\/order$/, scope: 'other', right: 'orderbook',
      handle: (c) => orderHistory(margin.orderHistory(accountOf(c)), c.query) },
    { method: 'GET', pattern: /^\/margin\/history\/trade$/, scope: 'other', right: 'orderbook',
      handle: (c) => tradeHistory(margin.tradeHistory(accountOf(c)), c.query) },
  ];
}

/** The optional `symbol` of a request, which must then have margin trading. */
function symbolParam(scope: MarginScope, p: Params): string | undefined {
  const symbol = optText(p, 'symbol');
  return symbol === undefined ? undefined : scope.require(symbol);
}
