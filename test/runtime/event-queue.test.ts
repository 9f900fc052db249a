import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventQueue, type RuntimeEvent } from '../../framework/runtime/event-queue.js';

const KINDS = ['report', 'balances', 'trades', 'candle', 'timer'] as const;
const RANK: Record<(typeof KINDS)[number], number> = { report: 0, balances: 1, trades: 3, candle: 5, timer: 6 };

function event(kind: (typeof KINDS)[number], n: number): RuntimeEvent {
  return kind === 'timer' ? { kind, timerId: `t${n}`, token: n } : ({ kind, n } as unknown as RuntimeEvent);
}

describe('EventQueue', () => {
  it('hands out a batch by time, then kind rank, then arrival, whatever its size', () => {
    const pushes = fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.constantFrom(...KINDS)), { maxLength: 60 });
    fc.assert(fc.property(pushes, (list) => {
      const queue = new EventQueue();
      list.forEach(([time, kind], n) => queue.push(time, event(kind, n)));
      const expected = list.map(([time, kind], n) => ({ time, rank: RANK[kind], n }))
        .sort((a, b) => (a.time !== b.time ? a.time - b.time : a.rank !== b.rank ? a.rank - b.rank : a.n - b.n))
        .map((e) => e.n);
      // Arrival numbers count from 0 in push order (no book here is conflated).
      expect(queue.take().map((q) => q.seq)).toEqual(expected);
    }), { numRuns: 300 });
  });
});
