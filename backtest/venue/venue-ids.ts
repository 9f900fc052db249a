import type { AccountId } from './venue-types.js';

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;

/** Index of the UTC calendar day of a UNIX ms time (the exchange's trading day). */
export function utcDay(time: number): number {
  return Math.floor(time / DAY_MS);
}

/**
 * The venue's identifier sources. Every id comes from a counter, so two runs over the same input
 * produce the same ids (backtest-versus-paper comparisons rely on it).
 */
export class VenueIds {
  private orderSeq = 0;
  private tradeSeq = 0;
  private clientSeq = 0;
  private transferSeq = 0;

  /** Next order id: increasing integers, as text (the wire id is a Number). */
  nextOrderId(): string {
    return String(++this.orderSeq);
  }

  /** Next execution id. */
  nextTradeId(): string {
    return String(++this.tradeSeq);
  }

  /** Next wallet transfer id. */
  nextTransferId(): string {
    return String(++this.transferSeq);
  }

  /** Next generated client_order_id: 32 lowercase hex digits of a counter. */
  nextClientOrderId(): string {
    return (++this.clientSeq).toString(16).padStart(32, '0');
  }
}

/**
 * client_order_id uniqueness "within a single trading day, including all active orders"
 * (document 001): an id is taken while an order of the account carries it, and for the rest of the
 * UTC day in which it was used. The next UTC day frees every id of closed orders.
 */
export class ClientOrderIdRegistry {
  private day = Number.NaN;
  private readonly usedToday = new Map<AccountId, Set<string>>();

  /** True when `id` was used today by `account` (active orders are checked by the caller). */
  usedOn(account: AccountId, id: string, now: number): boolean {
    this.rollTo(now);
    return this.usedToday.get(account)?.has(id) ?? false;
  }

  /** Records a use of `id` at `now`. */
  record(account: AccountId, id: string, now: number): void {
    this.rollTo(now);
    let set = this.usedToday.get(account);
    if (set === undefined) {
      set = new Set();
      this.usedToday.set(account, set);
    }
    set.add(id);
  }

  private rollTo(now: number): void {
    const day = utcDay(now);
    if (day !== this.day) {
      this.day = day;
      this.usedToday.clear();
    }
  }
}
