import { Decimal, ZERO } from '../../../framework/model/decimal.js';
import type { Instrument } from '../../../framework/model/instrument.js';
import { LedgerInvariantError } from '../ledger.js';
import type { AccountId, InitialBalances } from '../venue-types.js';
import { FLAT, type PositionGrid } from './position-math.js';
import { ceilToUnit, type FuturesTerms } from './futures-terms.js';

/** One open (or just closed) futures position of an account. */
export interface FuturesPositionRecord {
  readonly id: string;
  readonly symbol: string;
  grid: PositionGrid;
  /** Realized profit and loss since the position opened (fees and funding not included). */
  realized: Decimal;
  readonly createdAt: number;
  updatedAt: number;
}

interface MarginPocket {
  /** Deposits + realized PnL - fees +/- funding: the margin balance without unrealized PnL. */
  cash: Decimal;
  /** Initial margin (and fee provision) held for open orders. */
  ordersReserved: Decimal;
}

/** Looks up the mark price of a symbol (undefined before any price is known). */
export type MarkLookup = (symbol: string) => Decimal | undefined;

/**
 * The positions side of every venue account: margin balances ("pockets"), positions per symbol and
 * the leverage per symbol. Each symbol's terms name the pocket its position is margined from
 * (`FuturesTerms.pocket`): on the futures accounts the margin currency, so every contract of a
 * currency shares one balance (cross margin over the account; the spec's isolated per-symbol
 * accounts are views of it); on the isolated margin accounts the symbol, so each symbol has its own
 * balance. The methods' `currency` parameters name a pocket (a currency on futures, a symbol on
 * margin); {@link pocketCurrency} gives the currency of a pocket.
 *
 * Money rules, exact throughout (Decimal, integers for positions):
 * - position margin = entry value / leverage, rounded up to the notional unit (tick x lot);
 * - unrealized PnL at mark M = sign x (M x |quantity| - entry value); 0 before any mark is known;
 * - available = cash + min(0, total unrealized PnL) - position margins - order margins: unrealized
 *   losses reduce what can be used, unrealized profits cannot be used until realized;
 * - cash may fall below zero only through losses, and then only until the liquidation check
 *   (`liquidation.ts`) closes the positions and covers the deficit; one case stays: a position
 *   closed by the account with less margin left than the closing fee leaves a small negative cash
 *   with no position, a debt that the next margin deposit pays first (no insurance payout).
 */
export class FuturesAccounts {
  private readonly pockets = new Map<AccountId, Map<string, MarginPocket>>();
  private readonly positions = new Map<AccountId, Map<string, FuturesPositionRecord>>();
  private readonly leverages = new Map<AccountId, Map<string, Decimal>>();
  private readonly changedBalances = new Map<AccountId, Set<string>>();
  private readonly changedPositions = new Map<AccountId, Set<string>>();
  private positionSeq = 0;
  private changes = 0;

  constructor(
    readonly terms: ReadonlyMap<string, FuturesTerms>,
    readonly instruments: ReadonlyMap<string, Instrument>,
    initial: Readonly<Record<AccountId, InitialBalances | undefined>>,
    private readonly markOf: MarkLookup,
  ) {
    for (const [account, balances] of Object.entries(initial)) {
      for (const [currency, amount] of Object.entries(balances ?? {})) {
        const value = new Decimal(amount);
        if (value.isNegative()) throw new LedgerInvariantError(`initial futures balance of ${currency} for ${account} is negative`);
        this.pocket(account, currency).cash = value;
      }
    }
    this.changedBalances.clear();
  }

  /** Cash of the margin currency (margin balance without unrealized PnL). */
  cash(account: AccountId, currency: string): Decimal {
    return this.pockets.get(account)?.get(currency)?.cash ?? ZERO;
  }

  /** Margin held by the account's open orders in the currency. */
  ordersReserved(account: AccountId, currency: string): Decimal {
    return this.pockets.get(account)?.get(currency)?.ordersReserved ?? ZERO;
  }

  /** Adds (negative: takes) cash: realized PnL, fees, funding, liquidation settlement. */
  credit(account: AccountId, currency: string, amount: Decimal): void {
    if (amount.isZero()) return;
    const p = this.pocket(account, currency);
    p.cash = p.cash.plus(amount);
  }

  /** Sets the order margin total of the account in the currency (kept equal to the orders' reservations). */
  setOrdersReserved(account: AccountId, currency: string, target: Decimal): void {
    if (target.isNegative()) throw new LedgerInvariantError(`futures order margin of ${currency} for ${account} cannot be negative`);
    const p = this.pocket(account, currency);
    if (!p.ordersReserved.equals(target)) p.ordersReserved = target;
  }

