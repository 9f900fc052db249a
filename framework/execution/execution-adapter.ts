import { Subject, type Observable, type Subscription } from 'rxjs';
import { ErrorCode, ExchangeError } from '../exchange/errors.js';
import { TradeloopError, ValidationError } from '../model/errors.js';
import type {
  CancelAllIntent, CancelIntent, ClosePositionIntent, Intent, OrderListIntent, OrderSpec, PlaceIntent, ReplaceIntent,
} from '../model/intent.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { Order } from '../model/resources/order.js';
import type { StrategyReport } from '../model/strategy-report.js';
import type { OrderReport } from '../model/stream/order-report.js';
import type { Clock } from '../time/clock.js';
import type { ClientOrderIdGenerator } from './client-order-ids.js';
import { AccountState } from './account-state.js';
import type { OrderFill, OrderTracker, TrackedOrderInfo } from './order-tracker.js';
import type { CurrencyLookup } from './position-book.js';
import { reconcile, statusReport, type ReconcileSummary, type UnknownOrderPolicy } from './reconciler.js';
import {
  DEFAULT_RECOVERY, OutcomeUnknownError, isRetryableFailure, lookupList, lookupWithRetry, sendWithoutDuplicates,
  type RecoveryOptions,
} from './unknown-outcome.js';
import { toRequest } from './order-request.js';
import type { VenueOrderRequest, VenuePort } from './venue-port.js';

/**
 * Executes intents that passed the risk gate. Distinct from the runtime's IntentSink (which the
 * risk-checked pipeline implements): this one settles when the intent is done.
 */
export interface IntentExecutor {
  /** Executes one intent; settles when it is done (never rejects: failures become reports). */
  submit(intent: Intent): Promise<void>;
}

/** Wiring and policy of an {@link ExecutionAdapter}. */
export interface ExecutionAdapterOptions {
  readonly venue: VenuePort;
  readonly ids: ClientOrderIdGenerator;
  readonly clock: Clock;
  /** What to do with open orders on the exchange that this bot does not know (default adopt). */
  readonly unknownOrders?: UnknownOrderPolicy;
  /** The strategy adopted orders are booked to (none by default: they are tracked, not attributed). */
  readonly adoptAs?: string;
  /** Currencies of a symbol, for the strategies' currency flows. */
  readonly currencies?: CurrencyLookup;
  readonly recovery?: Partial<RecoveryOptions>;
  /** Told of every order before its request is sent (the journal writes it down first). */
  readonly onTrack?: (info: TrackedOrderInfo) => void;
  /** Told of every order the reconciliation adopts (found open, tracked by nobody). */
  readonly onAdopt?: (info: TrackedOrderInfo) => void;
  /** Told of every execution once, when first booked (stream, answer or lookup). */
  readonly onFill?: (info: TrackedOrderInfo, fill: OrderFill) => void;
  /** Told of every order once when it reaches a final status (the account may forget it later). */
  readonly onOrderFinished?: (tracker: OrderTracker) => void;
}

/** Local refusals (no exchange code): the intent named an order the strategy does not have, and the like. */
export const LOCAL_REJECT_CODE = 0;

/**
 * Executes intents on a {@link VenuePort} and reports back as data. Places, replaces (always under
 * a fresh client_order_id), cancels, cancels all of one strategy's own orders (never the account's
 * others) and places order lists (order_list_id = first client_order_id). Every order is tracked
 * from before its request is sent, so stream reports racing the reply land on it; reports drive the
 * trackers and each change goes to the strategy with its intentId.
 *
 * Unknown outcomes are resolved by lookup before any retry (see {@link sendWithoutDuplicates}), so
 * an intent never makes two orders and an order that exists is never forgotten; what stays unknown
 * is settled by {@link reconcile}, which runs at start and after every reconnect.
 */
