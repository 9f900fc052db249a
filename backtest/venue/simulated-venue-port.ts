import { NEVER, Subject, type Observable } from 'rxjs';
import { ErrorCode, ExchangeError } from '../../framework/exchange/errors.js';
import { toWire, type Decimal } from '../../framework/model/decimal.js';
import type { TradingBalance } from '../../framework/model/resources/balance.js';
import type { Order } from '../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';
import type { OrderReport } from '../../framework/model/stream/order-report.js';
import type {
  HistoryBatch, HistoryPage, HistoryRange, VenueOrderListRequest, VenueOrderRequest, VenuePort, VenueReplaceRequest,
} from '../../framework/execution/venue-port.js';
import type { AccountId, NewOrderRequest, Venue, VenueEvent } from './venue-types.js';
import { VenueRejection } from './venue-types.js';
import type { FuturesPositionConfig } from '../../framework/model/resources/futures-config.js';
import type { MarginAccount } from '../../framework/model/resources/margin-account.js';
import { positionConfigOf } from './futures/futures-terms.js';
import { liquidationOrderReport } from './futures/liquidation-order-report.js';
import type { SimulatedFuturesVenue } from './futures/simulated-futures-venue.js';
import type { SimulatedMarginVenue } from './margin/simulated-margin-venue.js';

/** The order calls of one section of the venue: the venue itself (spot, futures) or its margin side. */
type OrderSection = Pick<Venue, 'placeOrder' | 'replaceOrder' | 'cancelOrder' | 'cancelAll' | 'openOrders' | 'orderHistory' | 'tradeHistory'>;

/** Orders per page of {@link SimulatedVenuePort.orderHistoryPage}, as the exchange's largest page. */
const HISTORY_PAGE = 1000;

/**
 * One account of the in-process simulated venue (backtest). Venue calls are synchronous: the `...Now`
 * methods answer at once (the backtest's gateway schedules them in virtual time), the VenuePort
 * methods wrap them in promises; a refusal becomes the ExchangeError a real exchange would answer. The
 * venue emits its reports and balance changes during the call, before the answer resolves (the
 * adapter tracks an order before sending it, so that order is harmless). There is no connection,
 * so `reconnected$` never fires and no outcome is ever unknown.
 *
 * The composition root routes the venue's listener into {@link onVenueEvent}.
 */
export class SimulatedVenuePort implements VenuePort {
  private readonly reportSubject = new Subject<OrderReport>();
  private readonly balanceSubject = new Subject<readonly TradingBalance[]>();
  readonly orderReports$: Observable<OrderReport> = this.reportSubject.asObservable();
  readonly balances$: Observable<readonly TradingBalance[]> = this.balanceSubject.asObservable();
  readonly reconnected$: Observable<number> = NEVER;
  private venue: Venue | undefined;
  private futures: SimulatedFuturesVenue | undefined;
  private margin: SimulatedMarginVenue | undefined;
  /** The last replace quantity and its wire text: a quoting strategy resends the same size (Decimals are immutable). */
  private lastQuantity: { readonly value: Decimal; readonly text: string } | undefined;
  private readonly priceTexts = new WeakMap<Decimal, string>();

  /** Margin and futures ports read the isolated accounts and set their leverage; futures ports read the contracts' position configurations. */
  readonly marginAccounts?: (symbols: readonly string[]) => Promise<MarginAccount[]>;
  readonly futuresConfigs?: () => Promise<FuturesPositionConfig[]>;
  readonly setLeverage?: (symbol: string, leverage: Decimal) => Promise<MarginAccount>;

  /**
   * `account` is the section traded: spot symbols on a spot port, the isolated margin accounts of
   * spot symbols on a margin port, futures contracts on a futures port (the venue keeps all under
   * one account id, as the exchange does under one API key).
   */
  constructor(readonly accountId: AccountId, readonly account: 'spot' | 'margin' | 'futures' = 'spot') {
    if (account !== 'spot') {
      this.marginAccounts = (symbols) => this.call(() => this.marginAccountsNow(symbols)!);
      this.setLeverage = (symbol, leverage) => this.call(() => this.invoke(() => this.positionVenue().setLeverage(this.accountId, symbol, leverage.toFixed())));
    }
    if (account === 'futures') this.futuresConfigs = () => this.call(() => [...this.futuresVenue().terms().values()].map(positionConfigOf));
  }

