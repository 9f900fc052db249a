import { Decimal, ZERO } from '../../framework/model/decimal.js';
import type { TradingBalance, WalletBalance } from '../../framework/model/resources/balance.js';
import { Funds } from '../../framework/model/funds.js';
import type { AccountId, InitialBalances } from './venue-types.js';

/** One currency's balance in one pocket (spot or wallet) of an account, in exact units. */
interface Pocket {
  available: Funds;
  reserved: Funds;
}

/** Decimals made per scale before that memo starts over. */
const MAX_MEMO_DECIMALS = 4096;

/**
 * Reported Decimals by scale, then units: a quoting account's balances come back to the same few
 * values, so a balance report builds no Decimal for a figure it reported before.
 */
const reportedDecimals: Map<number, Decimal>[] = [];

/** `funds` as a Decimal, shared per value (Decimals are immutable). */
function decimalOf(funds: Funds): Decimal {
  const units = funds.units;
  if (typeof units !== 'number') return funds.toDecimal();
  let memo = reportedDecimals[funds.scale];
  if (memo === undefined) reportedDecimals[funds.scale] = memo = new Map();
  let value = memo.get(units);
  if (value === undefined) {
    if (memo.size >= MAX_MEMO_DECIMALS) memo.clear();
    value = funds.toDecimal();
    memo.set(units, value);
  }
  return value;
}

/** Where an account holds funds. */
export type PocketKind = 'spot' | 'wallet';

/** Starting balances of one account. */
export interface AccountBalances {
  readonly spot?: InitialBalances;
  readonly wallet?: InitialBalances;
  /** Futures margin balances (cash of each margin currency). */
  readonly futures?: InitialBalances;
  /** Isolated margin balances by spot symbol (cash in the symbol's quote currency). */
  readonly margin?: InitialBalances;
}

/** The currencies whose balances changed since the last {@link Ledger.takeChanges}, per account. */
export interface LedgerChanges {
  readonly spot: ReadonlyMap<AccountId, readonly string[]>;
  readonly wallet: ReadonlyMap<AccountId, readonly string[]>;
}

const NO_CHANGES: LedgerChanges = Object.freeze({ spot: new Map<AccountId, readonly string[]>(), wallet: new Map<AccountId, readonly string[]>() });

const NO_CURRENCIES: ReadonlyMap<AccountId, readonly string[]> = new Map();

/** A sorted copy of changed currencies per account (the shared empty map when nothing changed). */
function frozen(changed: Map<AccountId, Set<string>>): ReadonlyMap<AccountId, readonly string[]> {
  if (changed.size === 0) return NO_CURRENCIES;
  const out = new Map<AccountId, readonly string[]>();
  for (const [account, currencies] of changed) out.set(account, [...currencies].sort());
  return out;
}

/** Thrown when an internal move would overdraw a pocket: a venue bug, never a client error. */
export class LedgerInvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerInvariantError';
  }
}

/**
 * Balances of every account: spot (trading) and wallet, each with available and reserved, exact
 * (integer units, see {@link Funds}; Decimals where they are reported). Every mutation records the
 * touched currency so the venue can emit one balance event per change set. The ledger enforces
 * "available never negative" and "reserved never negative".
 */
export class Ledger {
  private readonly pockets: Record<PocketKind, Map<AccountId, Map<string, Pocket>>> = { spot: new Map(), wallet: new Map() };
  private readonly changed: Record<PocketKind, Map<AccountId, Set<string>>> = { spot: new Map(), wallet: new Map() };

  constructor(initial: Readonly<Record<AccountId, AccountBalances>>) {
    for (const [account, balances] of Object.entries(initial)) {
      this.pockets.spot.set(account, new Map());
      this.pockets.wallet.set(account, new Map());
      for (const kind of ['spot', 'wallet'] as const) {
        for (const [currency, amount] of Object.entries(balances[kind] ?? {})) {
          const value = new Decimal(amount);
          if (value.isNegative()) throw new LedgerInvariantError(`initial ${kind} balance of ${currency} for ${account} is negative`);
          this.pocket(kind, account, currency).available = Funds.of(value, currency, `initial ${kind} balance`);
        }
      }
    }
    this.changed.spot.clear();
    this.changed.wallet.clear();
  }

  /** True when the account was configured. */
  hasAccount(account: AccountId): boolean {
    return this.pockets.spot.has(account);
  }

  /** Accounts in configuration order. */
  accounts(): AccountId[] {
    return [...this.pockets.spot.keys()];
  }

  available(kind: PocketKind, account: AccountId, currency: string): Decimal {
    const p = this.pockets[kind].get(account)?.get(currency);
    return p === undefined ? ZERO : decimalOf(p.available);
  }

  /** Spot available funds in exact units (funds checks). */
  availableUnits(account: AccountId, currency: string): Funds {
    return this.pockets.spot.get(account)?.get(currency)?.available ?? Funds.ZERO;
  }

  reserved(kind: PocketKind, account: AccountId, currency: string): Decimal {
    const p = this.pockets[kind].get(account)?.get(currency);
    return p === undefined ? ZERO : decimalOf(p.reserved);
  }

