import { Decimal, ZERO } from '../../framework/model/decimal.js';
import type { Instrument } from '../../framework/model/instrument.js';
import type { OrderStatus, OrderTrade } from '../../framework/model/resources/order.js';
import type { ReportType } from '../../framework/model/stream/order-report.js';
import { Funds } from '../../framework/model/funds.js';
import { expiryTime, ExpiryQueue } from './expiry.js';
import { tradeFee } from './fees.js';
import { lotsDecimal, ticksDecimal } from './grid-decimals.js';
import { Ledger, type AccountBalances } from './ledger.js';
import type { SymbolMarket, MatchFill } from './matching/market-port.js';
import type { ListRole, ListState } from './order-lists.js';
import { isActive, remainingLots, toReport, transition, type OrderRecord } from './order-state.js';
import { limitNeed, limitNeedOnGrid, marketNeed, receiveCurrency, Reservations, spendCurrency, type ReservationNeed } from './reservations.js';
import { hasLimitPrice, isConditionalType } from './triggers.js';
import { ClientOrderIdRegistry, VenueIds } from './venue-ids.js';
import { FuturesAccounts } from './futures/futures-accounts.js';
import { positionOrderNeed } from './futures/futures-margin-need.js';
import { settlePosition } from './futures/futures-settlement.js';
import { futuresTerms, type FuturesTerms, type FuturesVenueOptions } from './futures/futures-terms.js';
import { marginTerms, type MarginVenueOptions } from './margin/margin-terms.js';
import { marginFundsPort } from './margin/margin-funds.js';
import { MarkPrices } from './futures/mark-prices.js';
import { emitPositionChanges } from './futures/position-events.js';
import { parsePocketKey, type PositionBook } from './futures/position-book.js';
import { FundingSchedule } from './futures/funding.js';
import type { MarginFundsPort } from './funds-transfer.js';
import { ContractExpiry } from './futures/contract-expiry.js';
import { PositionHistory } from './futures/position-history.js';
import { LiquidationGate, type LiquidationRecord } from './futures/liquidation.js';
import { VenueHistory, type VenueHistoryOptions } from './venue-history.js';
import type { AccountId, EventCause, VenueEvent } from './venue-types.js';

/** Where an order sits in its list. */
export interface ListMembership {
  readonly list: ListState;
  readonly role: ListRole;
}

/**
 * The venue's state and the operations every request and market event is built from: reports in
 * causal order, reservations kept equal to what open orders need, executions settled exactly.
 * Request handling lives in `SimulatedVenue`, activation and list effects in their own modules.
 */
export class VenueEngine {
  time: number;
  cause: EventCause = { kind: 'request', requestId: 0 };
  readonly ids = new VenueIds();
  readonly clientIds = new ClientOrderIdRegistry();
  readonly ledger: Ledger;
  readonly reservations = new Reservations();
  readonly history: VenueHistory;
  readonly expiries = new ExpiryQueue();
  /** Active orders (new, suspended, partiallyFilled, inactive list secondaries) by key. */
  readonly orders = new Map<number, OrderRecord>();
  readonly byClientId = new Map<AccountId, Map<string, OrderRecord>>();
  readonly membership = new Map<number, ListMembership>();
  /** Keys of suspended (untriggered, activated) conditional orders per symbol. */
  readonly suspended = new Map<string, Set<number>>();
  readonly markets = new Map<string, SymbolMarket>();
  /** Fees collected by the venue per currency (rebates paid are negative). */
  readonly feesCollected = new Map<string, Decimal>();
  /** Net amount per currency that came into the venue from the outside market (the counterparty). */
  readonly outsideFlows = new Map<string, Decimal>();
  /** Futures accounts: margin balances, positions and leverage of every account. */
  readonly futures: FuturesAccounts;
  /** Mark prices of the futures symbols. */
  readonly marks: MarkPrices;
  readonly futuresOptions: FuturesVenueOptions;
  /** Funding times and rates of the perpetuals. */
  readonly funding: FundingSchedule;
  /** Settlement of cash-settled contracts at expiry. */
  readonly contractExpiry: ContractExpiry;
  /** Closed positions of the futures accounts. */
  readonly positionHistory = new PositionHistory();
  /** Skips liquidation checks when nothing they read moved. */
  readonly liquidationGate = new LiquidationGate();
  /** Isolated margin accounts: margin balance, position and leverage per account and spot symbol. */
  readonly margin: FuturesAccounts;
  /** The futures accounts with their position history and liquidation gate. */
  readonly futuresBook: PositionBook;
  /** The isolated margin accounts with their position history and liquidation gate. */
  readonly marginBook: PositionBook;
  /** Forced closes, in order. */
  readonly liquidations: LiquidationRecord[] = [];
  /** What the insurance fund paid per currency to cover liquidation deficits. */
  readonly insurancePaid = new Map<string, Decimal>();
  /**
   * The isolated margin accounts' side of transfers (`funds-transfer.ts`): set when the venue has
   * symbols with margin trading (`margin/margin-funds.ts`); without, a transfer to or from margin is refused.
   */
  marginFunds: MarginFundsPort | undefined = undefined;
  private nextKey = 1;
  private readonly dirty = new Map<string, { account: AccountId; currency: string }>();

