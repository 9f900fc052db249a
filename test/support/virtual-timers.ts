import { VirtualClock } from '../../framework/time/clock.js';
import type { TimerHandle, Timers } from '../../framework/exchange/rest/rate-limiter.js';

interface Pending {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
}

/** Lets promise continuations triggered by a timer callback run before the next timer fires. */
export async function flushMicrotasks(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Timers on a {@link VirtualClock}: callbacks run only when the test advances time, in due order,
 * with the clock set to each callback's due time. `scheduled` counts every timer ever set, so a
 * test can tell waiting from polling.
 */
export class VirtualTimers implements Timers {
  readonly clock: VirtualClock;
  scheduled = 0;
  private pending: Pending[] = [];
  private nextId = 1;

  constructor(clock = new VirtualClock(0)) {
    this.clock = clock;
  }

  set(callback: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.scheduled += 1;
    this.pending.push({ id, due: this.clock.now() + Math.max(0, ms), callback });
    return id;
  }

  clear(handle: TimerHandle): void {
    this.pending = this.pending.filter((p) => p.id !== handle);
  }

  /** Timers not yet fired. */
  get size(): number {
    return this.pending.length;
  }

  /** Runs every timer due up to `now + ms` (including timers those callbacks set), then sets the clock there. */
  async advanceBy(ms: number): Promise<void> {
    await this.advanceTo(this.clock.now() + ms);
  }

  /** See {@link advanceBy}. */
  async advanceTo(target: number): Promise<void> {
    await flushMicrotasks();
    for (;;) {
      const next = this.earliest();
      if (next === undefined || next.due > target) break;
      this.pending = this.pending.filter((p) => p.id !== next.id);
      this.clock.advanceTo(next.due);
      next.callback();
      await flushMicrotasks();
    }
    this.clock.advanceTo(target);
    await flushMicrotasks();
  }

  private earliest(): Pending | undefined {
    let best: Pending | undefined;
    for (const p of this.pending) if (best === undefined || p.due < best.due || (p.due === best.due && p.id < best.id)) best = p;
    return best;
  }
}
