import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BookEvent } from '../../framework/exchange/book/book-event.js';
import { EventQueue, runtimeEvent, type RuntimeEvent } from '../../framework/runtime/event-queue.js';

const KINDS = ['report', 'balances', 'book', 'trades', 'candle', 'timer'] as const;
type Kind = (typeof KINDS)[number];
const RANK: Record<Kind, number> = { report: 0, balances: 1, book: 2, trades: 3, candle: 5, timer: 6 };

/** An event whose payload names it: `n` (its push number) and, for books, its symbol. */
function event(kind: Kind, n: number, symbol: string): RuntimeEvent {
  if (kind === 'timer') return runtimeEvent('timer', { timerId: `t${n}`, token: n });
  if (kind === 'book') return runtimeEvent('book', { kind: 'book', symbol, n } as unknown as BookEvent);
  return runtimeEvent(kind, { n } as never);
}

function pushNumber(e: RuntimeEvent): number {
  return e.kind === 'timer' ? e.payload.token : (e.payload as unknown as { n: number }).n;
}

type Op = { readonly op: 'push'; readonly time: number; readonly kind: Kind; readonly symbol: string } | { readonly op: 'take' };

describe('EventQueue', () => {
  it('hands out a batch by time, then kind rank, then arrival, whatever its size', () => {
    const pushes = fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.constantFrom(...KINDS.filter((k) => k !== 'book'))), { maxLength: 60 });
    fc.assert(fc.property(pushes, (list) => {
      const queue = new EventQueue();
      list.forEach(([time, kind], n) => queue.push(time, event(kind, n, '')));
      const expected = list.map(([time, kind], n) => ({ time, rank: RANK[kind], n }))
        .sort((a, b) => (a.time !== b.time ? a.time - b.time : a.rank !== b.rank ? a.rank - b.rank : a.n - b.n))
        .map((e) => e.n);
      const count = queue.take();
      expect(Array.from({ length: count }, (_, i) => pushNumber(queue.dispatchAt(i)))).toEqual(expected);
    }), { numRuns: 300 });
  });

  it('over many batches, gives what a list model gives: each book waiting per symbol takes the newest book', () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ op: fc.constant('push' as const), time: fc.integer({ min: 0, max: 3 }), kind: fc.constantFrom(...KINDS), symbol: fc.constantFrom('A', 'B') }) },
      { weight: 1, arbitrary: fc.constant({ op: 'take' as const }) },
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
      const queue = new EventQueue();
      // The model: waiting entries as plain records; a book of a symbol already waiting replaces its payload.
      let waiting: { time: number; rank: number; seq: number; kind: Kind; symbol: string; n: number }[] = [];
      let seq = 0;
      let conflated = 0;
      const got: number[][] = [];
      const expected: number[][] = [];
      ops.forEach((o, n) => {
        if (o.op === 'push') {
          queue.push(o.time, event(o.kind, n, o.symbol));
          const same = o.kind === 'book' ? waiting.find((w) => w.kind === 'book' && w.symbol === o.symbol) : undefined;
          if (same !== undefined) {
            same.n = n;
            conflated++;
          } else {
            waiting.push({ time: o.time, rank: RANK[o.kind], seq: seq++, kind: o.kind, symbol: o.symbol, n });
          }
          return;
        }
        const count = queue.take();
        got.push(Array.from({ length: count }, (_, i) => pushNumber(queue.dispatchAt(i))));
        expected.push(waiting.sort((a, b) => a.time - b.time || a.rank - b.rank || a.seq - b.seq).map((w) => w.n));
        waiting = [];
      });
      expect(got).toEqual(expected);
      expect(queue.size).toBe(waiting.length);
      expect(queue.conflated).toBe(conflated);
      expect(queue.clear()).toBe(waiting.length);
      expect(queue.take()).toBe(0);
    }), { numRuns: 300 });
  });
});
