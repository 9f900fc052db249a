import { ErrorCode } from '../../framework/exchange/errors.js';
import { Decimal } from '../../framework/model/decimal.js';
import { tradingBalanceToWire, walletBalanceToWire } from '../../framework/model/resources/balance.js';
import { feeRateToWire } from '../../framework/model/resources/fee.js';
import { orderToWire, type Order } from '../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';
import { idToWire, msToIso, wireRecord } from '../../framework/model/resources/wire-values.js';
import { VenueRejection, type Venue } from '../venue/venue-types.js';
import { FuturesScope } from './futures-scope.js';
import type { MarketState } from './market-state.js';
import {
  invalid, newOrderRequest, optInt, optText, optTime, orderListRequest, replaceOrderRequest, transferRequest, type Params,
} from './request-params.js';
import { accountOf, type Route } from './rest-route.js';
import type { TransactionLog } from './transaction-log.js';
import { queryTransactions } from './transaction-query.js';

const SEG = '([^/]+)';

/** What the account endpoints act on. */
export interface AccountServices {
  readonly venue: Venue;
  readonly market: MarketState;
  readonly transactions: TransactionLog;
}

/**
 * Spot trading (document 001) and wallet (document 002) endpoints, each with the right the spec
 * names, answered from the venue in the exchange's wire shapes.
 */
export function accountRoutes({ venue, market, transactions }: AccountServices): Route[] {
  // Futures contracts and their orders belong to the futures section (futures-order-routes.ts).
  const futures = new FuturesScope(market);
  // An order on a futures contract is the futures section's: the spot paths do not find it (20002).
  const spotOrder = (account: string, id: string): Order => {
    const order = venue.getOpenOrder(account, id);
    if (futures.has(order.symbol)) throw new VenueRejection(ErrorCode.OrderNotFound, `spot order ${id} not found`);
    return order;
  };
  return [
    { method: 'GET', pattern: /^\/spot\/balance$/, scope: 'other', right: 'orderbook',
      handle: (c) => venue.spotBalances(accountOf(c)).map(tradingBalanceToWire) },
    { method: 'GET', pattern: new RegExp(`^/spot/balance/${SEG}$`), scope: 'other', right: 'orderbook',
      handle: (c) => {
        const currency = c.params[0] ?? '';
        const found = venue.spotBalances(accountOf(c)).find((b) => b.currency === currency);
        return tradingBalanceToWire(found ?? zeroBalance(currency, true));
      } },
    { method: 'GET', pattern: /^\/spot\/order$/, scope: 'other', right: 'trading',
      handle: (c) => futures.exclude(venue.openOrders(accountOf(c), optText(c.query, 'symbol'))).map(orderToWire) },
    { method: 'GET', pattern: new RegExp(`^/spot/order/${SEG}$`), scope: 'other', right: 'trading',
      handle: (c) => orderToWire(spotOrder(accountOf(c), c.params[0] ?? '')) },
    { method: 'POST', pattern: /^\/spot\/order$/, scope: 'trading', right: 'trading',
      handle: (c) => {
        const request = newOrderRequest(c.body);
        if (futures.has(request.symbol)) throw new VenueRejection(ErrorCode.SymbolNotFound, `spot symbol ${request.symbol} not found`);
        return orderToWire(venue.placeOrder(accountOf(c), request));
      } },
    { method: 'POST', pattern: /^\/spot\/order\/list$/, scope: 'trading', right: 'trading',
      handle: (c) => venue.placeOrderList(accountOf(c), orderListRequest(c.body)).map(orderToWire) },
    { method: 'PATCH', pattern: new RegExp(`^/spot/order/${SEG}$`), scope: 'trading', right: 'trading',
      handle: (c) => {
        spotOrder(accountOf(c), c.params[0] ?? '');
        return orderToWire(venue.replaceOrder(accountOf(c), replaceOrderRequest(c.params[0] ?? '', c.body)));
      } },
    { method: 'DELETE', pattern: /^\/spot\/order$/, scope: 'trading', right: 'trading',
      handle: (c) => {
        const symbol = optText(c.query, 'symbol') ?? optText(c.body, 'symbol');
        if (symbol !== undefined && futures.has(symbol)) throw new VenueRejection(ErrorCode.SymbolNotFound, `spot symbol ${symbol} not found`);
        return futures.cancelAll(venue, accountOf(c), false, symbol).map(orderToWire);
      } },
    { method: 'DELETE', pattern: new RegExp(`^/spot/order/${SEG}$`), scope: 'trading', right: 'trading',
      handle: (c) => {
        spotOrder(accountOf(c), c.params[0] ?? '');
        return orderToWire(venue.cancelOrder(accountOf(c), c.params[0] ?? ''));
      } },
    { method: 'GET', pattern: /^\/spot\/fee$/, scope: 'other', right: 'trading',
      handle: (c) => market.symbolCodes.filter((s) => market.symbols[s]).map((s) => feeWire(venue, accountOf(c), s)) },
    { method: 'GET', pattern: new RegExp(`^/spot/fee/${SEG}$`), scope: 'other', right: 'trading',
      handle: (c) => {
        const symbol = c.params[0] ?? '';
        if (!market.symbols[symbol]) throw new VenueRejection(ErrorCode.SymbolNotFound, symbol);
        return feeWire(venue, accountOf(c), symbol);
      } },
    { method: 'GET', pattern: /^\/spot\/history\/order$/, scope: 'other', right: 'orderbook',
      handle: (c) => orderHistory(futures.exclude(venue.orderHistory(accountOf(c))), c.query) },
    { method: 'GET', pattern: /^\/spot\/history\/trade$/, scope: 'other', right: 'orderbook',
      handle: (c) => tradeHistory(venue.tradeHistory(accountOf(c)).filter((t) => !futures.has(t.symbol)), c.query) },
    { method: 'GET', pattern: /^\/wallet\/balance$/, scope: 'other', right: 'payment',
      handle: (c) => venue.walletBalances(accountOf(c)).map(walletBalanceToWire) },
    { method: 'GET', pattern: new RegExp(`^/wallet/balance/${SEG}$`), scope: 'other', right: 'payment',
      handle: (c) => {
        const currency = c.params[0] ?? '';
        const found = venue.walletBalances(accountOf(c)).find((b) => b.currency === currency);
        return walletBalanceToWire(found ?? zeroBalance(currency, false));
      } },
    { method: 'POST', pattern: /^\/wallet\/transfer$/, scope: 'other', right: 'payment',
      handle: (c) => {
        const request = transferRequest(c.body);
        const id = venue.transfer(accountOf(c), request);
        transactions.recordTransfer(accountOf(c), id, request, venue.now());
        return { id };
      } },
    { method: 'GET', pattern: /^\/wallet\/transactions$/, scope: 'other', right: 'payment',
      handle: (c) => queryTransactions(transactions.list(accountOf(c)), c.query) },
    { method: 'GET', pattern: new RegExp(`^/wallet/transactions/${SEG}$`), scope: 'other', right: 'payment',
      handle: (c) => {
        const txId = c.params[0] ?? '';
        const found = transactions.list(accountOf(c)).find((tx) => (tx['native'] as { tx_id?: string } | undefined)?.tx_id === txId);
        if (found === undefined) throw new VenueRejection(ErrorCode.ResourceNotFound, `no transaction ${txId}`);
        return found;
      } },
  ];
}

