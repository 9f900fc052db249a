import { Decimal, Rounding, ZERO } from '../model/decimal.js';
import { ValidationError } from '../model/errors.js';
import { intentOf, type ReservationGroup, type ReservationKey } from './reservation-key.js';

/** Decimals of a partially filled reservation's remainder; far finer than any currency's. */
export const RESERVE_DECIMALS = 18;

/**
 * Funds still held for `amount` covering `quantity` after `filled` was executed: proportional,
 * rounded up at {@link RESERVE_DECIMALS} decimals (exact when the quotient is that fine), never
 * more than `amount`.
 */
export function proportionalRemaining(amount: Decimal, quantity: Decimal, filled: Decimal): Decimal {
  if (!filled.lessThan(quantity)) return ZERO;
  if (filled.lessThanOrEqualTo(ZERO)) return amount;
  const share = amount.times(quantity.minus(filled)).dividedBy(quantity).toDecimalPlaces(RESERVE_DECIMALS, Rounding.up);
  return Decimal.min(share, amount);
}

/** Where a reservation is in its life: sent and unanswered, or resting on the exchange. */
export type ReservationState = 'inFlight' | 'open';

/** Funds held for one order (or one leg of an order list). */
export interface Reservation {
  readonly key: ReservationKey;
  readonly currency: string;
  /** Funds held for the whole original quantity. */
  readonly amount: Decimal;
  /** Order quantity the amount covers; partial fills release `amount x filled / quantity`. */
  readonly quantity: Decimal;
  /** Cumulative filled quantity seen so far. */
  readonly filled: Decimal;
  /** Funds still held: {@link proportionalRemaining} of the amount. */
  readonly remaining: Decimal;
  readonly state: ReservationState;
}

interface MutableReservation {
  key: ReservationKey;
  currency: string;
  amount: Decimal;
  quantity: Decimal;
  filled: Decimal;
  remaining: Decimal;
  state: ReservationState;
}

/**
 * Funds held by the bot's intents in flight (sent, not yet acknowledged) and by its open orders,
 * per currency, in exact Decimals; so two intents in flight can never spend the same funds.
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
  private readonly balances = new Map<string, Decimal>();
  private readonly totals = new Map<string, Decimal>();
  /** Live reservations by their key's id. */
  private readonly reservations = new Map<string, MutableReservation>();
  /** Ids of the live leg and group reservations of each list intent: what {@link releaseIntent} ends besides a single order's. */
  private readonly byIntent = new Map<string, Set<string>>();
  /** `free` per currency since its balance or total last changed: every intent asks, usually twice. */
  private readonly freeByCurrency = new Map<string, Decimal>();

  /** Sets the funds the bot may commit in `currency` (replaces the previous figure). */
  setBalance(currency: string, balance: Decimal): void {
    if (!balance.isFinite()) throw new ValidationError('balance', 'must be a finite decimal', balance.toString());
    this.balances.set(currency, balance);
    this.freeByCurrency.delete(currency);
  }

  /** Funds the bot may commit in `currency`; zero when never set. */
  balance(currency: string): Decimal {
    return this.balances.get(currency) ?? ZERO;
  }

  /** Sum of the live reservations in `currency`. */
  reserved(currency: string): Decimal {
    return this.totals.get(currency) ?? ZERO;
  }

  /** Balance minus reservations; negative only when the balance was lowered under what is held. */
  free(currency: string): Decimal {
    let free = this.freeByCurrency.get(currency);
    if (free === undefined) {
      free = this.balance(currency).minus(this.reserved(currency));
      this.freeByCurrency.set(currency, free);
    }
    return free;
  }

  /**
   * Whether `amount` is within the free funds (amount <= free). A zero amount asks only whether
   * the balance covers what is held, which needs no subtraction when the free figure is not at hand.
   */
  covers(currency: string, amount: Decimal): boolean {
    const free = this.freeByCurrency.get(currency);
    if (free !== undefined) return amount.lessThanOrEqualTo(free);
    if (amount.isZero()) return !this.balance(currency).lessThan(this.reserved(currency));
    return amount.lessThanOrEqualTo(this.free(currency));
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
  reserve(key: ReservationKey, currency: string, amount: Decimal, quantity: Decimal): boolean {
    if (!amount.isFinite() || amount.isNegative()) throw new ValidationError('amount', 'must be a finite, non-negative decimal', amount.toString());
    if (!quantity.isFinite() || !quantity.isPositive() || quantity.isZero()) {
      throw new ValidationError('quantity', 'must be a finite decimal greater than zero', quantity.toString());
    }
    if (this.reservations.has(key.id)) return false;
    if (amount.greaterThan(this.free(currency))) return false;
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
  fill(key: ReservationKey, cumulativeFilled: Decimal, spent: Decimal = ZERO): boolean {
    const r = this.reservations.get(key.id);
    if (r === undefined || !cumulativeFilled.greaterThan(r.filled)) return false;
    const filled = Decimal.min(cumulativeFilled, r.quantity);
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
  amend(key: ReservationKey, amount: Decimal, quantity: Decimal): boolean {
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

  private add(currency: string, delta: Decimal): void {
    if (delta.isZero()) return;
    const total = this.reserved(currency).plus(delta);
    if (total.isZero()) this.totals.delete(currency);
    else this.totals.set(currency, total);
    this.freeByCurrency.delete(currency);
  }
}