  /** Connects the venue (built after this port, because the venue takes the listener at construction). */
  attach(venue: Venue & { readonly futures?: SimulatedFuturesVenue; readonly margin?: SimulatedMarginVenue }): void {
    this.venue = venue;
    this.futures = venue.futures;
    this.margin = venue.margin;
  }

  /**
   * The venue's listener: this account's order reports and balances of this port's section go to
   * the streams; a liquidation of this account's positions goes out as the order report the
   * exchange's trading stream sends for it ({@link liquidationOrderReport}).
   */
  onVenueEvent(event: VenueEvent): void {
    if (event.account !== this.accountId) return;
    if (event.kind === 'order') {
      if ((event.margin === true) === (this.account === 'margin') && this.trades(event.report.symbol)) this.reportSubject.next(event.report);
    } else if (event.kind === 'liquidation') {
      if ((event.margin === true) === (this.account === 'margin') && this.trades(event.liquidation.symbol)) this.reportSubject.next(liquidationOrderReport(event.liquidation));
    } else if (event.kind === (this.account === 'spot' ? 'balance' : this.account)) {
      this.balanceSubject.next((event as { readonly balances: readonly TradingBalance[] }).balances);
    }
  }

  /**
   * Whether a symbol belongs to this port's section (a futures contract on a futures port, anything
   * else on spot and margin: the venue itself keeps margin orders apart from spot ones).
   */
  private trades(symbol: string): boolean {
    const contract = this.futures?.terms().has(symbol) === true;
    return this.account === 'futures' ? contract : !contract;
  }

  /** The venue's order calls of this port's section. */
  private section(venue: Venue): OrderSection {
    return this.account === 'margin' ? this.marginVenue() : venue;
  }

  private marginVenue(): SimulatedMarginVenue {
    if (this.margin === undefined) throw new Error('SimulatedVenuePort: attach a venue with margin accounts first');
    return this.margin;
  }

  /** The isolated accounts' side of the venue this port trades (margin or futures). */
  private positionVenue(): SimulatedMarginVenue | SimulatedFuturesVenue {
    return this.account === 'margin' ? this.marginVenue() : this.futuresVenue();
  }

  private futuresVenue(): SimulatedFuturesVenue {
    if (this.futures === undefined) throw new Error('SimulatedVenuePort: attach a venue with futures accounts first');
    return this.futures;
  }

  placeOrder(order: VenueOrderRequest): Promise<Order> {
    return this.call(() => this.placeOrderNow(order));
  }

  placeOrderList(list: VenueOrderListRequest): Promise<Order[]> {
    return this.call(() => this.placeOrderListNow(list));
  }

  replaceOrder(clientOrderId: string, change: VenueReplaceRequest): Promise<Order> {
    return this.call(() => this.replaceOrderNow(clientOrderId, change));
  }

  cancelOrder(clientOrderId: string): Promise<Order> {
    return this.call(() => this.cancelOrderNow(clientOrderId));
  }

  cancelAll(symbol?: string): Promise<Order[]> {
    return this.call(() => this.invoke((v) => this.section(v).cancelAll(this.accountId, symbol)));
  }

  findOrder(clientOrderId: string): Promise<Order | undefined> {
    return this.call(() => this.findOrderNow(clientOrderId));
  }

  openOrders(symbol?: string): Promise<Order[]> {
    return this.call(() => this.invoke((v) => this.section(v).openOrders(this.accountId, symbol).filter((o) => this.trades(o.symbol))));
  }

  orderTrades(order: Order): Promise<TradeHistoryRecord[]> {
    return this.call(() => this.orderTradesNow(order));
  }

  /** {@link placeOrder}, answered at once (a refusal is thrown as the exchange's ExchangeError). */
  placeOrderNow(order: VenueOrderRequest): Order {
    return this.invoke((v) => this.section(v).placeOrder(this.accountId, wireOrder(order)));
  }

  /** {@link placeOrderList}, answered at once. */
  placeOrderListNow(list: VenueOrderListRequest): Order[] {
    const request = { order_list_id: list.order_list_id, contingency_type: list.contingency_type, orders: list.orders.map(wireOrder) };
    return this.invoke((v) => {
      // The spec shows no margin order list, and the venue offers none.
      if (this.account === 'margin') throw new VenueRejection(ErrorCode.ValidationError, 'order lists are not offered on margin accounts');
      return v.placeOrderList(this.accountId, request);
    });
  }

