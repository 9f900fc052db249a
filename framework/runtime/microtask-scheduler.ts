import { Subscription, asyncScheduler, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { inMicrotask } from '../time/microtask.js';

type Work<T> = (this: SchedulerAction<T>, state?: T) => void;

/**
 * Runs work given no delay in a microtask (a settled promise's reaction): after the code running now, in the
 * order it was scheduled, like `asapScheduler`, but without RxJS's action queue and flush on each
 * call (the live engine schedules its drain once per burst of events, and every book event is one).
 * Work with a delay goes to `asyncScheduler` (a timer). Time is `Date.now()`, as RxJS's own.
 */
export const microtaskScheduler: SchedulerLike = {
  now: () => asyncScheduler.now(),
  schedule<T>(work: Work<T>, delay = 0, state?: T): Subscription {
    if (delay > 0) return asyncScheduler.schedule(work, delay, state);
    return new MicrotaskAction(work).schedule(state);
  },
};

/** One piece of scheduled work; unsubscribing before its microtask runs cancels it. */
class MicrotaskAction<T> extends Subscription implements SchedulerAction<T> {
  private state: T | undefined;
  private queued = false;
  /**
   * Made in the constructor, not as a class field: the build keeps function names, and a named
   * arrow-function field costs a `defineProperty` per action, one per burst of book events.
   */
  private readonly run: () => void;

  constructor(private readonly work: Work<T>) {
    super();
    this.run = () => {
      this.queued = false;
      if (this.closed) return;
      try {
        this.work.call(this, this.state);
      } catch (error) {
        this.unsubscribe();
        throw error;
      }
    };
  }

  /** Runs the work again (with `state`) in a microtask, or after `delay` ms on a timer. */
  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    if (delay > 0) {
      this.add(asyncScheduler.schedule(this.work, delay, state));
      return this;
    }
    this.state = state;
    if (!this.queued) {
      this.queued = true;
      inMicrotask(this.run);
    }
    return this;
  }
}
