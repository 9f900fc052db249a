import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedLevels } from '../../../framework/exchange/book/sorted-levels.js';

function contents(levels: SortedLevels): [number, number][] {
  return Array.from({ length: levels.count }, (_, i) => [levels.keys[i] as number, levels.quantities[i] as number]);
}

describe('SortedLevels', () => {
  it('property: sets, runs and range removals keep the levels of a map, ascending', () => {
    const op = fc.oneof(
      { weight: 8, arbitrary: fc.tuple(fc.constant('set' as const), fc.integer({ min: -300, max: 300 }), fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9 }))) },
      { weight: 1, arbitrary: fc.tuple(fc.constant('run' as const), fc.integer({ min: -400, max: 400 }), fc.integer({ min: 0, max: 40 })) },
      { weight: 1, arbitrary: fc.tuple(fc.constant('cut' as const), fc.integer({ min: -300, max: 300 }), fc.integer({ min: 0, max: 100 })) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (list) => {
        const levels = new SortedLevels();
        const model = new Map<number, number>();
        for (const [kind, a, b] of list) {
          if (kind === 'set') {
            const previous = levels.set(a, b);
            expect(previous).toBe(model.get(a) ?? 0);
            if (b === 0) model.delete(a);
            else model.set(a, b);
          } else if (kind === 'run') {
            // A run goes where no key lies: use the free keys right after `a`.
            const keys: number[] = [];
            for (let k = a; keys.length < b && k < a + b; k++) if (!model.has(k)) keys.push(k);
            const between = [...model.keys()].some((k) => keys.length > 0 && k > (keys[0] as number) && k < (keys.at(-1) as number));
            if (between) continue;
            levels.insertRun(Float64Array.from(keys), Float64Array.from(keys, (k) => Math.abs(k) + 1));
            for (const k of keys) model.set(k, Math.abs(k) + 1);
          } else {
            const from = levels.lowerBound(a);
            const to = levels.lowerBound(a + b);
            levels.removeRange(from, to);
            for (const k of [...model.keys()]) if (k >= a && k < a + b) model.delete(k);
          }
        }
        const expected = [...model].sort((x, y) => x[0] - y[0]);
        expect(contents(levels)).toEqual(expected);
        expect(levels.highestKey()).toBe(expected.at(-1)?.[0] ?? Number.NEGATIVE_INFINITY);
        for (const [key, quantity] of expected) expect(levels.quantityAt(key)).toBe(quantity);
        expect(levels.quantityAt(1000)).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
});
