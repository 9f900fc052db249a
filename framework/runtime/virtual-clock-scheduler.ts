import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { VirtualClock } from '../time/clock.js';

/** Actions a free-running scheduler runs in one go before it counts a runaway (a timer that keeps rescheduling itself). */
const FREE_RUN_LIMIT = 1_000_000;

type Work<T> = (this: SchedulerAction<T>, state?: T) => void;

/**
 * A virtual-time scheduler (an RxJS SchedulerLike) driven by a {@link VirtualClock}: a backtest
 * advances time with {@link advanceTo}, which runs every action due by then in (time, scheduling
 * order) and moves the clock to each action's time before running it, so `clock.now()` inside a
 * timer handler is the timer's due time. Nothing runs on its own: without `advanceTo`, time stands
 * still (until {@link runFreely}).
 *
 * Beside timed actions it keeps a same-instant queue ({@link defer}): work that runs at the current
 * time as soon as the action running now returns, before the next action, as microtasks run before
 * the next task of a live event loop. The backtest's venue commands and answers without latency go
 * there, so a strategy handler's intents all leave before any of them is answered.
 *
 * It orders actions as RxJS's VirtualTimeScheduler with VirtualActions does (an action rescheduled
 * while queued or running goes behind every action scheduled before the reschedule; a delay counts
 * from the latest time the scheduler reached), but keeps its actions in a binary heap: each one is
 * a bare Subscription, and scheduling costs O(log n) instead of a sort of every pending action. A
 * rescheduled action moves itself, as the live schedulers' actions do, where a VirtualAction hands
 * over to a new action it holds: a repeating timer (an `interval`, a strategy's repeating timer)
 * would hold a chain of one action per run, which grows for as long as the timer runs and which
 * unsubscribing walks recursively (at some thousand runs, past the stack's depth).
 */
export class VirtualClockScheduler implements SchedulerLike {
  private readonly queue: ClockAction<unknown>[] = [];
  private deferred: ((() => void) | undefined)[] = [];
  private deferredNext = 0;
  /** The latest time reached by an advance: delays count from here (the clock may run ahead between advances). */
  private frame: number;
  private sequence = 0;
  private freeRunning = false;
  private woken = false;

  constructor(readonly clock: VirtualClock = new VirtualClock()) {
    this.frame = clock.now();
  }

  /** The clock's time (a replay may move the clock between advances). */
  now(): number {
    return this.clock.now();
  }

  /** Runs `work` `delay` ms after the time the scheduler reached; unsubscribing cancels it. */
  schedule<T>(work: Work<T>, delay = 0, state?: T): Subscription {
    const action = new ClockAction(this, work, this.sequence++).schedule(state, delay);
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
    const queue = this.queue;
    for (;;) {
      const action = queue[0];
      if (action === undefined || action.time > time) break;
      this.remove(action);
      this.clock.advanceTo(action.time);
      this.frame = Math.max(this.frame, action.time);
      const error = action.execute();
      if (error !== undefined) {
        this.cancelAll();
        throw error;
      }
      this.runDeferred();
    }
    this.clock.advanceTo(time);
    this.frame = Math.max(this.frame, time);
  }

  /** Runs everything due at the current time (actions scheduled with delay 0). */
  flush(): void {
    this.advanceTo(this.clock.now());
  }