  constructor(
    readonly instruments: ReadonlyMap<string, Instrument>,
    balances: Readonly<Record<AccountId, AccountBalances>>,
    marketFactory: (instrument: Instrument) => SymbolMarket,
    private readonly listener: (event: VenueEvent) => void,
    startTime: number,
    historyOptions: VenueHistoryOptions = {},
    futuresOptions: FuturesVenueOptions = {},
    marginOptions: MarginVenueOptions = {},
  ) {
    this.time = startTime;
    this.history = new VenueHistory(historyOptions);
    this.ledger = new Ledger(balances);
    for (const [symbol, instrument] of instruments) this.markets.set(symbol, marketFactory(instrument));
    this.futuresOptions = futuresOptions;
    const configs = new Map((futuresOptions.configs ?? []).map((c) => [c.symbol, c]));
    const terms = new Map<string, FuturesTerms>();
    for (const [symbol, instrument] of instruments) {
      if (instrument.info.type === 'futures') terms.set(symbol, futuresTerms(instrument, configs.get(symbol), futuresOptions));
    }
    this.marks = new MarkPrices(instruments, this.markets);
    const initialFutures = Object.fromEntries(Object.entries(balances).map(([account, b]) => [account, b.futures]));
    this.futures = new FuturesAccounts(terms, instruments, initialFutures, (symbol) => this.marks.markOf(symbol));
    this.futures.takeChanges();
    this.futuresBook = { name: 'futures', accounts: this.futures, history: this.positionHistory, gate: this.liquidationGate };
    const margined = new Map<string, FuturesTerms>();
    for (const [symbol, instrument] of instruments) {
      const t = marginTerms(instrument, marginOptions);
      if (t !== undefined) margined.set(symbol, t);
    }
    const initialMargin = Object.fromEntries(Object.entries(balances).map(([account, b]) => [account, b.margin]));
    for (const [account, funds] of Object.entries(initialMargin)) {
      for (const symbol of Object.keys(funds ?? {})) {
        if (!margined.has(symbol)) throw new Error(`initial margin balance of ${account}: ${symbol} is not a symbol with margin trading`);
      }
    }
    this.margin = new FuturesAccounts(margined, instruments, initialMargin, (symbol) => this.marks.markOf(symbol));
    this.margin.takeChanges();
    this.marginBook = { name: 'margin', accounts: this.margin, history: new PositionHistory(), gate: new LiquidationGate() };
    if (margined.size > 0) this.marginFunds = marginFundsPort(this.margin);
    const perpetuals = [...terms.values()].filter((t) => t.perpetual).map((t) => t.symbol).sort();
    const expiries = new Map<string, number>();
    for (const [symbol, instrument] of instruments) {
      if (instrument.info.type === 'futures' && instrument.info.contract_type === 'cash_settled' && instrument.info.expiry !== null) expiries.set(symbol, instrument.info.expiry);
    }
    this.contractExpiry = new ContractExpiry(expiries);
    this.funding = new FundingSchedule(perpetuals, startTime, futuresOptions.fundingIntervalMs, futuresOptions.defaultFundingRate);
  }

  /** A fresh matching-model key. */
  newKey(): number {
    return this.nextKey++;
  }

  market(order: OrderRecord): SymbolMarket {
    const m = this.markets.get(order.instrument.symbol);
    if (m === undefined) throw new Error(`no market for ${order.instrument.symbol}`);
    return m;
  }

  /** The active order of an account with this client_order_id. */
  activeByClientId(account: AccountId, clientOrderId: string): OrderRecord | undefined {
    return this.byClientId.get(account)?.get(clientOrderId);
  }

  /** Makes the record active and findable; records its client_order_id for the day. */
  register(order: OrderRecord): void {
    this.orders.set(order.key, order);
    let map = this.byClientId.get(order.account);
    if (map === undefined) {
      map = new Map();
      this.byClientId.set(order.account, map);
    }
    map.set(order.clientOrderId, order);
    this.clientIds.record(order.account, order.clientOrderId, this.time);
    const expiry = expiryTime(order.timeInForce, order.createdAt, order.expireTime);
    if (expiry !== undefined) this.expiries.add({ time: expiry, orderKey: order.key, reason: order.timeInForce === 'Day' ? 'expire-day' : 'expire-gtd' });
  }

