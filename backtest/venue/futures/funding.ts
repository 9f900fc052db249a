import { Decimal, ZERO } from '../../../framework/model/decimal.js';
import type { ClearingRecord } from '../../../framework/model/resources/clearing.js';
import type { VenueEngine } from '../venue-engine.js';
import type { AccountId } from '../venue-types.js';
import { msToNanos } from './position-history.js';

/** Default funding period: 8 hours (funding at 00:00, 08:00 and 16:00 UTC). */
export const DEFAULT_FUNDING_INTERVAL_MS = 8 * 60 * 60 * 1000;

/** One funding time of a perpetual that passed: when, the rate charged, and the funding time after it. */
export interface FundingEvent {
  readonly time: number;
  readonly rate: Decimal;
  readonly nextTime: number;
}

/**
 * Funding of perpetual contracts at the venue. Rules (the spec gives the rate's meaning, "percentage
 * of contract mark value paid after the current funding interval", and leaves the rest out):
 * - funding times are the recorded `next_funding_time` of the contract's futures info when known,
 *   else every `fundingIntervalMs` from UNIX epoch (default 8 h);
 * - the rate is the latest recorded `funding_rate`, else the venue's `defaultFundingRate` (default 0);
 * - at a funding time every open position pays `quantity x mark x rate` from its margin cash
 *   (quantity signed: with a positive rate longs pay and shorts receive), at the mark price of that
 *   moment; nothing is paid without a mark;
 * - the other side of every payment is the outside market (the holders of opposite positions the
 *   venue does not model), counted in `outsideFlows`; each payment is a clearing record of type
 *   `funding` with the rate.
 */
export class FundingSchedule {
  private readonly next = new Map<string, number>();
  private readonly rates = new Map<string, Decimal>();
  private readonly records = new Map<AccountId, ClearingRecord[]>();
  private readonly fundings = new Map<string, FundingEvent[]>();
  private readonly interval: number;
  private readonly defaultRate: Decimal;

  constructor(
    private readonly perpetuals: readonly string[],
    startTime: number,
    intervalMs = DEFAULT_FUNDING_INTERVAL_MS,
    defaultRate = '0',
  ) {
    if (!Number.isSafeInteger(intervalMs) || intervalMs <= 0) throw new RangeError(`fundingIntervalMs must be a positive integer, got ${intervalMs}`);
    this.interval = intervalMs;
    this.defaultRate = new Decimal(defaultRate);
    for (const symbol of perpetuals) this.next.set(symbol, this.after(startTime));
  }

  /** Records a contract's funding data from recorded futures info. */
  setRecorded(symbol: string, rate: Decimal | undefined, nextFundingTime: number | undefined, now: number): void {
    if (!this.next.has(symbol)) return;
    if (rate !== undefined) this.rates.set(symbol, rate);
    if (nextFundingTime !== undefined && nextFundingTime > now) this.next.set(symbol, nextFundingTime);
  }

  /** The rate the next funding of a perpetual will charge (latest recorded, else the default); undefined for other symbols. */
  rateOf(symbol: string): Decimal | undefined {
    return this.next.has(symbol) ? (this.rates.get(symbol) ?? this.defaultRate) : undefined;
  }

  /** The next funding time of a perpetual (UNIX ms); undefined for other symbols. */
  nextTimeOf(symbol: string): number | undefined {
    return this.next.get(symbol);
  }

  /** Every funding time that passed for a perpetual, oldest first, with the rate charged (paid or not). */
  history(symbol: string): readonly FundingEvent[] {
    return this.fundings.get(symbol) ?? [];
  }

  /** The earliest funding time of any perpetual (Infinity without perpetuals). */
  earliest(): number {
    // Asked as the venue's time moves, once per market frame: without perpetuals, no iterator is made.
    if (this.next.size === 0) return Number.POSITIVE_INFINITY;
    let min = Number.POSITIVE_INFINITY;
    for (const t of this.next.values()) if (t < min) min = t;
    return min;
  }

  /** Applies every funding due at or before `time`, in time order (then symbol order). */
  applyDue(engine: VenueEngine, time: number): void {
    for (let at = this.earliest(); at <= time; at = this.earliest()) {
      for (const symbol of this.perpetuals) {
        if (this.next.get(symbol) !== at) continue;
        this.next.set(symbol, Math.max(this.after(at), at + 1));
        if (at > engine.time) engine.time = at;
        this.log(symbol, at);
        this.pay(engine, symbol, at);
      }
    }
  }

  /** Clearing records (funding payments) of an account, newest first. */
  clearing(account: AccountId): ClearingRecord[] {
    return [...(this.records.get(account) ?? [])].reverse();
  }

  private log(symbol: string, at: number): void {
    let list = this.fundings.get(symbol);
    if (list === undefined) this.fundings.set(symbol, (list = []));
    list.push({ time: at, rate: this.rates.get(symbol) ?? this.defaultRate, nextTime: this.next.get(symbol) ?? at });
  }

  private pay(engine: VenueEngine, symbol: string, at: number): void {
    const rate = this.rates.get(symbol) ?? this.defaultRate;
    const mark = engine.marks.markOf(symbol);
    if (mark === undefined || rate.isZero()) return;
    const futures = engine.futures;
    const currency = futures.termsOf(symbol).marginCurrency;
    const inst = engine.instruments.get(symbol);
    if (inst === undefined) return;
    engine.cause = { kind: 'timer', time: at, reason: 'funding' };
    for (const account of futures.accountsWithPosition(symbol)) {
      const position = futures.position(account, symbol);
      if (position === undefined) continue;
      const quantity = inst.lotsToDecimal(position.grid.lots);
      const amount = quantity.times(mark).times(rate).negated();
      futures.credit(account, currency, amount);
      engine.outsideFlows.set(currency, (engine.outsideFlows.get(currency) ?? ZERO).plus(amount));
      let list = this.records.get(account);
      if (list === undefined) {
        list = [];
        this.records.set(account, list);
      }
      list.push({
        timestamp: msToNanos(at),
        position_id: position.id,
        position_quantity: quantity,
        position_entry_value: futures.entryValue(account, symbol),
        type: 'funding',
        symbol,
        currency,
        amount,
        rate,
      });
    }
  }

  /** The first interval boundary strictly after `time`. */
  private after(time: number): number {
    return (Math.floor(time / this.interval) + 1) * this.interval;
  }
}
