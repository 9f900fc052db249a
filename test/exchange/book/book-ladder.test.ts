import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BookLadder } from '../../../framework/exchange/book/book-ladder.js';

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** One operation on a ladder: set a level (any size, 0 removes), rebalance the window, or fit it to the levels. */
type Op = { readonly kind: 'set'; readonly key: bigint; readonly quantity: bigint } | { readonly kind: 'rebalance' } | { readonly kind: 'fit' };

/** Keys around a drifting centre, a few far away, a few beyond 2^53; quantities 0, small or huge. */
const ops: fc.Arbitrary<Op[]> = fc
  .array(
    fc.oneof(
      { weight: 1, arbitrary: fc.constant({ kind: 'rebalance' } as const) },
      { weight: 1, arbitrary: fc.constant({ kind: 'fit' } as const) },
      {
        weight: 12,
        arbitrary: fc.record({
          kind: fc.constant('set' as const),
          key: fc.oneof(
            { weight: 10, arbitrary: fc.bigInt({ min: -200n, max: 200n }) },
            { weight: 2, arbitrary: fc.bigInt({ min: -5_000_000n, max: 5_000_000n }) },
            // Sparse: hundreds of keys apart, as BTC levels at a 0.01 tick.
            { weight: 3, arbitrary: fc.integer({ min: -40, max: 40 }).map((k) => BigInt(k) * 613n) },
            { weight: 1, arbitrary: fc.bigInt({ min: SAFE - 10n, max: SAFE + 10n }).map((k) => (k % 2n === 0n ? k : -k)) },
          ),
          quantity: fc.oneof(
            { weight: 3, arbitrary: fc.constant(0n) },
            { weight: 8, arbitrary: fc.bigInt({ min: 1n, max: 1_000_000n }) },
            { weight: 1, arbitrary: fc.bigInt({ min: SAFE - 2n, max: SAFE * 1000n }) },
          ),
        }),
      },
    ),
    { maxLength: 120 },
  )
  // A drifting offset per step moves the touch across the window edges.
  .chain((list) => fc.array(fc.integer({ min: -40, max: 40 }), { minLength: list.length, maxLength: list.length }).map((drifts) => {
    let centre = 0n;
    return list.map((op, i): Op => {
      centre += BigInt(drifts[i] as number);
      if (op.kind !== 'set' || op.key > 1_000_000n || op.key < -1_000_000n) return op;
      return { ...op, key: op.key + centre };
    });
  }));

function model(list: readonly Op[]): Map<bigint, bigint> {
  const levels = new Map<bigint, bigint>();
  for (const op of list) {
    if (op.kind !== 'set') continue;
    if (op.quantity === 0n) levels.delete(op.key);
    else levels.set(op.key, op.quantity);
  }
  return levels;
}

function apply(ladder: BookLadder, list: readonly Op[]): void {
  for (const op of list) {
    if (op.kind === 'rebalance') ladder.rebalance();
    else if (op.kind === 'fit') ladder.fit();
    else ladder.setExact(op.key, op.quantity);
  }
}

function expectSame(ladder: BookLadder, levels: Map<bigint, bigint>): void {
  const sorted = [...levels].sort((x, y) => (x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : 0));
  expect([...ladder.levelsFromBest()]).toEqual(sorted);
  expect(ladder.size).toBe(levels.size);
  const bestSafe = sorted.find(([key]) => key <= SAFE && key >= -SAFE);
  expect(ladder.bestKey()).toBe(bestSafe === undefined ? Number.NaN : Number(bestSafe[0]));
  const bestQuantity = ladder.bestQuantity();
  if (bestSafe === undefined) expect(bestQuantity).toBeNaN();
  else expect(bestQuantity).toBe(bestSafe[1] > SAFE ? -1 : Number(bestSafe[1]));
  expect(ladder.farAbove).toBe(sorted.filter(([key]) => key > SAFE).length);
  for (const [key, quantity] of sorted.slice(0, 20)) expect(ladder.quantityAt(key)).toBe(quantity);
}