  /** True when the orders of the account could hold `target` in total without making available negative. */
  canReserve(account: AccountId, currency: string, target: Decimal): boolean {
    return !this.available(account, currency).plus(this.ordersReserved(account, currency)).minus(target).isNegative();
  }

  /** The open position of a symbol (undefined when flat). */
  position(account: AccountId, symbol: string): FuturesPositionRecord | undefined {
    return this.positions.get(account)?.get(symbol);
  }

  /** Signed open lots of a symbol (0 when flat). */
  positionLots(account: AccountId, symbol: string): number {
    return this.position(account, symbol)?.grid.lots ?? 0;
  }

  /** Number of open positions over every account (0: nothing to value or liquidate). */
  openPositionCount(): number {
    // Asked after every market frame; a spot run has no position map to walk (no iterator made).
    if (this.positions.size === 0) return 0;
    let n = 0;
    for (const map of this.positions.values()) n += map.size;
    return n;
  }

  /** Accounts with at least one open position. */
  accountsWithPositions(): AccountId[] {
    return [...this.positions.entries()].filter(([, map]) => map.size > 0).map(([account]) => account);
  }

  /** Accounts with an open position on the symbol. */
  accountsWithPosition(symbol: string): AccountId[] {
    return [...this.positions.entries()].filter(([, map]) => map.has(symbol)).map(([account]) => account);
  }

  /** Margin currencies of the account's open positions. */
  positionCurrencies(account: AccountId): string[] {
    return [...new Set([...(this.positions.get(account)?.keys() ?? [])].map((s) => this.termsOf(s).pocket))].sort();
  }

  /** Open positions of the account, by symbol. */
  openPositions(account: AccountId): FuturesPositionRecord[] {
    return [...(this.positions.get(account)?.values() ?? [])].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  }

  /**
   * Stores a position's new grid; a flat grid removes it. Returns the record (for a position just
   * closed, the last state, so the caller can report it).
   */
  updatePosition(account: AccountId, symbol: string, grid: PositionGrid, realized: Decimal, time: number): FuturesPositionRecord {
    let map = this.positions.get(account);
    if (map === undefined) {
      map = new Map();
      this.positions.set(account, map);
    }
    let record = map.get(symbol);
    if (record === undefined) {
      record = { id: String(++this.positionSeq), symbol, grid: FLAT, realized: ZERO, createdAt: time, updatedAt: time };
      map.set(symbol, record);
    }
    record.grid = grid;
    record.realized = record.realized.plus(realized);
    record.updatedAt = time;
    if (grid.lots === 0) map.delete(symbol);
    this.touch(this.changedPositions, account, symbol);
    this.touch(this.changedBalances, account, this.termsOf(symbol).pocket);
    return record;
  }

  /** Leverage of the symbol for the account (the terms' default until set). */
  leverage(account: AccountId, symbol: string): Decimal {
    return this.leverages.get(account)?.get(symbol) ?? this.termsOf(symbol).defaultLeverage;
  }

  /** Sets the leverage (bounds are checked by the caller, which knows the request's rules). */
  setLeverage(account: AccountId, symbol: string, leverage: Decimal): void {
    let map = this.leverages.get(account);
    if (map === undefined) {
      map = new Map();
      this.leverages.set(account, map);
    }
    map.set(symbol, leverage);
    this.touch(this.changedBalances, account, this.termsOf(symbol).pocket);
  }

  /** Entry value of a position in the margin currency (0 when flat). */
  entryValue(account: AccountId, symbol: string): Decimal {
    const grid = this.position(account, symbol)?.grid;
    return grid === undefined ? ZERO : this.unitsToDecimal(symbol, grid.entryUnits);
  }

  /** Margin a position holds: entry value / leverage, rounded up to the notional unit. */
  positionMargin(account: AccountId, symbol: string, leverage = this.leverage(account, symbol)): Decimal {
    const terms = this.termsOf(symbol);
    return ceilToUnit(this.entryValue(account, symbol), leverage, terms.unit);
  }

  /** The current mark price of a symbol (undefined before any price is known). */
  markPrice(symbol: string): Decimal | undefined {
    return this.markOf(symbol);
  }

  /** Unrealized PnL of a position at the current mark (0 when flat or without a mark). */
  unrealized(account: AccountId, symbol: string): Decimal {
    const grid = this.position(account, symbol)?.grid;
    const mark = this.markOf(symbol);
    if (grid === undefined || mark === undefined) return ZERO;
    const value = mark.times(this.instrumentOf(symbol).lotsToDecimal(Math.abs(grid.lots)));
    const entry = this.unitsToDecimal(symbol, grid.entryUnits);
    return grid.lots > 0 ? value.minus(entry) : entry.minus(value);
  }