  /** Adds to available (proceeds of a trade, a rebate). */
  credit(account: AccountId, currency: string, amount: Decimal): void {
    if (amount.isZero()) return;
    const p = this.pocket('spot', account, currency);
    p.available = p.available.plus(Funds.of(amount, currency, 'credit'));
    if (p.available.isNegative()) throw new LedgerInvariantError(`spot ${currency} of ${account} would go negative`);
  }

  /** Adds (negative: takes) to the wallet's available funds (transfers). */
  creditWallet(account: AccountId, currency: string, amount: Decimal): void {
    if (amount.isZero()) return;
    const p = this.pocket('wallet', account, currency);
    p.available = p.available.plus(Funds.of(amount, currency, 'wallet credit'));
    if (p.available.isNegative()) throw new LedgerInvariantError(`wallet ${currency} of ${account} would go negative`);
  }

  /** Takes from reserved funds (the spending side of an execution). */
  spendReserved(account: AccountId, currency: string, amount: Decimal): void {
    if (amount.isZero()) return;
    const p = this.pocket('spot', account, currency);
    p.reserved = p.reserved.minus(Funds.of(amount, currency, 'reserved spending'));
    if (p.reserved.isNegative()) throw new LedgerInvariantError(`spot reserved ${currency} of ${account} would go negative`);
  }

  /** True when `reserved` could be set to `target`, moving the difference from available. */
  canReserve(account: AccountId, currency: string, target: Funds): boolean {
    const p = this.pockets.spot.get(account)?.get(currency);
    const available = p?.available ?? Funds.ZERO;
    const reserved = p?.reserved ?? Funds.ZERO;
    return !available.minus(target.minus(reserved)).isNegative();
  }

  /** Sets reserved to `target`, moving the difference between available and reserved. */
  setReserved(account: AccountId, currency: string, target: Funds): void {
    if (target.compare(this.pockets.spot.get(account)?.get(currency)?.reserved ?? Funds.ZERO) === 0) return;
    const p = this.pocket('spot', account, currency);
    const delta = target.minus(p.reserved);
    const available = p.available.minus(delta);
    if (available.isNegative()) throw new LedgerInvariantError(`spot ${currency} of ${account} cannot reserve ${target.toFixed()}`);
    p.available = available;
    p.reserved = target;
  }

  /** Moves available funds between the wallet and the spot account; false when the source is short. */
  move(account: AccountId, currency: string, amount: Decimal, source: PocketKind, destination: PocketKind): boolean {
    const units = Funds.of(amount, currency, 'transfer');
    const from = this.pocket(source, account, currency);
    if (from.available.lessThan(units)) return false;
    const to = this.pocket(destination, account, currency);
    from.available = from.available.minus(units);
    to.available = to.available.plus(units);
    return true;
  }

  /** Spot balances of the account: every currency it ever held, zero included. */
  spotBalances(account: AccountId, only?: readonly string[]): TradingBalance[] {
    const map = this.pockets.spot.get(account);
    if (map === undefined) return [];
    const currencies = only ?? [...map.keys()].sort();
    return currencies.map((currency) => {
      const p = map.get(currency);
      return p === undefined ? { currency, available: ZERO, reserved: ZERO } : { currency, available: decimalOf(p.available), reserved: decimalOf(p.reserved) };
    });
  }

  /** Wallet balances of the account; zero balances are left out, as the exchange does. */
  walletBalances(account: AccountId, only?: readonly string[]): WalletBalance[] {
    const map = this.pockets.wallet.get(account);
    if (map === undefined) return [];
    const currencies = only ?? [...map.keys()].sort();
    const out: WalletBalance[] = [];
    for (const currency of currencies) {
      const p = map.get(currency);
      if (p === undefined) {
        if (only !== undefined) out.push({ currency, available: ZERO, reserved: ZERO });
        continue;
      }
      if (only === undefined && p.available.isZero() && p.reserved.isZero()) continue;
      out.push({ currency, available: decimalOf(p.available), reserved: decimalOf(p.reserved) });
    }
    return out;
  }

  /** Sum over every account and pocket of a currency (available + reserved): conservation checks. */
  total(currency: string): Decimal {
    let sum = Funds.ZERO;
    for (const kind of ['spot', 'wallet'] as const) {
      for (const map of this.pockets[kind].values()) {
        const p = map.get(currency);
        if (p !== undefined) sum = sum.plus(p.available).plus(p.reserved);
      }
    }
    return sum.toDecimal();
  }

  /** Returns and forgets the currencies changed since the previous call. */
  takeChanges(): LedgerChanges {
    // Most frames move no balance: one shared empty result spares two Maps and two sorts each.
    if (this.changed.spot.size === 0 && this.changed.wallet.size === 0) return NO_CHANGES;
    const out = { spot: frozen(this.changed.spot), wallet: frozen(this.changed.wallet) };
    this.changed.spot.clear();
    this.changed.wallet.clear();
    return out;
  }

  private pocket(kind: PocketKind, account: AccountId, currency: string): Pocket {
    let map = this.pockets[kind].get(account);
    if (map === undefined) {
      map = new Map();
      this.pockets[kind].set(account, map);
    }
    let p = map.get(currency);
    if (p === undefined) {
      p = { available: Funds.ZERO, reserved: Funds.ZERO };
      map.set(currency, p);
    }
    let touched = this.changed[kind].get(account);
    if (touched === undefined) {
      touched = new Set();
      this.changed[kind].set(account, touched);
    }
    touched.add(currency);
    return p;
  }
}