export class ExecutionAdapter implements IntentExecutor {
  private readonly reportSubject = new Subject<StrategyReport>();
  private readonly balanceSubject = new Subject<readonly TradingBalance[]>();
  private readonly subscriptions: Subscription[] = [];
  private readonly recovery: RecoveryOptions;
  private reconciling: Promise<ReconcileSummary> | undefined;
  /** Intents whose orders ended with an unknown outcome, by client_order_id, until reconciliation settles them. */
  private readonly unsettled = new Map<string, Intent>();
  /** Intents being executed (their requests may be on the wire). */
  private readonly executing = new Set<Promise<void>>();
  /** Set at shutdown: intents that would make orders are refused before anything is sent. */
  private closing = false;
  /** Orders canceled since {@link refuseNewOrders} (a strategy's onStop and the shutdown alike). */
  private readonly canceledClosing = new Set<string>();
  readonly account: AccountState;
  /** Accepted, rejected and order-update reports, in the order they happened. */
  readonly reports$: Observable<StrategyReport> = this.reportSubject.asObservable();
  /** Balances as the venue said them: stream updates and the reconciliation's snapshots. */
  readonly balances$: Observable<readonly TradingBalance[]> = this.balanceSubject.asObservable();

  constructor(private readonly options: ExecutionAdapterOptions) {
    this.account = new AccountState(options.currencies, options.onFill, options.onOrderFinished);
    this.recovery = { ...DEFAULT_RECOVERY, ...options.recovery };
  }

  /** Listens to the venue's reports, balances and reconnects, then reconciles once. */
  async start(): Promise<ReconcileSummary> {
    const venue = this.options.venue;
    this.subscriptions.push(
      venue.orderReports$.subscribe((report) => this.onReport(report)),
      venue.balances$.subscribe((balances) => this.setBalances(balances)),
      venue.reconnected$.subscribe(() => void this.reconcile().catch(() => undefined)),
    );
    return this.reconcile();
  }

  /** Stops listening; trackers stay readable. */
  stop(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    this.reportSubject.complete();
    this.balanceSubject.complete();
  }

  /** The strategy's open orders (optionally of one symbol). */
  openOrders(strategyId: string, symbol?: string): readonly OrderTracker[] {
    return this.account.open(strategyId, symbol);
  }

  /**
   * Makes the venue's open orders and balances the truth; one run at a time (a reconnect during a
   * run waits for it and runs again, as the run may have read state from before the drop).
   */
  async reconcile(): Promise<ReconcileSummary> {
    const previous = this.reconciling;
    const run = (async () => {
      if (previous !== undefined) await previous.catch(() => undefined);
      return reconcile({
        venue: this.options.venue, account: this.account, policy: this.options.unknownOrders ?? 'adopt',
        adoptAs: this.options.adoptAs, recovery: this.recovery, emit: (report) => this.emitOrder(report),
        setBalances: (balances) => this.setBalances(balances), resolved: (id, order) => this.onResolved(id, order),
        adopted: this.options.onAdopt,
      });
    })();
    this.reconciling = run;
    try {
      return await run;
    } finally {
      if (this.reconciling === run) this.reconciling = undefined;
    }
  }

  submit(intent: Intent): Promise<void> {
    if (this.closing && makesOrders(intent)) {
      this.reportSubject.next({ kind: 'rejected', intent, code: LOCAL_REJECT_CODE, message: 'the bot is stopping: no new orders', time: this.options.clock.now() });
      return Promise.resolve();
    }
    const run = this.execute(intent);
    this.executing.add(run);
    void run.finally(() => this.executing.delete(run));
    return run;
  }

  /**
   * From now on intents that make orders (place, replace, order list) are refused with a local
   * rejection before anything is sent; cancels and position closes still go out. Used at shutdown.
   */
  refuseNewOrders(): void {
    this.closing = true;
  }

  /** client_order_ids of the orders canceled since {@link refuseNewOrders}, in the order the answers came. */
  get canceledSinceStop(): readonly string[] {
    return [...this.canceledClosing];
  }

  /** Settles when no intent is executing and no reconciliation runs (including those that start meanwhile). */
  async whenIdle(): Promise<void> {
    while (this.executing.size > 0 || this.reconciling !== undefined) {
      await Promise.allSettled([...this.executing, ...(this.reconciling === undefined ? [] : [this.reconciling])]);
    }
  }

  /**
   * Cancels one order of the bot whatever its strategy (shutdown). A cancel answered "not found"
   * (20002) is looked up: an order that filled meanwhile gets its executions booked; the promise then
   * rejects with the 20002 unless the order was in fact canceled.
   */
  cancelTracker(tracker: OrderTracker): Promise<Order> {
    return this.cancelTracked(tracker);
  }

