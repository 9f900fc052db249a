import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberList, objectList } from '../../framework/model/object-list.js';

describe('objectList', () => {
  it('is empty and a new array on every call', () => {
    const a = objectList<{ n: number }>();
    const b = objectList<{ n: number }>();
    expect(a).toEqual([]);
    expect(a).not.toBe(b);
    a.push({ n: 1 });
    expect(b).toHaveLength(0);
  });

  it('keeps whatever is pushed, in order', () => {
    fc.assert(fc.property(fc.array(fc.anything()), (values) => {
      const list = objectList<unknown>();
      for (const v of values) list.push(v);
      expect(list).toEqual(values);
    }));
  });
});

describe('numberList', () => {
  it('is empty and a new array on every call', () => {
    const a = numberList();
    expect(a).toEqual([]);
    expect(a).not.toBe(numberList());
  });

  it('keeps integers, fractions, NaN and infinities exactly', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.integer(), fc.double(), fc.constant(Number.MAX_SAFE_INTEGER))), (values) => {
      const list = numberList();
      for (const v of values) list.splice(list.length, 0, v);
      expect(list).toEqual(values);
      list.forEach((v, i) => expect(Object.is(v, values[i])).toBe(true));
    }));
  });
});
