import type { SchedulerLike } from 'rxjs';
import type { VenueOrderListRequest, VenueOrderRequest, VenuePort, VenueReplaceRequest } from '../../framework/execution/venue-port.js';
import type { TradingBalance } from '../../framework/model/resources/balance.js';
import type { Order } from '../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';
import type { LatencyKind, LatencyModel } from '../venue/matching/latency-model.js';

/**
 * A venue port whose requests take time on the replay's virtual clock: a request sent at `now`
 * reaches the venue at `now + entryDelayMs` (the market may move in between, and the order meets
 * the book of that moment) and its answer returns `responseDelayMs` after that. Reports the venue
 * emits while processing are delivered at processing time, as a trading stream delivers them
 * ahead of a REST answer. With zero delays a call runs at once, without touching the scheduler.
 *
 * Model assumptions: delays come from the {@link LatencyModel} only (no queueing behind other
 * requests, no loss); the order of requests is kept because equal delays keep scheduling order.
 */
export class LatentVenuePort implements VenuePort {
  constructor(
    private readonly inner: VenuePort,
    private readonly scheduler: SchedulerLike,
    private readonly latency: LatencyModel,
    /** Runs right before each request reaches the venue (brings the venue's clock to now). */
    private readonly beforeCall: () => void = () => {},
  ) {}

  get account(): VenuePort['account'] {
    return this.inner.account;
  }

  get orderReports$(): VenuePort['orderReports$'] {
    return this.inner.orderReports$;
  }

  get balances$(): VenuePort['balances$'] {
    return this.inner.balances$;
  }

  get reconnected$(): VenuePort['reconnected$'] {
    return this.inner.reconnected$;
  }

  placeOrder(order: VenueOrderRequest): Promise<Order> {
    return this.delayed('place', () => this.inner.placeOrder(order));
  }

  placeOrderList(list: VenueOrderListRequest): Promise<Order[]> {
    return this.delayed('placeList', () => this.inner.placeOrderList(list));
  }

  replaceOrder(clientOrderId: string, change: VenueReplaceRequest): Promise<Order> {
    return this.delayed('replace', () => this.inner.replaceOrder(clientOrderId, change));
  }

  cancelOrder(clientOrderId: string): Promise<Order> {
    return this.delayed('cancel', () => this.inner.cancelOrder(clientOrderId));
  }

  cancelAll(symbol?: string): Promise<Order[]> {
    return this.delayed('cancelAll', () => this.inner.cancelAll(symbol));
  }

  findOrder(clientOrderId: string): Promise<Order | undefined> {
    return this.delayed('query', () => this.inner.findOrder(clientOrderId));
  }

  openOrders(symbol?: string): Promise<Order[]> {
    return this.delayed('query', () => this.inner.openOrders(symbol));
  }

  orderTrades(order: Order): Promise<TradeHistoryRecord[]> {
    return this.delayed('query', () => this.inner.orderTrades(order));
  }

  balances(): Promise<TradingBalance[]> {
    return this.delayed('query', () => this.inner.balances());
  }

  private async delayed<T>(kind: LatencyKind, call: () => Promise<T>): Promise<T> {
    await this.sleep(this.latency.entryDelayMs(this.scheduler.now(), kind));
    this.beforeCall();
    // Both outcomes have one shape: a first rejection, late in a run, would otherwise meet code
    // optimised for successes only.
    const settled = await call().then(
      (value): Settled<T> => ({ failed: false, value, error: undefined }),
      (error: unknown): Settled<T> => ({ failed: true, value: undefined, error }),
    );
    await this.sleep(this.latency.responseDelayMs(this.scheduler.now(), kind));
    if (settled.failed) throw settled.error;
    return settled.value;
  }

  private sleep(ms: number): Promise<void> | undefined {
    if (!(ms > 0)) return undefined;
    return new Promise((resolve) => this.scheduler.schedule(() => resolve(), ms));
  }
}

/** A venue call's outcome, held while its response delay passes. */
type Settled<T> = { readonly failed: false; readonly value: T; readonly error: undefined } | { readonly failed: true; readonly value: undefined; readonly error: unknown };