  /**
   * Looks an order up by client_order_id and makes the answer the truth: state applied, executions
   * the stream has not brought booked from the order's trade history, a pending intent of an unknown
   * outcome settled. A pending order the exchange never saw, whose request is no longer in flight,
   * is forgotten (it never existed). Rejects with OutcomeUnknownError when the lookups keep failing.
   */
  async lookUp(tracker: OrderTracker): Promise<Order | undefined> {
    const id = tracker.clientOrderId;
    const wasPending = tracker.status === 'pending';
    const found = await lookupWithRetry(() => this.options.venue.findOrder(id), this.recovery);
    if (found === undefined) {
      if (wasPending && !tracker.inFlight) {
        this.account.forget(id);
        this.onResolved(id, undefined);
      }
      return undefined;
    }
    if (this.account.applyOrder(found).changed) this.emitOrder(statusReport(found));
    if (wasPending && !tracker.inFlight) this.onResolved(id, found);
    await this.bookMissedFills(tracker);
    return found;
  }

  /**
   * Reads the account's balances from the venue and makes them the truth (a stop's last step: a
   * balance notification still on its way when the bot stops listening would otherwise leave the
   * bot's last balances behind the exchange's). Rejects when the venue cannot be read.
   */
  async refreshBalances(): Promise<void> {
    this.setBalances(await this.options.venue.balances());
  }

  /**
   * Books the executions the exchange counts for an order (its executed quantity) that no report
   * brought yet, from the order's trade history. Rejects when the history cannot be read.
   */
  async bookMissedFills(tracker: OrderTracker): Promise<void> {
    const order = tracker.order;
    if (order === undefined || !tracker.unattributedQuantity.isPositive() || tracker.unattributedQuantity.isZero()) return;
    this.account.applyTrades(tracker.clientOrderId, await this.options.venue.orderTrades({ ...order, trades: undefined }));
  }

  private async execute(intent: Intent): Promise<void> {
    try {
      switch (intent.kind) {
        case 'place': return await this.place(intent);
        case 'replace': return await this.replace(intent);
        case 'cancel': return await this.cancel(intent);
        case 'cancelAll': return await this.cancelAll(intent);
        case 'orderList': return await this.orderList(intent);
        case 'closePosition': return await this.closePosition(intent);
      }
    } catch (error) {
      if (error instanceof OutcomeUnknownError) return; // reconciliation reports it, accepted or rejected
      this.reject(intent, error);
    }
  }

  /** A pending order of an unknown outcome was found on the exchange, or is known never to have been made. */
  private onResolved(clientOrderId: string, order: Order | undefined): void {
    const intent = this.unsettled.get(clientOrderId);
    if (intent === undefined) return;
    this.unsettled.delete(clientOrderId);
    if (order !== undefined) this.accept(intent, [order]);
    else this.reportSubject.next({ kind: 'rejected', intent, code: LOCAL_REJECT_CODE, message: 'order never reached the exchange', time: this.options.clock.now() });
  }

  private async place(intent: PlaceIntent | ClosePositionIntent, spec: OrderSpec = intent as PlaceIntent): Promise<void> {
    const request = toRequest(intent.clientOrderId ?? this.options.ids.next(), spec);
    const tracker = this.trackNew(intent, request);
    const venue = this.options.venue;
    const order = await this.settle(intent, [tracker], () => sendWithoutDuplicates(
      this.repeatUnlessStopping(() => venue.placeOrder(request)), () => venue.findOrder(request.client_order_id), this.recovery,
    ));
    this.accept(intent, [order]);
  }

  private async replace(intent: ReplaceIntent): Promise<void> {
    const old = this.ownActive(intent.strategyId, intent.clientOrderId);
    const newId = intent.newClientOrderId ?? this.options.ids.next();
    const tracker = this.track({
      clientOrderId: newId, intentId: intent.intentId, strategyId: intent.strategyId, symbol: old.info.symbol, side: old.info.side,
      quantity: intent.quantity, orderListId: old.info.orderListId, replaces: old.clientOrderId,
    });
    tracker.inherit(old);
    const venue = this.options.venue;
    const change = { new_client_order_id: newId, quantity: intent.quantity, price: intent.price };
    const order = await this.settle(intent, [tracker], () => sendWithoutDuplicates(
      this.repeatUnlessStopping(() => venue.replaceOrder(old.clientOrderId, change)), () => venue.findOrder(newId), this.recovery,
    ));
    old.replacedBy = newId;
    // The old order is gone once its replacement exists; its `replaced` report may still be on its way.
    const before = old.order;
    if (before !== undefined && old.active) this.account.applyOrder({ ...before, status: 'canceled', updated_at: order.created_at });
    this.accept(intent, [order]);
  }

