import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LevelBitmap } from '../../../framework/exchange/book/level-bitmap.js';

describe('LevelBitmap', () => {
  it('property: flips, toggles, assignments, membership and the highest set slot at or below any slot agree with a set of slots', () => {
    // Sizes below one word, one summary word, and many summary words; slots clustered and spread.
    const sizes = fc.constantFrom(16, 100, 1024, 5000, 1 << 16);
    // A flip, a toggle (1 turns the bit over, 0 leaves it), or an assignment to present or absent.
    const change = fc.constantFrom('flip' as const, 'toggle 1' as const, 'toggle 0' as const, true, false);
    const pick = fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), change);
    fc.assert(
      fc.property(sizes, fc.array(pick, { maxLength: 200 }), (size, picks) => {
        const bitmap = new LevelBitmap(size);
        const slots = new Set<number>();
        for (const [where, clustered, how] of picks) {
          const slot = clustered ? Math.min(size - 1, Math.floor(where * 40)) : Math.min(size - 1, Math.floor(where * size));
          const had = slots.has(slot);
          let present: boolean;
          if (how === 'flip') {
            bitmap.flip(slot);
            present = !had;
          } else if (how === 'toggle 1' || how === 'toggle 0') {
            bitmap.toggle(slot, how === 'toggle 1' ? 1 : 0);
            present = how === 'toggle 1' ? !had : had;
          } else {
            // The change in set slots: +1 for a new bit, -1 for a cleared one, 0 when it already was so.
            expect(bitmap.assign(slot, how)).toBe(Number(how) - Number(had));
            present = how;
          }
          if (present) slots.add(slot);
          else slots.delete(slot);
        }
        const sorted = [...slots].sort((a, b) => a - b);
        expect(bitmap.count()).toBe(sorted.length);
        // Walking down from the top visits exactly the set slots, highest first.
        const walked: number[] = [];
        for (let i = bitmap.highestAtOrBelow(size - 1); i >= 0; i = bitmap.highestAtOrBelow(i - 1)) walked.push(i);
        expect(walked).toEqual([...sorted].reverse());
        for (let probe = 0; probe < size; probe += Math.max(1, Math.floor(size / 97))) {
          const expected = sorted.filter((s) => s <= probe).at(-1) ?? -1;
          expect(bitmap.highestAtOrBelow(probe)).toBe(expected);
          expect(bitmap.has(probe)).toBe(slots.has(probe));
        }
        expect(bitmap.highestAtOrBelow(-1)).toBe(-1);
        bitmap.clear();
        expect([bitmap.count(), bitmap.highestAtOrBelow(size - 1)]).toEqual([0, -1]);
      }),
      { numRuns: 300 },
    );
  });
});
