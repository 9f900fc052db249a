import fc from 'fast-check';
import { Subject, type Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { EventFanout } from '../../../backtest/replay/event-fanout.js';

type Op = { kind: 'subscribe' } | { kind: 'unsubscribe'; pick: number } | { kind: 'next'; value: number } | { kind: 'complete' };

/** What each subscriber saw, in order, over a run of `ops` against a stream with `next` and `complete`. */
function run(ops: readonly Op[], stream: { next(v: number): void; complete(): void; subscribe(o: { next(v: number): void; complete(): void }): Subscription }): string[][] {
  const seen: string[][] = [];
  const live: Subscription[] = [];
  for (const op of ops) {
    if (op.kind === 'subscribe') {
      const log: string[] = [];
      seen.push(log);
      live.push(stream.subscribe({ next: (v) => log.push(String(v)), complete: () => log.push('done') }));
    } else if (op.kind === 'unsubscribe') {
      if (live.length > 0) live.splice(op.pick % live.length, 1)[0]!.unsubscribe();
    } else if (op.kind === 'next') {
      stream.next(op.value);
    } else {
      stream.complete();
    }
  }
  return seen;
}

describe('EventFanout', () => {
  it('delivers and completes as a Subject does', () => {
    const op = fc.oneof(
      { weight: 3, arbitrary: fc.constant<Op>({ kind: 'subscribe' }) },
      { weight: 2, arbitrary: fc.nat().map<Op>((pick) => ({ kind: 'unsubscribe', pick })) },
      { weight: 5, arbitrary: fc.integer().map<Op>((value) => ({ kind: 'next', value })) },
      { weight: 1, arbitrary: fc.constant<Op>({ kind: 'complete' }) },
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      const fanout = new EventFanout<number>();
      const asFanout = { next: (v: number) => fanout.next(v), complete: () => fanout.complete(), subscribe: fanout.events.subscribe.bind(fanout.events) };
      expect(run(ops, asFanout)).toEqual(run(ops, new Subject<number>()));
    }), { numRuns: 500 });
  });

  it('gives a subscriber added while a value is delivered the values after it, and stops one removed then', () => {
    const fanout = new EventFanout<number>();
    const late: number[] = [];
    const second: number[] = [];
    const subscriptions: Subscription[] = [];
    fanout.events.subscribe((v) => {
      if (v === 1) fanout.events.subscribe((w) => late.push(w));
      if (v === 2) subscriptions[0]?.unsubscribe();
    });
    subscriptions.push(fanout.events.subscribe((v) => second.push(v)));
    for (const v of [1, 2, 3]) fanout.next(v);
    expect(late).toEqual([2, 3]);
    expect(second).toEqual([1]);
  });
});