  /** Sum over positions margined in `currency` of `f(symbol)`. */
  sumPositions(account: AccountId, currency: string, f: (symbol: string) => Decimal): Decimal {
    let sum = ZERO;
    for (const symbol of this.positions.get(account)?.keys() ?? []) {
      if (this.termsOf(symbol).pocket === currency) sum = sum.plus(f(symbol));
    }
    return sum;
  }

  /** Margin balance: cash + unrealized PnL of the currency's positions. */
  marginBalance(account: AccountId, currency: string): Decimal {
    return this.cash(account, currency).plus(this.sumPositions(account, currency, (s) => this.unrealized(account, s)));
  }

  /** Margin held by the currency's positions. */
  positionsReserved(account: AccountId, currency: string): Decimal {
    return this.sumPositions(account, currency, (s) => this.positionMargin(account, s));
  }

  /** What the account can still commit: see the class rules. */
  available(account: AccountId, currency: string): Decimal {
    const unrealized = this.sumPositions(account, currency, (s) => this.unrealized(account, s));
    return this.cash(account, currency)
      .plus(Decimal.min(ZERO, unrealized))
      .minus(this.positionsReserved(account, currency))
      .minus(this.ordersReserved(account, currency));
  }

  /** Margin currencies the account ever held, sorted. */
  currencies(account: AccountId): string[] {
    return [...(this.pockets.get(account)?.keys() ?? [])].sort();
  }

  /** Total cash of a currency over every account and pocket (conservation checks). */
  totalCash(currency: string): Decimal {
    let sum = ZERO;
    for (const map of this.pockets.values()) {
      for (const [pocket, p] of map) if (this.pocketCurrency(pocket) === currency) sum = sum.plus(p.cash);
    }
    return sum;
  }

  /** The currency a pocket holds: a symbol pocket holds its terms' margin currency, a currency pocket itself. */
  pocketCurrency(pocket: string): string {
    return this.terms.get(pocket)?.marginCurrency ?? pocket;
  }

  /** Accounts with a futures pocket or position. */
  accounts(): AccountId[] {
    return [...new Set([...this.pockets.keys(), ...this.positions.keys()])];
  }

  /** A counter that moves on every change of cash, margin, position or leverage (cheap change detection). */
  get version(): number {
    return this.changes;
  }

  /** Currencies whose balances and symbols whose positions changed since the last call. */
  takeChanges(): { balances: Map<AccountId, string[]>; positions: Map<AccountId, string[]> } {
    // Called at every commit; most change nothing futures-related.
    if (this.changedBalances.size === 0 && this.changedPositions.size === 0) return NO_CHANGES;
    const out = { balances: sorted(this.changedBalances), positions: sorted(this.changedPositions) };
    this.changedBalances.clear();
    this.changedPositions.clear();
    return out;
  }

  /** Notional units (ticks x lots) of a symbol as an exact Decimal of the margin currency. */
  unitsToDecimal(symbol: string, units: bigint): Decimal {
    return this.termsOf(symbol).unit.times(units.toString());
  }

  termsOf(symbol: string): FuturesTerms {
    const terms = this.terms.get(symbol);
    if (terms === undefined) throw new Error(`${symbol} is not a futures symbol of this venue`);
    return terms;
  }

  instrumentOf(symbol: string): Instrument {
    const inst = this.instruments.get(symbol);
    if (inst === undefined) throw new Error(`${symbol} is not traded here`);
    return inst;
  }

  private pocket(account: AccountId, currency: string): MarginPocket {
    let map = this.pockets.get(account);
    if (map === undefined) {
      map = new Map();
      this.pockets.set(account, map);
    }
    let p = map.get(currency);
    if (p === undefined) {
      p = { cash: ZERO, ordersReserved: ZERO };
      map.set(currency, p);
    }
    this.touch(this.changedBalances, account, currency);
    return p;
  }

  private touch(map: Map<AccountId, Set<string>>, account: AccountId, key: string): void {
    this.changes++;
    let set = map.get(account);
    if (set === undefined) {
      set = new Set();
      map.set(account, set);
    }
    set.add(key);
  }
}

const NO_CHANGES = Object.freeze({ balances: new Map<AccountId, string[]>(), positions: new Map<AccountId, string[]>() });

function sorted(map: Map<AccountId, Set<string>>): Map<AccountId, string[]> {
  const out = new Map<AccountId, string[]>();
  for (const [account, keys] of map) out.set(account, [...keys].sort());
  return out;
}
