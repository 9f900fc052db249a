import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { ValidationError } from '../model/errors.js';
import type { Clock } from '../time/clock.js';
import { microtaskScheduler } from './microtask-scheduler.js';
import type { RuntimeSchedulers } from './runtime-ports.js';

type Work<T> = (this: SchedulerAction<T>, state?: T) => void;

/**
 * A scheduler whose delays are market milliseconds: `clock` tells the time, and a delay of `d`
 * waits `d / rate` wall milliseconds (a replay at 10x fires a 60 s timer after 6 s). Repeats
 * (`this.schedule(state, delay)` inside the work) are scaled alike.
 */
export class MarketTimeScheduler implements SchedulerLike {
  constructor(private readonly clock: Clock, private readonly rate: number) {
    if (!(rate > 0)) throw new ValidationError('rate', 'must be > 0', rate);
  }

  now(): number {
    return this.clock.now();
  }

  schedule<T>(work: Work<T>, delay = 0, state?: T): Subscription {
    return new MarketTimeAction(work, this.rate).schedule(state, delay);
  }
}

/** One piece of scheduled work on a wall-clock timer; unsubscribing cancels it. */
class MarketTimeAction<T> extends Subscription implements SchedulerAction<T> {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly work: Work<T>, private readonly rate: number) {
    super(() => clearTimeout(this.timer));
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.closed) return;
      try {
        this.work.call(this, state);
      } catch (error) {
        this.unsubscribe();
        throw error;
      }
    }, Math.max(0, delay) / this.rate);
    return this;
  }
}

/**
 * Schedulers of a live or paper bot on market time: strategy timers on {@link MarketTimeScheduler}
 * (delays in market ms, `rate` market ms per wall ms), the engine's drain in a microtask.
 */
export function marketTimeSchedulers(clock: Clock, rate: number): RuntimeSchedulers {
  return { timers: new MarketTimeScheduler(clock, rate), drain: microtaskScheduler };
}
