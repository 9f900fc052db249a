import fc from 'fast-check';
import { delay, interval, of, take, timer, type SchedulerAction } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClockScheduler } from '../../framework/runtime/virtual-clock-scheduler.js';
import { VirtualClock } from '../../framework/time/clock.js';

describe('VirtualClockScheduler actions', () => {
  it('runs any mix of timed actions in (due time, scheduling order), whatever the order they were scheduled in', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 60 }), fc.integer({ min: 0, max: 60 }), (delays, advanceTo) => {
      const scheduler = new VirtualClockScheduler(new VirtualClock(1_000));
      const ran: number[] = [];
      delays.forEach((d, i) => scheduler.schedule(() => ran.push(i), d));
      scheduler.advanceTo(1_000 + advanceTo);
      // Oracle: a stable sort of the scheduling order by delay, cut at the advance.
      const expected = delays.map((d, i) => ({ d, i })).filter(({ d }) => d <= advanceTo).sort((a, b) => a.d - b.d).map(({ i }) => i);
      expect(ran).toEqual(expected);
      const later = delays.filter((d) => d > advanceTo);
      expect(scheduler.nextDue()).toBe(later.length === 0 ? undefined : 1_000 + Math.min(...later));
    }));
  });

  it('never runs a cancelled action, and cancelling keeps the others in order', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.boolean()), { maxLength: 40 }), (plan) => {
      const scheduler = new VirtualClockScheduler(new VirtualClock(0));
      const ran: number[] = [];
      const subscriptions = plan.map(([d], i) => scheduler.schedule(() => ran.push(i), d));
      plan.forEach(([, cancel], i) => cancel && subscriptions[i]?.unsubscribe());
      scheduler.advanceTo(100);
      const expected = plan.map(([d, cancel], i) => ({ d, cancel, i })).filter(({ cancel }) => !cancel).sort((a, b) => a.d - b.d).map(({ i }) => i);
      expect(ran).toEqual(expected);
    }));
  });

  it('repeats an action that reschedules itself until it is unsubscribed', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(0));
    const fired: number[] = [];
    const subscription = scheduler.schedule(function (this: SchedulerAction<number>, n?: number) {
      fired.push(scheduler.now());
      this.schedule((n ?? 0) + 1, 10);
    }, 10, 0);
    scheduler.advanceTo(35);
    expect(fired).toEqual([10, 20, 30]);
    subscription.unsubscribe();
    scheduler.advanceTo(100);
    expect(fired).toEqual([10, 20, 30]);
    expect(scheduler.nextDue()).toBeUndefined();
  });

  it('runs RxJS timers, intervals and delays on virtual time', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(0));
    const seen: string[] = [];
    timer(25, scheduler).subscribe(() => seen.push(`timer@${scheduler.now()}`));
    interval(10, scheduler).pipe(take(3)).subscribe((n) => seen.push(`tick${n}@${scheduler.now()}`));
    of('x').pipe(delay(15, scheduler)).subscribe((x) => seen.push(`${x}@${scheduler.now()}`));
    scheduler.advanceTo(100);
    expect(seen).toEqual(['tick0@10', 'x@15', 'tick1@20', 'timer@25', 'tick2@30']);
    expect(scheduler.nextDue()).toBeUndefined();
  });

  it('cancels every pending action and rethrows when an action throws', () => {
    const scheduler = new VirtualClockScheduler(new VirtualClock(0));
    const seen: string[] = [];
    scheduler.schedule(() => {
      throw new Error('boom');
    }, 5);
    scheduler.schedule(() => seen.push('later'), 10);
    expect(() => scheduler.advanceTo(20)).toThrow('boom');
    scheduler.advanceTo(30);
    expect(seen).toEqual([]);
    expect(scheduler.nextDue()).toBeUndefined();
  });

  it('counts a delay from the time reached by the last advance, even when the clock moved on since', () => {
    const clock = new VirtualClock(0);
    const scheduler = new VirtualClockScheduler(clock);
    scheduler.advanceTo(100);
    clock.advanceTo(150);
    let ranAt: number | undefined;
    scheduler.schedule(() => (ranAt = clock.now()), 10);
    expect(scheduler.nextDue()).toBe(110);
    scheduler.advanceTo(200);
    expect(ranAt).toBe(150);
  });
});
