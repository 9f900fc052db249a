/**
 * Times of the trading requests sent (place, replace, cancel, list), kept for a sliding window so
 * the order-rate check can count how many went out in the last `windowMs`. A ring of timestamps:
 * recording and counting never allocate once the ring has grown to the budget.
 */
export class OrderRateWindow {
  private times: Float64Array;
  private start = 0;
  private count = 0;

  constructor(initialCapacity = 64) {
    this.times = new Float64Array(Math.max(1, initialCapacity));
  }

  /** Records `requests` sent at `time` (ms); times are expected in non-decreasing order. */
  record(time: number, requests = 1): void {
    for (let i = 0; i < requests; i++) {
      if (this.count === this.times.length) this.grow();
      this.times[(this.start + this.count) % this.times.length] = time;
      this.count++;
    }
  }

  /**
   * Requests recorded strictly after `since`; also forgets the older ones, which is safe because
   * callers ask for `now - window` with a clock that never goes back.
   */
  countAfter(since: number): number {
    const capacity = this.times.length;
    while (this.count > 0 && (this.times[this.start] as number) <= since) {
      this.start = (this.start + 1) % capacity;
      this.count--;
    }
    return this.count;
  }

  private grow(): void {
    const next = new Float64Array(this.times.length * 2);
    for (let i = 0; i < this.count; i++) next[i] = this.times[(this.start + i) % this.times.length] as number;
    this.times = next;
    this.start = 0;
  }
}
