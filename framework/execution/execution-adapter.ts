import { Subject, type Observable, type Subscription } from 'rxjs';
import { ErrorCode, ExchangeError } from '../exchange/errors.js';
import { TradeloopError, ValidationError } from '../model/errors.js';
import type {
  CancelAllIntent, CancelIntent, ClosePositionIntent, Intent, OrderListIntent, OrderSpec, PlaceIntent, ReplaceIntent,
} from '../model/intent.js';
import type { Decimal } from '../model/decimal.js';
import type { DecisionFrame } from '../model/decision-frame.js';
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
import { DEFAULT_RECOVERY, OutcomeUnknownError, type RecoveryOptions } from './unknown-outcome.js';
import { MarginAccountReads } from './margin-account-reads.js';
import { OrderCancellation, isNotFound } from './order-cancellation.js';
import { toRequest } from './order-request.js';
import { PortGateway } from './port-gateway.js';
import type { Answer, LatencySample, VenueGateway } from './venue-gateway.js';
import type { VenueOrderRequest, VenuePort } from './venue-port.js';

/**
 * Executes intents that passed the risk gate, synchronously: an intent becomes venue commands at
 * once; their answers come back later and end the intent. Distinct from the runtime's IntentSink
 * (which the risk-checked pipeline implements).
 */
export interface IntentExecutor {
  /**
   * Executes one intent (never throws: failures become reports); `done` runs once when every
   * answer of its commands has been applied.
   */
  submit(intent: Intent, done?: () => void): void;
  /** Sends the commands of the intents submitted so far that the venue still holds (after each handler's intents). */
  flush(): void;
}

/** Wiring and policy of an {@link ExecutionAdapter}. */
export interface ExecutionAdapterOptions {
  /** Reports, balances and reconnects, and the reconciliation's reads. */
  readonly venue: VenuePort;
  /** Where commands go; a {@link PortGateway} over `venue` by default (live and sandbox). */
  readonly gateway?: VenueGateway;
  /** Told of every order request's measured latency (the default gateway measures them). */
  readonly onLatency?: (sample: LatencySample) => void;
  readonly ids: ClientOrderIdGenerator;
  readonly clock: Clock;
  /** What to do with open orders on the exchange that this bot does not know (default adopt). */
  readonly unknownOrders?: UnknownOrderPolicy;
  /** The strategy adopted orders are booked to (none by default: they are tracked, not attributed). */
  readonly adoptAs?: string;
  /**
   * Finished orders the account keeps for late reports and lookups (the account state's default
   * when absent). A backtest, whose reports are never late, keeps fewer and holds less memory.
   */
  readonly finishedOrdersKept?: number;
  /** The symbols the bot trades: whose isolated accounts (margin, futures) it reads. */
  readonly symbols?: readonly string[];
  /** Futures: the leverage to set on these contracts' isolated accounts at start, where the exchange has another. */
  readonly leverage?: Readonly<Record<string, Decimal>>;
  /** Currencies of a symbol, for the strategies' currency flows. */
  readonly currencies?: CurrencyLookup;
  readonly recovery?: Partial<RecoveryOptions>;
  /** The market frame behind a decision made now (the strategy engine's); stamped on every order sent. */
  readonly decisionFrame?: () => DecisionFrame | undefined;
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
 * The execution engine: executes intents through a {@link VenueGateway} and reports back as data.
 * Places, replaces (always under a fresh client_order_id), cancels, cancels all of one strategy's
 * own orders (never the account's others) and places order lists (order_list_id = first
 * client_order_id). It is synchronous: an intent becomes commands at once, and each answer is an
 * event applied when it arrives. Every order is tracked from before its command leaves, so stream
 * reports racing the answer land on it; reports drive the trackers and each change goes to the
 * strategy with its intentId. It alone writes the {@link AccountState}.
 *
 * Unknown outcomes are resolved by lookup before any retry (the gateway's concern, see
 * {@link PortGateway}), so an intent never makes two orders and an order that exists is never
 * forgotten; what stays unknown is settled by {@link reconcile}, which runs at start and after every
 * reconnect.
 */
export class ExecutionAdapter implements IntentExecutor {
  private readonly reportSubject = new Subject<StrategyReport>();
  private readonly balanceSubject = new Subject<readonly TradingBalance[]>();
  private readonly subscriptions: Subscription[] = [];
  private readonly recovery: RecoveryOptions;
  private readonly gateway: VenueGateway;
  private reconciling: Promise<ReconcileSummary> | undefined;
  /** Intents whose orders ended with an unknown outcome, by client_order_id, until reconciliation settles them. */
  private readonly unsettled = new Map<string, Intent>();
  /** Intents whose answers have not all come. */
  private executing = 0;
  private idleWaiters: (() => void)[] = [];
  /** Set at shutdown: intents that would make orders are refused before anything is sent. */
  private closing = false;
  private readonly cancellation: OrderCancellation;
  private readonly margin: MarginAccountReads;
  readonly account: AccountState;
  /** Accepted, rejected and order-update reports, in the order they happened. */
  readonly reports$: Observable<StrategyReport> = this.reportSubject.asObservable();
  /** Balances as the venue said them: stream updates and the reconciliation's snapshots. */
  readonly balances$: Observable<readonly TradingBalance[]> = this.balanceSubject.asObservable();

