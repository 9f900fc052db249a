/**
 * The source of time for everything that is not at the edge. Live code gets {@link LiveClock};
 * backtests and tests get {@link VirtualClock}, which only moves when told to.
 */
export interface Clock {
  /** UNIX time in milliseconds (may carry a fraction). */
  now(): number;
}

/** Wall-clock time. */
export class LiveClock implements Clock {
  now(): number {
    return Date.now();
  }
}

/** A clock that stands still until advanced; it never goes backwards. */
export class VirtualClock implements Clock {
  private current: number;

  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  /** Moves time forward to `time`; earlier times are ignored so replayed clocks stay monotonic. */
  advanceTo(time: number): void {
    if (time > this.current) this.current = time;
  }

  /** Moves time forward by `ms`. */
  advanceBy(ms: number): void {
    if (ms > 0) this.current += ms;
  }
}
