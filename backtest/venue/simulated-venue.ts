import { Decimal, isDecimalString, type Decimal as DecimalValue } from '../../framework/model/decimal.js';
import { ErrorCode } from '../../framework/exchange/errors.js';
import type { Instrument } from '../../framework/model/instrument.js';
import type { TradingBalance, WalletBalance } from '../../framework/model/resources/balance.js';
import type { Order } from '../../framework/model/resources/order.js';
import type { TradeHistoryRecord } from '../../framework/model/resources/trade-history.js';
import { expiryTime } from './expiry.js';
import type { AccountBalances } from './ledger.js';
import { afterClose, cancelWithList } from './list-effects.js';
import { placeList } from './list-placement.js';
import { applyBookFrames, applyMarketEvents, applyMarketFrame } from './market-frames.js';
import type { BookFrame } from '../../framework/exchange/book/order-book-frame.js';
import type { MarketEvent } from '../../framework/model/stream/market-events.js';
import type { SymbolMarket } from './matching/market-port.js';
import { placeSingle } from './order-placement.js';
import type { VenueHistoryOptions } from './venue-history.js';
import { replaceOrder } from './order-replace.js';
import { isActive, toOrder, type OrderRecord } from './order-state.js';
import { invalid, validateNewOrder, type ValidationContext } from './order-validation.js';
import { VenueEngine } from './venue-engine.js';
import { activeOrdersOf } from './active-orders.js';
import { moveFunds } from './funds-transfer.js';
import { liquidateIfDue } from './futures/liquidation.js';
import { SimulatedFuturesVenue } from './futures/simulated-futures-venue.js';
import type { FuturesVenueOptions } from './futures/futures-terms.js';
import type { MarginVenueOptions } from './margin/margin-terms.js';
import { SimulatedMarginVenue } from './margin/simulated-margin-venue.js';
import {
  VenueRejection, type AccountId, type NewOrderRequest, type OrderListRequest, type ReplaceOrderRequest, type TransferRequest,
  type Venue, type VenueEvent,
} from './venue-types.js';

/** Builds the matching model of one symbol. */
export type SymbolMarketFactory = (instrument: Instrument) => SymbolMarket;

/**
 * Options of {@link SimulatedVenue}: how much closed-order history it keeps (see
 * {@link VenueHistoryOptions}), its futures settings (see {@link FuturesVenueOptions}) and its
 * isolated margin settings (see {@link MarginVenueOptions}).
 */
export type SimulatedVenueOptions = VenueHistoryOptions & { readonly futures?: FuturesVenueOptions; readonly margin?: MarginVenueOptions };

/**
 * The simulated exchange behind both the sandbox server and the backtester (see {@link Venue}).
 *
 * Model and assumptions:
 * - Our orders trade only with the outside market (the recorded book and trades), modeled by one
 *   {@link SymbolMarket} per symbol; the outside is an infinite counterparty whose net flows are
 *   tracked ({@link outsideFlow}) so funds conservation can be audited.
 * - Fees are exact (no rounding to currency precision); fee currencies must be the symbol's base or
 *   quote currency.
 * - Every request is processed at {@link now} and gets a request id from a counter
 *   ({@link lastRequestId}), the cause of everything it makes happen.
 * - Futures symbols trade against futures accounts (margin, positions, leverage, risk limit, marks,
 *   funding and liquidation: see `venue.futures` and the modules under `futures/`, each stating its
 *   rules); spot paths are untouched by them.
 * - Spot symbols with margin trading have isolated margin accounts trading positions by the same
 *   rules (`venue.margin`, the modules under `margin/`).
 * - Pure and deterministic: no clock, timer or random source.
 */
export class SimulatedVenue implements Venue {
  private readonly engine: VenueEngine;
  private requestSeq = 0;
  private exchangeOpen = true;
  private readonly currencies = new Set<string>();
  /** Futures accounts, positions, marks and funding (see {@link SimulatedFuturesVenue}). */
  readonly futures: SimulatedFuturesVenue;
  /** Isolated margin accounts, their orders and positions (see {@link SimulatedMarginVenue}). */
  readonly margin: SimulatedMarginVenue;

