import { Observable, filter, map, type Subscription } from 'rxjs';
import { ConnectionStateError } from '../exchange/errors.js';
import type { NewOrderParams } from '../exchange/rest/endpoints/order-params.js';
import { isNotFound } from '../exchange/rest/endpoints/trading-requests.js';
import type { RestClient } from '../exchange/rest/rest-client.js';
import type { TradingAccountApi } from '../exchange/ws/trading-account-api.js';
import type { TradingSession } from '../exchange/ws/trading-session.js';
import { ZERO, type Decimal } from '../model/decimal.js';
import type { FuturesPositionConfig } from '../model/resources/futures-config.js';
import type { MarginAccount } from '../model/resources/margin-account.js';
import { inMicrotask } from '../time/microtask.js';
import { marginAccountEndpoints, type AccountEndpoints } from './margin-account-endpoints.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { TradeHistoryRecord } from '../model/resources/trade-history.js';
import type { Order } from '../model/resources/order.js';
import type { OrderReport } from '../model/stream/order-report.js';
import type {
  HistoryBatch, HistoryPage, HistoryRange, VenueOrderListRequest, VenueOrderRequest, VenuePort, VenueReplaceRequest,
} from './venue-port.js';

/** Largest page of the history endpoints (document 001: limit max 1000). */
const HISTORY_PAGE = 1000;
/** Pages one history read may spend (each one request of the 20/s budget); past it the read says incomplete. */
const HISTORY_PAGES = 10;

/** The clients a {@link ClientVenuePort} drives (live exchange or sandbox: only the URLs differ). */
export interface ClientVenuePortOptions {
  readonly session: TradingSession;
  readonly rest: RestClient;
  /**
   * The account traded: spot (the default), margin (the isolated margin accounts of spot symbols)
   * or futures (isolated futures accounts, contracts only).
   */
  readonly account?: 'spot' | 'margin' | 'futures';
}

/** The isolated-account calls the margin and futures sections share. */
interface IsolatedAccountEndpoints {
  getAccounts(): Promise<MarginAccount[]>;
  getAccount(symbol: string): Promise<MarginAccount>;
  updateAccount(symbol: string, params: { readonly margin_balance: string; readonly leverage?: string }): Promise<MarginAccount>;
}

/**
 * One account (spot or futures) of a real API v3 endpoint through the framework's clients. Orders go over the
 * trading WebSocket while it is logged in, and over REST while it is down (a request the stream
 * could not even send falls back to REST too; one that was sent and lost is NOT repeated here: its
 * outcome is unknown and the adapter looks it up first). Lookups by client_order_id use REST,
 * which alone can search history. Reports and balances come from the stream; `reconnected$` fires
 * when the order-report subscription has been restored after a reconnect. A margin or futures port
 * also reads the isolated accounts and sets their leverage, a futures port the contracts' position
 * configurations too (the risk limit's terms).
 */
export class ClientVenuePort implements VenuePort {
  readonly account: 'spot' | 'margin' | 'futures';
  readonly orderReports$: Observable<OrderReport>;
  readonly balances$: Observable<readonly TradingBalance[]>;
  readonly reconnected$: Observable<number>;
  private readonly session: TradingSession;
  private readonly rest: RestClient;
  private readonly stream: TradingAccountApi;
  private readonly endpoints: AccountEndpoints;
  private readonly owned: Subscription[] = [];
  private streamUp = false;
  /** Requests held until {@link flush} or the end of the code running now (see {@link soon}). */
  private readonly outgoing: (() => void)[] = [];