  constructor(private readonly options: ExecutionAdapterOptions) {
    this.account = new AccountState(options.currencies, options.onFill, options.onOrderFinished, options.finishedOrdersKept);
    this.recovery = { ...DEFAULT_RECOVERY, ...options.recovery };
    this.gateway = options.gateway ?? new PortGateway(options.venue, this.recovery, options.onLatency === undefined ? undefined : { clock: options.clock, record: options.onLatency });
    this.cancellation = new OrderCancellation({
      gateway: this.gateway, account: this.account, recovery: this.recovery, stopping: () => this.closing,
      emitStatus: (order) => this.emitOrder(statusReport(order)),
    });
    this.margin = new MarginAccountReads(options.venue, this.gateway, this.account, options.symbols ?? []);
  }

  /**
   * Listens to the venue's reports, balances and reconnects, then reconciles once; on futures,
   * then sets the configured leverage where the exchange has another (a refusal rejects: the bot
   * must not trade at a leverage it was not given).
   */
  async start(): Promise<ReconcileSummary> {
    const venue = this.options.venue;
    this.subscriptions.push(
      venue.orderReports$.subscribe((report) => this.onReport(report)),
      venue.balances$.subscribe((balances) => this.setBalances(balances)),
      venue.reconnected$.subscribe(() => void this.reconcile().catch(() => undefined)),
    );
    const summary = await this.reconcile();
    await this.margin.applyLeverage(this.options.leverage ?? {});
    return summary;
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
      const summary = await reconcile({
        venue: this.options.venue, account: this.account, policy: this.options.unknownOrders ?? 'adopt',
        adoptAs: this.options.adoptAs, recovery: this.recovery, emit: (report) => this.emitOrder(report),
        setBalances: (balances) => this.setBalances(balances), resolved: (id, order) => this.onResolved(id, order),
        adopted: this.options.onAdopt,
      });
      await this.refreshMarginAccounts();
      return summary;
    })();
    this.reconciling = run;
    try {
      return await run;
    } finally {
      if (this.reconciling === run) this.reconciling = undefined;
    }
  }

  submit(intent: Intent, done?: () => void): void {
    this.executing++;
    if (this.closing && makesOrders(intent)) {
      this.reportSubject.next({ kind: 'rejected', intent, code: LOCAL_REJECT_CODE, message: 'the bot is stopping: no new orders', time: this.options.clock.now() });
      this.finish(done);
      return;
    }
    try {
      switch (intent.kind) {
        case 'place': return this.place(intent, intent, done);
        case 'replace': return this.replace(intent, done);
        case 'cancel': return this.cancel(intent, done);
        case 'cancelAll': return this.cancelAll(intent, done);
        case 'orderList': return this.orderList(intent, done);
        case 'closePosition': return this.closePosition(intent, done);
      }
    } catch (error) {
      // Thrown before any command left (validation): the intent ends here.
      this.reject(intent, error);
      this.finish(done);
    }
  }

  flush(): void {
    this.gateway.flush?.();
  }

  /** Intents whose answers have not all come (their commands may be on the wire). */
  get inFlight(): number {
    return this.executing;
  }

  /**
   * From now on intents that make orders (place, replace, order list) are refused with a local
   * rejection before anything is sent, and a creating request that failed is not sent again;
   * cancels and position closes still go out. Used at shutdown.
   */
  refuseNewOrders(): void {
    this.closing = true;
    this.gateway.stopRepeats();
  }

  /** client_order_ids of the orders canceled since {@link refuseNewOrders}, in the order the answers came. */
  get canceledSinceStop(): readonly string[] {
    return [...this.cancellation.canceledWhileStopping];
  }

  /** Settles when no intent is executing and no reconciliation runs (including those that start meanwhile). */
  async whenIdle(): Promise<void> {
    for (;;) {
      if (this.reconciling !== undefined) await this.reconciling.catch(() => undefined);
      else if (this.executing > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      else return;
    }
  }

  /**
   * Cancels one order of the bot whatever its strategy (shutdown). A cancel answered "not found"
   * (20002) is looked up: an order that filled meanwhile gets its executions booked; the promise then
   * rejects with the 20002 unless the order was in fact canceled.
   */
  cancelTracker(tracker: OrderTracker): Promise<Order> {
    return promised<Order>((answer) => this.cancellation.cancel(tracker, answer));
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
    const found = await promised<Order | undefined>((answer) => this.gateway.find(id, answer));
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
   * Margin and futures accounts: reads the isolated accounts (leverage, margin, positions as the
   * venue keeps them) and, on futures, the contracts' position configurations, and makes them the
   * truth. Part of every reconciliation; a stop reads them once more. Nothing to do on spot.
   */
  refreshMarginAccounts(): Promise<void> {
    return this.margin.refresh();
  }

  /**
   * Books the executions the exchange counts for an order (its executed quantity) that no report
   * brought yet, from the order's trade history. Rejects when the history cannot be read.
   */
  bookMissedFills(tracker: OrderTracker): Promise<void> {
    return promised<void>((answer) => this.cancellation.bookMissedFills(tracker, (error) => answer(error, undefined)));
  }

  /** A pending order of an unknown outcome was found on the exchange, or is known never to have been made. */
  private onResolved(clientOrderId: string, order: Order | undefined): void {
    const intent = this.unsettled.get(clientOrderId);
    if (intent === undefined) return;
    this.unsettled.delete(clientOrderId);
    if (order !== undefined) this.accept(intent, [order]);
    else this.reportSubject.next({ kind: 'rejected', intent, code: LOCAL_REJECT_CODE, message: 'order never reached the exchange', time: this.options.clock.now() });
  }

  private place(intent: PlaceIntent | ClosePositionIntent, spec: OrderSpec, done: (() => void) | undefined): void {
    const request = toRequest(intent.clientOrderId ?? this.options.ids.next(), spec);
    const tracker = this.trackNew(intent, request);
    tracker.inFlight = true;
    this.gateway.place(request, (error, order) => {
      tracker.inFlight = false;
      this.answered(intent, done, () => {
        if (error !== undefined) return this.refused(intent, [tracker], error);
        this.account.applyOrder(order!);
        this.accept(intent, [order!]);
      });
    });
  }

  private replace(intent: ReplaceIntent, done: (() => void) | undefined): void {
    const old = this.ownActive(intent.strategyId, intent.clientOrderId);
    const newId = intent.newClientOrderId ?? this.options.ids.next();
    const tracker = this.track({
      clientOrderId: newId, intentId: intent.intentId, strategyId: intent.strategyId, symbol: old.info.symbol, side: old.info.side,
      quantity: intent.quantity, orderListId: old.info.orderListId, replaces: old.clientOrderId, sentAt: this.options.clock.now(),
      type: old.info.type, price: intent.price ?? old.info.price, decidedOn: this.options.decisionFrame?.(),
    });
    tracker.inherit(old);
    tracker.inFlight = true;
    this.gateway.replace(old.clientOrderId, { new_client_order_id: newId, quantity: intent.quantity, price: intent.price }, (error, order) => {
      tracker.inFlight = false;
      this.answered(intent, done, () => {
        if (error !== undefined) return this.refused(intent, [tracker], error);
        this.account.applyOrder(order!);
        old.replacedBy = newId;
        // The old order is gone once its replacement exists; its `replaced` report may still be on its way.
        const before = old.order;
        if (before !== undefined && old.active) this.account.applyOrder({ ...before, status: 'canceled', updated_at: order!.created_at });
        this.accept(intent, [order!]);
      });
    });
  }

  private cancel(intent: CancelIntent, done: (() => void) | undefined): void {
    const tracker = this.ownActive(intent.strategyId, intent.clientOrderId);
    this.cancellation.cancel(tracker, (error, order) => this.answered(intent, done, () => {
      if (error !== undefined) this.reject(intent, error);
      else this.accept(intent, [order!]);
    }));
  }

  private cancelAll(intent: CancelAllIntent, done: (() => void) | undefined): void {
    const own = this.account.open(intent.strategyId, intent.symbol);
    const outcomes: { error: unknown; order: Order | undefined }[] = [];
    let waiting = own.length;
    const end = (): void => this.answered(intent, done, () => {
      const canceled: Order[] = [];
      for (const outcome of outcomes) {
        if (outcome.error === undefined) canceled.push(outcome.order!);
        else if (!isNotFound(outcome.error)) this.reject(intent, outcome.error);
      }
      this.accept(intent, canceled);
    });
    // Nothing to cancel still answers later, as every command does.
    if (waiting === 0) return this.gateway.wait(0, end);
    own.forEach((tracker, index) => this.cancellation.cancel(tracker, (error, order) => {
      outcomes[index] = { error, order };
      if (--waiting === 0) end();
    }));
  }

  private orderList(intent: OrderListIntent, done: (() => void) | undefined): void {
    const fixed = intent.clientOrderIds;
    if (fixed !== undefined && fixed.length !== intent.orders.length) {
      throw new ValidationError('clientOrderIds', `must name one id per order (${intent.orders.length})`, fixed.length);
    }
    const orders = intent.orders.map((spec, leg) => toRequest(fixed?.[leg] ?? this.options.ids.next(), spec));
    const listId = orders[0]?.client_order_id;
    if (listId === undefined) throw new ValidationError('orders', 'must not be empty', intent.orders.length);
    const trackers = orders.map((request, leg) => this.trackNew(intent, request, listId, leg));
    for (const tracker of trackers) tracker.inFlight = true;
    this.gateway.placeList({ order_list_id: listId, contingency_type: intent.contingencyType, orders }, (error, placed) => {
      for (const tracker of trackers) tracker.inFlight = false;
      this.answered(intent, done, () => {
        if (error !== undefined) return this.refused(intent, trackers, error);
        for (const order of placed!) this.account.applyOrder(order);
        this.accept(intent, placed!);
      });
    });
  }

  private closePosition(intent: ClosePositionIntent, done: (() => void) | undefined): void {
    const position = this.account.positions.position(intent.strategyId, intent.symbol);
    if (position === undefined || position.quantity.isZero()) {
      throw new ValidationError('symbol', 'has no open position of this strategy to close', intent.symbol);
    }
    const spec: OrderSpec = {
      symbol: intent.symbol, side: position.quantity.isNegative() ? 'buy' : 'sell', quantity: position.quantity.abs(),
      type: intent.price === undefined ? 'market' : 'limit', price: intent.price,
      reduceOnly: this.gateway.account === 'spot' ? undefined : true,
    };
    this.place(intent, spec, done);
  }

  /**
   * Applies an intent's last answer, then ends the intent. What the application throws is a
   * rejection of the intent, never lost: the intent still ends.
   */
  private answered(intent: Intent, done: (() => void) | undefined, apply: () => void): void {
    try {
      apply();
    } catch (error) {
      this.reject(intent, error);
    }
    this.finish(done);
  }

  /** A creating command failed: an unknown outcome waits for reconciliation (no report yet); a refusal untracks its orders. */
  private refused(intent: Intent, trackers: readonly OrderTracker[], error: unknown): void {
    if (error instanceof OutcomeUnknownError) {
      // Only the first order of a list settles the intent; its lookup finds the others.
      const first = trackers[0];
      if (first !== undefined) this.unsettled.set(first.clientOrderId, intent);
      return;
    }
    for (const tracker of trackers) this.account.forget(tracker.clientOrderId);
    this.reject(intent, error);
  }

  private finish(done: (() => void) | undefined): void {
    this.executing--;
    done?.();
    if (this.executing === 0 && this.idleWaiters.length > 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private trackNew(intent: Intent, request: VenueOrderRequest, orderListId?: string, leg?: number): OrderTracker {
    return this.track({
      clientOrderId: request.client_order_id, intentId: intent.intentId, strategyId: intent.strategyId, symbol: request.symbol,
      side: request.side, quantity: request.quantity, orderListId, leg, sentAt: this.options.clock.now(),
      type: request.type, price: request.price, decidedOn: this.options.decisionFrame?.(),
    });
  }

  /** Tracks an order about to be sent; `info` is the caller's own new object, stamped with the send time. */
  private track(info: TrackedOrderInfo & { readonly sentAt: number }): OrderTracker {
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
    // The venue's forced close is no order of the bot's, yet it moves the bot's positions: tracked on sight.
    if (report.liquidation === true && this.account.get(report.client_order_id) === undefined) {
      const info = this.account.trackLiquidation(report);
      this.options.onAdopt?.(info);
    }
    const update = this.account.applyReport(report);
    if (update.tracker !== undefined && update.changed) this.emitOrder(report);
    if (report.report_type === 'trade' && this.gateway.account !== 'spot') this.margin.readSoon();
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

/** A command's answer as a promise (the shutdown's and the reconciliation's asynchronous steps). */
function promised<T>(command: (answer: Answer<T>) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => command((error, value) => (error === undefined ? resolve(value as T) : reject(error))));
}

/** Intents that create orders on the exchange (refused once the bot is stopping). */
function makesOrders(intent: Intent): boolean {
  return intent.kind === 'place' || intent.kind === 'replace' || intent.kind === 'orderList';
}

