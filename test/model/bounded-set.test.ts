import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedSet } from '../../framework/model/bounded-set.js';

describe('BoundedSet', () => {
  it('remembers exactly the last `capacity` distinct values added, and says which one it forgot', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 300 }), (capacity, values) => {
      const set = new BoundedSet<number>(capacity);
      const model: number[] = [];
      for (const v of values) {
        const forgotten = set.add(v);
        let expected: number | undefined;
        if (!model.includes(v)) {
          model.push(v);
          if (model.length > capacity) expected = model.shift();
        }
        expect(forgotten).toBe(expected);
      }
      expect(set.size).toBe(model.length);
      for (let v = 0; v <= 50; v++) expect(set.has(v)).toBe(model.includes(v));
    }));
  });

  it('refuses a capacity below 1', () => {
    expect(() => new BoundedSet(0)).toThrow(/capacity/);
  });
});