  constructor(options: ClientVenuePortOptions) {
    this.session = options.session;
    this.rest = options.rest;
    const account = options.account ?? 'spot';
    this.account = account;
    this.stream = options.session[account];
    this.endpoints = account === 'futures' ? options.rest.futures : account === 'margin' ? marginAccountEndpoints(options.rest) : options.rest.spot;
    if (account !== 'spot') {
      const isolated: IsolatedAccountEndpoints = options.rest[account];
      this.marginAccounts = (symbols) => isolatedAccounts(isolated, symbols);
      this.setLeverage = (symbol, leverage) => setIsolatedLeverage(isolated, symbol, leverage);
    }
    if (account === 'futures') this.futuresConfigs = () => options.rest.futures.getConfig();
    // Every order report and balance passes here: one plain subscriber each, not filter + mergeMap hops.
    const session = this.session;
    this.orderReports$ = new Observable<OrderReport>((subscriber) => session.orderReports$.subscribe({
      next: (n) => {
        if (n.account === account) for (const report of n.reports) subscriber.next(report);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    }));
    this.balances$ = new Observable<readonly TradingBalance[]>((subscriber) => session.balances$.subscribe({
      next: (n) => {
        if (n.account === account) subscriber.next(n.balances);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    }));
    let reconnects = 0;
    this.reconnected$ = this.session.resubscribed$.pipe(filter((r) => r.ch === `${account}_subscribe`), map(() => ++reconnects));
    this.owned.push(this.session.events$.subscribe((event) => {
      if (event.kind === 'logged-in') this.streamUp = true;
      else if (event.kind === 'disconnected' || event.kind === 'login-failed') this.streamUp = false;
    }));
  }

  readonly marginAccounts?: (symbols: readonly string[]) => Promise<MarginAccount[]>;
  readonly futuresConfigs?: () => Promise<FuturesPositionConfig[]>;
  readonly setLeverage?: (symbol: string, leverage: Decimal) => Promise<MarginAccount>;

  /** Connects, logs in and subscribes to order reports and balances. */
  async start(timeoutMs?: number): Promise<void> {
    await this.session.start(timeoutMs);
    await this.stream.subscribe();
    await this.stream.balanceSubscribe();
    this.streamUp = true;
  }

  /** Stops watching the session (the caller owns and closes the session and the REST transport). */
  close(): void {
    for (const subscription of this.owned.splice(0)) subscription.unsubscribe();
  }

  async orderHistoryPage(offset: number): Promise<HistoryPage<Order>> {
    // By id (the default), newest first: creation order, which later changes of an order do not move.
    // The futures history has no sort parameter: newest first is its only order.
    const items = await this.endpoints.getOrderHistory({ sort: this.account === 'futures' ? undefined : 'DESC', limit: HISTORY_PAGE, offset });
    return { items, last: items.length < HISTORY_PAGE };
  }

  tradeHistory(range: HistoryRange): Promise<HistoryBatch<TradeHistoryRecord>> {
    return readPages((offset) => this.endpoints.getTradeHistory({
      by: 'timestamp', sort: 'ASC', from: new Date(range.from), till: range.till === undefined ? undefined : new Date(range.till),
      limit: HISTORY_PAGE, offset,
    }));
  }

  async orderTrades(order: Order): Promise<TradeHistoryRecord[]> {
    return this.endpoints.getTradeHistory({ order_id: order.id, limit: 1000 });
  }

  placeOrder(order: VenueOrderRequest): Promise<Order> {
    const params = orderParams(order);
    return this.route(() => this.stream.newOrder(params), () => this.endpoints.createOrder(params));
  }

  placeOrderList(list: VenueOrderListRequest): Promise<Order[]> {
    const params = { order_list_id: list.order_list_id, contingency_type: list.contingency_type, orders: list.orders.map(orderParams) };
    return this.route(() => this.stream.newOrderList(params), () => this.endpoints.createOrderList(params));
  }

  replaceOrder(clientOrderId: string, change: VenueReplaceRequest): Promise<Order> {
    const params = { new_client_order_id: change.new_client_order_id, quantity: change.quantity, price: change.price };
    return this.route(
      () => this.stream.replaceOrder({ client_order_id: clientOrderId, ...params }),
      () => this.endpoints.replaceOrder(clientOrderId, params),
    );
  }

  cancelOrder(clientOrderId: string): Promise<Order> {
    return this.route(() => this.stream.cancelOrder(clientOrderId), () => this.endpoints.cancelOrder(clientOrderId));
  }

  cancelAll(symbol?: string): Promise<Order[]> {
    // The stream's cancel-all has no symbol filter.
    if (symbol !== undefined) return this.soon(() => this.endpoints.cancelOrders({ symbol }));
    return this.route(() => this.stream.cancelOrders(), () => this.endpoints.cancelOrders());
  }

  async findOrder(clientOrderId: string): Promise<Order | undefined> {
    try {
      return await this.endpoints.getActiveOrder(clientOrderId);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    const history = await this.endpoints.getOrderHistory({ client_order_id: clientOrderId });
    return history.find((order) => order.client_order_id === clientOrderId);
  }

  async openOrders(symbol?: string): Promise<Order[]> {
    const orders = await this.route(() => this.stream.getOrders(), () => this.endpoints.getActiveOrders());
    return symbol === undefined ? orders : orders.filter((order) => order.symbol === symbol);
  }

  balances(): Promise<TradingBalance[]> {
    return this.route(() => this.stream.balances(), () => this.endpoints.getBalances());
  }

  /**
   * The stream when it is up (decided when the request leaves); REST when it is down or could not
   * send the request at all. Whatever throws ends as a rejection.
   */
  private route<T>(viaStream: () => Promise<T>, viaRest: () => Promise<T>): Promise<T> {
    return this.soon(() => {
      if (!this.streamUp) return attempt(viaRest);
      return attempt(viaStream).catch((error: unknown) => (notSent(error) ? viaRest() : Promise.reject(error)));
    });
  }

  /**
   * Holds `request` until {@link flush}, or at the latest a microtask after the code running now, in
   * call order with every other request: serialising a request and arming its timeout cost tens of
   * microseconds, which a strategy handler's later intents must not wait for. Requests still leave
   * in this turn.
   */
  private soon<T>(request: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.outgoing.push(() => attempt(request).then(resolve, reject));
      // A flush may come first: the microtask then finds nothing, or the requests held since.
      if (this.outgoing.length === 1) inMicrotask(this.sendOutgoing);
    });
  }

  flush(): void {
    this.sendOutgoing();
  }

  /** Sends the held requests, oldest first. */
  private readonly sendOutgoing = (): void => {
    const outgoing = this.outgoing;
    for (let i = 0; i < outgoing.length; i++) (outgoing[i] as () => void)();
    outgoing.length = 0;
  };
}

/**
 * Sets the leverage of a symbol's isolated (futures or margin) account. The exchange's PUT takes
 * the account's margin balance with it (required): the account's own, read first, so no margin
 * moves. The account reports its margin balance with the position's unrealized PnL in it, and the
 * PUT sets the margin without it (as the simulated venue does; the spec does not say), so that PnL
 * is taken out first.
 */
async function setIsolatedLeverage(rest: IsolatedAccountEndpoints, symbol: string, leverage: Decimal): Promise<MarginAccount> {
  const account = await rest.getAccount(symbol);
  const balance = account.currencies[0]?.margin_balance;
  const unrealized = (account.positions ?? []).reduce((sum, p) => (p.pnl === undefined ? sum : sum.plus(p.pnl)), ZERO);
  const margin = balance === undefined ? '0' : balance.minus(unrealized).toFixed();
  return rest.updateAccount(symbol, { margin_balance: margin, leverage: leverage.toFixed() });
}

/**
 * The isolated accounts of `symbols`: one read lists those the exchange lists (holding a position,
 * or on margin funds); each other symbol is read on its own (its leverage applies to the next order
 * even while it is flat).
 */
async function isolatedAccounts(rest: IsolatedAccountEndpoints, symbols: readonly string[]): Promise<MarginAccount[]> {
  const open = await rest.getAccounts();
  const found = new Set(open.map((a) => a.symbol));
  const flat = await Promise.all(symbols.filter((s) => !found.has(s)).map((s) => rest.getAccount(s)));
  return [...open.filter((a) => symbols.includes(a.symbol)), ...flat];
}

/** `run()`, with a synchronous throw turned into a rejection as an `async` function would. */
function attempt<T>(run: () => Promise<T>): Promise<T> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Reads a history oldest first, page after page, until a short page (the range is exhausted) or
 * the page budget is spent. Records appended while paging land after the offsets already read.
 */
async function readPages<T>(page: (offset: number) => Promise<T[]>): Promise<HistoryBatch<T>> {
  const items: T[] = [];
  for (let n = 0; n < HISTORY_PAGES; n++) {
    const records = await page(n * HISTORY_PAGE);
    items.push(...records);
    if (records.length < HISTORY_PAGE) return { items, complete: true };
  }
  return { items, complete: false };
}

/** A failure that proves the request never left: safe to send it another way. */
function notSent(error: unknown): boolean {
  if (!(error instanceof ConnectionStateError)) return false;
  return !('outcomeUnknown' in error && error.outcomeUnknown === true);
}

function orderParams(order: VenueOrderRequest): NewOrderParams & { reduce_only?: boolean } {
  return {
    client_order_id: order.client_order_id, symbol: order.symbol, side: order.side, type: order.type, time_in_force: order.time_in_force,
    quantity: order.quantity, price: order.price, stop_price: order.stop_price, expire_time: order.expire_time, post_only: order.post_only,
    reduce_only: order.reduce_only,
  };
}
