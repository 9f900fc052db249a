import { ZERO, type Decimal } from '../model/decimal.js';
import { ValidationError } from '../model/errors.js';
import { bigUnitsOf } from '../model/decimal-units.js';
import { Funds } from '../model/funds.js';
import { intentOf, type ReservationGroup, type ReservationKey } from './reservation-key.js';

/** Decimals of a partially filled reservation's remainder; far finer than any currency's. */
export const RESERVE_DECIMALS = 18;

const RESERVE_SCALE = 10n ** BigInt(RESERVE_DECIMALS);

/**
 * Funds still held for `amount` covering `quantity` after `filled` was executed: proportional,
 * rounded up at {@link RESERVE_DECIMALS} decimals (exact when the quotient is that fine), never
 * more than `amount`. Worked out in BigInt units, exactly.
 */
export function proportionalRemaining(amount: Funds, quantity: Decimal, filled: Decimal): Funds {
  if (!filled.lessThan(quantity)) return Funds.ZERO;
  if (filled.isNegative() || filled.isZero()) return amount;
  const quantityScale = Math.max(quantity.decimalPlaces(), filled.decimalPlaces());
  const total = bigUnitsOf(quantity, quantityScale);
  const left = total - bigUnitsOf(filled, quantityScale);
  // ceil(amount x left / total) at RESERVE_DECIMALS: amount is A x 10^-s, so the quotient in units
  // of 10^-RESERVE_DECIMALS is A x left x 10^RESERVE_DECIMALS / (total x 10^s), all non-negative.
  const numerator = BigInt(amount.units) * left * RESERVE_SCALE;
  const denominator = total * 10n ** BigInt(amount.scale);
  const share = Funds.ofBigUnits((numerator + denominator - 1n) / denominator, RESERVE_DECIMALS);
  return share.min(amount);
}

/** Where a reservation is in its life: sent and unanswered, or resting on the exchange. */
export type ReservationState = 'inFlight' | 'open';

/** Funds held for one order (or one leg of an order list). */
export interface Reservation {
  readonly key: ReservationKey;
  readonly currency: string;
  /** Funds held for the whole original quantity. */
  readonly amount: Funds;
  /** Order quantity the amount covers; partial fills release `amount x filled / quantity`. */
  readonly quantity: Decimal;
  /** Cumulative filled quantity seen so far. */
  readonly filled: Decimal;
  /** Funds still held: {@link proportionalRemaining} of the amount. */
  readonly remaining: Funds;
  readonly state: ReservationState;
}

interface MutableReservation {
  key: ReservationKey;
  currency: string;
  amount: Funds;
  quantity: Decimal;
  filled: Decimal;
  remaining: Funds;
  state: ReservationState;
}

/**
 * Funds held by the bot's intents in flight (sent, not yet acknowledged) and by its open orders,
 * per currency, as exact {@link Funds} (integer units, BigInt only beyond 2^53); so two intents in
 * flight can never spend the same funds.
 *
 * Life cycle: {@link reserve} when the risk gate passes an intent (refused when it would take more
 * than is free), {@link accept} when the exchange acknowledges the order, {@link fill} on each
 * execution (cumulative filled quantity: duplicate or replayed reports change nothing), and
 * {@link release} on reject, cancel, expiry or the final fill (idempotent).
 *
 * `balance(currency)` is what the bot may commit in that currency: the account's total
 * (available + reserved) when the bot owns the trading account, so that funds the exchange
 * already holds for the bot's own open orders are not subtracted twice. A fill debits what it
 * actually spent from the balance at once, so the free funds stay right before the exchange's
 * next balance message arrives.
 *
 * What a partial fill leaves held is `amount x (quantity - filled) / quantity` rounded up at
 * {@link RESERVE_DECIMALS} decimals: a quotient need not terminate, and rounding each
 * reservation on a fixed grid keeps the per-currency totals exactly equal to the sum of the live
 * reservations (rounding at the 50th significant digit would let them drift apart), while
 * rounding up never holds less than the order may still spend.
 */
export class ReservationLedger {
  private readonly balances = new Map<string, Funds>();
  private readonly totals = new Map<string, Funds>();
  /** Live reservations by their key's id. */
  private readonly reservations = new Map<string, MutableReservation>();
  /** Ids of the live leg and group reservations of each list intent: what {@link releaseIntent} ends besides a single order's. */
  private readonly byIntent = new Map<string, Set<string>>();
  /** `free` per currency since its balance or total last changed: every intent asks, usually twice. */
  private readonly freeByCurrency = new Map<string, Funds>();

  /**
   * Sets the funds the bot may commit in `currency` (replaces the previous figure): the account's
   * figure as the exchange reports it, converted once here. Throws UnrepresentableValueError for a
   * balance that is not a finite number.
   */
  setBalance(currency: string, balance: Decimal): void {
    this.balances.set(currency, Funds.of(balance, currency, 'balance'));
    this.freeByCurrency.delete(currency);
  }

  /** Funds the bot may commit in `currency`; zero when never set. */
  balance(currency: string): Funds {
    return this.balances.get(currency) ?? Funds.ZERO;
  }

  /** Sum of the live reservations in `currency`. */
  reserved(currency: string): Funds {
    return this.totals.get(currency) ?? Funds.ZERO;
  }

  /** Balance minus reservations; negative only when the balance was lowered under what is held. */
  free(currency: string): Funds {
    let free = this.freeByCurrency.get(currency);
    if (free === undefined) {
      free = this.balance(currency).minus(this.reserved(currency));
      this.freeByCurrency.set(currency, free);
    }
    return free;
  }

