import { Observable, Subject, type Subscription } from 'rxjs';
import type { BookEvent } from '../exchange/book/book-event.js';
import type { ExecutionAdapter } from '../execution/execution-adapter.js';
import type { OrderTracker } from '../execution/order-tracker.js';
import { ZERO, type Decimal } from '../model/decimal.js';
import type { Instrument } from '../model/instrument.js';
import type { Intent } from '../model/intent.js';
import type { TradingBalance } from '../model/resources/balance.js';
import type { AcceptedReport, DeniedReport, OrderUpdateReport, RejectedReport, StrategyReport } from '../model/strategy-report.js';
import type { OrderReport } from '../model/stream/order-report.js';
import { EquityTracker } from '../risk/equity-tracker.js';
import { flattenIntents, shouldFlatten } from '../risk/kill-switch.js';
import { Funds } from '../model/funds.js';
import { fundsFor, isDenial } from '../risk/order-reservation.js';
import { intentKey, type ReservationKey } from '../risk/reservation-key.js';
import { accountTotals, reservationKey, riskAccountView } from './account-views.js';
import type { OrderRateWindow } from '../risk/order-rate-window.js';
import type { ReservationLedger } from '../risk/reservation-ledger.js';
import type { RiskGate } from '../risk/risk-gate.js';
import { RiskState } from '../risk/risk-state.js';
import type { MarketEvent } from '../model/stream/market-events.js';
import type { Clock } from '../time/clock.js';
import { SILENT_LOGGER, type AccountSource, type IntentSink, type RuntimeLogger } from './runtime-ports.js';
import { tradesOnMargin } from '../risk/trades-on-margin.js';

/** What the pipeline decided about one intent (for the journal, metrics and benchmarks). */
export type IntentVerdict = { readonly kind: 'passed'; readonly intent: Intent } | DeniedReport;

/** Options of {@link TradingPipeline}. */
export interface TradingPipelineOptions {
  readonly gate: RiskGate;
  readonly executor: ExecutionAdapter;
  readonly clock: Clock;
  /** The instruments the bot trades (risk grid checks, valuation, reservations). */
  readonly instruments: readonly Instrument[];
  /** Ledger and rate window the gate was built with. */
  readonly ledger: ReservationLedger;
  readonly rateWindow: OrderRateWindow;
  /** Currency the kill switch values equity in (default: the first instrument's quote currency). */
  readonly equityCurrency?: string;
  readonly logger?: RuntimeLogger;
  /** Told synchronously of every verdict, before anything is sent. */
  readonly onVerdict?: (verdict: IntentVerdict) => void;
}

/**
 * The risk-checked path from strategies to the venue, and the account as strategies see it.
 * Implements the runtime's {@link IntentSink}: every intent is evaluated by the {@link RiskGate}
 * against a {@link RiskState} this pipeline keeps current (books, open orders with their
 * reservation keys, positions, balances, equity); a denial comes back on `reports$`, a pass goes
 * to the {@link ExecutionAdapter}. Implements {@link AccountSource} for the engine: order updates
 * (attributed to intents) and balances, each exactly once.
 *
 * Reservations follow the orders (see {@link reservationKey}); a fill releases its share and debits what
 * it spent; a final status releases the rest; an accepted replace moves the old order's funds to
 * the new one, sized for what is left to execute.
 */
export class TradingPipeline implements IntentSink, AccountSource {
  readonly risk: RiskState;
  readonly equity: EquityTracker | undefined;
  private readonly answers = new Subject<StrategyReport>();
  private readonly updates = new Subject<OrderUpdateReport>();
  private readonly subscriptions: Subscription[] = [];
  private readonly logger: RuntimeLogger;
  private readonly strategies = new Set<string>();
  private readonly instrumentBySymbol = new Map<string, Instrument>();
  /** Filled quantity a reservation's order had before the reservation was made (replacements), by key id. */
  private readonly fillOffsets = new Map<string, Decimal>();
  private flattened = false;
  /** Live legs per shared reservation (by key id): one-cancels-other groups. */
  private readonly shared = new Map<string, Set<string>>();
  /** Reservations made after the fact (adopted orders, activated list secondaries), by key id: once each. */
  private readonly reservedLate = new Set<string>();
  /** Order updates from before the engine subscribed (reconciliation at start): handed over on subscription. */
  private held: OrderUpdateReport[] | undefined = [];
  readonly reports$: Observable<StrategyReport> = this.answers.asObservable();
  /** Order updates; the first subscriber also gets those of the start-up reconciliation. */
  readonly orderReports$: Observable<OrderUpdateReport> = new Observable<OrderUpdateReport>((subscriber) => {
    const subscription = this.updates.subscribe(subscriber);
    const held = this.held;
    this.held = undefined;
    if (held !== undefined) for (const report of held) subscriber.next(report);
    return subscription;
  });
  /** Balance updates; each subscriber starts with the balances known so far. */
  readonly balances$: Observable<readonly TradingBalance[]>;