  private async cancel(intent: CancelIntent): Promise<void> {
    const tracker = this.ownActive(intent.strategyId, intent.clientOrderId);
    const order = await this.cancelTracked(tracker);
    this.accept(intent, [order]);
  }

  private async cancelAll(intent: CancelAllIntent): Promise<void> {
    const own = this.account.open(intent.strategyId, intent.symbol);
    const results = await Promise.allSettled(own.map((tracker) => this.cancelTracked(tracker)));
    const canceled: Order[] = [];
    for (const result of results) {
      if (result.status === 'fulfilled') canceled.push(result.value);
      else if (!isNotFound(result.reason)) this.reject(intent, result.reason);
    }
    this.accept(intent, canceled);
  }

  private async orderList(intent: OrderListIntent): Promise<void> {
    const fixed = intent.clientOrderIds;
    if (fixed !== undefined && fixed.length !== intent.orders.length) {
      throw new ValidationError('clientOrderIds', `must name one id per order (${intent.orders.length})`, fixed.length);
    }
    const orders = intent.orders.map((spec, leg) => toRequest(fixed?.[leg] ?? this.options.ids.next(), spec));
    const ids = orders.map((o) => o.client_order_id);
    const listId = ids[0];
    if (listId === undefined) throw new ValidationError('orders', 'must not be empty', intent.orders.length);
    const trackers = orders.map((request, leg) => this.trackNew(intent, request, listId, leg));
    const venue = this.options.venue;
    const list = { order_list_id: listId, contingency_type: intent.contingencyType, orders };
    const placed = await this.settle(intent, trackers, () => sendWithoutDuplicates(
      this.repeatUnlessStopping(() => venue.placeOrderList(list)), () => lookupList(ids, (id) => venue.findOrder(id)), this.recovery,
    ));
    this.accept(intent, placed);
  }

  private async closePosition(intent: ClosePositionIntent): Promise<void> {
    const position = this.account.positions.position(intent.strategyId, intent.symbol);
    if (position === undefined || position.quantity.isZero()) {
      throw new ValidationError('symbol', 'has no open position of this strategy to close', intent.symbol);
    }
    const spec: OrderSpec = {
      symbol: intent.symbol, side: position.quantity.isNegative() ? 'buy' : 'sell', quantity: position.quantity.abs(),
      type: intent.price === undefined ? 'market' : 'limit', price: intent.price,
      reduceOnly: this.options.venue.account === 'spot' ? undefined : true,
    };
    await this.place(intent, spec);
  }

  /**
   * Cancels one tracked order; after a failure that may have worked, or a "not found" (the order
   * may have filled, its report still on the way), the order's state decides, looked up by
   * client_order_id, and executions the lookup shows are booked.
   */
  private async cancelTracked(tracker: OrderTracker): Promise<Order> {
    const venue = this.options.venue;
    for (let attempt = 1; ; attempt++) {
      try {
        const order = await venue.cancelOrder(tracker.clientOrderId);
        this.applyCancelAnswer(order);
        await this.bookMissedFills(tracker);
        return this.noteCanceled(order);
      } catch (error) {
        if (!isRetryableFailure(error) && !isNotFound(error)) throw error;
        const found = await lookupWithRetry(() => venue.findOrder(tracker.clientOrderId), this.recovery);
        if (found !== undefined) {
          this.applyCancelAnswer(found);
          await this.bookMissedFills(tracker);
        }
        if (found === undefined || !tracker.active) {
          if (found !== undefined && !isNotFound(error)) return this.noteCanceled(found);
          // Not canceled by this request (filled, or canceled by a replace or someone else): the
          // 20002 stands, a canceled order is its answer; executions are booked above either way.
          if (found?.status === 'canceled') return found;
          throw error;
        }
        if (attempt >= this.recovery.maxAttempts) throw error;
        await this.recovery.sleep(this.recovery.retryDelayMs);
      }
    }
  }

  /**
   * A creating request's sender for {@link sendWithoutDuplicates}: the first attempt goes out; once
   * the bot is stopping a repeat is not sent (it would make an order after the stop): the outcome
   * stays unknown, for the shutdown's lookup by client_order_id and the next start's reconciliation.
   */
  private repeatUnlessStopping<T>(send: () => Promise<T>): () => Promise<T> {
    let sent = false;
    return () => {
      if (sent && this.closing) return Promise.reject(new OutcomeUnknownError('not sent again: the bot is stopping; the order is looked up instead'));
      sent = true;
      return send();
    };
  }

