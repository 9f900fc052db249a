import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { VirtualClock } from '../time/clock.js';

/**
 * A VirtualTimeScheduler driven by a {@link VirtualClock}: a backtest advances time with
 * {@link advanceTo}, which runs every action due by then in (time, scheduling order) and moves
 * the clock to each action's time before running it, so `clock.now()` inside a timer handler is
 * the timer's due time. Nothing runs on its own: without `advanceTo`, time stands still.
 */
export class VirtualClockScheduler extends VirtualTimeScheduler {
  constructor(readonly clock: VirtualClock = new VirtualClock()) {
    super(VirtualAction, Infinity);
    this.frame = clock.now();
    // The clock, not the frame, is the time: a replay may move the clock between advances.
    this.now = () => this.clock.now();
  }

  /** Runs the actions due at or before `time` (including those they schedule), then sets the clock to `time`. */
  advanceTo(time: number): void {
    this.frame = Math.max(this.frame, this.clock.now());
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
    }
    this.clock.advanceTo(time);
    this.frame = Math.max(this.frame, time);
  }

  /** Runs everything due at the current time (actions scheduled with delay 0). */
  override flush(): void {
    this.advanceTo(this.clock.now());
  }
}