  constructor(private readonly options: TradingPipelineOptions) {
    this.logger = options.logger ?? SILENT_LOGGER;
    this.risk = new RiskState(options.ledger, options.rateWindow, riskAccountView(options.executor.account, options.instruments));
    for (const instrument of options.instruments) {
      this.risk.instruments.set(instrument.symbol, instrument);
      this.instrumentBySymbol.set(instrument.symbol, instrument);
    }
    this.balances$ = new Observable<readonly TradingBalance[]>((subscriber) => {
      const known = options.executor.account.balances();
      if (known.length > 0) subscriber.next(known);
      return options.executor.balances$.subscribe(subscriber);
    });
    const kill = options.gate.config.killSwitch;
    const currency = options.equityCurrency ?? options.instruments[0]?.quoteCurrency;
    if ((kill.maxDrawdown !== undefined || kill.maxDailyLoss !== undefined) && currency !== undefined) {
      this.equity = new EquityTracker(currency, {
        balances: () => [...accountTotals(options.executor.account, options.instruments, (symbol) => this.risk.book(symbol))],
        instruments: options.instruments,
        book: (symbol) => this.risk.book(symbol),
      });
    }
  }

  /**
   * Listens to the books and last prices (for pricing), the adapter's reports and balances. Call before the
   * adapter's `start()`, so the reconciliation's balances and adopted orders are seen.
   */
  connect(books$: Observable<BookEvent>, market$?: Observable<MarketEvent>): void {
    const executor = this.options.executor;
    const lastPrices = this.risk.lastPrices;
    if (market$ !== undefined) {
      this.subscriptions.push(market$.subscribe((event) => {
        if (event.kind === 'trades') {
          const last = event.trades[event.trades.length - 1];
          if (last !== undefined) lastPrices.set(event.symbol, last.price);
        } else if (event.kind === 'candles') {
          const last = event.candles[event.candles.length - 1];
          if (last !== undefined) lastPrices.set(event.symbol, last.close);
        }
      }));
    }
    this.subscriptions.push(
      books$.subscribe((event) => {
        if (event.kind === 'stale') this.risk.books.delete(event.symbol);
        else this.risk.books.set(event.symbol, event.book);
      }),
      executor.balances$.subscribe((balances) => this.onBalances(balances)),
      executor.reports$.subscribe((report) => this.onExecutorReport(report)),
    );
  }

  /**
   * After the adapter's start-up reconciliation: every open order it found (adopted, or restored
   * from the journal) gets a reservation for what it may still spend, and the strategies that own
   * orders count in the bot's positions.
   */
  syncAll(): void {
    for (const tracker of this.options.executor.account.all()) {
      if (tracker.info.strategyId !== undefined) this.strategies.add(tracker.info.strategyId);
      this.syncOrder(tracker, true);
    }
  }

  /** Stops listening and completes the report streams. */
  close(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    this.answers.complete();
    this.updates.complete();
  }

  submit(intent: Intent): void {
    this.strategies.add(intent.strategyId);
    this.risk.now = this.options.clock.now();
    this.refreshEquity();
    const verdict = this.options.gate.evaluate(intent, this.risk);
    if (verdict.kind === 'denied') {
      this.logger.log('warn', 'intent denied', { intentId: intent.intentId, kind: intent.kind, check: verdict.check, reason: verdict.reason });
      this.options.onVerdict?.(verdict);
      this.answers.next(verdict);
      return;
    }
    this.options.onVerdict?.({ kind: 'passed', intent });
    this.options.executor.submit(intent);
  }

  flush(): void {
    this.options.executor.flush();
  }

  /** Intents handed to the adapter whose answers have not all come. */
  get inFlight(): number {
    return this.options.executor.inFlight;
  }

  private onExecutorReport(report: StrategyReport): void {
    switch (report.kind) {
      case 'order':
        if (report.report.liquidation === true) this.logLiquidation(report.report);
        this.onOrderUpdate(report);
        if (this.held !== undefined) this.held.push(report);
        else this.updates.next(report);
        return;
      case 'accepted':
        this.onAccepted(report);
        this.answers.next(report);
        return;
      case 'rejected':
        this.logger.log('warn', 'intent rejected', { intentId: report.intent.intentId, kind: report.intent.kind, code: report.code, message: report.message });
        this.onRejected(report);
        this.answers.next(report);
        return;
      case 'denied':
        this.answers.next(report);
    }
  }

