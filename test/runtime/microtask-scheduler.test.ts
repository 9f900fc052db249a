import type { SchedulerAction } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { microtaskScheduler } from '../../framework/runtime/microtask-scheduler.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('microtaskScheduler', () => {
  it('runs work given no delay after the code running now, in scheduling order, with its state', async () => {
    const log: string[] = [];
    microtaskScheduler.schedule((state) => log.push(`a:${String(state)}`), 0, 1);
    microtaskScheduler.schedule(() => log.push('b'));
    log.push('sync');
    await Promise.resolve();
    expect(log).toEqual(['sync', 'a:1', 'b']);
  });

  it('never runs work unsubscribed before its turn', async () => {
    const log: string[] = [];
    const subscription = microtaskScheduler.schedule(() => log.push('cancelled'));
    microtaskScheduler.schedule(() => log.push('kept'));
    subscription.unsubscribe();
    await tick();
    expect(log).toEqual(['kept']);
  });

  it('lets work schedule itself again, at once or after a delay, and cancels a delayed rerun with it', async () => {
    const log: number[] = [];
    microtaskScheduler.schedule<number>(function (this: SchedulerAction<number>, n = 0) {
      log.push(n);
      if (n < 2) this.schedule(n + 1);
    });
    await tick();
    expect(log).toEqual([0, 1, 2]);

    const delayed: string[] = [];
    // Canceled right after the rerun was asked for, in the same turn: however late the timers run
    // on a busy machine, the rerun must not come.
    const subscription = microtaskScheduler.schedule(function (this: SchedulerAction<unknown>) {
      delayed.push('first');
      this.schedule(undefined, 5);
      subscription.unsubscribe();
    });
    await tick();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(delayed).toEqual(['first']);
  });

  it('puts work given a delay on a timer', async () => {
    const log: string[] = [];
    microtaskScheduler.schedule(() => log.push('timer'), 5);
    await tick();
    expect(log).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(log).toEqual(['timer']);
  });
});
