import { Decimal, ZERO } from '../../framework/model/decimal.js';
import type { Instrument, Side } from '../../framework/model/instrument.js';
import { safeProduct, unitsOf } from '../../framework/model/decimal-units.js';
import { Funds } from '../../framework/model/funds.js';
import { reserveRate, type FeeRates } from './fees.js';
import type { AccountId } from './venue-types.js';

/** Slippage allowance of a market buy's reserve (document 001: "up to 10% slippage"). */
export const MARKET_BUY_SLIPPAGE = new Decimal('1.1');

/** Funds an order holds: an exact amount of one currency. */
export interface ReservationNeed {
  readonly currency: string;
  readonly amount: Funds;
}

/** The currency an order of `side` spends: quote for a buy, base for a sell. */
export function spendCurrency(instrument: Instrument, side: Side): string {
  return side === 'buy' ? instrument.quoteCurrency : (instrument.baseCurrency ?? instrument.quoteCurrency);
}

/** The currency an order of `side` receives. */
export function receiveCurrency(instrument: Instrument, side: Side): string {
  return side === 'buy' ? (instrument.baseCurrency ?? instrument.quoteCurrency) : instrument.quoteCurrency;
}

/**
 * What a limit order (or a stop/take-profit limit) must hold for `quantity` still to fill at
 * `price`: a buy holds price x quantity x (1 + max(take, make)) of the quote; a sell holds the base
 * quantity. The fee part is provisioned in the spend currency only when the symbol charges fees in
 * it (otherwise the fee comes out of the proceeds).
 */
export function limitNeed(instrument: Instrument, side: Side, price: Decimal, quantity: Decimal, rates: FeeRates): ReservationNeed {
  const currency = spendCurrency(instrument, side);
  const principal = side === 'buy' ? price.times(quantity) : quantity;
  return { currency, amount: Funds.of(withFee(instrument, currency, principal, rates), currency, 'reservation') };
}

/**
 * {@link limitNeed} for a price of `priceTicks` ticks and a quantity of `lots` lots, worked out in
 * integer units (the per-request path: every placement, replace and partial fill asks for it).
 * Falls back to {@link limitNeed} when a figure has no safe-integer count, so it is exact always.
 */
export function limitNeedOnGrid(instrument: Instrument, side: Side, priceTicks: number, lots: number, rates: FeeRates): ReservationNeed {
  const currency = spendCurrency(instrument, side);
  const quantityUnits = safeProduct(lots, instrument.lotUnits);
  let units = quantityUnits;
  let scale = instrument.quantityScale;
  if (side === 'buy' && units !== undefined) {
    const priceUnits = safeProduct(priceTicks, instrument.tickUnits);
    units = priceUnits === undefined ? undefined : safeProduct(priceUnits, units);
    scale += instrument.priceScale;
  }
  if (units !== undefined && instrument.info.fee_currency === currency) {
    const factor = feeFactorOf(rates);
    units = factor === undefined ? undefined : safeProduct(units, factor.units);
    scale += factor?.scale ?? 0;
  }
  if (units === undefined || !Number.isSafeInteger(units)) {
    return limitNeed(instrument, side, instrument.ticksToDecimal(priceTicks), instrument.lotsToDecimal(lots), rates);
  }
  return { currency, amount: Funds.ofUnits(units, scale, currency, 'reservation') };
}

/** 1 + max(take, make) as integer units over 10^scale (undefined when it has no safe count). */
interface FeeFactor {
  readonly units: number;
  readonly scale: number;
}

/** Fee factor per rates object: an order's rates are made once, when it is accepted. */
const feeFactors = new WeakMap<FeeRates, FeeFactor | null>();

function feeFactorOf(rates: FeeRates): FeeFactor | undefined {
  let factor = feeFactors.get(rates);
  if (factor === undefined) {
    const value = reserveRate(rates).plus(1);
    const scale = value.decimalPlaces();
    const units = unitsOf(value, scale);
    factor = units === undefined ? null : { units, scale };
    feeFactors.set(rates, factor);
  }
  return factor ?? undefined;
}

/**
 * What a market buy must hold (document 001): price x quantity x 1.1 plus the fee on that at
 * max(take, make), where price is the best ask (the stop price for a suspended stopMarket or
 * takeProfitMarket buy). A market sell holds its base quantity.
 */
export function marketNeed(instrument: Instrument, side: Side, price: Decimal, quantity: Decimal, rates: FeeRates): ReservationNeed {
  if (side === 'sell') return limitNeed(instrument, side, price, quantity, rates);
  const currency = spendCurrency(instrument, side);
  const amount = withFee(instrument, currency, price.times(quantity).times(MARKET_BUY_SLIPPAGE), rates);
  return { currency, amount: Funds.of(amount, currency, 'reservation') };
}

