import type { OrderBook } from '../exchange/book/order-book.js';
import { Decimal } from '../model/decimal.js';
import type { Instrument, Side } from '../model/instrument.js';
import type { FuturesPositionConfig } from '../model/resources/futures-config.js';
import type { OrderType } from '../model/resources/order.js';
import { Funds } from '../model/funds.js';
import type { OrderRateWindow } from './order-rate-window.js';
import type { ReservationKey } from './reservation-key.js';
import type { ReservationLedger } from './reservation-ledger.js';

/**
 * The part of a live L2 book the checks read (prices to value and band orders; the scaled best
 * prices for the integer band test).
 */
export type RiskBook = Pick<OrderBook, 'bestBid' | 'bestAsk' | 'mid' | 'costToBuy' | 'proceedsToSell' | 'valid' | 'bestBidPrice' | 'bestAskPrice' | 'priceScale'>;

/** One of the bot's open orders as the checks see it. */
export interface OpenOrderView {
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly quantity: Decimal;
  readonly quantityCumulative: Decimal;
  readonly price?: Decimal;
  readonly stopPrice?: Decimal;
  readonly reduceOnly?: boolean;
  /** Its reservation in the ledger. */
  readonly reservationKey?: ReservationKey;
}

/** Equity figures for the kill switch, in one currency the caller chose. */
export interface EquityView {
  /** Equity now (balances valued at the mark plus unrealized PnL). */
  readonly current: Decimal;
  /** Highest equity seen since the run started (the caller keeps it, so a halt latches). */
  readonly peak: Decimal;
  /** Equity at the start of the current trading day (UTC). */
  readonly dayStart: Decimal;
}

/** A position as the checks see it: signed quantity (negative short). */
export interface PositionQuantity {
  readonly symbol: string;
  readonly quantity: Decimal;
}

/**
 * The read-only inputs a check sees. Checks are pure functions of (intent, view, config): the
 * view is assembled by the runtime from the same ledger and rate window the gate writes to, so
 * what one intent reserved is already missing from the next one's free funds.
 */
export interface RiskView {
  /** Current time from the injected Clock (ms). */
  readonly now: number;
  instrument(symbol: string): Instrument | undefined;
  /** The symbol's book; undefined when not subscribed. */
  book(symbol: string): RiskBook | undefined;
  /**
   * The last traded price of the symbol (public trades, or the close of the latest candle): what
   * values a market order when there is no book (a candle-only backtest, a book being re-synced).
   */
  lastPrice(symbol: string): Decimal | undefined;
  /** Funds not yet reserved by intents in flight or open orders (ledger's free funds). */
  freeBalance(currency: string): Funds;
  /** amount <= {@link freeBalance}, without computing the free funds when a cheaper test settles it. */
  coversFree(currency: string, amount: Funds): boolean;
  /** Funds the ledger holds under `key` now (an open order's reservation), zero when none. */
  reservedFor(key: ReservationKey): Funds;
  openOrders(symbol?: string): readonly OpenOrderView[];
  openOrder(clientOrderId: string): OpenOrderView | undefined;
  /** Signed position (spot: base held by the bot; futures: the contract position); undefined = flat. */
  position(symbol: string): Decimal | undefined;
  positions(): readonly PositionQuantity[];
  /** A futures contract's position configuration as the exchange reported it. */
  futuresConfig(symbol: string): FuturesPositionConfig | undefined;
  /** The leverage of the symbol's margin or futures account as the exchange reported it. */
  leverage(symbol: string): Decimal | undefined;
  /** The exchange's liquidation price of the symbol's open margin or futures position. */
  liquidationPrice(symbol: string): Decimal | undefined;
  /** Equity series figures; undefined disables the kill switch. */
  readonly equity: EquityView | undefined;
  /** Trading requests sent strictly after `since` (ms). */
  ordersSentAfter(since: number): number;
}