  constructor(
    instruments: ReadonlyMap<string, Instrument> | readonly Instrument[],
    balances: Readonly<Record<AccountId, AccountBalances>>,
    marketFactory: SymbolMarketFactory,
    listener: (event: VenueEvent) => void,
    startTime: number,
    options: SimulatedVenueOptions = {},
  ) {
    const map = new Map<string, Instrument>();
    for (const inst of Array.isArray(instruments) ? (instruments as readonly Instrument[]) : [...(instruments as ReadonlyMap<string, Instrument>).values()]) {
      const { fee_currency: fee, quote_currency: quote, base_currency: base } = inst.info;
      if (fee !== quote && fee !== base) throw new Error(`${inst.symbol}: fee_currency ${fee} must be the base or quote currency`);
      map.set(inst.symbol, inst);
      this.currencies.add(quote);
      if (base !== null) this.currencies.add(base);
    }
    for (const b of Object.values(balances)) {
      for (const c of [...Object.keys(b.spot ?? {}), ...Object.keys(b.wallet ?? {}), ...Object.keys(b.futures ?? {})]) this.currencies.add(c);
    }
    const { futures, margin, ...history } = options;
    this.engine = new VenueEngine(map, balances, marketFactory, listener, startTime, history, futures, margin);
    const host = {
      engine: this.engine,
      begin: (account: AccountId) => this.begin(account),
      context: () => this.context(),
      advanceTo: (time: number) => this.advanceTo(time),
    };
    this.futures = new SimulatedFuturesVenue(host);
    this.margin = new SimulatedMarginVenue(host);
  }

  now(): number {
    return this.engine.time;
  }

  /** Id of the latest request (the `requestId` of the events it caused). */
  get lastRequestId(): number {
    return this.requestSeq;
  }

  /** Opens or closes the whole exchange: while closed, new orders are refused with 20010. */
  setExchangeOpen(open: boolean): void {
    this.exchangeOpen = open;
  }

  advanceTo(time: number): void {
    const engine = this.engine;
    if (!(time > engine.time)) return;
    for (let entry = engine.expiries.popDue(time); entry !== undefined; entry = engine.expiries.popDue(time)) {
      if (entry.time > engine.time) engine.time = entry.time;
      const order = engine.orders.get(entry.orderKey);
      if (order === undefined || !isActive(order) || expiryTime(order.timeInForce, order.createdAt, order.expireTime) !== entry.time) continue;
      engine.cause = { kind: 'timer', time: entry.time, reason: entry.reason };
      engine.close(order, 'expired', 'expired');
      afterClose(engine, order);
      engine.commit();
    }
    if (engine.funding.earliest() <= time) {
      engine.funding.applyDue(engine, time);
      liquidateIfDue(engine);
      engine.commit();
    }
    if (engine.contractExpiry.earliest() <= time) {
      engine.contractExpiry.settleDue(engine, time);
      engine.commit();
    }
    engine.time = time;
  }

  onMarketFrame(frame: unknown, receivedAt: number): void {
    this.advanceTo(receivedAt);
    applyMarketFrame(this.engine, frame, receivedAt);
    liquidateIfDue(this.engine);
  }

  /** {@link onMarketFrame} for a frame the caller parsed already (book frames, or market events). */
  onParsedMarket(books: readonly BookFrame[], events: readonly MarketEvent[], receivedAt: number): void {
    this.advanceTo(receivedAt);
    if (books.length > 0) applyBookFrames(this.engine, books);
    if (events.length > 0) applyMarketEvents(this.engine, events);
    liquidateIfDue(this.engine);
  }

  /**
   * True when no order of any account works on `symbol` (none rests on its book, none waits for
   * its trigger): public trades of it then move nothing but its last price. A read, no request.
   */
  hasNoOrdersOn(symbol: string): boolean {
    for (const order of this.engine.orders.values()) if (order.instrument.symbol === symbol) return false;
    return true;
  }

  placeOrder(account: AccountId, request: NewOrderRequest): Order {
    this.begin(account);
    return toOrder(placeSingle(this.engine, account, validateNewOrder(request, this.context())));
  }

  placeOrderList(account: AccountId, request: OrderListRequest): Order[] {
    this.begin(account);
    return placeList(this.engine, account, request, this.context()).map((r) => toOrder(r));
  }

  replaceOrder(account: AccountId, request: ReplaceOrderRequest): Order {
    this.begin(account);
    return toOrder(replaceOrder(this.engine, account, request));
  }

  cancelOrder(account: AccountId, clientOrderId: string): Order {
    this.begin(account);
    const order = this.active(account, clientOrderId);
    cancelWithList(this.engine, order);
    this.engine.commit();
    return toOrder(order);
  }

