import { tradingBalanceToWire, walletBalanceToWire } from '../../framework/model/resources/balance.js';
import { feeRateToWire } from '../../framework/model/resources/fee.js';
import type { Order } from '../../framework/model/resources/order.js';
import { orderReportToWire, type ReportType } from '../../framework/model/stream/order-report.js';
import { Decimal } from '../../framework/model/decimal.js';
import { ErrorCode } from '../../framework/exchange/errors.js';
import { VenueRejection, type Venue } from '../venue/venue-types.js';
import { FuturesScope } from './futures-scope.js';
import type { MarketState } from './market-state.js';
import { newOrderRequest, orderListRequest, reqText, replaceOrderRequest } from './request-params.js';
import type { StreamClient, StreamMethod } from './rpc-stream.js';
import type { TransactionLog } from './transaction-log.js';
import { send } from './ws-protocol.js';

/** The `spot_subscribe` subscription key (order reports). */
export const ORDERS_SUBSCRIPTION = 'spot_subscribe';
/** The `spot_balance_subscribe` subscription key. */
export const SPOT_BALANCE_SUBSCRIPTION = 'spot_balance_subscribe';
/** The `subscribe_wallet_balances` subscription key. */
export const WALLET_BALANCE_SUBSCRIPTION = 'subscribe_wallet_balances';
/** The `subscribe_transactions` subscription key. */
export const TRANSACTIONS_SUBSCRIPTION = 'subscribe_transactions';

/** An order as a trading-stream report of `type`. */
export function reportWire(order: Order, type: ReportType): Record<string, unknown> {
  const { trades: _trades, ...rest } = order;
  return orderReportToWire({ ...rest, report_type: type });
}

/** The account of a logged-in stream client (1001 before login). */
export function account(client: StreamClient): string {
  if (client.key === undefined) throw new VenueRejection(ErrorCode.AuthorizationRequired, 'login first');
  return client.key.account;
}

/** A method that adds the `name` subscription, then sends `snapshot` after the acknowledgement. */
export const subscribe = (name: string, snapshot?: (client: StreamClient) => void): StreamMethod['handle'] => (client) => {
  client.subscriptions.add(name);
  return { result: true, after: snapshot === undefined ? undefined : () => snapshot(client) };
};
/** A method that drops the `name` subscription. */
export const unsubscribe = (name: string): StreamMethod['handle'] => (client) => {
  client.subscriptions.delete(name);
  return { result: true };
};

/** `/api/3/ws/trading` spot methods (exchange-notes.md), over the venue. */
export function tradingMethods(venue: Venue, market: MarketState): Record<string, StreamMethod> {
  // The spot methods see no futures contract nor order: those are the futures_ methods'.
  const futures = new FuturesScope(market);
  const active = (client: StreamClient) => futures.exclude(venue.openOrders(account(client))).map((o) => reportWire(o, 'status'));
  const fee = (client: StreamClient, symbol: string) => feeRateToWire({ symbol, ...venue.feeRate(account(client), symbol) });
  const methods: Record<string, StreamMethod> = {
    spot_subscribe: {
      right: 'trading',
      handle: subscribe(ORDERS_SUBSCRIPTION, (client) => send(client.socket, {
        jsonrpc: '2.0', method: 'spot_orders', params: active(client),
      })),
    },
    spot_unsubscribe: { right: 'trading', handle: unsubscribe(ORDERS_SUBSCRIPTION) },
    spot_get_orders: { right: 'trading', handle: (c) => ({ result: active(c) }) },
    spot_new_order: { right: 'trading', handle: (c, p) => ({ result: reportWire(venue.placeOrder(account(c), newOrderRequest(p)), 'new') }) },
    spot_new_order_list: {
      right: 'trading',
      handle: (c, p) => ({ result: venue.placeOrderList(account(c), orderListRequest(p)).map((o) => reportWire(o, 'new')) }),
    },
    spot_cancel_order: {
      right: 'trading',
      handle: (c, p) => ({ result: reportWire(venue.cancelOrder(account(c), reqText(p, 'client_order_id')), 'canceled') }),
    },
    spot_cancel_orders: {
      right: 'trading',
      handle: (c) => ({ result: futures.cancelAll(venue, account(c), false).map((o) => reportWire(o, 'canceled')) }),
    },
    spot_replace_order: {
      right: 'trading',
      handle: (c, p) => ({ result: reportWire(venue.replaceOrder(account(c), replaceOrderRequest(reqText(p, 'client_order_id'), p)), 'replaced') }),
    },
    spot_balance_subscribe: {
      right: 'orderbook',
      handle: subscribe(SPOT_BALANCE_SUBSCRIPTION, (client) => send(client.socket, {
        jsonrpc: '2.0', method: 'spot_balance', params: venue.spotBalances(account(client)).map(tradingBalanceToWire),
      })),
    },
    spot_balance_unsubscribe: { right: 'orderbook', handle: unsubscribe(SPOT_BALANCE_SUBSCRIPTION) },
    spot_balances: { right: 'orderbook', handle: (c) => ({ result: venue.spotBalances(account(c)).map(tradingBalanceToWire) }) },
    spot_balance: {
      right: 'orderbook',
      handle: (c, p) => {
        const currency = reqText(p, 'currency');
        const found = venue.spotBalances(account(c)).find((b) => b.currency === currency);
        const zero = new Decimal(0);
        return { result: tradingBalanceToWire(found ?? { currency, available: zero, reserved: zero, reserved_margin: zero }) };
      },
    },
    spot_fees: { right: 'trading', handle: (c) => ({ result: Object.keys(market.symbols).sort().map((s) => fee(c, s)) }) },
    spot_fee: {
      right: 'trading',
      handle: (c, p) => {
        const symbol = reqText(p, 'symbol');
        if (!market.symbols[symbol]) throw new VenueRejection(ErrorCode.SymbolNotFound, symbol);
        return { result: fee(c, symbol) };
      },
    },
  };
  return methods;
}

/** `/api/3/ws/wallet` methods, over the venue and the transaction log. */
export function walletMethods(venue: Venue, transactions: TransactionLog): Record<string, StreamMethod> {
  const balances = (c: StreamClient) => venue.walletBalances(account(c)).map(walletBalanceToWire);
  return {
    subscribe_wallet_balances: {
      right: 'payment',
      handle: subscribe(WALLET_BALANCE_SUBSCRIPTION, (client) => send(client.socket, {
        jsonrpc: '2.0', method: 'wallet_balances', params: balances(client),
      })),
    },
    unsubscribe_wallet_balances: { right: 'payment', handle: unsubscribe(WALLET_BALANCE_SUBSCRIPTION) },
    wallet_balances: { right: 'payment', handle: (c) => ({ result: balances(c) }) },
    wallet_balance: {
      right: 'payment',
      handle: (c, p) => {
        const currency = reqText(p, 'currency');
        const found = venue.walletBalances(account(c)).find((b) => b.currency === currency);
        return { result: found ? walletBalanceToWire(found) : { currency, available: '0', reserved: '0' } };
      },
    },
    subscribe_transactions: { right: 'payment', handle: subscribe(TRANSACTIONS_SUBSCRIPTION) },
    unsubscribe_transactions: { right: 'payment', handle: unsubscribe(TRANSACTIONS_SUBSCRIPTION) },
    get_transactions: { right: 'payment', handle: (c) => ({ result: transactions.list(account(c)) }) },
  };
}
