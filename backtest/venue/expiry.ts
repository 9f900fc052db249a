import type { TimeInForce } from '../../framework/model/resources/order.js';
import { DAY_MS, utcDay } from './venue-ids.js';

/** First millisecond of the UTC day after the one containing `time`: when a Day order expires. */
export function endOfUtcDay(time: number): number {
  return (utcDay(time) + 1) * DAY_MS;
}

/** When an order of this time in force expires, or undefined when it does not by time. */
export function expiryTime(timeInForce: TimeInForce, createdAt: number, expireTime: number | undefined): number | undefined {
  if (timeInForce === 'Day') return endOfUtcDay(createdAt);
  if (timeInForce === 'GTD') return expireTime;
  return undefined;
}

/** One scheduled expiry. */
export interface ExpiryEntry {
  readonly time: number;
  readonly orderKey: number;
  readonly reason: 'expire-day' | 'expire-gtd';
}

/**
 * Pending Day/GTD expiries, in (time, order key) order so equal times fire deterministically.
 * Entries of orders that closed meanwhile are left in place and skipped by the caller: cheaper than
 * removing them on every cancel.
 */
export class ExpiryQueue {
  private readonly entries: ExpiryEntry[] = [];

  add(entry: ExpiryEntry): void {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const e = this.entries[mid] as ExpiryEntry;
      if (e.time < entry.time || (e.time === entry.time && e.orderKey < entry.orderKey)) lo = mid + 1;
      else hi = mid;
    }
    this.entries.splice(lo, 0, entry);
  }

  /** Removes and returns the earliest entry due at or before `time`, if any. */
  popDue(time: number): ExpiryEntry | undefined {
    const head = this.entries[0];
    if (head === undefined || head.time > time) return undefined;
    this.entries.shift();
    return head;
  }

  get size(): number {
    return this.entries.length;
  }
}