  /** The time of the next timed action; undefined when none is scheduled. */
  nextDue(): number | undefined {
    return this.queue[0]?.time;
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

  /** Queues `action` at `delay` after the time reached, behind every action queued before it at that time. */
  enqueue(action: ClockAction<unknown>, delay: number): void {
    action.time = this.frame + delay;
    action.position = this.queue.length;
    this.queue.push(action);
    this.up(action.position);
  }

  /** Takes a queued action out of the queue. */
  remove(action: ClockAction<unknown>): void {
    const queue = this.queue;
    const at = action.position;
    action.position = -1;
    const last = queue.pop() as ClockAction<unknown>;
    if (last === action) return;
    queue[at] = last;
    last.position = at;
    if (at > 0 && before(last, queue[(at - 1) >> 1] as ClockAction<unknown>)) this.up(at);
    else this.down(at);
  }

  /** A new sequence number, for a rescheduled action (it goes behind everything scheduled so far). */
  nextSequence(): number {
    return this.sequence++;
  }

  private up(at: number): void {
    const queue = this.queue;
    const action = queue[at] as ClockAction<unknown>;
    while (at > 0) {
      const parentAt = (at - 1) >> 1;
      const parent = queue[parentAt] as ClockAction<unknown>;
      if (!before(action, parent)) break;
      queue[at] = parent;
      parent.position = at;
      at = parentAt;
    }
    queue[at] = action;
    action.position = at;
  }

  private down(at: number): void {
    const queue = this.queue;
    const length = queue.length;
    const action = queue[at] as ClockAction<unknown>;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= length) break;
      const right = child + 1;
      if (right < length && before(queue[right] as ClockAction<unknown>, queue[child] as ClockAction<unknown>)) child = right;
      const first = queue[child] as ClockAction<unknown>;
      if (!before(first, action)) break;
      queue[at] = first;
      first.position = at;
      at = child;
    }
    queue[at] = action;
    action.position = at;
  }

  /** After an action threw: every queued action is cancelled, in run order. */
  private cancelAll(): void {
    const pending = [...this.queue].sort((a, b) => (before(a, b) ? -1 : 1));
    for (const action of pending) action.unsubscribe();
  }

  private wake(): void {
    if (this.woken) return;
    this.woken = true;
    queueMicrotask(() => {
      this.woken = false;
      let ran = 0;
      for (let next = this.nextDue(); next !== undefined || this.deferredNext < this.deferred.length; next = this.nextDue()) {
        if (++ran > FREE_RUN_LIMIT) throw new Error(`VirtualClockScheduler: more than ${FREE_RUN_LIMIT} actions while running freely (an endless timer?)`);
        this.advanceTo(next === undefined ? this.clock.now() : next);
      }
    });
  }

  private runDeferred(): void {
    const deferred = this.deferred;
    if (this.deferredNext >= deferred.length) return;
    // Work deferred by deferred work runs in the same pass, in order; work that threw is not run
    // again (the cursor is past it), and what it left behind runs at the next pass.
    try {
      while (this.deferredNext < deferred.length) {
        const work = deferred[this.deferredNext] as () => void;
        deferred[this.deferredNext++] = undefined;
        work();
      }
    } finally {
      if (this.deferredNext >= deferred.length) {
        deferred.length = 0;
        this.deferredNext = 0;
      }
    }
  }
}

/** True when `a` runs before `b`: earlier time, then earlier scheduling. */
function before(a: ClockAction<unknown>, b: ClockAction<unknown>): boolean {
  return a.time < b.time || (a.time === b.time && a.sequence < b.sequence);
}

/** One scheduled piece of work of a {@link VirtualClockScheduler}; unsubscribing cancels it. */
class ClockAction<T> extends Subscription implements SchedulerAction<T> {
  /** Due time while queued. */
  time = 0;
  /** Index in the scheduler's heap; -1 when not queued. */
  position = -1;
  private state: T | undefined = undefined;
  /** Scheduled once already: a further schedule is a reschedule. */
  private scheduled = false;

  constructor(private scheduler: VirtualClockScheduler | null, private work: Work<T> | null, public sequence: number) {
    super();
  }

  schedule(state?: T, delay = 0): Subscription {
    if (!Number.isFinite(delay)) return Subscription.EMPTY;
    const scheduler = this.scheduler;
    if (this.closed || scheduler === null) return this;
    // Rescheduled while queued (or while running, once its run had started): behind everything scheduled so far.
    if (this.position >= 0) scheduler.remove(this as ClockAction<unknown>);
    if (this.scheduled) this.sequence = scheduler.nextSequence();
    this.scheduled = true;
    this.state = state;
    scheduler.enqueue(this as ClockAction<unknown>, delay);
    return this;
  }

  /** Runs the work; returns what it threw (the action is then cancelled), else undefined. */
  execute(): unknown {
    try {
      (this.work as Work<T>).call(this, this.state);
    } catch (failure) {
      this.unsubscribe();
      return failure || new Error('Scheduled action threw falsy error');
    }
    return undefined;
  }

  override unsubscribe(): void {
    if (this.closed) return;
    if (this.position >= 0) this.scheduler?.remove(this as ClockAction<unknown>);
    this.work = null;
    this.state = undefined;
    this.scheduler = null;
    super.unsubscribe();
  }
}
