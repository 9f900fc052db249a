/**
 * Times of the trading requests sent (place, replace, cancel, list), kept for a sliding window so
 * the order-rate check can count how many went out in the last `windowMs`. A ring of timestamps:
 * recording and counting never allocate once the ring has grown to the budget. Counting only reads
 * (a dry run of the checks leaves the window as it found it); recording forgets the times no count
 * can include any more.
 */
export class OrderRateWindow {
  private times: Float64Array;
  private start = 0;
  private count = 0;

  constructor(initialCapacity = 64) {
    this.times = new Float64Array(Math.max(1, initialCapacity));
  }

  /**
   * Records `requests` sent at `time` (ms); times are expected in non-decreasing order. Times up to
   * `forgetUpTo` (inclusive) are dropped first: the caller's window start, which is safe because
   * counts ask for `now - window` with a clock that never goes back.
   */
  record(time: number, requests = 1, forgetUpTo = Number.NEGATIVE_INFINITY): void {
    const capacity = this.times.length;
    while (this.count > 0 && (this.times[this.start] as number) <= forgetUpTo) {
      this.start = (this.start + 1) % capacity;
      this.count--;
    }
    for (let i = 0; i < requests; i++) {
      if (this.count === this.times.length) this.grow();
      this.times[(this.start + this.count) % this.times.length] = time;
      this.count++;
    }
  }

  /** Requests recorded strictly after `since`. */
  countAfter(since: number): number {
    const times = this.times;
    const capacity = times.length;
    // Oldest first: the times at or before `since` are a prefix (few: each record forgets the older ones).
    let skipped = 0;
    while (skipped < this.count && (times[(this.start + skipped) % capacity] as number) <= since) skipped++;
    return this.count - skipped;
  }

  private grow(): void {
    const next = new Float64Array(this.times.length * 2);
    for (let i = 0; i < this.count; i++) next[i] = this.times[(this.start + i) % this.times.length] as number;
    this.times = next;
    this.start = 0;
  }
}