  /** Removes the record from the active indexes (the key stays valid for a replacement). */
  unregister(order: OrderRecord): void {
    if (this.orders.get(order.key) === order) this.orders.delete(order.key);
    const map = this.byClientId.get(order.account);
    if (map?.get(order.clientOrderId) === order) map.delete(order.clientOrderId);
    this.suspended.get(order.instrument.symbol)?.delete(order.key);
  }

  /** Parks a conditional order until its trigger. */
  park(order: OrderRecord): void {
    let set = this.suspended.get(order.instrument.symbol);
    if (set === undefined) {
      set = new Set();
      this.suspended.set(order.instrument.symbol, set);
    }
    set.add(order.key);
  }

  /** Emits any venue event (the futures modules' own events). */
  emit(event: VenueEvent): void {
    this.listener(event);
  }

  /** The position book an order trades in: futures for a contract, margin for a margin order, none on spot. */
  bookOf(order: OrderRecord): PositionBook | undefined {
    if (order.margin) return this.marginBook;
    return order.instrument.info.type === 'futures' ? this.futuresBook : undefined;
  }

  /** Emits an order report with the current cause (`margin` set on a margin order's). */
  report(order: OrderRecord, reportType: ReportType, trade?: OrderTrade): void {
    this.listener({ kind: 'order', account: order.account, report: toReport(order, reportType, trade), cause: this.cause, margin: order.margin ? true : undefined });
  }

  /** What the order must hold now (undefined: nothing). */
  needOf(order: OrderRecord): ReservationNeed | undefined {
    if (!isActive(order) || order.inactive) return undefined;
    if (order.margin) return positionOrderNeed(this, this.marginBook, order);
    if (order.instrument.info.type === 'futures') return positionOrderNeed(this, this.futuresBook, order);
    if (order.marketBudget !== undefined) {
      const currency = spendCurrency(order.instrument, order.side);
      return { currency, amount: Funds.of(order.marketBudget, currency, 'market budget') };
    }
    const lots = remainingLots(order);
    const inst = order.instrument;
    if (hasLimitPrice(order.type)) return limitNeedOnGrid(inst, order.side, order.priceTicks as number, lots, order.rates);
    const quantity = lotsDecimal(inst, lots);
    if (isConditionalType(order.type)) return marketNeed(inst, order.side, ticksDecimal(inst, order.stopTicks as number), quantity, order.rates);
    // A market sell in flight; a market buy always carries a budget.
    return limitNeed(inst, order.side, ZERO, quantity, order.rates);
  }

  /** Sets what the order holds; the ledger follows at the next {@link commit}. */
  hold(order: OrderRecord, need: ReservationNeed | undefined): void {
    const currency = this.reservations.set(order.key, order.account, order.reserveGroup, need);
    if (currency !== undefined) this.dirty.set(`${order.account}\u0000${currency}`, { account: order.account, currency });
  }

  /** True when the account can hold `need` for the order on top of everything else it holds. */
  fits(order: OrderRecord, need: ReservationNeed): boolean {
    const target = this.reservations.totalWith(order.key, order.account, order.reserveGroup, need);
    return this.canHold(order.account, need.currency, target);
  }

  /** True when the account's reserved total in `currency` (spot, or a futures or margin pocket key) could be `target`. */
  canHold(account: AccountId, currency: string, target: Funds): boolean {
    const pocket = parsePocketKey(currency);
    if (pocket !== undefined) return this.accountsOf(pocket.book).canReserve(account, pocket.pocket, target.toDecimal());
    return this.ledger.canReserve(account, currency, target);
  }

  private accountsOf(book: PositionBook['name']): FuturesAccounts {
    return book === 'margin' ? this.margin : this.futures;
  }

  /** Brings ledger reservations to what the orders hold and emits the balance changes. */
  commit(): void {
    // Called after every request and market frame; most change nothing, so the loops are skipped
    // without creating their iterators.
    if (this.dirty.size > 0) {
      for (const { account, currency } of this.dirty.values()) {
        const pocket = parsePocketKey(currency);
        if (pocket !== undefined) this.accountsOf(pocket.book).setOrdersReserved(account, pocket.pocket, this.reservations.total(account, currency).toDecimal());
        else this.ledger.setReserved(account, currency, this.reservations.total(account, currency));
      }
      this.dirty.clear();
    }
    if (this.futures.terms.size > 0) emitPositionChanges(this.futuresBook, this.listener);
    if (this.margin.terms.size > 0) emitPositionChanges(this.marginBook, this.listener);
    const changes = this.ledger.takeChanges();
    if (changes.spot.size > 0) {
      for (const [account, currencies] of changes.spot) {
        this.listener({ kind: 'balance', account, balances: this.ledger.spotBalances(account, currencies) });
      }
    }
    if (changes.wallet.size > 0) {
      for (const [account, currencies] of changes.wallet) {
        this.listener({ kind: 'wallet', account, balances: this.ledger.walletBalances(account, currencies) });
      }
    }
  }