/**
 * Where a risk view reads the bot's open orders, positions and the exchange's futures terms: the
 * account state, never a copy of it.
 */
export type RiskAccountView = Pick<RiskView, 'openOrders' | 'openOrder' | 'position' | 'positions' | 'futuresConfig' | 'leverage' | 'liquidationPrice'>;

/**
 * A {@link RiskView}: books, last prices, instruments and equity kept by its owner from events;
 * funds and the rate window from the ledger and window the gate writes to; open orders and
 * positions, futures configurations and leverages read from the account (the bot's account state
 * in the runtime, fed by the exchange). Without an account (tests, benchmarks) they come from the
 * {@link orders}, {@link positionsBySymbol}, {@link futuresConfigs} and {@link leverages} maps the
 * caller fills. Checks only read it through the interface.
 */
export class RiskState implements RiskView {
  now = 0;
  equity: EquityView | undefined = undefined;
  readonly instruments = new Map<string, Instrument>();
  readonly books = new Map<string, RiskBook>();
  readonly orders = new Map<string, OpenOrderView>();
  readonly positionsBySymbol = new Map<string, Decimal>();
  readonly futuresConfigs = new Map<string, FuturesPositionConfig>();
  readonly leverages = new Map<string, Decimal>();
  readonly liquidationPrices = new Map<string, Decimal>();
  /** Last prices as text (set per trade, converted only when an order needs one). */
  readonly lastPrices = new Map<string, string>();

  constructor(
    readonly ledger: ReservationLedger,
    readonly rateWindow: OrderRateWindow,
    private readonly account: RiskAccountView | undefined = undefined,
  ) {}

  instrument(symbol: string): Instrument | undefined {
    return this.instruments.get(symbol);
  }

  book(symbol: string): RiskBook | undefined {
    return this.books.get(symbol);
  }

  lastPrice(symbol: string): Decimal | undefined {
    const text = this.lastPrices.get(symbol);
    return text === undefined ? undefined : new Decimal(text);
  }

  freeBalance(currency: string): Funds {
    return this.ledger.free(currency);
  }

  coversFree(currency: string, amount: Funds): boolean {
    return this.ledger.covers(currency, amount);
  }

  reservedFor(key: ReservationKey): Funds {
    const r = this.ledger.get(key);
    return r === undefined ? Funds.ZERO : r.remaining;
  }

  openOrders(symbol?: string): readonly OpenOrderView[] {
    if (this.account !== undefined) return this.account.openOrders(symbol);
    const out: OpenOrderView[] = [];
    for (const order of this.orders.values()) if (symbol === undefined || order.symbol === symbol) out.push(order);
    return out;
  }

  openOrder(clientOrderId: string): OpenOrderView | undefined {
    if (this.account !== undefined) return this.account.openOrder(clientOrderId);
    return this.orders.get(clientOrderId);
  }

  position(symbol: string): Decimal | undefined {
    if (this.account !== undefined) return this.account.position(symbol);
    return this.positionsBySymbol.get(symbol);
  }

  positions(): readonly PositionQuantity[] {
    if (this.account !== undefined) return this.account.positions();
    return [...this.positionsBySymbol].map(([symbol, quantity]) => ({ symbol, quantity }));
  }

  futuresConfig(symbol: string): FuturesPositionConfig | undefined {
    if (this.account !== undefined) return this.account.futuresConfig(symbol);
    return this.futuresConfigs.get(symbol);
  }

  leverage(symbol: string): Decimal | undefined {
    if (this.account !== undefined) return this.account.leverage(symbol);
    return this.leverages.get(symbol);
  }

  liquidationPrice(symbol: string): Decimal | undefined {
    if (this.account !== undefined) return this.account.liquidationPrice(symbol);
    return this.liquidationPrices.get(symbol);
  }

  ordersSentAfter(since: number): number {
    return this.rateWindow.countAfter(since);
  }
}