  private logLiquidation(r: OrderReport): void {
    this.logger.log('warn', 'position liquidated', {
      symbol: r.symbol, side: r.side, quantity: r.trade_quantity?.toFixed(), price: r.trade_price?.toFixed(), fee: r.trade_fee?.toFixed(),
      positionId: r.trade_position_id, clientOrderId: r.client_order_id,
    });
  }

  private onOrderUpdate(update: OrderUpdateReport): void {
    const r = update.report;
    const tracker = this.options.executor.account.get(r.client_order_id);
    if (tracker === undefined) return;
    if (r.report_type === 'trade' && r.trade_quantity !== undefined && r.trade_price !== undefined) {
      const key = reservationKey(tracker);
      const offset = this.fillOffsets.get(key.id) ?? ZERO;
      this.options.ledger.fill(key, r.quantity_cumulative.minus(offset), this.spentBy(tracker, r.trade_quantity, r.trade_price, r.trade_fee));
    }
    this.syncOrder(tracker);
    if (r.original_client_order_id !== undefined && r.original_client_order_id !== r.client_order_id) {
      const old = this.options.executor.account.get(r.original_client_order_id);
      if (old !== undefined) this.syncOrder(old);
    }
    this.maybeFlatten();
  }

  private onAccepted(report: AcceptedReport): void {
    const intent = report.intent;
    const account = this.options.executor.account;
    if (intent.kind === 'replace') {
      const old = account.get(intent.clientOrderId);
      if (old !== undefined) this.syncOrder(old);
      const placed = report.orders[0];
      const tracker = placed === undefined ? undefined : account.get(placed.client_order_id);
      if (tracker !== undefined) this.moveReplacedReservation(tracker);
      return;
    }
    for (const order of report.orders) {
      const tracker = account.get(order.client_order_id);
      if (tracker === undefined) continue;
      this.options.ledger.accept(reservationKey(tracker));
      this.syncOrder(tracker);
    }
  }

  private onRejected(report: RejectedReport): void {
    const intent = report.intent;
    if (intent.kind === 'place' || intent.kind === 'closePosition' || intent.kind === 'replace') {
      this.options.ledger.release(intentKey(intent.intentId));
    } else if (intent.kind === 'orderList') {
      this.options.ledger.releaseIntent(intent.intentId);
    }
  }

  /**
   * The replacement holds funds for what it has left to execute: the old order's reservation and
   * the increase the gate reserved under the replace intent are released, and the new order's need
   * is reserved under the replace intent's key (fills so far carried over as an offset).
   */
  private moveReplacedReservation(tracker: OrderTracker): void {
    const key = reservationKey(tracker);
    this.options.ledger.release(key);
    if (!tracker.active) return;
    if (!this.reserveRemaining(tracker, key)) {
      this.logger.log('warn', 'replacement order left without a reservation', { clientOrderId: tracker.clientOrderId });
    }
    this.syncOrder(tracker);
  }

  /**
   * Brings an order's reservation to its tracker's state: released when the order ended (a
   * reservation shared by the legs of a one-cancels-other group ends with the group's last leg),
   * made late for an order holding funds on the exchange without one.
   */
  private syncOrder(tracker: OrderTracker, atStart = false): void {
    const key = reservationKey(tracker);
    const order = tracker.order;
    const members = key.kind === 'group' ? this.sharedMembers(key.id) : undefined;
    if (!tracker.active || order === undefined) {
      // A pending order (request in flight) keeps the funds the gate reserved for it.
      if (tracker.status !== 'pending') {
        members?.delete(tracker.clientOrderId);
        if (members === undefined || members.size === 0) {
          this.options.ledger.release(key);
          // A group spanning two currencies holds one reservation per currency: all end with its last leg.
          if (key.kind === 'group') this.options.ledger.releaseGroup(key.intentId, key.group);
          this.fillOffsets.delete(key.id);
          this.shared.delete(key.id);
        }
      }
      return;
    }
    members?.add(tracker.clientOrderId);
    // Orders holding funds on the exchange without a reservation of ours get one once they show up
    // active: orders found at start (adopted or restored), and OTOCO exits the primary activated.
    if (this.options.ledger.get(key) === undefined && (atStart || holdsFundsUnreserved(tracker, order)) && !this.reservedLate.has(key.id)) {
      this.reservedLate.add(key.id);
      this.reserveRemaining(tracker, key);
    }
  }