  /**
   * Closes an order as canceled, expired or (replace) replaced: leaves the book, releases its funds,
   * moves to history, reports. The caller applies list effects.
   */
  close(order: OrderRecord, status: Extract<OrderStatus, 'canceled' | 'expired'>, reportType: ReportType): void {
    if (order.resting) {
      this.market(order).remove(order.key);
      order.resting = false;
    }
    transition(order, status, this.time);
    order.marketBudget = undefined;
    this.hold(order, undefined);
    this.unregister(order);
    this.history.addClosed(order.account, order, this.time);
    this.report(order, reportType);
  }

  /**
   * Settles one execution: moves the funds (spend from reserved, proceeds to available, fee in the
   * fee currency), records the trade, updates status and holding, reports `trade`. Returns false
   * when the fill belongs to no active order (a list leg canceled earlier in the same batch).
   */
  settle(fill: MatchFill): boolean {
    const order = this.orders.get(fill.orderKey);
    if (order === undefined || !isActive(order) || order.inactive || fill.lots <= 0) return false;
    const book = this.bookOf(order);
    if (book !== undefined) return settlePosition(this, book, order, fill);
    const inst = order.instrument;
    const price = ticksDecimal(inst, fill.priceTicks);
    const quantity = lotsDecimal(inst, fill.lots);
    const notional = price.times(quantity);
    const base = inst.baseCurrency ?? inst.quoteCurrency;
    const feeCurrency = inst.info.fee_currency;
    const fee = tradeFee(feeCurrency === inst.quoteCurrency ? notional : quantity, order.rates, fill.taker);
    const spendCur = spendCurrency(inst, order.side);
    const receiveCur = receiveCurrency(inst, order.side);
    let spend = order.side === 'buy' ? notional : quantity;
    let receive = order.side === 'buy' ? quantity : notional;
    if (feeCurrency === spendCur) spend = spend.plus(fee);
    else receive = receive.minus(fee);
    this.ledger.spendReserved(order.account, spendCur, spend);
    this.ledger.credit(order.account, receiveCur, receive);
    add(this.feesCollected, feeCurrency, fee);
    add(this.outsideFlows, base, order.side === 'buy' ? quantity : quantity.negated());
    add(this.outsideFlows, inst.quoteCurrency, order.side === 'buy' ? notional.negated() : notional);
    if (order.marketBudget !== undefined) order.marketBudget = Decimal.max(ZERO, order.marketBudget.minus(spend));
    order.cumulativeLots += fill.lots;
    order.notional = order.notional.plus(notional);
    const trade: OrderTrade = { id: this.ids.nextTradeId(), quantity, price, fee, taker: fill.taker, timestamp: this.time };
    order.trades.push(trade);
    this.history.addTrade(order.account, {
      id: trade.id, order_id: order.id, client_order_id: order.clientOrderId, symbol: inst.symbol, side: order.side,
      quantity, price, fee, timestamp: this.time, taker: fill.taker,
    });
    this.afterExecution(order, trade);
    return true;
  }

  /**
   * An execution was booked on `order` (spot or futures): its status moves on; filled, it leaves
   * the book, its funds and the live orders for the history; partly filled, it holds what its
   * remainder needs. Then its trade report goes out. Returns whether it filled.
   */
  afterExecution(order: OrderRecord, trade: OrderTrade): boolean {
    const filled = remainingLots(order) <= 0;
    transition(order, filled ? 'filled' : 'partiallyFilled', this.time);
    if (filled) {
      if (order.resting) this.market(order).remove(order.key);
      order.resting = false;
      order.marketBudget = undefined;
      this.hold(order, undefined);
      this.unregister(order);
      this.history.addClosed(order.account, order, this.time);
    } else {
      this.hold(order, this.needOf(order));
    }
    this.report(order, 'trade', trade);
    return filled;
  }

  /** Sum over accounts of a currency plus what the venue collected in fees (conservation checks). */
  heldByVenue(currency: string): Decimal {
    return this.ledger.total(currency).plus(this.futures.totalCash(currency)).plus(this.margin.totalCash(currency)).plus(this.feesCollected.get(currency) ?? ZERO);
  }
}

function add(map: Map<string, Decimal>, currency: string, amount: Decimal): void {
  map.set(currency, (map.get(currency) ?? ZERO).plus(amount));
}