function zeroBalance(currency: string, spot: boolean) {
  const zero = { currency, available: new Decimal(0), reserved: new Decimal(0) };
  return spot ? { ...zero, reserved_margin: new Decimal(0) } : zero;
}

function feeWire(venue: Venue, account: string, symbol: string): Record<string, unknown> {
  const { take_rate, make_rate } = venue.feeRate(account, symbol);
  return feeRateToWire({ symbol, take_rate, make_rate });
}

function symbolFilter(query: Params): ((symbol: string) => boolean) {
  const text = optText(query, 'symbol');
  if (text === undefined) return () => true;
  const wanted = new Set(text.split(','));
  return (s) => wanted.has(s);
}

/** `sort`, `limit` and `offset` of a history query (document 001 bounds). */
export function paging(query: Params): { sort: 'ASC' | 'DESC'; limit: number; offset: number } {
  const sort = optText(query, 'sort') ?? 'DESC';
  if (sort !== 'ASC' && sort !== 'DESC') throw invalid('sort', 'must be ASC or DESC');
  return { sort, limit: optInt(query, 'limit', 1000) ?? 100, offset: optInt(query, 'offset', 100_000) ?? 0 };
}

/** Order history: newest first from the venue; `client_order_id` overrides every other filter. */
export function orderHistory(orders: readonly Order[], query: Params): Record<string, unknown>[] {
  const id = optText(query, 'client_order_id');
  if (id !== undefined) return orders.filter((o) => o.client_order_id === id).map(orderToWire);
  const { sort, limit, offset } = paging(query);
  const wanted = symbolFilter(query);
  const range = timeRange(query);
  let list = orders.filter((o) => wanted(o.symbol));
  if (range !== undefined) {
    // By creation time: an order changing while a client pages keeps its place.
    list = list.filter((o) => range(o.created_at)).sort((a, b) => b.created_at - a.created_at || Number(b.id) - Number(a.id));
  }
  if (sort === 'ASC') list = [...list].reverse();
  return list.slice(offset, offset + limit).map(orderToWire);
}

/** Trade history: newest first from the venue, filtered and paged as the query says. */
export function tradeHistory(trades: readonly TradeHistoryRecord[], query: Params): Record<string, unknown>[] {
  const { sort, limit, offset } = paging(query);
  const wanted = symbolFilter(query);
  const orderId = optText(query, 'order_id');
  const range = timeRange(query) ?? (() => true);
  let list = trades.filter((t) => wanted(t.symbol) && (orderId === undefined || t.order_id === orderId) && range(t.timestamp));
  if (sort === 'ASC') list = [...list].reverse();
  return list.slice(offset, offset + limit).map(tradeToWire);
}

/** `by=timestamp` with `from`/`till` (inclusive DateTimes): the filter on a record's time; undefined otherwise. */
function timeRange(query: Params): ((time: number) => boolean) | undefined {
  if (optText(query, 'by') !== 'timestamp') return undefined;
  const from = optTime(query, 'from') ?? 0;
  const till = optTime(query, 'till') ?? Number.MAX_SAFE_INTEGER;
  return (time) => time >= from && time <= till;
}

/** Wire form of a trade history record. */
export function tradeToWire(t: TradeHistoryRecord): Record<string, unknown> {
  return wireRecord({
    ...t,
    id: idToWire(t.id),
    order_id: idToWire(t.order_id),
    timestamp: msToIso(t.timestamp),
    position_id: t.position_id === undefined ? undefined : idToWire(t.position_id),
  });
}