  /**
   * Holds what a live order may still spend, under `key`, with its fills so far as the offset.
   * Reserved even above the free funds (capped at them): the exchange already holds these funds
   * for the order. Returns false when nothing could be held.
   */
  private reserveRemaining(tracker: OrderTracker, key: ReservationKey): boolean {
    const order = tracker.order;
    const instrument = this.instrumentBySymbol.get(tracker.info.symbol);
    if (order === undefined || instrument === undefined) return false;
    // An order nothing has filled of yet (a replacement, as a rule) needs no subtraction.
    const remaining = tracker.quantityCumulative.isZero() ? order.quantity : order.quantity.minus(tracker.quantityCumulative);
    if (!remaining.isPositive() || remaining.isZero()) return false;
    const need = fundsFor({
      symbol: order.symbol, side: order.side, type: order.type, quantity: remaining, price: order.price,
      stopPrice: order.stop_price, reduceOnly: order.reduce_only, key,
    }, instrument, this.risk, this.options.gate.config);
    if (isDenial(need) || need.amount.isZero()) return false;
    const ledger = this.options.ledger;
    const held = need.amount.min(ledger.free(need.currency).max(Funds.ZERO));
    if (!ledger.reserve(key, need.currency, held, remaining)) return false;
    ledger.accept(key);
    this.fillOffsets.set(key.id, tracker.quantityCumulative);
    return true;
  }

  /** What a fill spent of its reservation's currency: quote (plus a quote fee) for a spot buy, base for a sell, nothing on margin. */
  private spentBy(tracker: OrderTracker, quantity: Decimal, price: Decimal, fee: Decimal | undefined): Funds {
    const instrument = this.instrumentBySymbol.get(tracker.info.symbol);
    if (instrument === undefined || tradesOnMargin(instrument, this.risk)) return Funds.ZERO;
    if (tracker.info.side === 'sell') return Funds.of(quantity, tracker.info.symbol, 'trade quantity');
    const feeInQuote = fee !== undefined && instrument.info.fee_currency === instrument.quoteCurrency ? fee : ZERO;
    return Funds.of(quantity.times(price).plus(feeInQuote), tracker.info.symbol, 'trade cost');
  }

  private sharedMembers(key: string): Set<string> {
    let members = this.shared.get(key);
    if (members === undefined) this.shared.set(key, (members = new Set()));
    return members;
  }

  private onBalances(balances: readonly TradingBalance[]): void {
    for (const b of balances) {
      if (b.currency !== undefined) this.options.ledger.setBalance(b.currency, b.available.plus(b.reserved));
    }
  }

  private refreshEquity(): void {
    if (this.equity === undefined) return;
    if (this.equity.update(this.risk.now)) this.risk.equity = this.equity;
  }

  /** Kill switch with `flatten`: once engaged, cancel each strategy's orders and close its positions, once. */
  private maybeFlatten(): void {
    if (this.equity === undefined || this.flattened) return;
    this.risk.now = this.options.clock.now();
    this.refreshEquity();
    if (!shouldFlatten(this.risk, this.options.gate.config)) return;
    this.flattened = true;
    this.logger.log('error', 'kill switch engaged: flattening', { equity: this.equity.current.toFixed(), peak: this.equity.peak.toFixed() });
    this.flatten([...this.strategies], 0);
  }

  /**
   * Cancels each strategy's orders and waits for the answers before closing its positions: a close
   * sent beside the cancels would be refused for funds the resting orders still hold. Strategies
   * are flattened one after the other, from `index` on.
   */
  private flatten(strategyIds: readonly string[], index: number): void {
    const strategyId = strategyIds[index];
    if (strategyId === undefined) return;
    const [cancelAll, ...closes] = flattenIntents(this.risk, strategyId);
    const closePositions = (): void => {
      this.risk.now = this.options.clock.now();
      for (const intent of closes) this.submit({ ...intent, intentId: `${intent.intentId}-${strategyId}` });
      this.flush();
      this.flatten(strategyIds, index + 1);
    };
    if (cancelAll === undefined) return closePositions();
    this.options.onVerdict?.({ kind: 'passed', intent: cancelAll });
    this.options.executor.submit(cancelAll, closePositions);
    this.flush();
  }
}

function holdsFundsUnreserved(tracker: OrderTracker, order: NonNullable<OrderTracker['order']>): boolean {
  if (tracker.intentId === undefined) return true;
  return order.contingency_type === 'oneTriggerOneCancelOther' && (tracker.info.leg ?? 0) > 0 && order.inactive !== true;
}