  /**
   * Whether `amount` is within the free funds (amount <= free). Without the free figure at hand it
   * asks whether reserved + amount <= balance: the sum stays at the reservations' scale (a large
   * balance at a coarse scale is then only compared, never rescaled into BigInt units).
   */
  covers(currency: string, amount: Funds): boolean {
    const free = this.freeByCurrency.get(currency);
    if (free !== undefined) return amount.lessThanOrEqualTo(free);
    return this.reserved(currency).plus(amount).lessThanOrEqualTo(this.balance(currency));
  }

  /** The live reservation under `key`, if any. */
  get(key: ReservationKey): Reservation | undefined {
    return this.reservations.get(key.id);
  }

  /** Every live reservation. */
  entries(): IterableIterator<Reservation> {
    return this.reservations.values();
  }

  /**
   * Holds `amount` of `currency` for an intent in flight covering `quantity`. Returns false (and
   * holds nothing) when the amount exceeds the free funds or the key is already live.
   */
  reserve(key: ReservationKey, currency: string, amount: Funds, quantity: Decimal): boolean {
    if (amount.isNegative()) throw new ValidationError('amount', 'must be non-negative', amount.toFixed());
    if (!quantity.isFinite() || !quantity.isPositive() || quantity.isZero()) {
      throw new ValidationError('quantity', 'must be a finite decimal greater than zero', quantity.toString());
    }
    if (this.reservations.has(key.id)) return false;
    if (!this.covers(currency, amount)) return false;
    this.reservations.set(key.id, { key, currency, amount, quantity, filled: ZERO, remaining: amount, state: 'inFlight' });
    // A single order's reservation is found by its intent id directly (see releaseIntent): only
    // lists, whose legs and groups hold several, are indexed per intent.
    const intentId = key.kind === 'intent' ? undefined : intentOf(key);
    if (intentId !== undefined) {
      let ids = this.byIntent.get(intentId);
      if (ids === undefined) this.byIntent.set(intentId, (ids = new Set()));
      ids.add(key.id);
    }
    this.add(currency, amount);
    return true;
  }

  /** The exchange acknowledged the order: the reservation now belongs to an open order. */
  accept(key: ReservationKey): boolean {
    const r = this.reservations.get(key.id);
    if (r === undefined) return false;
    r.state = 'open';
    return true;
  }

  /**
   * An execution: `cumulativeFilled` is the order's total filled quantity so far. Releases the
   * filled share of the reservation and debits `spent` (funds of the reservation's currency the
   * fill actually used, fee included) from the balance. Reports older than what was already seen
   * change nothing; a complete fill ends the reservation.
   */
  fill(key: ReservationKey, cumulativeFilled: Decimal, spent: Funds = Funds.ZERO): boolean {
    const r = this.reservations.get(key.id);
    if (r === undefined || !cumulativeFilled.greaterThan(r.filled)) return false;
    const filled = cumulativeFilled.greaterThan(r.quantity) ? r.quantity : cumulativeFilled;
    const remaining = proportionalRemaining(r.amount, r.quantity, filled);
    this.add(r.currency, remaining.minus(r.remaining));
    this.balances.set(r.currency, this.balance(r.currency).minus(spent));
    this.freeByCurrency.delete(r.currency);
    r.filled = filled;
    r.remaining = remaining;
    r.state = 'open';
    if (remaining.isZero()) this.forget(r);
    return true;
  }

  /**
   * Moves an open order's reservation to a new amount and quantity (an accepted replace). Refused
   * (false, nothing changed) when the increase exceeds the free funds.
   */
  amend(key: ReservationKey, amount: Funds, quantity: Decimal): boolean {
    const r = this.reservations.get(key.id);
    if (r === undefined || !quantity.isPositive() || quantity.isZero() || amount.isNegative()) return false;
    const increase = amount.minus(r.remaining);
    if (increase.greaterThan(this.free(r.currency))) return false;
    this.add(r.currency, increase);
    r.amount = amount;
    r.quantity = quantity;
    r.filled = ZERO;
    r.remaining = amount;
    return true;
  }

  /** Ends a reservation (reject, cancel, expiry); releasing an unknown or released key does nothing. */
  release(key: ReservationKey): boolean {
    const r = this.reservations.get(key.id);
    if (r === undefined) return false;
    this.add(r.currency, r.remaining.negated());
    this.forget(r);
    return true;
  }

  /** Ends every reservation of an intent (a refused order list: its legs and shared groups). */
  releaseIntent(intentId: string): void {
    const single = this.reservations.get(intentId);
    if (single !== undefined && single.key.kind === 'intent' && single.key.intentId === intentId) this.release(single.key);
    const ids = this.byIntent.get(intentId);
    if (ids === undefined) return;
    for (const id of [...ids]) {
      const r = this.reservations.get(id);
      if (r !== undefined) this.release(r.key);
    }
  }

  /** Ends the reservations a group of legs shares, in every currency. */
  releaseGroup(intentId: string, group: ReservationGroup): void {
    const ids = this.byIntent.get(intentId);
    if (ids === undefined) return;
    for (const id of [...ids]) {
      const r = this.reservations.get(id);
      if (r !== undefined && r.key.kind === 'group' && r.key.group === group) this.release(r.key);
    }
  }

  private forget(r: MutableReservation): void {
    this.reservations.delete(r.key.id);
    const intentId = r.key.kind === 'intent' ? undefined : intentOf(r.key);
    if (intentId === undefined) return;
    const ids = this.byIntent.get(intentId);
    ids?.delete(r.key.id);
    if (ids?.size === 0) this.byIntent.delete(intentId);
  }

  private add(currency: string, delta: Funds): void {
    if (delta.isZero()) return;
    const total = this.reserved(currency).plus(delta);
    if (total.isZero()) this.totals.delete(currency);
    else this.totals.set(currency, total);
    this.freeByCurrency.delete(currency);
  }
}