  /** {@link replaceOrder}, answered at once. */
  replaceOrderNow(clientOrderId: string, change: VenueReplaceRequest): Order {
    return this.invoke((v) => this.section(v).replaceOrder(this.accountId, {
      client_order_id: clientOrderId, new_client_order_id: change.new_client_order_id, quantity: this.quantityText(change.quantity),
      price: change.price === undefined ? undefined : this.priceText(change.price),
    }));
  }

  /** {@link cancelOrder}, answered at once. */
  cancelOrderNow(clientOrderId: string): Order {
    return this.invoke((v) => this.section(v).cancelOrder(this.accountId, clientOrderId));
  }

  /** {@link findOrder}, answered at once. */
  findOrderNow(clientOrderId: string): Order | undefined {
    return this.invoke((v) => {
      const section = this.section(v);
      const found = section.openOrders(this.accountId).find((o) => o.client_order_id === clientOrderId)
        ?? section.orderHistory(this.accountId).find((o) => o.client_order_id === clientOrderId);
      return found !== undefined && this.trades(found.symbol) ? found : undefined;
    });
  }

  /** The isolated accounts of `symbols` on a margin or futures port, answered at once; undefined on a spot port. */
  marginAccountsNow(symbols: readonly string[]): MarginAccount[] | undefined {
    if (this.account === 'spot') return undefined;
    const section = this.positionVenue();
    return this.invoke(() => symbols.map((symbol) => section.account(this.accountId, symbol)));
  }

  /** {@link orderTrades}, answered at once. */
  orderTradesNow(order: Order): TradeHistoryRecord[] {
    return this.invoke((v) => this.section(v).tradeHistory(this.accountId).filter((t) => t.client_order_id === order.client_order_id));
  }

  orderHistoryPage(offset: number): Promise<HistoryPage<Order>> {
    return this.call(() => this.invoke((v) => {
      const all = this.section(v).orderHistory(this.accountId).filter((o) => this.trades(o.symbol));
      return { items: all.slice(offset, offset + HISTORY_PAGE), last: offset + HISTORY_PAGE >= all.length };
    }));
  }

  tradeHistory(range: HistoryRange): Promise<HistoryBatch<TradeHistoryRecord>> {
    return this.call(() => this.invoke((v) => ({ items: this.section(v).tradeHistory(this.accountId).filter((t) => inRange(t.timestamp, range) && this.trades(t.symbol)), complete: true })));
  }

  balances(): Promise<TradingBalance[]> {
    if (this.account !== 'spot') return this.call(() => this.positionVenue().balances(this.accountId));
    return this.call(() => this.invoke((v) => v.spotBalances(this.accountId)));
  }

  /** Wire text of a replace's price, remembered per Decimal (a strategy's quotes reuse one Decimal per price). */
  private priceText(value: Decimal): string {
    let text = this.priceTexts.get(value);
    if (text === undefined) {
      text = toWire(value);
      this.priceTexts.set(value, text);
    }
    return text;
  }

  private quantityText(value: Decimal): string {
    if (this.lastQuantity?.value !== value) this.lastQuantity = { value, text: toWire(value) };
    return this.lastQuantity.text;
  }

  /** Completes the streams. */
  close(): void {
    this.reportSubject.complete();
    this.balanceSubject.complete();
  }

  /** A call as a promise: its answer, or its refusal as a rejection. */
  private async call<T>(answer: () => T): Promise<T> {
    return answer();
  }

  /** Runs one venue call now; a refusal becomes the ExchangeError a real exchange would answer. */
  private invoke<T>(act: (venue: Venue) => T): T {
    const venue = this.venue;
    if (venue === undefined) throw new Error('SimulatedVenuePort: attach(venue) first');
    try {
      return act(venue);
    } catch (error) {
      if (error instanceof VenueRejection) throw new ExchangeError(error.code, error.exchangeMessage, error.description || undefined, error.httpStatus);
      throw error;
    }
  }
}

function wireOrder(order: VenueOrderRequest): NewOrderRequest {
  return {
    client_order_id: order.client_order_id, symbol: order.symbol, side: order.side, type: order.type, time_in_force: order.time_in_force,
    quantity: toWire(order.quantity), price: order.price === undefined ? undefined : toWire(order.price),
    stop_price: order.stop_price === undefined ? undefined : toWire(order.stop_price), expire_time: order.expire_time,
    post_only: order.post_only, reduce_only: order.reduce_only,
  };
}

function inRange(time: number, range: HistoryRange): boolean {
  return time >= range.from && (range.till === undefined || time <= range.till);
}
