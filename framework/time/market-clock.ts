import { ValidationError } from '../model/errors.js';
import type { Clock } from './clock.js';

/** Options of {@link MarketClock}. */
export interface MarketClockOptions {
  /** Market time at construction (UNIX ms): the wall clock live, the replay's first frame time on paper. */
  readonly start: number;
  /** Market milliseconds per wall millisecond: 1 live, the replay's speed on paper. Default 1. */
  readonly rate?: number;
  /**
   * Stand at `start` until the first exchange time is observed (paper: the replay starts once the
   * bot has subscribed, so the start-up must not move market time). Default false.
   */
  readonly waitForMarket?: boolean;
  /** Monotonic wall time in ms (default performance.now). */
  readonly wallNow?: () => number;
}

/**
 * The market's time as a live or paper bot sees it: the latest exchange time of the market data
 * received ({@link observe}), running on between frames at `rate` times the wall clock. It never
 * goes back: an exchange time behind it (a late frame, a clock behind ours) leaves it where it is.
 * Live it is the exchange's time; on paper the replay's, whatever the wall clock's date or the
 * replay's speed, so candles close and timers fire in the market's time, as in a backtest.
 */
export class MarketClock implements Clock {
  private anchor: number;
  private anchorWall: number;
  private last: number;
  private running: boolean;
  private readonly rate: number;
  private readonly wallNow: () => number;

  constructor(options: MarketClockOptions) {
    const rate = options.rate ?? 1;
    if (!(rate > 0) || !Number.isFinite(rate)) throw new ValidationError('rate', 'must be a finite number > 0', rate);
    if (!Number.isFinite(options.start)) throw new ValidationError('start', 'must be a finite time in ms', options.start);
    this.rate = rate;
    this.wallNow = options.wallNow ?? (() => performance.now());
    this.anchor = this.last = options.start;
    this.anchorWall = this.wallNow();
    this.running = options.waitForMarket !== true;
  }

  now(): number {
    if (!this.running) return this.last;
    const time = this.anchor + (this.wallNow() - this.anchorWall) * this.rate;
    if (time > this.last) this.last = time;
    return this.last;
  }

  /** An exchange time from the market data: market time is at least that from now on. */
  observe(exchangeTime: number): void {
    if (!Number.isFinite(exchangeTime)) return;
    if (!this.running) {
      this.running = true;
      this.anchor = Math.max(this.last, exchangeTime);
      this.anchorWall = this.wallNow();
      return;
    }
    if (exchangeTime <= this.now()) return;
    this.anchor = this.last = exchangeTime;
    this.anchorWall = this.wallNow();
  }
}
