import type { SchedulerAction, SchedulerLike, Subscription } from 'rxjs';
import { ValidationError } from '../model/errors.js';

interface TimerEntry {
  readonly token: number;
  readonly repeat: boolean;
  readonly subscription: Subscription;
}

/**
 * A strategy's named timers on a scheduler (asyncScheduler live, virtual time in backtests). A
 * firing only announces the timer (`onFire(timerId, token)`); the engine queues it like any event
 * and asks {@link claim} at dispatch, so a timer cleared or re-set after firing but before its
 * dispatch does not reach the strategy.
 */
export class StrategyTimers {
  private readonly timers = new Map<string, TimerEntry>();
  private tokens = 0;

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly onFire: (timerId: string, token: number) => void,
  ) {}

  /** (Re)sets `timerId`; a repeating timer needs a positive delay (zero would spin virtual time). */
  set(timerId: string, delayMs: number, repeat: boolean): void {
    if (!Number.isFinite(delayMs) || delayMs < 0) throw new ValidationError('delayMs', 'must be a finite number >= 0', delayMs);
    if (repeat && delayMs === 0) throw new ValidationError('delayMs', 'must be > 0 for a repeating timer', delayMs);
    this.clear(timerId);
    const token = ++this.tokens;
    const onFire = this.onFire;
    const subscription = this.scheduler.schedule(function (this: SchedulerAction<undefined>) {
      onFire(timerId, token);
      if (repeat) this.schedule(undefined, delayMs);
    }, delayMs);
    this.timers.set(timerId, { token, repeat, subscription });
  }

  clear(timerId: string): void {
    const entry = this.timers.get(timerId);
    if (entry === undefined) return;
    entry.subscription.unsubscribe();
    this.timers.delete(timerId);
  }

  clearAll(): void {
    for (const entry of this.timers.values()) entry.subscription.unsubscribe();
    this.timers.clear();
  }

  /** True when this firing is still wanted; a one-shot timer is used up by it. */
  claim(timerId: string, token: number): boolean {
    const entry = this.timers.get(timerId);
    if (entry === undefined || entry.token !== token) return false;
    if (!entry.repeat) this.timers.delete(timerId);
    return true;
  }

  /** Number of armed timers. */
  get size(): number {
    return this.timers.size;
  }
}
