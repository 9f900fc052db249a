import { interval } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../framework/time/clock.js';

describe('VirtualClockScheduler', () => {
  it('runs timed actions in (time, scheduling order), the clock at each one\'s time', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(1_000));
    const seen: string[] = [];
    scheduler.schedule(() => seen.push(`b@${scheduler.now()}`), 20);
    scheduler.schedule(() => seen.push(`a@${scheduler.now()}`), 10);
    scheduler.schedule(() => seen.push(`c@${scheduler.now()}`), 20);
    scheduler.advanceTo(1_015);
    expect(seen).toEqual(['a@1010']);
    expect(scheduler.now()).toBe(1_015);
    scheduler.advanceTo(1_100);
    expect(seen).toEqual(['a@1010', 'b@1020', 'c@1020']);
    expect(scheduler.nextDue()).toBeUndefined();
  });

  it('keeps one action for a repeating timer however long it runs, which one unsubscribe cancels', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(0));
    let ticks = 0;
    const subscription = interval(5, scheduler).subscribe(() => void ticks++);
    // A paper bot's warm-up every 5 ms of market time for some minutes.
    scheduler.advanceTo(5 * 50_000);
    expect(ticks).toBe(50_000);
    expect(() => subscription.unsubscribe()).not.toThrow();
    scheduler.advanceTo(5 * 60_000);
    expect(ticks).toBe(50_000);
    expect(scheduler.nextDue()).toBeUndefined();
  });

  it('puts an action rescheduled while it runs behind what was scheduled before, at the same time', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(0));
    const runs: string[] = [];
    let repeats = 2;
    scheduler.schedule(function () {
      runs.push(`a@${scheduler.now()}`);
      if (repeats-- > 0) {
        scheduler.schedule(() => void runs.push(`b@${scheduler.now()}`), 10);
        this.schedule(undefined, 10);
      }
    }, 10);
    scheduler.advanceTo(100);
    expect(runs).toEqual(['a@10', 'b@20', 'a@20', 'b@30', 'a@30']);
  });

  it('runs deferred work after the action running now and before the next one of the same instant', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(0));
    const seen: string[] = [];
    scheduler.schedule(() => {
      seen.push('first');
      scheduler.defer(() => {
        seen.push('deferred by first');
        scheduler.defer(() => seen.push('deferred by deferred'));
      });
    }, 5);
    scheduler.schedule(() => seen.push('second'), 5);
    scheduler.advanceTo(5);
    expect(seen).toEqual(['first', 'deferred by first', 'deferred by deferred', 'second']);
  });

  it('runs work deferred between advances first thing at the next advance, at the time it was deferred', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(100));
    const seen: number[] = [];
    scheduler.schedule(() => seen.push(-scheduler.now()), 50);
    scheduler.defer(() => seen.push(scheduler.now()));
    expect(seen).toEqual([]);
    scheduler.advanceTo(200);
    expect(seen).toEqual([100, -150]);
  });

  it('does not run again deferred work that threw, nor lose the work deferred after it', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(0));
    const seen: string[] = [];
    scheduler.defer(() => seen.push('before'));
    scheduler.defer(() => {
      throw new Error('boom');
    });
    scheduler.defer(() => seen.push('after'));
    expect(() => scheduler.advanceTo(1)).toThrow('boom');
    scheduler.advanceTo(2);
    expect(seen).toEqual(['before', 'after']);
  });

  it('runs freely once told to: what is scheduled runs by itself, in order, the clock following', async () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(0));
    const seen: string[] = [];
    scheduler.schedule(() => seen.push(`timer@${scheduler.now()}`), 30);
    scheduler.runFreely();
    const answered = new Promise<number>((resolve) => scheduler.schedule(() => resolve(scheduler.now()), 70));
    scheduler.defer(() => seen.push(`now@${scheduler.now()}`));
    expect(await answered).toBe(70);
    expect(seen).toEqual(['now@0', 'timer@30']);
  });
});