  /**
   * Applies a cancel's answer or lookup. While stopping the change also goes out as a `status`
   * report (the strategy is stopped: its observers, the journal among them, still hear how the
   * order ended even when the stream's report comes after the bot stopped listening).
   */
  private applyCancelAnswer(order: Order): void {
    if (this.account.applyOrder(order).changed && this.closing) this.emitOrder(statusReport(order));
  }

  private noteCanceled(order: Order): Order {
    if (this.closing && order.status === 'canceled') this.canceledClosing.add(order.client_order_id);
    return order;
  }

  /** Runs a creating request for pending trackers: answers applied, refusals untrack, unknowns stay for reconciliation. */
  private async settle<T extends Order | Order[]>(intent: Intent, trackers: readonly OrderTracker[], run: () => Promise<T>): Promise<T> {
    for (const tracker of trackers) tracker.inFlight = true;
    try {
      const result = await run();
      for (const order of Array.isArray(result) ? result : [result]) this.applyOrder(order);
      return result;
    } catch (error) {
      if (error instanceof OutcomeUnknownError) {
        // Only the first order of a list settles the intent; its lookup finds the others.
        const first = trackers[0];
        if (first !== undefined) this.unsettled.set(first.clientOrderId, intent);
      } else {
        for (const tracker of trackers) this.account.forget(tracker.clientOrderId);
      }
      throw error;
    } finally {
      for (const tracker of trackers) tracker.inFlight = false;
    }
  }

  private trackNew(intent: Intent, request: VenueOrderRequest, orderListId?: string, leg?: number): OrderTracker {
    return this.track({
      clientOrderId: request.client_order_id, intentId: intent.intentId, strategyId: intent.strategyId, symbol: request.symbol,
      side: request.side, quantity: request.quantity, orderListId, leg,
    });
  }

  private track(order: TrackedOrderInfo): OrderTracker {
    const info = { ...order, sentAt: this.options.clock.now() };
    this.options.onTrack?.(info);
    return this.account.track(info);
  }

  private ownActive(strategyId: string, clientOrderId: string): OrderTracker {
    const tracker = this.account.get(clientOrderId);
    if (tracker === undefined || tracker.info.strategyId !== strategyId || !tracker.active) {
      throw new ValidationError('clientOrderId', 'must name an active order of this strategy', clientOrderId);
    }
    return tracker;
  }

  private onReport(report: OrderReport): void {
    const update = this.account.applyReport(report);
    if (update.tracker !== undefined && update.changed) this.emitOrder(report);
  }

  private applyOrder(order: Order): void {
    this.account.applyOrder(order);
  }

  private setBalances(balances: readonly TradingBalance[]): void {
    this.account.setBalances(balances);
    this.balanceSubject.next(balances);
  }

  private emitOrder(report: OrderReport): void {
    const intentId = this.account.get(report.client_order_id)?.intentId;
    this.reportSubject.next({ kind: 'order', report, intentId, time: this.options.clock.now() });
  }

  private accept(intent: Intent, orders: readonly Order[]): void {
    this.reportSubject.next({ kind: 'accepted', intent, orders, time: this.options.clock.now() });
  }

  private reject(intent: Intent, error: unknown): void {
    const time = this.options.clock.now();
    if (error instanceof ExchangeError) {
      this.reportSubject.next({ kind: 'rejected', intent, code: error.exchangeCode, message: error.exchangeMessage, time });
      return;
    }
    const code = error instanceof ValidationError ? ErrorCode.ValidationError : LOCAL_REJECT_CODE;
    const message = error instanceof TradeloopError || error instanceof Error ? error.message : String(error);
    this.reportSubject.next({ kind: 'rejected', intent, code, message, time });
  }
}

/** Intents that create orders on the exchange (refused once the bot is stopping). */
function makesOrders(intent: Intent): boolean {
  return intent.kind === 'place' || intent.kind === 'replace' || intent.kind === 'orderList';
}

function isNotFound(error: unknown): boolean {
  return error instanceof ExchangeError && error.exchangeCode === ErrorCode.OrderNotFound;
}
