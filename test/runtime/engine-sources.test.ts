import fc from 'fast-check';
import { BehaviorSubject, config, map, merge, Subject, type Observable, type Subscription } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventSource, subscribeAll } from '../../framework/runtime/engine-sources.js';
import { runtimeEvent, type RuntimeEvent } from '../../framework/runtime/event-queue.js';

type Step = { readonly op: 'next' | 'error' | 'complete'; readonly source: number } | { readonly op: 'unsubscribe' };

const toEvent = (source: number) => (value: number): RuntimeEvent | undefined =>
  (value % 5 === 0 ? undefined : runtimeEvent('timer', { timerId: `${source}`, token: value }));

/** Runs the steps against three sources (the first replays a value on subscription) and records what comes out. */
function run(steps: readonly Step[], subscribe: (sources: readonly Observable<number>[], deliver: (e: RuntimeEvent) => void) => Subscription): unknown[] {
  const seen: unknown[] = [];
  config.onUnhandledError = (error) => seen.push(['unhandled', error]);
  const subjects = [new BehaviorSubject(1), new Subject<number>(), new Subject<number>()];
  const subscription = subscribe(subjects, (e) => seen.push(e));
  let value = 2;
  for (const step of steps) {
    if (step.op === 'unsubscribe') subscription.unsubscribe();
    else if (step.op === 'next') subjects[step.source]?.next(value++);
    else if (step.op === 'error') subjects[step.source]?.error(`boom ${step.source}`);
    else subjects[step.source]?.complete();
  }
  // rxjs reports an unhandled error from a timeout.
  vi.runAllTimers();
  seen.push(['observed', subjects.map((s) => s.observed)]);
  return seen;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  config.onUnhandledError = null;
  vi.useRealTimers();
});

describe('subscribeAll', () => {
  it('delivers, ends and reports exactly as merge of mapped sources', () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ op: fc.constantFrom('next' as const, 'next' as const, 'error' as const, 'complete' as const), source: fc.integer({ min: 0, max: 2 }) }),
      fc.constant({ op: 'unsubscribe' as const }),
    );
    fc.assert(fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
      const direct = run(steps, (sources, deliver) => subscribeAll(sources.map((s, i) => eventSource(s, toEvent(i))), deliver));
      const merged = run(steps, (sources, deliver) => merge(...sources.map((s, i) => s.pipe(map(toEvent(i))))).subscribe((e) => {
        if (e !== undefined) deliver(e);
      }));
      expect(direct).toEqual(merged);
    }));
  });

  it('stops at a source that fails while being subscribed', () => {
    const seen: unknown[] = [];
    config.onUnhandledError = (error) => seen.push(['unhandled', error]);
    const failing = new Subject<number>();
    failing.error('early');
    const later = new Subject<number>();
    const subscription = subscribeAll([eventSource(failing, toEvent(0)), eventSource(later, toEvent(1))], (e) => seen.push(e));
    expect(later.observed).toBe(false);
    expect(subscription.closed).toBe(true);
    vi.runAllTimers();
    expect(seen).toEqual([['unhandled', 'early']]);
  });
});