describe('BookLadder', () => {
  it('property: any set/rebalance sequence holds exactly the levels of a map, best first', () => {
    fc.assert(
      fc.property(ops, fc.constantFrom([64, 64], [64, 1024], [128, 1 << 16], [4096, 1 << 18]), (list, [windowSize, maxWindowSize]) => {
        const ladder = new BookLadder(windowSize, maxWindowSize);
        apply(ladder, list);
        expectSame(ladder, model(list));
        expect(ladder.quantityAt(123_456_789n)).toBe(model(list).get(123_456_789n) ?? 0n);
        ladder.rebalance();
        expectSame(ladder, model(list));
        ladder.fit();
        expectSame(ladder, model(list));
        expect(ladder.windowSpan).toBeGreaterThanOrEqual(windowSize);
        expect(ladder.windowSpan).toBeLessThanOrEqual(maxWindowSize);
      }),
      { numRuns: 400 },
    );
  });

  it('property: scaling keys and quantities by a power of ten keeps every level exact', () => {
    fc.assert(
      fc.property(ops, fc.constantFrom(10n, 1000n, 10n ** 9n), (list, factor) => {
        const ladder = new BookLadder(64);
        apply(ladder, list);
        ladder.scaleKeys(factor);
        ladder.scaleQuantities(factor);
        const scaled = new Map([...model(list)].map(([key, quantity]) => [key * factor, quantity * factor]));
        expectSame(ladder, scaled);
      }),
      { numRuns: 200 },
    );
  });

  it('finds the next best level when the best is removed, inside and outside the window', () => {
    const ladder = new BookLadder(64);
    ladder.set(100, 1);
    ladder.set(90, 2);
    ladder.set(-1000, 3);
    ladder.rebalance();
    expect([ladder.bestKey(), ladder.bestQuantity()]).toEqual([100, 1]);
    ladder.set(100, 0);
    expect([ladder.bestKey(), ladder.bestQuantity()]).toEqual([90, 2]);
    ladder.set(90, 0);
    expect([ladder.bestKey(), ladder.bestQuantity(), ladder.size]).toEqual([-1000, 3, 1]);
    ladder.set(5000, 4);
    expect(ladder.bestKey()).toBe(5000);
    ladder.rebalance();
    expect([...ladder.levelsFromBest()]).toEqual([[5000n, 4n], [-1000n, 3n]]);
    ladder.clear();
    expect([ladder.size, ladder.bestKey()]).toEqual([0, Number.NaN]);
  });

  it('fits its window to a sparse book, within its bounds, and doubles it when writes keep missing it', () => {
    const ladder = new BookLadder(64, 4096);
    for (let i = 0; i < 40; i++) ladder.set(100_000 - i * 50, i + 1);
    ladder.fit();
    // 90% of 40 levels reach 35 x 50 = 1,750 keys under the best: 3/4 of 4,096 holds them.
    expect(ladder.windowSpan).toBe(4096);
    const small = new BookLadder(64, 1024);
    for (let i = 0; i < 40; i++) small.set(100_000 - i * 50, i + 1);
    small.fit();
    expect(small.windowSpan).toBe(1024);
    // Writes 2,000 keys under the best miss a 1,024 window; the maximum stops the growth.
    for (let i = 0; i < 5000; i++) {
      small.set(98_000 - (i % 7), i % 3);
      if (i % 10 === 0) small.rebalance();
    }
    expect(small.windowSpan).toBe(1024);
    const growing = new BookLadder(64, 1 << 14);
    growing.set(100_000, 1);
    growing.rebalance();
    // The first look at the traffic (2,048 writes, most of them missing the window) resizes it at
    // once to hold the levels: 3/4 of 4,096 reaches 2,006 keys under the best.
    for (let i = 0; i < 2100; i++) {
      growing.set(98_000 - (i % 7), (i % 3) + 1);
      if (i % 10 === 0) growing.rebalance();
    }
    expect(growing.windowSpan).toBe(4096);
    for (let i = 0; i < 20_000; i++) {
      growing.set(98_000 - (i % 7), (i % 3) + 1);
      if (i % 10 === 0) growing.rebalance();
    }
    expect(growing.windowSpan).toBe(4096);
    expect([...growing.levelsFromBest()].length).toBe(8);
  });

  it('keeps the window that traffic grew through a refit, as after a resync snapshot', () => {
    const ladder = new BookLadder(64, 1 << 14);
    ladder.set(100_000, 1);
    ladder.rebalance();
    for (let i = 0; i < 2100; i++) {
      ladder.set(98_000 - (i % 7), (i % 3) + 1);
      if (i % 10 === 0) ladder.rebalance();
    }
    expect(ladder.windowSpan).toBe(4096);
    // The resync snapshot: one level, which alone fits the smallest window.
    ladder.clear();
    ladder.set(100_000, 5);
    ladder.fit();
    ladder.rebalance();
    expect(ladder.windowSpan).toBe(4096);
    ladder.set(98_000, 2);
    expect([...ladder.levelsFromBest()]).toEqual([[100_000n, 5n], [98_000n, 2n]]);
    expect(ladder.outside.count).toBe(0);
  });
});