function withFee(instrument: Instrument, currency: string, principal: Decimal, rates: FeeRates): Decimal {
  if (instrument.info.fee_currency !== currency) return principal;
  return principal.plus(principal.times(reserveRate(rates)));
}

interface Holding {
  readonly account: AccountId;
  readonly group: string;
  readonly currency: string;
  readonly amount: Funds;
}

/**
 * The funds every open order holds, and the resulting reserved total per account and currency.
 *
 * Orders of a oneCancelOther group can never both fill (the venue cancels the others on the first
 * execution), so a group holds, per currency, the largest of its members' needs rather than their
 * sum: a take-profit and a stop-loss selling the same coins reserve those coins once. An order
 * outside any group is a group of its own.
 *
 * Amounts are kept as exact integer units ({@link Funds}): every request and fill moves a holding,
 * so the totals are worked out without decimal.js.
 */
export class Reservations {
  private readonly holdings = new Map<number, Holding>();
  private readonly groups = new Map<string, Set<number>>();
  private readonly totals = new Map<string, Funds>();

  /** Sets (or with `undefined`, clears) what order `orderKey` holds; returns the touched currency. */
  set(orderKey: number, account: AccountId, group: string, need: ReservationNeed | undefined): string | undefined {
    if (need === undefined) return this.hold(orderKey, account, group, undefined, Funds.ZERO);
    return this.hold(orderKey, account, group, need.currency, need.amount);
  }

  /** What the order holds now (zero when nothing). */
  held(orderKey: number): Decimal {
    const holding = this.holdings.get(orderKey);
    return holding === undefined ? ZERO : holding.amount.toDecimal();
  }

  /** Reserved total the ledger must show for the account and currency. */
  total(account: AccountId, currency: string): Funds {
    return this.totals.get(totalKey(account, currency)) ?? Funds.ZERO;
  }

  /** The total that would result if `orderKey` held `need` instead (funds checks before a change). */
  totalWith(orderKey: number, account: AccountId, group: string, need: ReservationNeed): Funds {
    const old = this.holdings.get(orderKey);
    const total = this.total(account, need.currency);
    const amount = need.amount;
    if (old === undefined && amount.isZero()) return total;
    if (old === undefined || (old.account === account && old.currency === need.currency && old.group === group)) {
      // What `hold` would store, computed without changing anything (the per-request path: a replace
      // keeps its order's key, currency and group).
      const before = this.groupAmount(group, account, need.currency);
      const after = this.groupAmount(group, account, need.currency, orderKey, amount);
      return total.plus(after).minus(before);
    }
    this.hold(orderKey, account, group, need.currency, amount);
    const changed = this.total(account, need.currency);
    this.hold(orderKey, old.account, old.group, old.currency, old.amount);
    return changed;
  }

  /** {@link set} with the amount in units (`currency` undefined with a zero amount: clear). */
  private hold(orderKey: number, account: AccountId, group: string, currency: string | undefined, amount: Funds): string | undefined {
    const old = this.holdings.get(orderKey);
    if (old === undefined && amount.isZero()) return undefined;
    if (old !== undefined && currency !== undefined && (old.currency !== currency || old.group !== group)) {
      this.hold(orderKey, account, group, undefined, Funds.ZERO);
      this.hold(orderKey, account, group, currency, amount);
      return currency;
    }
    const touched = (currency ?? old?.currency) as string;
    const groupName = old?.group ?? group;
    const before = this.groupAmount(groupName, account, touched);
    if (amount.isZero()) {
      this.holdings.delete(orderKey);
      this.groups.get(groupName)?.delete(orderKey);
    } else {
      this.holdings.set(orderKey, { account, group, currency: touched, amount });
      let members = this.groups.get(group);
      if (members === undefined) {
        members = new Set();
        this.groups.set(group, members);
      }
      members.add(orderKey);
    }
    const after = this.groupAmount(groupName, account, touched);
    const key = totalKey(account, touched);
    this.totals.set(key, (this.totals.get(key) ?? Funds.ZERO).plus(after).minus(before));
    return touched;
  }

  /** Largest holding of the group in the currency; with `replaced`, that order counts as `amount`. */
  private groupAmount(group: string, account: AccountId, currency: string, replaced?: number, amount?: Funds): Funds {
    let max = Funds.ZERO;
    for (const key of this.groups.get(group) ?? []) {
      if (key === replaced) continue;
      const h = this.holdings.get(key);
      if (h !== undefined && h.account === account && h.currency === currency && h.amount.greaterThan(max)) max = h.amount;
    }
    return amount !== undefined && amount.greaterThan(max) ? amount : max;
  }
}

function totalKey(account: AccountId, currency: string): string {
  return `${account}\u0000${currency}`;
}
