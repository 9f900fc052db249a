import { VirtualAction, VirtualTimeScheduler, type SchedulerAction, type Subscription } from 'rxjs';
import { VirtualClock } from '../time/clock.js';

/** Actions a free-running scheduler runs in one go before it counts a runaway (a timer that keeps rescheduling itself). */
const FREE_RUN_LIMIT = 1_000_000;

/**
 * A VirtualTimeScheduler driven by a {@link VirtualClock}: a backtest advances time with
 * {@link advanceTo}, which runs every action due by then in (time, scheduling order) and moves
 * the clock to each action's time before running it, so `clock.now()` inside a timer handler is
 * the timer's due time. Nothing runs on its own: without `advanceTo`, time stands still (until
 * {@link runFreely}).
 *
 * Beside timed actions it keeps a same-instant queue ({@link defer}): work that runs at the current
 * time as soon as the action running now returns, before the next action, as microtasks run before
 * the next task of a live event loop. The backtest's venue commands and answers without latency go
 * there, so a strategy handler's intents all leave before any of them is answered.
 */
export class VirtualClockScheduler extends VirtualTimeScheduler {
  private deferred: (() => void)[] = [];
  private freeRunning = false;
  private woken = false;

  constructor(readonly clock: VirtualClock = new VirtualClock()) {
    super(VirtualAction, Infinity);
    this.frame = clock.now();
    // The clock, not the frame, is the time: a replay may move the clock between advances.
    this.now = () => this.clock.now();
  }

  override schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
    const action = super.schedule(work, delay, state);
    if (this.freeRunning) this.wake();
    return action;
  }

  /** Runs `work` at the current time, after the action running now (or first thing at the next advance). */
  defer(work: () => void): void {
    this.deferred.push(work);
    if (this.freeRunning) this.wake();
  }

  /** Runs the actions due at or before `time` (including those they schedule), then sets the clock to `time`. */
  advanceTo(time: number): void {
    this.frame = Math.max(this.frame, this.clock.now());
    this.runDeferred();
    for (;;) {
      const action = this.actions[0];
      if (action === undefined || action.delay > time) break;
      this.actions.shift();
      this.clock.advanceTo(action.delay);
      this.frame = Math.max(this.frame, action.delay);
      const error = action.execute(action.state, action.delay);
      if (error) {
        while (this.actions.length > 0) this.actions.shift()?.unsubscribe();
        throw error;
      }
      this.runDeferred();
    }
    this.clock.advanceTo(time);
    this.frame = Math.max(this.frame, time);
  }

  /** Runs everything due at the current time (actions scheduled with delay 0). */
  override flush(): void {
    this.advanceTo(this.clock.now());
  }

  /** The time of the next timed action; undefined when none is scheduled. */
  nextDue(): number | undefined {
    return this.actions[0]?.delay;
  }

  /**
   * From now on the scheduler runs by itself: whatever is scheduled runs in a microtask, at its
   * due time, the clock following. For the end of a replay, when no more market time comes and a
   * shutdown still waits for answers.
   */
  runFreely(): void {
    this.freeRunning = true;
    this.wake();
  }

  private wake(): void {
    if (this.woken) return;
    this.woken = true;
    queueMicrotask(() => {
      this.woken = false;
      let ran = 0;
      for (let next = this.nextDue(); next !== undefined || this.deferred.length > 0; next = this.nextDue()) {
        if (++ran > FREE_RUN_LIMIT) throw new Error(`VirtualClockScheduler: more than ${FREE_RUN_LIMIT} actions while running freely (an endless timer?)`);
        this.advanceTo(next === undefined ? this.clock.now() : next);
      }
    });
  }

  private runDeferred(): void {
    if (this.deferred.length === 0) return;
    // Work deferred by deferred work runs in the same pass, in order; work that threw is not run again.
    let i = 0;
    try {
      for (; i < this.deferred.length; i++) this.deferred[i]!();
    } finally {
      this.deferred = i >= this.deferred.length ? [] : this.deferred.slice(i + 1);
    }
  }
}