  cancelAll(account: AccountId, symbol?: string): Order[] {
    this.begin(account);
    const out: Order[] = [];
    for (const order of this.activeOrders(account, symbol)) {
      if (!isActive(order)) continue;
      cancelWithList(this.engine, order);
      out.push(toOrder(order));
    }
    this.engine.commit();
    return out;
  }

  getOpenOrder(account: AccountId, clientOrderId: string): Order {
    this.begin(account);
    return toOrder(this.active(account, clientOrderId));
  }

  openOrders(account: AccountId, symbol?: string): Order[] {
    this.begin(account);
    return this.activeOrders(account, symbol).map((o) => toOrder(o));
  }

  orderHistory(account: AccountId): Order[] {
    this.begin(account);
    const open = this.activeOrders(account).map((o) => toOrder(o, true));
    return [...open, ...this.engine.history.closedOrders(account, this.engine.time)].sort(
      (a, b) => b.updated_at - a.updated_at || Number(b.id) - Number(a.id),
    );
  }

  tradeHistory(account: AccountId): readonly TradeHistoryRecord[] {
    this.begin(account);
    return this.engine.history.tradeHistory(account);
  }

  spotBalances(account: AccountId): TradingBalance[] {
    this.begin(account);
    return this.engine.ledger.spotBalances(account);
  }

  walletBalances(account: AccountId): WalletBalance[] {
    this.begin(account);
    return this.engine.ledger.walletBalances(account);
  }

  transfer(account: AccountId, request: TransferRequest): string {
    this.begin(account);
    const { currency, amount, source, destination } = request;
    const pockets: readonly string[] = ['wallet', 'spot'];
    if (!pockets.includes(source)) throw invalid('source must be wallet or spot');
    if (!pockets.includes(destination)) throw invalid('destination must be wallet or spot');
    if (source === destination) throw invalid('destination must differ from source');
    if (!this.currencies.has(currency)) throw new VenueRejection(ErrorCode.CurrencyNotFound, `currency ${currency} is not known`);
    if (typeof amount !== 'string' || !isDecimalString(amount) || !new Decimal(amount).greaterThan(0)) throw invalid('amount must be a positive number');
    moveFunds(this.engine, account, currency, new Decimal(amount), source, destination);
    this.engine.commit();
    return this.engine.ids.nextTransferId();
  }

  feeRate(account: AccountId, symbol: string): { readonly take_rate: DecimalValue; readonly make_rate: DecimalValue } {
    this.begin(account);
    const inst = this.engine.instruments.get(symbol);
    if (inst === undefined) throw new VenueRejection(ErrorCode.SymbolNotFound, `symbol ${symbol} is not traded here`);
    return { take_rate: inst.info.take_rate, make_rate: inst.info.make_rate };
  }

  /** Fees the venue collected in a currency (rebates paid are negative). */
  feesCollected(currency: string): DecimalValue {
    return this.engine.feesCollected.get(currency) ?? new Decimal(0);
  }

  /** Net amount of a currency that came into the venue from the outside market through executions. */
  outsideFlow(currency: string): DecimalValue {
    return this.engine.outsideFlows.get(currency) ?? new Decimal(0);
  }

  /** Queue state of an active order in its symbol's matching model (tests, reports). */
  queueState(account: AccountId, clientOrderId: string): ReturnType<SymbolMarket['queueState']> {
    const order = this.engine.activeByClientId(account, clientOrderId);
    return order === undefined ? undefined : this.engine.market(order).queueState(order.key);
  }

  private begin(account: AccountId): void {
    this.requestSeq++;
    this.engine.cause = { kind: 'request', requestId: this.requestSeq };
    if (!this.engine.ledger.hasAccount(account)) throw new VenueRejection(ErrorCode.AuthorizationFailed, `unknown account ${account}`);
  }

  private context(): ValidationContext {
    return { instruments: this.engine.instruments, exchangeOpen: this.exchangeOpen, now: this.engine.time };
  }

  private active(account: AccountId, clientOrderId: string): OrderRecord {
    const order = this.engine.activeByClientId(account, clientOrderId);
    if (order === undefined || !isActive(order) || order.margin) throw new VenueRejection(ErrorCode.OrderNotFound, `no active order ${clientOrderId}`);
    return order;
  }

  private activeOrders(account: AccountId, symbol?: string): OrderRecord[] {
    return activeOrdersOf(this.engine, account, false, symbol);
  }
}
